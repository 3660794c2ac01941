//! The chain engine: the values of wells through chains of clears,
//! breadth-first over the distinct wells reached, with a memo of each
//! call's wells on the calling thread.

use super::clears::for_each_clear;
use super::follow::follow_chains;
use super::rule::{raise_blended, ChainRule, Chains};
use hatetris_eval::Evaluator;
use hatetris_game::{Rules, Well};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// The value of `well`: its own, or with `chain > 0` the best along the
/// chains of line clears (at most `chain` long) that `rule` allows from it.
pub fn quiescent_value(eval: &dyn Evaluator, rules: Rules, well: &Well, rule: ChainRule, chain: u32) -> f32 {
    let mut value = [0.0];
    quiescent_values(eval, rules, std::slice::from_ref(well), rule, chain, &mut value);
    value[0]
}

/// `quiescent_value` of each of `wells` into `values`. Batched because a
/// beam entry values all its children at once: several wells share one sweep
/// for their S and Z clears, and the evaluator gets the wells in batches.
pub fn quiescent_values(
    eval: &dyn Evaluator,
    rules: Rules,
    wells: &[Well],
    rule: ChainRule,
    chain: u32,
    values: &mut [f32],
) {
    quiescent_children(eval, rules, None, wells, rule, chain, values)
}

/// `quiescent_values` of `wells`, the children of `parent` (each one
/// placement from it): the evaluator gets the family in one
/// `evaluate_family`, so that it may derive each child's evaluation from
/// the parent's and each clear's from its child's.
pub fn quiescent_children(
    eval: &dyn Evaluator,
    rules: Rules,
    parent: Option<&Well>,
    wells: &[Well],
    rule: ChainRule,
    chain: u32,
    values: &mut [f32],
) {
    chain_values(eval, rules, parent, wells, Chains { rule, depth: chain, ..Chains::default() }, values)
}

/// `quiescent_children` with a chain setting, as a search values an
/// entry's children.
///
/// A memo of one call's wells (one family of children, or one batch of
/// candidates) is kept on the calling thread, so that expanding stays
/// lock-free. Within a call different orders of clears reach the same
/// wells, and the memo values each once. Across calls it paid nothing:
/// over the entries of a 20,000-wide search late in a game 3% of the
/// chains' wells were already in a memo of half a million, and a table
/// that large misses the cache on every access (16% of the master
/// search's time went to it), so the memo is emptied at every call.
pub fn chain_values(
    eval: &dyn Evaluator,
    rules: Rules,
    parent: Option<&Well>,
    wells: &[Well],
    chains: Chains,
    values: &mut [f32],
) {
    if chains.depth == 0 {
        // No chain, no memo: a plain search's entries never touch it.
        return chained_children(eval, rules, parent, wells, chains, values, &mut ChainMemo::default());
    }
    if chains.follow > 0 {
        return follow_chains(eval, rules, Some(parent.map(|p| p.playable(rules))), wells, chains, values);
    }
    with_memo(|memo| chained_children(eval, rules, parent, wells, chains, values, memo))
}

/// Raises each of `values` (the own values of `wells`, in any order and
/// from any parents) to its well's value through `chains`, with the
/// thread's memo as `chain_values` keeps it. The same bits as
/// `quiescent_values`, without valuing the wells themselves again.
pub fn raise_values(eval: &dyn Evaluator, rules: Rules, wells: &[Well], chains: Chains, values: &mut [f32]) {
    debug_assert_eq!(wells.len(), values.len());
    if chains.depth == 0 {
        return;
    }
    if chains.follow > 0 {
        return follow_chains(eval, rules, None, wells, chains, values);
    }
    let left = (chains.depth - 1) as u8;
    raise_blended(chains.blend, values, |values| {
        with_memo(|memo| raise_by_clears(eval, rules, chains.rule, wells, values, left, memo))
    });
}

/// Runs `f` on this thread's memo, emptied first (and made small again if
/// a large batch grew it past `MEMO_CAP`: emptying costs its size).
fn with_memo<T>(f: impl FnOnce(&mut ChainMemo) -> T) -> T {
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.slots.capacity() > MEMO_CAP {
            memo.slots = FxHashMap::default();
            memo.values = Vec::new();
        } else {
            memo.slots.clear();
            memo.values.clear();
        }
        // Layers a large batch grew are dropped, not kept per thread.
        memo.pool.retain(|layer| layer.cleared.capacity() <= MEMO_CAP);
        f(&mut memo)
    })
}

/// Capacity past which a thread's emptied memo is made anew.
const MEMO_CAP: usize = 1 << 12;

thread_local! {
    static MEMO: RefCell<ChainMemo> = RefCell::new(ChainMemo::default());
}

/// V(w, d): the best value along the chains of at most `d` clears from `w`,
/// its own value included, keyed by (w, d). The map gives a slot in
/// `values`, so that a well is hashed once a call: its value is written
/// and read by slot.
#[derive(Default)]
struct ChainMemo {
    slots: FxHashMap<(Well, u8), u32>,
    values: Vec<f32>,
    /// Layers' buffers, kept between calls.
    pool: Vec<Layer>,
}

/// One layer of chains: the wells one clear reaches (with the well each
/// came from), those new to the memo (with the first well each came
/// from), every reached well's slot, and the new wells' values. Reused
/// from the memo's pool: allocating them for every layer of every call
/// took a tenth of a chained search.
#[derive(Default)]
struct Layer {
    cleared: Vec<(usize, Well)>,
    fresh: Vec<Well>,
    from: Vec<u32>,
    slots: Vec<u32>,
    own: Vec<f32>,
}

/// The values of `wells` through `chains`, with `memo` read and filled.
///
/// Breadth-first over the distinct wells the chains reach, layer by layer,
/// so that every layer is swept several wells at a time and valued in one
/// batch; then the values are carried back up the layers. Wells prepared
/// for clearing offer many clearing placements and different orders of
/// clears reach the same wells, so a plain recursion would be exponential;
/// this costs the number of distinct (well, depth left) pairs not in the
/// memo.
fn chained_children(
    eval: &dyn Evaluator,
    rules: Rules,
    parent: Option<&Well>,
    wells: &[Well],
    chains: Chains,
    values: &mut [f32],
    memo: &mut ChainMemo,
) {
    debug_assert_eq!(wells.len(), values.len());
    let parent = parent.map(|p| p.playable(rules));
    let rows: Vec<&[u16]> = wells.iter().map(|w| w.playable(rules)).collect();
    if chains.depth == 0 {
        eval.evaluate_family(parent, &rows, &[], &[], values, &mut []);
        return;
    }
    let left = (chains.depth - 1) as u8;
    // The wells one clear reaches, with the child each came from; those
    // not yet in the memo are valued with the children, in one family.
    let mut layer = next_layer(wells, rules, chains.rule, left, memo);
    let fresh_rows: Vec<&[u16]> = layer.fresh.iter().map(|w| w.playable(rules)).collect();
    eval.evaluate_family(parent, &rows, &fresh_rows, &layer.from, values, &mut layer.own);
    value_layer(eval, rules, chains.rule, &layer.fresh, &mut layer.own, left, memo);
    raise_blended(chains.blend, values, |values| raise_from_layer(layer, values, memo));
}

/// The layer of chains one clear by `rule` reaches from `wells`, at
/// `left` clears left, with its buffers from the memo's pool and its
/// fresh wells given slots (`not_in_memo`), their values still to find.
fn next_layer(wells: &[Well], rules: Rules, rule: ChainRule, left: u8, memo: &mut ChainMemo) -> Layer {
    let mut layer = memo.pool.pop().unwrap_or_default();
    layer.cleared.clear();
    for_each_clear(wells, rules, rule, |k, next| layer.cleared.push((k, next)));
    not_in_memo(&mut layer, left, memo);
    layer
}

/// Raises each of `values` to the values `layer`'s wells have in the memo
/// (found by `value_layer`), and gives the layer's buffers back.
fn raise_from_layer(layer: Layer, values: &mut [f32], memo: &mut ChainMemo) {
    for (&(owner, _), &slot) in layer.cleared.iter().zip(&layer.slots) {
        values[owner] = values[owner].max(memo.values[slot as usize]);
    }
    memo.pool.push(layer);
}

/// Fills `layer.fresh` with the distinct wells of `layer.cleared` without
/// a value at `left` in `memo`, `layer.from` with the first well each came
/// from, `layer.slots` with the memo's slot of each of `layer.cleared`, and
/// sizes `layer.own` for the fresh wells. They get the next slots, in
/// their order, as NaN (one look-up a well finds or makes its slot), and
/// `value_layer` gives them their values before any is read: the layers
/// below look up other depths.
fn not_in_memo(layer: &mut Layer, left: u8, memo: &mut ChainMemo) {
    let Layer { cleared, fresh, from, slots, own } = layer;
    fresh.clear();
    from.clear();
    slots.clear();
    for &(owner, w) in cleared.iter() {
        let next = memo.values.len() as u32;
        let slot = *memo.slots.entry((w, left)).or_insert_with(|| {
            fresh.push(w);
            from.push(owner as u32);
            next
        });
        if slot == next {
            memo.values.push(f32::NAN);
        }
        slots.push(slot);
    }
    own.clear();
    own.resize(fresh.len(), 0.0);
}

/// Puts V(w, `left`) into `memo` for each well of `layer` (the last wells
/// `not_in_memo` gave slots, in order), given their own values `own`.
fn value_layer(
    eval: &dyn Evaluator,
    rules: Rules,
    rule: ChainRule,
    layer: &[Well],
    own: &mut [f32],
    left: u8,
    memo: &mut ChainMemo,
) {
    // The layer's slots, taken before the layers below add theirs.
    let first = memo.values.len() - layer.len();
    if left > 0 && !layer.is_empty() {
        raise_by_clears(eval, rules, rule, layer, own, left - 1, memo);
    }
    memo.values[first..first + layer.len()].copy_from_slice(own);
}

/// Raises each of `values` to the best V(w, `left`) of the wells one clear
/// of `wells` reaches, valuing (in one batch) and putting into `memo` those
/// it does not hold yet.
fn raise_by_clears(
    eval: &dyn Evaluator,
    rules: Rules,
    rule: ChainRule,
    wells: &[Well],
    values: &mut [f32],
    left: u8,
    memo: &mut ChainMemo,
) {
    let mut layer = next_layer(wells, rules, rule, left, memo);
    let fresh_rows: Vec<&[u16]> = layer.fresh.iter().map(|w| w.playable(rules)).collect();
    eval.evaluate_batch(&fresh_rows, &mut layer.own);
    value_layer(eval, rules, rule, &layer.fresh, &mut layer.own, left, memo);
    raise_from_layer(layer, values, memo);
}
