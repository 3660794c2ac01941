//! `hatetris sample`: a cycle's search step on its own. One game from the
//! empty well whose beams are sampled into a data set: the wells `label`
//! distils teachers on, made from a network file alone.

use crate::commands::cycle::OpeningArgs;
use crate::commands::progress::DepthProgress;
use anyhow::{bail, Result};
use clap::Args;
use hatetris_dist::spread::ClusterSpread;
use hatetris_eval::{EvalSpec, Evaluator};
use hatetris_learn::cycle::spread::Alone;
use hatetris_learn::cycle::{sample_game, CycleConfig};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct SampleArgs {
    /// The evaluator that searches (`net`, `net=PATH`, `baseline`,
    /// `mean=A,B,...`, as `search` names them).
    #[arg(long, default_value = "net")]
    pub eval: String,
    /// Beam width of the search.
    #[arg(long, default_value_t = 100_000)]
    pub width: usize,
    /// Beam entries sampled at every depth (all of them if the beam is
    /// smaller).
    #[arg(long, default_value_t = 2048)]
    pub samples: usize,
    /// Seed of the search's tie-breaks and of the sampling.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub chains: crate::commands::ChainArgs,
    /// Games opened with noise besides the one from the empty well, each
    /// sampled as it is: wells off the network's own line.
    #[command(flatten)]
    pub opening: OpeningArgs,
    /// The data set (.htds) to write; its targets are not values.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub run: crate::commands::RunArgs,
    /// Spread the search over processes (each sees every depth's whole
    /// beam and draws the same samples; only process 0 writes --out).
    #[command(flatten)]
    pub dist: crate::commands::dist::DistArgs,
}

pub fn sample(args: &SampleArgs) -> Result<()> {
    if args.width == 0 || args.samples == 0 {
        bail!("--width and --samples must be at least 1");
    }
    args.opening.check()?;
    crate::checks::width("width", args.width)?;
    crate::checks::width("opening-width", args.opening.opening_width)?;
    crate::checks::count("samples", args.samples, crate::checks::max_width())?;
    crate::checks::count("openings", args.opening.openings, crate::commands::cycle::MAX_OPENINGS)?;
    crate::checks::count("opening-samples", args.opening.opening_samples, crate::checks::max_width())?;
    let spec: EvalSpec = args.eval.parse()?;
    crate::checks::not_an_input("out", &args.out, spec.files().into_iter().map(|p| ("eval", p)))?;
    crate::checks::output("out", &args.out)?;
    let chains = args.chains.chains()?;
    args.run.start_pool()?;
    let (eval, identity) = spec.load()?;
    let mut progress = DepthProgress::new(args.run.quiet, "sample");
    let mut last = hatetris_search::DepthReport::default();
    let config = args.opening.apply(CycleConfig {
        width: args.width,
        samples_per_depth: args.samples,
        quiescence: chains.depth,
        chain_rule: chains.rule,
        chain_band: chains.band,
        chain_blend: chains.blend,
        chain_follow: chains.follow,
        seed: args.seed,
        ..CycleConfig::default()
    });
    let eval: Arc<dyn Evaluator> = eval.into();
    let mut on_depth = |r: &hatetris_search::DepthReport| {
        progress.update(r);
        last = r.clone();
    };
    let record = if args.dist.spread() {
        let (cluster, copies) = args.dist.cluster()?;
        let process = cluster.process;
        // Every process draws the same samples; all but process 0 write
        // theirs where they are thrown away.
        let scratch = tempfile::tempdir()?;
        let out = if process == 0 { args.out.clone() } else { scratch.path().join("samples.htds") };
        let record = sample_game(&mut ClusterSpread::new(cluster), &eval, &identity, &config, &out, &mut on_depth)?;
        if let Some(copies) = copies {
            copies.wait()?;
        }
        if process > 0 {
            return Ok(());
        }
        record
    } else {
        sample_game(&mut Alone, &eval, &identity, &config, &args.out, &mut on_depth)?
    };
    progress.finish(&last);
    println!(
        "{}",
        serde_json::json!({
            "eval": identity,
            "width": args.width,
            "seed": args.seed,
            "lines": record.lines,
            "pieces": record.pieces,
            "opening_lines": record.opening_lines,
            "wells": record.wells_sampled,
            "secs": record.search_secs,
            "frozen_per_100": record.frozen_per_100,
            "replay": record.replay,
            "out": args.out.display().to_string(),
        })
    );
    Ok(())
}
