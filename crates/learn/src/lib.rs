//! Learning: data sets of (well, target) pairs, the trainer, and the
//! search → refine → learn cycle.
//!
//! - [`dataset`]: the `.htds` file of (well, target) pairs;
//! - [`solved`]: the exact solvers' values (`hatetris_solve`) as data sets;
//! - [`train`]: the hand-written trainer (sparse Adam on pattern counts);
//! - [`distill`]: wells labelled with the mean value of several evaluators;
//! - [`cycle`]: search → refine → learn, resumable step by step, each
//!   network measured on a suite by `hatetris_strength`.

pub mod cycle;
pub mod dataset;
pub mod distill;
pub mod solved;
pub mod train;
