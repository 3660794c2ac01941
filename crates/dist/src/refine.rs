//! A learning cycle's refine step over many processes, on timely dataflow.
//!
//! The sampled wells are shared out in contiguous blocks, one a process
//! (`hatetris_learn::cycle::blocks`: of about equal size, each ending where
//! a family does, so that a family's one lookahead beam is never cut).
//! Each process finds its block's (value, lookahead) pairs with rayon, as
//! one process finds them (the refine seed is the same for every well, so
//! a well's pair depends on nothing but the well and its family); one
//! all-gather gives every process all the pairs in the wells' order, and
//! the targets are made from all of them at once (`lookahead` and `joint`
//! targets are scaled over all the wells). So the targets, and the data set
//! written from them, are those of one process, byte for byte.

use crate::net::Cluster;
use crate::run::{execute, Exchanger};
use anyhow::{bail, Result};
use hatetris_eval::Evaluator;
use hatetris_game::{Rules, Well};
use hatetris_learn::cycle::{blocks, lookahead_pairs, RefineConfig, TargetKind};
use std::ops::Range;
use std::sync::Arc;

/// A fingerprint of what every process must agree on before they
/// connect: the settings, the evaluator's identity, the number of
/// processes, and the wells and their families themselves (their number
/// and a hash of them), so that processes given other inputs refuse each
/// other.
pub fn fingerprint(
    wells: &[Well],
    families: Option<&[u32]>,
    rules: Rules,
    config: &RefineConfig,
    eval_name: &str,
    seed: u64,
    processes: usize,
) -> u64 {
    use std::hash::Hash;
    crate::run::stable_hash(|h| {
        "refine".hash(h);
        format!("{config:?} {rules:?}").hash(h);
        (seed, processes, wells.len()).hash(h);
        eval_name.hash(h);
        for w in wells {
            w.rows.hash(h);
        }
        families.hash(h);
    })
}

/// The (value, lookahead) pairs of `wells` (with `families`, one number
/// per well, for the `relative`, `family` and `joint` targets) in their
/// order, as `hatetris_learn::cycle::lookahead_pairs` gives them on one
/// process, found by the processes of `cluster` together; every process
/// must call it with the same arguments (`eval_name` is the evaluator's
/// identity) and gets all the pairs, from which
/// `hatetris_learn::cycle::targets_from_pairs` makes the targets one
/// process makes. `progress(done, share)` reports this process's share as
/// it goes, on the calling thread.
#[allow(clippy::too_many_arguments)]
pub fn refine_pairs(
    cluster: &Cluster,
    wells: &[Well],
    families: Option<&[u32]>,
    rules: Rules,
    config: &RefineConfig,
    eval: Arc<dyn Evaluator>,
    eval_name: &str,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<(f32, f32)>> {
    if let Some(f) = families {
        if f.len() != wells.len() {
            bail!("{} family numbers for {} wells", f.len(), wells.len());
        }
    }
    let needs_families = matches!(config.target, TargetKind::Relative | TargetKind::Family | TargetKind::Joint);
    if needs_families && families.is_none() {
        bail!("the {:?} target needs the wells' families", config.target);
    }
    let me = cluster.process;
    let shares = blocks(wells.len(), families, cluster.processes());
    let fp = fingerprint(wells, families, rules, config, eval_name, seed, cluster.processes());
    let mine: Range<usize> = shares[me].clone();
    let block = wells[mine.clone()].to_vec();
    let block_families = families.map(|f| f[mine.clone()].to_vec());
    let share = block.len();
    let config2 = config.clone();
    let mut on_event = |done: usize| progress(done, share);
    let gathered = execute(cluster, fp, &mut on_event, move |worker, tx| {
        let mut ex = Exchanger::<Vec<(f32, f32)>>::new(worker);
        let pairs =
            lookahead_pairs(&block, block_families.as_deref(), rules, &config2, eval.as_ref(), seed, &mut |done| {
                let _ = tx.send(done);
            });
        ex.all_gather(worker, pairs)
    })?;
    let mut pairs = Vec::with_capacity(wells.len());
    for (p, (got, share)) in gathered.into_iter().zip(&shares).enumerate() {
        if got.len() != share.len() {
            bail!("process {me}: process {p} sent {} pairs for its {} wells", got.len(), share.len());
        }
        pairs.extend(got);
    }
    Ok(pairs)
}
