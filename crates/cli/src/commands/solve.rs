//! `hatetris solve`: small wells solved exactly, with an optional data set of
//! (well, target) pairs for the first network.
//!
//! Against Mild, heights 1..=7 use the lean solver (`hatetris_solve::lean`:
//! a value-only memo, about 12 bytes a well, an error on a cycle); `--graph`
//! (and height 8) uses the explicit-graph solver (`hatetris_solve::solver`,
//! about 180 bytes a well, which also values cycles by their best simple
//! path and reports them). Both print the same JSON fields. `--sample N`
//! writes a seeded random N of the wells instead of all of them (height 7
//! has far too many to write whole).
//!
//! The bootstrap data sets use one `--target-max` for every height, the
//! maximum of the tallest height solved (12, height 7's, as knewjade used),
//! so that a well's target means the same number of lines whatever its
//! height.

use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_game::{Enemy, Rules};
use hatetris_learn::dataset::{subsample, write_dataset, Sample};
use hatetris_learn::solved::{LeanSolutionDataset, SolutionDataset};
use hatetris_solve::lean::{self, LeanOptions, LeanProgress};
use hatetris_solve::solver::{self, CycleStats, Progress};
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
    /// from the empty well; the bootstrap uses 12, the height-7 maximum, for every height).
    #[arg(long)]
    pub target_max: Option<u32>,
    /// Use the explicit-graph solver (values cycles by their best simple
    /// path and reports them; about 180 bytes a well, so height 6 at most)
    /// instead of the lean one. Height 8 always uses it.
    #[arg(long)]
    pub graph: bool,
    /// Graph solver: give up past this many reachable wells (about 200 bytes
    /// each; height 6 has 21 million, height 7 far more).
    #[arg(long, default_value_t = 40_000_000)]
    pub max_wells: usize,
    /// Lean solver: stop with an error before its table passes this many GiB.
    #[arg(long, default_value_t = 16.0)]
    pub max_memory: f64,
    /// Lean solver: workers searching its one table (default: every core;
    /// the result does not depend on it).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write a seeded random sample of this many wells instead of every one.
    #[arg(long)]
    pub sample: Option<u64>,
    /// Seed of `--sample`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
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
        // A long solve should not end in a directory that is not there.
        let path = out_path(out, heights[0], several)?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !dir.is_dir() {
            bail!("--out: directory {} does not exist", dir.display());
        }
        crate::checks::output("out", &path)?;
    }
    crate::checks::threads(args.threads)?;
    if args.sample.is_some() && args.out.is_none() {
        bail!("--sample needs --out");
    }
    if args.max_memory.is_nan() || args.max_memory <= 0.0 {
        bail!("--max-memory must be positive");
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

/// What both solvers report.
struct Solved {
    max: u32,
    wells: u64,
    landings: u64,
    cycles: CycleStats,
    solver: &'static str,
    /// Lean only: bytes of its table, threads, expansions done twice.
    table_bytes: Option<u64>,
    threads: usize,
    helped: u64,
}

fn solve_mild(args: &SolveArgs, rules: Rules, several: bool, t0: Instant) -> Result<()> {
    if args.graph || rules.height() > lean::LEAN_MAX_HEIGHT {
        solve_mild_graph(args, rules, several, t0)
    } else {
        solve_mild_lean(args, rules, several, t0)
    }
}

fn solve_mild_lean(args: &SolveArgs, rules: Rules, several: bool, t0: Instant) -> Result<()> {
    let h = rules.height();
    let quiet = args.quiet;
    let mut last = (0.0f64, 0u64);
    let mut progress = |p: &LeanProgress| {
        if !quiet && p.secs - last.0 >= 5.0 {
            let rate = (p.done - last.1) as f64 / (p.secs - last.0);
            eprintln!(
                "solve height {h}: {} wells solved, {} in the table, {:.0} solved/s, table {:.2} GiB ({:.1} B/well), depth {}, {} help expansions, {:.0}s",
                p.done,
                p.wells,
                rate,
                p.bytes as f64 / (1u64 << 30) as f64,
                p.bytes as f64 / p.wells.max(1) as f64,
                p.depth,
                p.helped,
                p.secs
            );
            last = (p.secs, p.done);
        }
    };
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let opts = LeanOptions { max_bytes: (args.max_memory * (1u64 << 30) as f64) as u64, threads };
    let sol = lean::solve_lean(rules, opts, &mut progress).with_context(|| format!("height {h}"))?;
    // Without cycles every strongly connected component is one well.
    let cycles = CycleStats { largest_component: 1, ..CycleStats::default() };
    let solved = Solved {
        max: sol.max_lines(),
        wells: sol.well_count(),
        landings: sol.edge_count(),
        cycles,
        solver: "lean",
        table_bytes: Some(sol.table_bytes()),
        threads,
        helped: sol.helped(),
    };
    report(args, h, &solved, t0);
    if let Some(out) = &args.out {
        let (path, target_max) = data_set_target(args, out, h, several, solved.max)?;
        let description = format!(
            "hatetris solve --height {h} --enemy mild --target-max {target_max}{}: exact lines (lean solver)",
            args.sample.map(|n| format!(" --sample {n} --seed {}", args.seed)).unwrap_or_default()
        );
        let n = sol
            .write_dataset(&path, &description, target_max, args.sample.map(|n| (n, args.seed)))
            .with_context(|| format!("cannot write {}", path.display()))?;
        if !quiet {
            eprintln!("wrote {n} samples to {}", path.display());
        }
    }
    Ok(())
}

fn report(args: &SolveArgs, h: usize, s: &Solved, t0: Instant) {
    let secs = t0.elapsed().as_secs_f64();
    let c = s.cycles;
    if args.json {
        let mut j = json!({"height": h, "enemy": "mild", "max_lines": s.max, "wells": s.wells, "landings": s.landings,
                           "secs": secs, "cycles": c, "solver": s.solver});
        if let Some(b) = s.table_bytes {
            j["table_bytes"] = json!(b);
            j["threads"] = json!(s.threads);
            j["help_expansions"] = json!(s.helped);
        }
        println!("{j}");
    } else {
        println!(
            "height {h} enemy mild: max {} lines from the empty well, {} wells, {} landings, {secs:.2}s ({} solver); \
             {} cyclic components holding {} wells (largest {}), {} simple-path steps",
            s.max,
            s.wells,
            s.landings,
            s.solver,
            c.cyclic_components,
            c.wells_on_cycles,
            c.largest_component,
            c.path_steps
        );
    }
}

/// The data set's path and target maximum.
fn data_set_target(args: &SolveArgs, out: &Path, h: usize, several: bool, max: u32) -> Result<(PathBuf, u32)> {
    let path = out_path(out, h, several)?;
    let target_max = match args.target_max {
        Some(m) => m,
        None if max == 0 => bail!("height {h}: no lines can be cleared, pass --target-max to write a data set"),
        None => max,
    };
    Ok((path, target_max))
}

fn solve_mild_graph(args: &SolveArgs, rules: Rules, several: bool, t0: Instant) -> Result<()> {
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
    let solved = Solved {
        max: sol.max_lines(),
        wells: sol.well_count() as u64,
        landings: sol.edge_count() as u64,
        cycles: sol.cycles,
        solver: "graph",
        table_bytes: None,
        threads: 0,
        helped: 0,
    };
    report(args, h, &solved, t0);
    if let Some(out) = &args.out {
        let (path, target_max) = data_set_target(args, out, h, several, solved.max)?;
        let description = format!(
            "hatetris solve --height {h} --enemy mild --target-max {target_max}: exact longest-simple-path lines"
        );
        let n = match args.sample {
            None => sol.write_dataset(&path, &description, target_max),
            Some(n) => {
                let all: Vec<_> =
                    sol.iter().map(|(w, l)| Sample::new(w.playable(rules), solver::target(l, target_max))).collect();
                let picked = subsample(all, n as usize, args.seed);
                write_dataset(&path, &format!("{description} (--sample {n} --seed {})", args.seed), &picked)
                    .map(|_| picked.len() as u64)
            }
        }
        .with_context(|| format!("cannot write {}", path.display()))?;
        if !quiet {
            eprintln!("wrote {n} samples to {}", path.display());
        }
    }
    Ok(())
}
