//! Quiescence: a well from which the player could clear lines is worth at
//! least the best well at the end of such a chain of clears, since the
//! network sees only the well in front of it. Which clears a chain may take
//! is the `ChainRule`: the enemy decides which piece comes, so a rule that
//! follows the piece the enemy would give values wells by what can really
//! happen, where taking every S and Z clear counts on gifts the enemy
//! never makes.
//!
//! The module's files: `rule` (the chain settings: rules, depth, blend,
//! and their names), `engine` (the values through chains, breadth-first
//! with a memo of each call's wells), `follow` (chains that go on from
//! only the best wells of each clear) and `clears` (the clears each rule
//! allows from a well).

mod clears;
mod engine;
mod follow;
mod rule;
#[cfg(test)]
mod tests;

pub use clears::for_each_clear;
pub use engine::{chain_values, quiescent_children, quiescent_value, quiescent_values, raise_values};
pub use rule::{Blend, ChainRule, Chains, DEFAULT_CHAIN};
