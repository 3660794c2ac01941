//! `hatetris label`: a data set whose targets are the mean value of several
//! evaluators (distillation; train a network on it with `hatetris train`).

use anyhow::{bail, Result};
use clap::Args;
use hatetris_eval::{EvalSpec, Evaluator};
use hatetris_learn::dataset::{read_dataset, write_dataset};
use hatetris_learn::distill::label_with_mean;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct LabelArgs {
    /// An evaluator whose values are averaged (`net`, `net=PATH` or
    /// `baseline`, as searches name them). Repeat for each; at least one.
    #[arg(long, required = true, num_args = 1..)]
    pub teacher: Vec<String>,
    /// Data sets (.htds) whose wells are labelled (their targets are
    /// ignored; a well met again is dropped).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The data set to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (default: all cores; the result is the same).
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn label(args: &LabelArgs) -> Result<()> {
    crate::commands::set_threads(args.threads)?;
    let specs = args.teacher.iter().map(|t| t.parse::<EvalSpec>()).collect::<Result<Vec<_>, _>>()?;
    let nets = specs.iter().flat_map(|s| s.files()).map(|p| ("teacher", p));
    crate::checks::not_an_input("out", &args.out, args.data.iter().map(|p| ("data", p.as_path())).chain(nets))?;
    crate::checks::output("out", &args.out)?;
    let mut teachers: Vec<Box<dyn Evaluator>> = Vec::new();
    let mut names = Vec::new();
    for spec in &specs {
        let (eval, identity) = spec.load()?;
        teachers.push(eval);
        names.push(identity);
    }
    let mut samples = Vec::new();
    for path in &args.data {
        samples.extend(read_dataset(path)?);
    }
    if samples.is_empty() {
        bail!("the data sets hold no wells");
    }
    let refs: Vec<&dyn Evaluator> = teachers.iter().map(|t| t.as_ref()).collect();
    let (labelled, repeats) = label_with_mean(&samples, &refs);
    write_dataset(&args.out, &format!("mean of {}", names.join(", ")), &labelled)?;
    println!(
        "{}",
        serde_json::json!({
            "wells": labelled.len(),
            "repeats_dropped": repeats,
            "teachers": names,
            "out": args.out.display().to_string(),
        })
    );
    Ok(())
}
