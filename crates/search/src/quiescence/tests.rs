//! Tests of the chains: every rule and setting against its literal
//! statement, by plain recursion.

use super::clears::{record_clears_sz, s_first_clears, sz_clears, sz_might_clear};
use super::*;
use hatetris_eval::Evaluator;
use hatetris_game::reference::reference_choose_piece;
use hatetris_game::{for_each_lock_position, Piece, Rules, Well};

/// Every placement of `piece` that clears lines, as (well after, lines),
/// from the plain landing enumeration.
fn literal_clears(well: &Well, rules: Rules, piece: Piece) -> Vec<(Well, u32)> {
    let mut clears = Vec::new();
    for_each_lock_position(well, rules, piece, |x, y, o| {
        let mut next = *well;
        let lines = next.lock(piece.shape(o), x, y);
        if lines > 0 && !next.is_game_over() {
            clears.push((next, lines));
        }
    });
    clears
}

/// The rules as written, by plain recursion: the wells a chain step may
/// reach from `well`.
fn literal_step(well: &Well, rules: Rules, rule: ChainRule) -> Vec<Well> {
    match rule {
        ChainRule::Sz => {
            [Piece::S, Piece::Z].iter().flat_map(|&p| literal_clears(well, rules, p)).map(|c| c.0).collect()
        }
        ChainRule::Record | ChainRule::Forced => {
            if rule == ChainRule::Forced && Piece::ALL.iter().any(|&p| literal_clears(well, rules, p).is_empty()) {
                return Vec::new();
            }
            // The enemy's order; a piece that can clear two lines is
            // passed over, and the first one kept gives its clears.
            for piece in Piece::ALL {
                let clears = literal_clears(well, rules, piece);
                if clears.iter().all(|c| c.1 == 1) {
                    return clears.into_iter().map(|c| c.0).collect();
                }
            }
            Vec::new()
        }
        ChainRule::Enemy => {
            let piece = reference_choose_piece(well, rules, |_| 0);
            literal_clears(well, rules, piece).into_iter().map(|c| c.0).collect()
        }
    }
}

fn naive_rule(eval: &dyn Evaluator, rules: Rules, well: &Well, rule: ChainRule, chain: u32) -> f32 {
    let mut best = eval.evaluate(well.playable(rules));
    if chain == 0 {
        return best;
    }
    for next in literal_step(well, rules, rule) {
        best = best.max(naive_rule(eval, rules, &next, rule, chain - 1));
    }
    best
}

/// The S/Z rule, which most tests below exercise.
fn naive(eval: &dyn Evaluator, rules: Rules, well: &Well, chain: u32) -> f32 {
    naive_rule(eval, rules, well, ChainRule::Sz, chain)
}

/// The wells `pieces` can leave in `parent` (every landing that does
/// not end the game).
fn landings(parent: &Well, rules: Rules, pieces: &[Piece]) -> Vec<Well> {
    let mut children = Vec::new();
    for &piece in pieces {
        for_each_lock_position(parent, rules, piece, |x, y, o| {
            let mut next = *parent;
            next.lock(piece.shape(o), x, y);
            if !next.is_game_over() {
                children.push(next);
            }
        });
    }
    children
}

struct Lowness;
impl Evaluator for Lowness {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        -(rows.iter().enumerate().map(|(i, r)| r.count_ones() * (rows.len() - i) as u32).sum::<u32>() as f32)
    }
    fn name(&self) -> String {
        "lowness".into()
    }
}

#[test]
fn breadth_first_chains_agree_with_the_plain_recursion() {
    let rules = Rules::STANDARD;
    let wells = chain_wells(300);
    let mut chains = 0;
    for w in &wells {
        for chain in 0..=3 {
            let fast = quiescent_value(&Lowness, rules, w, ChainRule::Sz, chain);
            assert_eq!(fast, naive(&Lowness, rules, w, chain), "{w:?} chain {chain}");
            chains += (fast > Lowness.evaluate(w.playable(rules))) as u32;
        }
    }
    assert!(chains > 50, "the wells must exercise real chains ({chains})");
}

/// Wells valued together (four or eight to a sweep, with wells that
/// cannot clear in between) get the values they get one by one, by
/// every rule.
#[test]
fn batched_values_are_the_single_ones() {
    let rules = Rules::STANDARD;
    let mut wells = chain_wells(60);
    // Wells where nothing can clear, among the others.
    for i in (0..wells.len()).step_by(5) {
        wells[i] = Well::EMPTY;
    }
    wells.extend(double_wells(40));
    for rule in ChainRule::ALL {
        for chain in 0..=2 {
            for len in [1, 3, 4, 5, 8, 9, 17, 100] {
                let group = &wells[..len];
                let mut values = vec![0.0; len];
                quiescent_values(&Lowness, rules, group, rule, chain, &mut values);
                let single: Vec<f32> = group.iter().map(|w| naive_rule(&Lowness, rules, w, rule, chain)).collect();
                assert_eq!(values, single, "{rule} chain {chain}, {len} wells");
            }
        }
    }
}

/// A beam entry's family (a well's landings, valued with the parent
/// known) gets the values of the plain recursion, with the network
/// as search runs it and with its incremental path: bit for bit.
#[test]
fn children_valued_with_their_parent_are_the_plain_values() {
    let rules = Rules::STANDARD;
    let net = hatetris_eval::Network::embedded_default();
    let default = hatetris_eval::QuantizedNetwork::new(&net);
    let incremental = default.clone().with_incremental(true);
    let evals: [&dyn Evaluator; 3] = [&Lowness, &default, &incremental];
    let mut clears = 0;
    for parent in chain_wells(40) {
        let children = landings(&parent, rules, &[Piece::I, Piece::T, Piece::S, Piece::L]);
        for eval in evals {
            for chain in 0..=2 {
                let mut values = vec![0.0; children.len()];
                quiescent_children(eval, rules, Some(&parent), &children, ChainRule::Sz, chain, &mut values);
                for (c, v) in children.iter().zip(&values) {
                    let plain = naive(eval, rules, c, chain);
                    assert_eq!(v.to_bits(), plain.to_bits(), "{c:?} chain {chain}");
                    clears += (*v > eval.evaluate(c.playable(rules))) as u32;
                }
            }
        }
    }
    assert!(clears > 100, "the families must exercise clears ({clears})");
}

/// Each rule against its literal statement, on wells where chains are
/// common and on wells where the record rule must pass over S and Z.
#[test]
fn every_rule_agrees_with_its_literal_statement() {
    let rules = Rules::STANDARD;
    let mut wells = chain_wells(200);
    wells.extend(double_wells(400));
    for rule in ChainRule::ALL {
        let mut chains = 0;
        for w in &wells {
            for chain in 0..=3 {
                let fast = quiescent_value(&Lowness, rules, w, rule, chain);
                assert_eq!(fast, naive_rule(&Lowness, rules, w, rule, chain), "{rule} {w:?} chain {chain}");
                chains += (fast > Lowness.evaluate(w.playable(rules))) as u32;
            }
        }
        assert!(chains > 20, "the wells must exercise {rule} chains ({chains})");
    }
}

/// Families valued with their parent, every rule, with the network
/// and its incremental path: bit for bit the literal values.
#[test]
fn every_rule_values_families_as_the_literal_rule() {
    let rules = Rules::STANDARD;
    let net = hatetris_eval::Network::embedded_default();
    let incremental = hatetris_eval::QuantizedNetwork::new(&net).with_incremental(true);
    for rule in ChainRule::ALL {
        for parent in double_wells(30) {
            let children = landings(&parent, rules, &[Piece::I, Piece::O, Piece::Z]);
            for chain in [1, 3] {
                let mut values = vec![0.0; children.len()];
                quiescent_children(&incremental, rules, Some(&parent), &children, rule, chain, &mut values);
                for (c, v) in children.iter().zip(&values) {
                    let plain = naive_rule(&incremental, rules, c, rule, chain);
                    assert_eq!(v.to_bits(), plain.to_bits(), "{rule} {c:?} chain {chain}");
                }
            }
        }
    }
}

/// A blend is the literal `v + blend (max(v, m) - v)` over the plain
/// recursion's values, for families valued with their parent and for
/// wells raised on their own (`raise_values`, as a band chains), every
/// rule; 1 is the max bit for bit and 0 the own value.
#[test]
fn blended_values_are_the_literal_blend() {
    let rules = Rules::STANDARD;
    let net = hatetris_eval::Network::embedded_default();
    let incremental = hatetris_eval::QuantizedNetwork::new(&net).with_incremental(true);
    let evals: [&dyn Evaluator; 2] = [&Lowness, &incremental];
    let mut risen = 0;
    for eval in evals {
        for rule in ChainRule::ALL {
            for parent in chain_wells(12).into_iter().chain(double_wells(12)) {
                let children = landings(&parent, rules, &[Piece::I, Piece::S, Piece::O]);
                for t in [0, 250, 500, 1000] {
                    let blend = Blend::from_thousandths(t).unwrap();
                    let chains = Chains { rule, depth: 2, band: 0, blend, follow: 0 };
                    let mut family = vec![0.0; children.len()];
                    chain_values(eval, rules, Some(&parent), &children, chains, &mut family);
                    let mut raised: Vec<f32> = children.iter().map(|c| eval.evaluate(c.playable(rules))).collect();
                    raise_values(eval, rules, &children, chains, &mut raised);
                    for (k, c) in children.iter().enumerate() {
                        let own = eval.evaluate(c.playable(rules));
                        let max = naive_rule(eval, rules, c, rule, 2);
                        let literal = own + blend.fraction() * (max - own);
                        for got in [family[k], raised[k]] {
                            match t {
                                1000 => assert_eq!(got.to_bits(), max.to_bits(), "{rule} {c:?}"),
                                0 => assert_eq!(got, own, "{rule} {c:?}"),
                                _ => {
                                    assert!((got - literal).abs() <= 1e-5 * literal.abs().max(1.0), "{rule} {c:?}")
                                }
                            }
                        }
                        risen += (t == 500 && max > own) as u32;
                    }
                }
            }
        }
    }
    assert!(risen > 50, "the families must exercise chains that raise a value ({risen})");
}

/// F(w, d) of `follow_chains` as written: the wells one clear reaches,
/// best own value first (ties: lower rows first), the best `follow` of
/// them followed on.
fn naive_follow(eval: &dyn Evaluator, rules: Rules, well: &Well, rule: ChainRule, chain: u32, follow: usize) -> f32 {
    let own = eval.evaluate(well.playable(rules));
    if chain == 0 {
        return own;
    }
    let mut next: Vec<(f32, Well)> =
        literal_step(well, rules, rule).into_iter().map(|w| (eval.evaluate(w.playable(rules)), w)).collect();
    next.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.rows.cmp(&b.1.rows)));
    next.dedup_by(|a, b| a.1 == b.1);
    let mut best = own;
    for (i, (v, w)) in next.iter().enumerate() {
        best = best.max(*v);
        if i < follow {
            best = best.max(naive_follow(eval, rules, w, rule, chain - 1, follow));
        }
    }
    best
}

/// Chains that follow the best one or two wells of each clear, every
/// rule, as families valued with their parent and as wells raised on
/// their own (a band), with a hand-made evaluator and the network's
/// incremental path: bit for bit the literal recursion, blended.
#[test]
fn followed_chains_are_the_literal_recursion() {
    let rules = Rules::STANDARD;
    let net = hatetris_eval::Network::embedded_default();
    let incremental = hatetris_eval::QuantizedNetwork::new(&net).with_incremental(true);
    let evals: [&dyn Evaluator; 2] = [&Lowness, &incremental];
    let (mut risen, mut pruned) = (0, 0);
    for eval in evals {
        for rule in ChainRule::ALL {
            for parent in chain_wells(10).into_iter().chain(double_wells(6)) {
                let children = landings(&parent, rules, &[Piece::I, Piece::S, Piece::O]);
                for (follow, depth, t) in [(1, 3, 1000), (2, 2, 1000), (1, 4, 500)] {
                    let blend = Blend::from_thousandths(t).unwrap();
                    let chains = Chains { rule, depth, band: 0, blend, follow };
                    let mut family = vec![0.0; children.len()];
                    chain_values(eval, rules, Some(&parent), &children, chains, &mut family);
                    let mut raised: Vec<f32> = children.iter().map(|c| eval.evaluate(c.playable(rules))).collect();
                    raise_values(eval, rules, &children, chains, &mut raised);
                    for (k, c) in children.iter().enumerate() {
                        let own = eval.evaluate(c.playable(rules));
                        let max = naive_follow(eval, rules, c, rule, depth, follow as usize);
                        let literal = blend.apply(own, max);
                        assert_eq!(family[k].to_bits(), literal.to_bits(), "{rule} follow {follow} {c:?}");
                        assert_eq!(raised[k].to_bits(), literal.to_bits(), "{rule} follow {follow} {c:?}");
                        risen += (max > own) as u32;
                        if depth == 3 {
                            pruned += (max < naive_rule(eval, rules, c, rule, depth)) as u32;
                        }
                    }
                }
            }
        }
    }
    assert!(risen > 100, "the chains must raise values ({risen})");
    assert!(pruned > 0, "following fewer wells must miss some chain ({pruned})");
}

#[test]
fn blends_read_and_print_as_decimals() {
    for (text, thousandths, printed) in [
        ("0.5", 500, "0.5"),
        ("1", 1000, "1"),
        ("1.000", 1000, "1"),
        (".25", 250, "0.25"),
        ("0.125", 125, "0.125"),
        ("0", 0, "0"),
        ("0.07", 70, "0.07"),
    ] {
        let blend: Blend = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(blend.thousandths(), thousandths, "{text}");
        assert_eq!(blend.to_string(), printed);
        assert_eq!(printed.parse::<Blend>(), Ok(blend));
        let json = serde_json::to_string(&blend).unwrap();
        assert_eq!(serde_json::from_str::<Blend>(&json).unwrap(), blend, "{json}");
    }
    for bad in ["1.5", "2", "0.1234", "-0.1", "abc", "", ".", "0.5x", "1e-1", " "] {
        assert!(bad.parse::<Blend>().is_err(), "'{bad}' must be refused");
    }
    for bad in ["1.5", "-0.25", "0.1234"] {
        assert!(serde_json::from_str::<Blend>(bad).is_err(), "{bad} must be refused");
    }
    assert_eq!(Blend::default(), Blend::FULL);
    assert_eq!(Blend::from_thousandths(1001), None);
}

#[test]
fn rule_names_round_trip() {
    for rule in ChainRule::ALL {
        assert_eq!(rule.name().parse::<ChainRule>(), Ok(rule));
        assert_eq!(ChainRule::from_code(rule.code()), Some(rule));
    }
    assert!("zz".parse::<ChainRule>().is_err());
}

/// Wells of rows with one or two holes each, at random: S often clears
/// two lines here, so the record rule passes to Z. (Wells where S and Z
/// both clear two lines and the rule passes to O: none among two million
/// random stacks of rows with one to four holes.)
fn double_wells(n: usize) -> Vec<Well> {
    let mut rng = 0x0fed_cba9_8765_4321u64;
    let mut next = move || {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        rng >> 33
    };
    (0..n)
        .map(|_| {
            let mut w = Well::EMPTY;
            let stack = 3 + (next() % 8) as usize;
            for i in 0..stack {
                let mut gap = 1u16 << (next() % 10);
                if next() % 2 == 0 {
                    gap |= 1 << (next() % 10);
                }
                w.rows[19 - i] = hatetris_game::FULL_ROW & !gap;
            }
            w
        })
        .collect()
}

/// Wells of rows mostly one or two cells short of full: chains are common.
fn chain_wells(n: usize) -> Vec<Well> {
    let mut rng = 0x1234_5678_9abc_def0u64;
    (0..n)
        .map(|_| {
            let mut w = Well::EMPTY;
            let stack = 4 + (rng % 8) as usize;
            for i in 0..stack {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let gap = (rng >> 33) % 9;
                let row = hatetris_game::FULL_ROW & !(0b11 << gap) & !(((rng >> 40) & 1) as u16) << ((rng >> 44) % 10);
                w.rows[19 - i] = row;
            }
            w
        })
        .collect()
}

#[test]
fn the_filter_never_hides_a_clear() {
    let rules = Rules::STANDARD;
    for gap_mask in 0..1024u16 {
        let mut w = Well::EMPTY;
        w.rows[19] = hatetris_game::FULL_ROW & !gap_mask;
        w.rows[18] = hatetris_game::FULL_ROW & !(gap_mask.rotate_left(3) & hatetris_game::FULL_ROW);
        let mut clears = false;
        for piece in [Piece::S, Piece::Z] {
            for_each_lock_position(&w, rules, piece, |x, y, o| clears |= w.clone().lock(piece.shape(o), x, y) > 0);
        }
        assert!(!clears || sz_might_clear(&w, rules), "{w:?}");
    }
}

/// The record rule's fast path (S alone, eight wells to a sweep) gives
/// the wells, in the order, of S and Z swept together, on the children
/// of the recorded games' wells valued in batches as search does.
#[test]
fn s_first_clears_are_the_sz_sweeps_choice() {
    let rules = Rules::STANDARD;
    let children = hatetris_game::fixtures::recorded_hatetris_children(rules, 3);
    let (mut clears, mut passed_over) = (0, 0);
    for batch in children.chunks(37) {
        let (mut fast, mut plain) = (Vec::new(), Vec::new());
        s_first_clears(batch, rules, |k, w| fast.push((k, w)));
        record_clears_sz(batch, rules, false, |k, w| plain.push((k, w)));
        assert_eq!(fast, plain);
        clears += fast.len();
        let mut s_doubles = std::collections::HashSet::new();
        sz_clears(batch, rules, |k, p, _, lines| {
            if p == Piece::S && lines > 1 {
                s_doubles.insert(k);
            }
        });
        passed_over += s_doubles.len();
    }
    assert!(clears > 10_000 && passed_over > 100, "{clears} clears, {passed_over} wells where S clears two");
}
