//! Probed beam search: every `every` pieces, the beam's `top` best entries
//! are each searched on by a narrow beam (`width`) for up to `pieces`
//! pieces, and the beam is cut to the `keep` entries whose probes did best.
//!
//! Why: within one depth the network ranks the late, tall wells of a game
//! poorly by how long they live (Spearman 0.52 against the pieces a
//! width-1,000 search survives), while a narrow search played on from each
//! ranks them far better (0.82; `docs/experiments.md`, surv-diag). A wide
//! beam keeps many wells the network cannot tell apart and dies where they
//! all do; probes spend a little of its time on seeing the outcome of its
//! best few, and the beam goes on from those that live.
//!
//! A probe is ordered by pieces survived (at most `pieces`), then lines
//! added, then its last beam's best value: among probes that all live to
//! the end, more lines means fewer cells held. The cut keeps the beam's
//! path tree, so the line found stays exact and the enemy's memory too.

use crate::beam::{run, BeamState, SearchConfig};
use crate::path::PathTree;
use hatetris_eval::Evaluator;
use rayon::prelude::*;

/// How a search probes its beam.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeConfig {
    /// Probe after every this many pieces (0: never).
    pub every: usize,
    /// Entries probed: the beam's first (best valued) ones.
    pub top: usize,
    /// Width of each probe's beam.
    pub width: usize,
    /// Pieces each probe plays at most.
    pub pieces: usize,
    /// Entries the beam is cut to after a probe.
    pub keep: usize,
    /// Probe entries spread evenly over the beam's ranks instead of its first.
    pub spread: bool,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        ProbeConfig { every: 0, top: 32, width: 128, pieces: 150, keep: 1, spread: false }
    }
}

/// What one probe found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeOutcome {
    /// The entry's index in the beam probed.
    pub entry: usize,
    pub survived: usize,
    pub lines: u32,
    /// The best value of the probe's last beam (-inf if it died).
    pub value: f32,
    /// Entries the probe expanded.
    pub expanded: u64,
}

impl ProbeOutcome {
    /// Higher is better: survived, then lines, then value (then the beam's
    /// own order, by the caller's stable sort).
    fn better(&self, other: &ProbeOutcome) -> std::cmp::Ordering {
        self.survived
            .cmp(&other.survived)
            .then(self.lines.cmp(&other.lines))
            .then(self.value.total_cmp(&other.value))
            .reverse()
    }
}

impl BeamState {
    /// A state holding only the beam's entry `i`, with its path (so the
    /// enemy's memory is the game's), at depth 0: what a probe searches.
    pub fn from_entry(&self, i: usize) -> BeamState {
        let entry = self.beam[i];
        let mut path = Vec::new();
        let mut id = entry.node;
        loop {
            let n = self.tree.node(id);
            path.push((n.well_hash, n.mv));
            if n.depth == 0 {
                break;
            }
            id = n.parent;
        }
        path.reverse();
        let mut tree = PathTree::new(path[0].0);
        let mut node = 0;
        for &(h, mv) in &path[1..] {
            node = tree.push(node, h, mv);
        }
        let mut entry = entry;
        entry.node = node;
        BeamState {
            depth: 0,
            beam: vec![entry],
            peak_tree_nodes: tree.len(),
            tree,
            best_score: entry.score,
            best_node: node,
            expanded: 0,
            elapsed_secs: 0.0,
        }
    }

    /// Probes the first `probe.top` entries of the beam (in parallel) and
    /// returns their outcomes, best first.
    pub fn probe(&self, config: &SearchConfig, probe: &ProbeConfig, eval: &dyn Evaluator) -> Vec<ProbeOutcome> {
        let probe_config = SearchConfig { width: probe.width, max_depth: probe.pieces, ..config.clone() };
        let n = probe.top.min(self.beam.len());
        let len = self.beam.len();
        let mut outcomes: Vec<ProbeOutcome> = (0..n)
            .into_par_iter()
            .map(|k| if probe.spread { k * len / n } else { k })
            .map(|i| {
                let mut s = self.from_entry(i);
                run(&mut s, &probe_config, eval, &mut |_| true);
                ProbeOutcome {
                    entry: i,
                    survived: s.pieces_survived(),
                    lines: s.best_score - self.beam[i].score,
                    value: s.beam.first().map_or(f32::NEG_INFINITY, |e| e.value),
                    expanded: s.expanded,
                }
            })
            .collect();
        outcomes.sort_by(|a, b| a.better(b));
        outcomes
    }

    /// Cuts the beam to the entries `keep` (indices), in that order.
    pub fn cut_to(&mut self, keep: &[usize]) {
        self.beam = keep.iter().map(|&i| self.beam[i]).collect();
    }
}

/// Steps `state` until the game ends as `run` does, probing and cutting
/// the beam every `probe.every` pieces; `after_probe` hears each probe's
/// outcomes (best first) and the depth. The probes' time and expansions
/// count in the state's.
pub fn run_probed(
    state: &mut BeamState,
    config: &SearchConfig,
    probe: &ProbeConfig,
    eval: &dyn Evaluator,
    after_depth: &mut dyn FnMut(&BeamState) -> bool,
    after_probe: &mut dyn FnMut(usize, &[ProbeOutcome]),
) {
    while !state.is_finished(config) {
        state.step(config, eval);
        if probe.every > 0 && state.depth % probe.every == 0 && !state.beam.is_empty() {
            let started = std::time::Instant::now();
            let outcomes = state.probe(config, probe, eval);
            state.elapsed_secs += started.elapsed().as_secs_f64();
            state.expanded += outcomes.iter().map(|o| o.expanded).sum::<u64>();
            let keep: Vec<usize> = outcomes.iter().take(probe.keep.max(1)).map(|o| o.entry).collect();
            after_probe(state.depth, &outcomes);
            state.cut_to(&keep);
        }
        if !after_depth(state) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::keys_for_line;
    use hatetris_eval::Baseline;

    fn config(width: usize) -> SearchConfig {
        SearchConfig { width, ..SearchConfig::default() }
    }

    /// A probe from an entry sees what a search from that entry's line
    /// sees: the same memory, so the same game.
    #[test]
    fn a_state_from_an_entry_searches_as_one_from_its_line() {
        let eval = Baseline::default();
        let c = config(20);
        let mut s = BeamState::new();
        for _ in 0..12 {
            s.step(&c, &eval);
        }
        let i = s.beam.len() / 2;
        let moves = s.tree.moves_to(s.beam[i].node).into_iter().map(crate::Move::unpack).collect::<Vec<_>>();
        let mut a = s.from_entry(i);
        let mut b = BeamState::from_moves(&moves, c.rules, c.enemy).unwrap();
        let c = SearchConfig { max_depth: 15, ..c };
        run(&mut a, &c, &eval, &mut |_| true);
        run(&mut b, &c, &eval, &mut |_| true);
        assert_eq!(a.result().moves, b.result().moves);
        assert_eq!(a.best_score, b.best_score);
    }

    #[test]
    fn outcomes_order_by_survival_then_lines_then_value() {
        let o = |entry, survived, lines, value| ProbeOutcome { entry, survived, lines, value, expanded: 0 };
        let mut v = [o(0, 10, 5, 0.9), o(1, 12, 0, -0.5), o(2, 12, 3, 0.1), o(3, 12, 3, 0.2), o(4, 12, 3, 0.2)];
        v.sort_by(|a, b| a.better(b));
        assert_eq!(v.iter().map(|o| o.entry).collect::<Vec<_>>(), vec![3, 4, 2, 1, 0]);
    }

    /// A probed search's line is a legal game whose score the engine
    /// agrees with, and the cut leaves the beam the kept entries.
    #[test]
    fn a_probed_search_finds_a_legal_line() {
        let eval = Baseline::default();
        let c = SearchConfig { max_depth: 30, ..config(30) };
        let probe = ProbeConfig { every: 10, top: 4, width: 8, pieces: 10, keep: 2, spread: false };
        let mut s = BeamState::new();
        let mut probes = Vec::new();
        run_probed(&mut s, &c, &probe, &eval, &mut |_| true, &mut |d, o| probes.push((d, o.len())));
        assert_eq!(probes, vec![(10, 4), (20, 4), (30, 4)]);
        let r = s.result();
        assert_eq!(r.moves.len(), 30);
        keys_for_line(c.rules, c.enemy, &r.moves).expect("the line replays");
        assert!(s.beam.len() <= 2);
    }
}
