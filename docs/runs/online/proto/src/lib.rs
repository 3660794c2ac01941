//! What the prototype's programs share: their flags and gen-b's master
//! search settings.
use hatetris_game::Rules;
use hatetris_search::{Blend, ChainRule, SearchConfig};

/// The value after `name` on the command line, or `default`.
pub fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).map(|i| args[i + 1].clone()).unwrap_or(default.to_string())
}

/// gen-b's master search from generation 25 on: record chains, depth 4,
/// every candidate, blend 0.5.
pub fn master_search(width: usize, rules: Rules, seed: u64) -> SearchConfig {
    SearchConfig {
        width,
        rules,
        enemy: hatetris_game::Enemy::Hatetris,
        quiescence: 4,
        chain_rule: ChainRule::Record,
        chain_band: 0,
        chain_blend: Blend::from_thousandths(500).unwrap(),
        seed,
        twins: 1,
        max_depth: 0,
    }
}
