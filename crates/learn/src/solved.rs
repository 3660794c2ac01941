//! Data sets of exactly solved wells: the values of `hatetris_solve`'s
//! solutions written as (well, target) pairs, targets as
//! [`hatetris_solve::solver::target`].
//!
//! The solvers give values only; the `.htds` format is learn's. These
//! traits keep the solutions' `write_dataset` methods (bring the trait into
//! scope: `use hatetris_learn::solved::SolutionDataset`).

use crate::dataset::{DatasetError, DatasetWriter, Sample};
use hatetris_solve::lean::LeanSolution;
use hatetris_solve::solver::{target, Solution};
use std::path::Path;

/// `write_dataset` for the graph solver's [`Solution`].
pub trait SolutionDataset {
    /// Writes every well as a sample with target `(lines / target_max - 0.5) * 2`
    /// clamped to [-1, 1]; rows are the small well's own playable rows.
    fn write_dataset(&self, path: &Path, description: &str, target_max: u32) -> Result<u64, DatasetError>;
}

impl SolutionDataset for Solution {
    fn write_dataset(&self, path: &Path, description: &str, target_max: u32) -> Result<u64, DatasetError> {
        let mut w = DatasetWriter::create(path, description)?;
        for (well, lines) in self.iter() {
            w.push(&Sample::new(well.playable(self.rules()), target(lines, target_max)))?;
        }
        let n = w.len();
        w.finish()?;
        Ok(n)
    }
}

/// `write_dataset` for the lean solver's [`LeanSolution`].
pub trait LeanSolutionDataset {
    /// Writes a data set of every well (`sample` None) or of a seeded sample
    /// of `n` wells (`Some((n, seed))`), targets as [`target`] with
    /// `target_max`; rows are the small well's own playable rows.
    fn write_dataset(
        &self,
        path: &Path,
        description: &str,
        target_max: u32,
        sample: Option<(u64, u64)>,
    ) -> Result<u64, DatasetError>;
}

impl LeanSolutionDataset for LeanSolution {
    fn write_dataset(
        &self,
        path: &Path,
        description: &str,
        target_max: u32,
        sample: Option<(u64, u64)>,
    ) -> Result<u64, DatasetError> {
        let mut w = DatasetWriter::create(path, description)?;
        let rules = self.rules();
        match sample {
            Some((n, seed)) => {
                for (well, lines) in self.sample(n, seed) {
                    w.push(&Sample::new(well.playable(rules), target(lines, target_max)))?;
                }
            }
            None => {
                let mut err = None;
                self.for_each(|well, lines| {
                    if err.is_none() {
                        if let Err(e) = w.push(&Sample::new(well.playable(rules), target(lines, target_max))) {
                            err = Some(e);
                        }
                    }
                });
                if let Some(e) = err {
                    return Err(e);
                }
            }
        }
        let n = w.len();
        w.finish()?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::read_dataset;
    use hatetris_game::{Rules, Well, BAR};
    use hatetris_solve::lean::{solve_lean, LeanOptions};
    use hatetris_solve::solver::solve;

    #[test]
    fn the_data_set_round_trips() {
        let rules = Rules::with_height(4).unwrap();
        let sol = solve(rules, usize::MAX, &mut |_| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h4.htds");
        assert_eq!(sol.write_dataset(&path, "h4", 12).unwrap(), sol.well_count() as u64);
        let samples = read_dataset(&path).unwrap();
        assert_eq!(samples.len(), sol.well_count());
        for (s, (well, lines)) in samples.iter().zip(sol.iter()) {
            assert_eq!(s.rows(), well.playable(rules));
            assert_eq!(s.target, (lines as f32 / 12.0 - 0.5) * 2.0);
        }
        assert_eq!(samples[0].rows(), &[0; 4]);
        assert_eq!(target(30, 12), 1.0);
    }

    #[test]
    fn data_sets_whole_and_sampled() {
        let opts = LeanOptions { threads: 1, ..LeanOptions::default() };
        let sol = solve_lean(Rules::with_height(4).unwrap(), opts, &mut |_| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h4.htds");
        assert_eq!(sol.write_dataset(&path, "h4", 12, None).unwrap(), sol.well_count());
        let samples = read_dataset(&path).unwrap();
        assert_eq!(samples.len() as u64, sol.well_count());
        assert_eq!(samples[0].rows(), &[0; 4]);
        let rules = sol.rules();
        for s in &samples {
            let mut w = Well::EMPTY;
            w.rows[BAR..rules.depth()].copy_from_slice(s.rows());
            assert_eq!(s.target, target(sol.value(&w).unwrap(), 12));
        }
        let path = dir.path().join("h4s.htds");
        assert_eq!(sol.write_dataset(&path, "h4 sample", 12, Some((500, 3))).unwrap(), 500);
        assert_eq!(read_dataset(&path).unwrap().len(), 500);
    }
}
