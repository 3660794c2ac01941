//! Record hunts (`hatetris hunt`): searches restarted from the positions of
//! the best lines found so far, chosen by a UCB1 bandit over a book of
//! those positions (after Squirrel's book learning for shogi), with wider
//! beams where a position is searched again.
//!
//! - [`book`]: the tree of positions, UCB1 choice and backing up;
//! - [`run`]: the loop in a run directory, its files and resumption.

pub mod book;
pub mod run;

pub use book::{Book, Choice, Node};
pub use run::{Budget, HuntConfig, HuntError, HuntEvent, HuntState, Iteration};
