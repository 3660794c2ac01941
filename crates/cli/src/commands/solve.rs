//! `hatetris solve`: small wells solved exactly (see `hatetris_learn::solver`
//! for what "exactly" means with cycles), with an optional data set of
//! (well, target) pairs for the first network.
//!
//! The bootstrap data sets use one `--target-max` for every height, the
//! maximum of the tallest height solved (knewjade used 12, height 7's; here
//! 8, height 6's), so that a well's target means the same number of lines
//! whatever its height.

use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_game::{Enemy, Rules};
use hatetris_learn::solver::{self, Progress};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Heights the command accepts; larger ones do not finish in sane time.
const MAX_CLI_HEIGHT: usize = 8;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Playable rows below the bar: one height (`7`), a range (`4..7`,
    /// inclusive) or a list (`4,6`), 1..=8.
    #[arg(long)]
    pub height: String,
    /// `mild` solves every reachable well; `hatetris` (with memory) only the
    /// empty well's game, and only at the tiniest heights.
    #[arg(long, default_value = "mild")]
    pub enemy: Enemy,
    /// Print one JSON object per height instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the data set here (`{h}` in the name is replaced by the height;
    /// required when several heights are solved).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Lines that count as a target of 1 (default: the height's own maximum
    /// from the empty well; the bootstrap uses 8, the height-6 maximum, for every height).
    #[arg(long)]
    pub target_max: Option<u32>,
    /// Give up past this many reachable wells (about 200 bytes each; height
    /// 6 has 21 million, height 7 far more).
    #[arg(long, default_value_t = 40_000_000)]
    pub max_wells: usize,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

/// Parses `7`, `4..7` or `4,6` into heights, each within 1..=MAX_CLI_HEIGHT.
fn parse_heights(spec: &str) -> Result<Vec<usize>> {
    let num = |s: &str| -> Result<usize> {
        let h: usize = s.trim().parse().with_context(|| format!("--height: '{s}' is not a number"))?;
        if !(1..=MAX_CLI_HEIGHT).contains(&h) {
            bail!("--height {h} is out of range (1..={MAX_CLI_HEIGHT})");
        }
        Ok(h)
    };
    let heights = if let Some((a, b)) = spec.split_once("..") {
        let (a, b) = (num(a)?, num(b.trim_start_matches('='))?);
        if a > b {
            bail!("--height {spec}: empty range");
        }
        (a..=b).collect()
    } else {
        spec.split(',').map(num).collect::<Result<Vec<_>>>()?
    };
    Ok(heights)
}

fn out_path(out: &Path, height: usize, several: bool) -> Result<PathBuf> {
    let s = out.to_string_lossy();
    if s.contains("{h}") {
        Ok(PathBuf::from(s.replace("{h}", &height.to_string())))
    } else if several {
        bail!("--out needs {{h}} in its name when several heights are solved")
    } else {
        Ok(out.to_path_buf())
    }
}

pub fn solve(args: &SolveArgs) -> Result<()> {
    let heights = parse_heights(&args.height)?;
    let several = heights.len() > 1;
    if let Some(out) = &args.out {
        if args.enemy != Enemy::Mild {
            bail!("--out needs --enemy mild: with memory a well alone has no value");
        }
        out_path(out, heights[0], several)?;
    }
    if args.target_max == Some(0) {
        bail!("--target-max must be at least 1");
    }
    for h in heights {
        let rules = Rules::with_height(h).expect("height checked");
        let t0 = Instant::now();
        match args.enemy {
            Enemy::Mild => solve_mild(args, rules, several, t0)?,
            Enemy::Hatetris => {
                let max = solver::solve_with_memory(rules).with_context(|| format!("height {h}"))?;
                let secs = t0.elapsed().as_secs_f64();
                if args.json {
                    println!("{}", json!({"height": h, "enemy": "hatetris", "max_lines": max, "secs": secs}));
                } else {
                    println!("height {h} enemy hatetris: max {max} lines from the empty well ({secs:.2}s)");
                }
            }
        }
    }
    Ok(())
}

fn solve_mild(args: &SolveArgs, rules: Rules, several: bool, t0: Instant) -> Result<()> {
    let h = rules.height();
    let mut last = Instant::now();
    let quiet = args.quiet;
    let mut progress = |p: &Progress| {
        if !quiet && last.elapsed() >= Duration::from_secs(5) {
            eprintln!("solve height {h}: {} {} wells {} landings {:.0}s", p.stage, p.wells, p.edges, p.secs);
            last = Instant::now();
        }
    };
    let sol = solver::solve(rules, args.max_wells, &mut progress).with_context(|| format!("height {h}"))?;
    let secs = t0.elapsed().as_secs_f64();
    let max = sol.max_lines();
    let c = sol.cycles;
    if args.json {
        println!(
            "{}",
            json!({"height": h, "enemy": "mild", "max_lines": max, "wells": sol.well_count(), "landings": sol.edge_count(),
                   "secs": secs, "cycles": c})
        );
    } else {
        println!(
            "height {h} enemy mild: max {max} lines from the empty well, {} wells, {} landings, {secs:.2}s; \
             {} cyclic components holding {} wells (largest {}), {} simple-path steps",
            sol.well_count(),
            sol.edge_count(),
            c.cyclic_components,
            c.wells_on_cycles,
            c.largest_component,
            c.path_steps
        );
    }
    if let Some(out) = &args.out {
        let path = out_path(out, h, several)?;
        let target_max = match args.target_max {
            Some(m) => m,
            None if max == 0 => bail!("height {h}: no lines can be cleared, pass --target-max to write a data set"),
            None => max,
        };
        let description = format!("hatetris solve --height {h} --enemy mild --target-max {target_max}: exact longest-simple-path lines");
        let n = sol.write_dataset(&path, &description, target_max).with_context(|| format!("cannot write {}", path.display()))?;
        if !quiet {
            eprintln!("wrote {n} samples to {}", path.display());
        }
    }
    Ok(())
}
