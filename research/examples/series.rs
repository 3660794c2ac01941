//! Draws series given on the command line, for figures of a few points
//! that no run writes (a network's lineage, measured by hand):
//! `cargo run -p hatetris-research --example series -- OUT.png TITLE NAME=X:Y,X:Y,... [NAME=...]`

use hatetris_plot::plot_losses;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: series OUT.png TITLE NAME=X:Y,X:Y,... [NAME=...]".into());
    }
    let mut series = Vec::new();
    for spec in &args[2..] {
        let (name, points) = spec.split_once('=').ok_or_else(|| format!("'{spec}': expected NAME=X:Y,..."))?;
        let pts = points
            .split(',')
            .map(|p| {
                let (x, y) = p.split_once(':').ok_or_else(|| format!("'{p}': expected X:Y"))?;
                Ok((x.parse::<f64>()?, y.parse::<f64>()?))
            })
            .collect::<Result<Vec<_>, Box<dyn std::error::Error>>>()?;
        series.push((name, pts));
    }
    plot_losses(Path::new(&args[0]), &args[1], &series)?;
    Ok(())
}
