//! A value that looks ahead: the best value a small beam of another
//! evaluator reaches a few pieces on. As an evaluator itself, it lets a
//! search choose among its children by where each can get to, not by how
//! each looks now (the network's own short lookaheads rank the wells a beam
//! drops far better than the network does: `docs/experiments.md`, "The
//! cut").
//!
//! The small beam meets the memoryless enemy (along long games its choice
//! equals the remembering enemy's) and values wells without quiescence, as
//! refine's lookaheads do. It runs on the calling thread: the outer search
//! already spreads its candidates over the cores.

use hatetris_eval::Evaluator;
use hatetris_game::{choose_piece_and_landings, Rules, SeenWells, Well, BAR, MAX_DEPTH};

/// `inner`'s best value `depth` pieces on, through a beam of `width`.
pub struct Lookahead<E> {
    pub inner: E,
    pub width: usize,
    pub depth: usize,
}

impl<E: Evaluator> Lookahead<E> {
    pub fn new(inner: E, width: usize, depth: usize) -> Lookahead<E> {
        assert!(width >= 1 && depth >= 1, "a lookahead needs a width and a depth");
        Lookahead { inner, width, depth }
    }

    /// The value of `well` under `rules`. A beam that dies at piece `d`
    /// (no landing leaves the game alive) is worth `-2 + d / depth`:
    /// below every live value, and the later the death, the higher.
    pub fn value(&self, well: &Well, rules: Rules) -> f32 {
        let mut beam: Vec<Well> = vec![*well];
        let mut cands: Vec<(f32, u64, Well)> = Vec::new();
        let mut wells: Vec<Well> = Vec::new();
        let mut values: Vec<f32> = Vec::new();
        let mut best = f32::NEG_INFINITY;
        for d in 0..self.depth {
            cands.clear();
            for w in &beam {
                let (_, landings) = choose_piece_and_landings(w, rules, None::<&SeenWells>);
                wells.clear();
                wells.extend(landings.iter().map(|l| l.well).filter(|w| !w.is_game_over()));
                let rows: Vec<&[u16]> = wells.iter().map(|w| w.playable(rules)).collect();
                values.clear();
                values.resize(wells.len(), 0.0);
                self.inner.evaluate_family(Some(w.playable(rules)), &rows, &[], &[], &mut values, &mut []);
                cands.extend(wells.iter().zip(&values).map(|(w, &v)| (v, w.hash64(), *w)));
            }
            if cands.is_empty() {
                return -2.0 + d as f32 / self.depth as f32;
            }
            // Best first, ties by hash so the value does not depend on order;
            // equal wells from two parents are kept once.
            cands.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            cands.dedup_by_key(|c| c.1);
            cands.truncate(self.width);
            best = cands[0].0;
            beam.clear();
            beam.extend(cands.iter().map(|c| c.2));
        }
        best
    }
}

impl<E: Evaluator> Evaluator for Lookahead<E> {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        let depth = BAR + rows.len();
        let rules = Rules::with_height(rows.len()).expect("a well's playable rows");
        let mut all = [0u16; MAX_DEPTH];
        all[BAR..depth].copy_from_slice(rows);
        self.value(&Well::from_rows(all), rules)
    }

    fn name(&self) -> String {
        format!("lookahead {}x{} of {}", self.width, self.depth, self.inner.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_eval::Baseline;

    /// A plain reference: every line of `depth` pieces, no beam (width large
    /// enough to keep every well), the best value at the end.
    fn exhaustive(well: &Well, rules: Rules, depth: usize, eval: &dyn Evaluator) -> Option<f32> {
        if depth == 0 {
            return Some(eval.evaluate(well.playable(rules)));
        }
        let (_, landings) = choose_piece_and_landings(well, rules, None::<&SeenWells>);
        landings
            .iter()
            .filter(|l| !l.well.is_game_over())
            .filter_map(|l| exhaustive(&l.well, rules, depth - 1, eval))
            .reduce(f32::max)
    }

    #[test]
    fn a_wide_lookahead_is_the_exhaustive_best() {
        let rules = Rules::with_height(8).unwrap();
        let look = Lookahead::new(Baseline, 100_000, 2);
        for well in [Well::EMPTY, {
            let mut w = Well::EMPTY;
            w.rows[rules.depth() - 1] = 0b0111111110;
            w.rows[rules.depth() - 2] = 0b0000110000;
            w
        }] {
            let want = exhaustive(&well, rules, 2, &Baseline).unwrap();
            assert_eq!(look.value(&well, rules), want);
            assert_eq!(look.evaluate(well.playable(rules)), want);
        }
    }

    #[test]
    fn a_beam_that_dies_is_worth_less_than_any_live_value() {
        // Height 3: the game ends within a few pieces whatever is played.
        let rules = Rules::with_height(3).unwrap();
        let look = Lookahead::new(Baseline, 10, 20);
        let v = look.value(&Well::EMPTY, rules);
        assert!((-2.0..-1.0).contains(&v), "{v}");
    }
}
