//! `hatetris refine`: a learning cycle's refine step on its own, on one
//! process or spread over many (`hatetris-dist`), writing the data set the
//! cycle's own step writes, byte for byte. Written to the cycle's own
//! `refined.htds`, it is the cycle's step: the run, resumed, goes on to
//! learn from it.

use anyhow::{bail, Context, Result};
use clap::Args;
use hatetris_learn::cycle::{targets_from_pairs, RefineStep};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct RefineArgs {
    /// The run directory (`cycle --dir`): its config.json, the cycle's
    /// sampled wells and the network the cycle searched with are read.
    #[arg(long)]
    pub run: PathBuf,
    /// The cycle whose sampled wells are refined (its search step done).
    #[arg(long)]
    pub cycle: usize,
    /// The data set to write (process 0 writes it), outside RUN. The
    /// cycle's own RUN/cycle-NNN/refined.htds is written as the cycle's
    /// refine step (its refine.json too), unless that step is already done.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub pool: crate::commands::RunArgs,
    #[command(flatten)]
    pub dist: crate::commands::dist::DistArgs,
}

pub fn refine(args: &RefineArgs) -> Result<()> {
    let started = Instant::now();
    if args.cycle == 0 {
        bail!("--cycle must be at least 1 (cycles count from 1)");
    }
    let step = RefineStep::open(&args.run, args.cycle)?;
    let config_path = args.run.join("config.json");
    // Only process 0 writes, so only it checks where.
    let writes = args.dist.local.is_some() || args.dist.process == 0;
    let own = hatetris_fileio::same_file(&args.out, &step.refined);
    if writes {
        let inputs = [("run", step.samples.as_path()), ("run", step.network.as_path()), ("run", config_path.as_path())];
        crate::checks::not_an_input("out", &args.out, inputs)?;
        // The run's folder is the cycle's: any file in it may be read by a
        // step to come. Only the cycle's own refined.htds is written there.
        if !own {
            crate::checks::not_inside("out", &args.out, "run", &args.run)?;
        }
        if own && step.done() {
            bail!(
                "--out {}: cycle {}'s refine step is already done (its refined.htds and refine.json exist); \
                 write elsewhere, nothing was done",
                args.out.display(),
                args.cycle
            );
        }
        crate::checks::output("out", &args.out)?;
    }
    args.pool.start_pool()?;
    // The network named by its weights, not its path: machines may hold
    // the run in other folders.
    let (eval, identity) =
        step.evaluator().with_context(|| format!("cannot load network {}", step.network.display()))?;
    let (cluster, copies) = args.dist.cluster()?;
    let quiet = args.pool.quiet || cluster.process > 0;
    let mut last_log = Instant::now();
    let mut progress = |done: usize, share: usize| {
        if !quiet && (done == share || last_log.elapsed().as_secs() >= 10) {
            eprintln!("refine: {done}/{share} wells of this process's share");
            last_log = Instant::now();
        }
    };
    let pairs = hatetris_dist::refine::refine_pairs(
        &cluster,
        &step.wells,
        step.families.as_deref(),
        step.rules,
        &step.config,
        eval,
        &identity,
        step.seed,
        &mut progress,
    )?;
    let targets = targets_from_pairs(pairs, step.families.as_deref(), &step.config);
    if let Some(copies) = copies {
        copies.wait()?;
    }
    if cluster.process > 0 {
        return Ok(());
    }
    step.write(&args.out, &targets)?;
    let seconds = started.elapsed().as_secs_f64();
    if own {
        step.record(seconds)?;
    }
    println!(
        "{}",
        json!({
            "wells": step.wells.len(),
            "seconds": seconds,
            "processes": cluster.processes(),
            "out": args.out.display().to_string(),
            "cycle_step_done": own,
        })
    );
    Ok(())
}
