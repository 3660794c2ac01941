//! The exact solvers for small wells: the game with a few playable rows
//! below the bar, every well reachable from the empty well valued exactly
//! (the most lines the player can still clear).
//!
//! - [`solver`]: every well of a small game against Mild as an explicit
//!   graph, cycles valued by their best simple path; and the empty well's
//!   game against the real enemy (with memory) at the tiniest heights;
//! - [`lean`]: the same against Mild in 8 bytes a well, up to height 7.
//!
//! The solutions are values only; `hatetris_learn::solved` writes them as
//! data sets of (well, target) pairs.

pub mod lean;
pub mod solver;
