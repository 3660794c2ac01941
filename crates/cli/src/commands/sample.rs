//! `hatetris sample`: a cycle's search step on its own. One game from the
//! empty well whose beams are sampled into a data set: the wells `label`
//! distils teachers on, made from a network file alone.

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
    crate::checks::count("openings", args.opening.openings, MAX_OPENINGS)?;
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

/// Caps on counts whose every unit is a whole search.
pub const MAX_OPENINGS: usize = 10_000;

/// The search step's games opened with noise, as `sample` takes
/// them (`CycleConfig::openings`).
#[derive(Args, Debug, Clone)]
pub struct OpeningArgs {
    /// Exploratory games of each search step besides the one from the empty
    /// well: each opens with --opening-pieces pieces of a search whose
    /// values carry seeded noise, then is searched on to its end (0: none).
    #[arg(long, default_value_t = 0)]
    pub openings: usize,
    /// Pieces of each opened game's noisy opening.
    #[arg(long, default_value_t = 20)]
    pub opening_pieces: usize,
    /// Noise added to the network's value in the openings (values lie in
    /// [-1, 1]).
    #[arg(long, default_value_t = 0.3)]
    pub opening_noise: f32,
    /// Beam width of the openings' searches (0: --width).
    #[arg(long, default_value_t = 0)]
    pub opening_width: usize,
    /// Wells sampled a depth in each opening's search (0: --samples).
    #[arg(long, default_value_t = 0)]
    pub opening_samples: usize,
}

impl OpeningArgs {
    pub fn check(&self) -> Result<()> {
        if self.openings > 0
            && (self.opening_pieces == 0 || !(self.opening_noise >= 0.0 && self.opening_noise.is_finite()))
        {
            bail!("--openings needs --opening-pieces of at least 1 and an --opening-noise of 0 or more");
        }
        Ok(())
    }

    /// `config` with these openings.
    pub fn apply(&self, config: CycleConfig) -> CycleConfig {
        CycleConfig {
            openings: self.openings,
            opening_pieces: self.opening_pieces,
            opening_noise: self.opening_noise,
            opening_width: self.opening_width,
            opening_samples: self.opening_samples,
            ..config
        }
    }
}
