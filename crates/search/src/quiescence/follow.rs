//! Followed chains: after each clear, go on from only the best wells it
//! reaches by their own values (`Chains::follow`), without a memo.

use super::clears::for_each_clear;
use super::rule::{raise_blended, ChainRule, Chains};
use hatetris_eval::Evaluator;
use hatetris_game::{Rules, Well};

/// The values of `wells` through chains that go on, after each clear, from
/// only the `chains.follow` wells it reaches that have the best values of
/// their own (ties: the lower rows first), the rest of the clear counting
/// by those own values. A well's value is then the best own value along
/// its followed chains:
///
/// F(w, 0) = own(w); F(w, d) = max(own(w), own(c) for every c one clear
/// of w reaches, F(c, d - 1) for the `follow` best of those c).
///
/// With `follow` 1 a chain is one line of clears, the best-looking at each
/// step, where the whole tree (`follow` 0) holds every order of clears:
/// late in a game the whole tree of four clears values 7.3 wells a
/// candidate (1.7 at the first), and following one costs 0.62 times as
/// much (docs/runs/chains/follow/).
/// No memo: one line from each candidate seldom meets another.
///
/// `family`: `Some(parent)` when `wells` are one entry's children, whose
/// own values (written into `values`) and their first clears' are found
/// in one `evaluate_family`; `None` when `values` hold the own values.
pub(super) fn follow_chains(
    eval: &dyn Evaluator,
    rules: Rules,
    family: Option<Option<&[u16]>>,
    wells: &[Well],
    chains: Chains,
    values: &mut [f32],
) {
    debug_assert_eq!(wells.len(), values.len());
    let follow = chains.follow as usize;
    let mut best = values.to_vec();
    // The wells the chains have reached, with the candidate each started
    // from; the first layer starts from the candidates themselves.
    let mut at: Vec<Well> = Vec::new();
    let mut candidate: Vec<u32> = Vec::new();
    // (the index in the layer's sources, a well one clear reaches)
    let mut reached: Vec<(u32, Well)> = Vec::new();
    let mut own = Vec::new();
    let mut frontier = Vec::new();
    for depth in 0..chains.depth {
        let first = depth == 0;
        if !first && at.is_empty() {
            break;
        }
        clears_by_source(if first { wells } else { &at }, rules, chains.rule, &mut reached);
        let rows: Vec<&[u16]> = reached.iter().map(|r| r.1.playable(rules)).collect();
        own.clear();
        own.resize(reached.len(), 0.0);
        match family {
            Some(parent) if first => {
                let children: Vec<&[u16]> = wells.iter().map(|w| w.playable(rules)).collect();
                let from: Vec<u32> = reached.iter().map(|r| r.0).collect();
                eval.evaluate_family(parent, &children, &rows, &from, values, &mut own);
                best.copy_from_slice(values);
            }
            _ => eval.evaluate_batch(&rows, &mut own),
        }
        drop(rows);
        frontier.clear();
        let of = |s: u32| if first { s } else { candidate[s as usize] };
        keep_best(&reached, &own, of, follow, &mut best, &mut frontier);
        at.clear();
        at.extend(frontier.iter().map(|f: &(u32, Well)| f.1));
        candidate.clear();
        candidate.extend(frontier.iter().map(|f| f.0));
    }
    raise_blended(chains.blend, values, |values| {
        for (v, b) in values.iter_mut().zip(best) {
            *v = v.max(b);
        }
    });
}

/// Fills `reached` with the wells one clear by `rule` reaches from
/// `wells`, each with the index of the well it came from, in runs of one
/// source each: the S/Z rule's sweep interleaves four wells, the other
/// rules give them so already.
fn clears_by_source(wells: &[Well], rules: Rules, rule: ChainRule, reached: &mut Vec<(u32, Well)>) {
    reached.clear();
    for_each_clear(wells, rules, rule, |k, next| reached.push((k as u32, next)));
    if !reached.is_sorted_by_key(|r| r.0) {
        reached.sort_by_key(|r| r.0);
    }
}

/// For each well of `reached` (runs of one source each, as `for_each_clear`
/// gives them, the source's candidate `candidate(source)`): raises that
/// candidate's `best` to the run's best own value, and pushes the run's
/// `follow` best wells, with their candidate, onto `frontier`.
fn keep_best(
    reached: &[(u32, Well)],
    own: &[f32],
    candidate: impl Fn(u32) -> u32,
    follow: usize,
    best: &mut [f32],
    frontier: &mut Vec<(u32, Well)>,
) {
    let mut order: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < reached.len() {
        let source = reached[start].0;
        let end = start + reached[start..].iter().take_while(|r| r.0 == source).count();
        let cand = candidate(source);
        order.clear();
        order.extend(start..end);
        if end - start > 1 {
            order.sort_unstable_by(|&a, &b| {
                own[b].total_cmp(&own[a]).then_with(|| reached[a].1.rows.cmp(&reached[b].1.rows))
            });
        }
        let b = &mut best[cand as usize];
        *b = b.max(own[order[0]]);
        frontier.extend(order.iter().take(follow).map(|&i| (cand, reached[i].1)));
        start = end;
    }
}
