//! Learning: the exact solver for small wells, data sets of (well, target)
//! pairs, the trainer, and the search → refine → learn cycle.
//!
//! - [`solver`]: every well of a small game, solved exactly;
//! - [`lean`]: the same against Mild in 8 bytes a well, up to height 7;
//! - [`dataset`]: the `.htds` file of (well, target) pairs;
//! - [`train`]: the hand-written trainer (sparse Adam on pattern counts);
//! - [`distill`]: wells labelled with the mean value of several evaluators;
//! - [`cycle`]: search → refine → learn, resumable step by step;
//! - [`strength`]: suites of start positions and the strength yardstick.

pub mod cycle;
pub mod dataset;
pub mod distill;
pub mod lean;
pub mod solver;
pub mod strength;
pub mod train;
