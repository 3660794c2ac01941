//! Distillation targets: wells labelled with the mean value of several
//! evaluators (the "teachers").
//!
//! Networks from different runs err differently; the mean of their values
//! ranks wells better than any one of them (docs/experiments.md, distill-a:
//! five networks averaged, +4.1 suite pieces), and one network trained on
//! that mean keeps the gain at one network's cost in search.

use crate::dataset::Sample;
use hatetris_eval::Evaluator;
use rayon::prelude::*;
use rustc_hash::FxHashSet;

/// Each distinct well of `samples` (the first of repeats, in order; the
/// samples' own targets are ignored), its target the mean of the
/// teachers' values. Also returns how many repeats were dropped.
///
/// Panics if `teachers` is empty.
pub fn label_with_mean(samples: &[Sample], teachers: &[&dyn Evaluator]) -> (Vec<Sample>, usize) {
    assert!(!teachers.is_empty(), "at least one teacher");
    let mut seen = FxHashSet::default();
    let wells: Vec<&Sample> = samples.iter().filter(|s| seen.insert((s.len, s.rows))).collect();
    let repeats = samples.len() - wells.len();
    let n = teachers.len() as f32;
    let labelled = wells
        .par_iter()
        .map(|s| {
            let mean = teachers.iter().map(|t| t.evaluate(s.rows())).sum::<f32>() / n;
            Sample::new(s.rows(), mean)
        })
        .collect();
    (labelled, repeats)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A teacher whose value is a fixed function of the cells.
    struct Cells(f32);

    impl Evaluator for Cells {
        fn evaluate(&self, rows: &[u16]) -> f32 {
            self.0 * rows.iter().map(|r| r.count_ones()).sum::<u32>() as f32
        }
        fn name(&self) -> String {
            "cells".into()
        }
    }

    #[test]
    fn targets_are_the_teachers_mean_and_repeats_are_dropped_in_order() {
        let a = Sample::new(&[0, 0b11, 0b1], 0.9);
        let b = Sample::new(&[0b1, 0b111], -0.4);
        // The same rows at another height are another well.
        let c = Sample::new(&[0, 0, 0b11, 0b1], 0.0);
        let samples = [a, b, a, c, b];
        let (labelled, repeats) = label_with_mean(&samples, &[&Cells(0.1), &Cells(0.3)]);
        assert_eq!(repeats, 2);
        assert_eq!(labelled.len(), 3);
        assert_eq!(labelled.iter().map(|s| s.rows()).collect::<Vec<_>>(), [a.rows(), b.rows(), c.rows()]);
        // Cells 3, 4, 3; mean of 0.1 and 0.3 is 0.2 a cell.
        let targets: Vec<f32> = labelled.iter().map(|s| s.target).collect();
        for (t, want) in targets.iter().zip([0.6, 0.8, 0.6]) {
            assert!((t - want).abs() < 1e-6, "{targets:?}");
        }
    }
}
