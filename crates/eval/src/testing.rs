//! Strategies the crate's property tests share.

use crate::network::Network;
use hatetris_game::fixtures::known_replays;
use hatetris_game::{play, replay, Enemy, Rules, Well};
use proptest::prelude::*;

/// 1..=16 rows of random cells (never full), the top `empty` of them
/// cleared so that low wells are common.
pub(crate) fn well() -> impl Strategy<Value = Vec<u16>> {
    (prop::collection::vec(0u16..1023, 1..=16), 0usize..=16).prop_map(|(mut rows, empty)| {
        let k = empty.min(rows.len());
        rows[..k].iter_mut().for_each(|r| *r = 0);
        rows
    })
}

/// A random network of one of `hidden` sizes, with weights scaled so
/// pre-activations span the activation's interesting range (and beyond),
/// and random biases.
pub(crate) fn network(hidden: Vec<usize>) -> impl Strategy<Value = Network> {
    (prop::sample::select(hidden), any::<u64>(), 0.1f32..6.0, -2.0f32..2.0, -1.0f32..1.0).prop_map(
        |(hidden, seed, scale, bias, b2)| {
            let mut net = Network::random(hidden, seed);
            net.w1.iter_mut().for_each(|w| *w *= scale);
            net.b1.iter_mut().enumerate().for_each(|(j, b)| *b = bias * ((j % 5) as f32 - 2.0) / 2.0);
            net.b2 = b2;
            net
        },
    )
}

/// Every distinct well of the fixture games (the replays the official
/// game scores), as playable rows.
pub(crate) fn fixture_wells() -> Vec<Vec<u16>> {
    let rules = Rules::STANDARD;
    let mut wells = vec![Well::EMPTY];
    for r in known_replays() {
        let keys = replay::decode(&r.replay).unwrap_or_else(|e| panic!("{}: {e}", r.name));
        let enemy: Enemy = r.enemy.parse().unwrap_or_else(|_| panic!("{}: enemy {}", r.name, r.enemy));
        play(rules, enemy, &keys, |g, _| wells.push(*g.well()));
    }
    wells.sort_by_key(|w| w.rows);
    wells.dedup();
    wells.iter().map(|w| w.playable(rules).to_vec()).collect()
}
