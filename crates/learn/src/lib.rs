//! Learning: the exact solver for small wells, data sets of (well, target)
//! pairs, the trainer, and the search → refine → learn cycle.

pub mod dataset;
pub mod solver;
