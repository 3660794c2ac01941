//! Quiescence: a well from which the player could clear lines is worth at
//! least the best well at the end of such a chain of clears, since the
//! network sees only the well in front of it. Which clears a chain may take
//! is the `ChainRule`: the enemy decides which piece comes, so a rule that
//! follows the piece the enemy would give values wells by what can really
//! happen, where taking every S and Z clear counts on gifts the enemy
//! never makes.

use hatetris_eval::Evaluator;
use hatetris_game::{
    choose_piece_memoryless_and_clears, for_each_completing_lock, for_each_completing_s_lock,
    for_each_completing_sz_lock, memoryless_piece_cannot_clear, sz_completable_rows, Piece, Rules, Well,
};
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::str::FromStr;

/// How many clears deep a chain is followed by default: none. The chains
/// made a search 2.2 times slower and, with the networks learned here,
/// weaker on the suites: at width 1,000 over 283 starts, without them ens-a
/// survives +2.3 [+0.6, +4.0] pieces longer and ens-b +3.7 [+1.8, +5.5]
/// (`docs/experiments.md`, "Search settings"). Depth 1 (the immediate
/// clears; 49 µs an entry on a width-200 baseline search, 111 at 2, 175 at
/// 4) stays a setting.
pub const DEFAULT_CHAIN: u32 = 0;

/// Which clears a chain follows from a well.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChainRule {
    /// Every S and Z clear, of any number of lines: the player's best
    /// case, which the enemy never grants.
    Sz,
    /// The record engine's rule: the first piece in the order S, Z, O, I,
    /// L, J, T none of whose placements clears two lines (the piece a
    /// HATETRIS enemy hands over when a clear cannot be avoided), and its
    /// one-line clears.
    #[default]
    Record,
    /// The piece the game's own enemy would hand over in that well (without
    /// memory), and every clear that piece allows.
    Enemy,
    /// The record rule only where every piece can clear a line, so that
    /// the enemy cannot avoid handing over a clear. Where some piece
    /// clears nothing the game's enemy gives one that clears nothing (its
    /// best placement leaves the highest stack), and the record rule's S
    /// clear there is a gift it never makes: a well of nearly full rows
    /// whose holes S reaches but O does not chains to the record rule,
    /// and beams that trusted such chains died in them.
    Forced,
}

impl ChainRule {
    pub const ALL: [ChainRule; 4] = [ChainRule::Sz, ChainRule::Record, ChainRule::Enemy, ChainRule::Forced];

    pub fn name(self) -> &'static str {
        match self {
            ChainRule::Sz => "sz",
            ChainRule::Record => "record",
            ChainRule::Enemy => "enemy",
            ChainRule::Forced => "forced",
        }
    }

    /// The code stored in checkpoints: 0 for `Sz`, which is what files
    /// written before the rules existed meant.
    pub fn code(self) -> u32 {
        match self {
            ChainRule::Sz => 0,
            ChainRule::Record => 1,
            ChainRule::Enemy => 2,
            ChainRule::Forced => 3,
        }
    }

    pub fn from_code(code: u32) -> Option<ChainRule> {
        ChainRule::ALL.into_iter().find(|r| r.code() == code)
    }
}

/// A chain setting: the rule, how many clears deep (0: off), in a search
/// which candidates are chained, and how much of what a chain adds counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Chains {
    pub rule: ChainRule,
    pub depth: u32,
    /// A search chains only its `band` x width best candidates by their own
    /// values (0: all of them). See `SearchConfig::chain_band`.
    pub band: u32,
    /// How much of the rise a chain gives a valued well counts.
    pub blend: Blend,
    /// How many of the wells a clear reaches a chain goes on from: the
    /// `follow` best by their own values (0: every one, the whole tree the
    /// rule allows). See `follow_chains`.
    pub follow: u32,
}

/// The part of a chain's rise that counts: a well of own value v whose
/// chains reach m is worth `v + blend (max(v, m) - v)`. `FULL` (1) is the
/// record engine's `max(v, m)`, which counts every chain as granted; the
/// enemy grants few (it picks the piece, and a chain needs the right ones
/// in a row), and at width 2,000 blends of 0.5 to 0.75 play 4 to 10 lines
/// longer than 1 (docs/runs/chains/damp/). Only the wells a search values
/// are blended: inside a chain each well keeps the best of its own chains,
/// so the blend discounts a chain once, not once a clear.
///
/// Kept in thousandths, so that a setting is exact, compares and hashes as
/// a number, and a checkpoint stores it in a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Blend(u16);

impl Blend {
    /// The whole rise: `max(v, m)`.
    pub const FULL: Blend = Blend(1000);

    /// The blend of `thousandths` / 1000, if at most 1.
    pub fn from_thousandths(thousandths: u32) -> Option<Blend> {
        (thousandths <= 1000).then_some(Blend(thousandths as u16))
    }

    pub fn thousandths(self) -> u32 {
        self.0 as u32
    }

    pub fn fraction(self) -> f32 {
        self.0 as f32 / 1000.0
    }

    /// The blended value of a well of own value `own` whose chains reach
    /// `chained` (at least `own`).
    pub fn apply(self, own: f32, chained: f32) -> f32 {
        if self == Blend::FULL {
            chained
        } else {
            own + self.fraction() * (chained - own)
        }
    }
}

impl Default for Blend {
    fn default() -> Self {
        Blend::FULL
    }
}

impl std::fmt::Display for Blend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, part) = (self.0 / 1000, self.0 % 1000);
        if part == 0 {
            return write!(f, "{whole}");
        }
        let digits = format!("{part:03}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

impl FromStr for Blend {
    type Err = String;
    /// A decimal from 0 to 1 with at most three places.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("chain blend '{s}' is not a decimal from 0 to 1 with at most three places");
        let (whole, part) = s.trim().split_once('.').unwrap_or((s.trim(), ""));
        if whole.is_empty() && part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let whole: u32 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad())? };
        let part: u32 = if part.is_empty() { 0 } else { format!("{part:0<3}").parse().map_err(|_| bad())? };
        whole.checked_mul(1000).and_then(|w| w.checked_add(part)).and_then(Blend::from_thousandths).ok_or_else(bad)
    }
}

impl serde::Serialize for Blend {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.0 as f64 / 1000.0)
    }
}

impl<'de> serde::Deserialize<'de> for Blend {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let x = f64::deserialize(d)?;
        let t = (x * 1000.0).round();
        if !(0.0..=1000.0).contains(&t) || (x * 1000.0 - t).abs() > 1e-6 {
            return Err(serde::de::Error::custom(format!(
                "chain blend {x} is not a decimal from 0 to 1 with at most three places"
            )));
        }
        Ok(Blend(t as u16))
    }
}

/// Raises `values` (the wells' own values) by `raise`, then keeps `blend`
/// of each rise: the one place both entry points (`chained_children`,
/// `raise_values`) blend, and the whole rise costs no copy.
fn raise_blended(blend: Blend, values: &mut [f32], raise: impl FnOnce(&mut [f32])) {
    if blend == Blend::FULL {
        return raise(values);
    }
    let own = values.to_vec();
    raise(values);
    for (v, o) in values.iter_mut().zip(own) {
        *v = blend.apply(o, *v);
    }
}

impl std::fmt::Display for ChainRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ChainRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ChainRule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown chain rule '{s}' (expected sz, record, enemy or forced)"))
    }
}

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
fn follow_chains(
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

/// Calls `reached(k, next)` for each well `next` that a clear `rule` allows
/// in `wells[k]` leaves, unless the game ends. Each `k` is visited in one
/// run of calls, in increasing order of `k` for the record and enemy rules.
pub fn for_each_clear(wells: &[Well], rules: Rules, rule: ChainRule, mut reached: impl FnMut(usize, Well)) {
    match rule {
        ChainRule::Sz => sz_clears(wells, rules, |k, _, next, _| reached(k, next)),
        ChainRule::Record => record_clears(wells, rules, false, reached),
        ChainRule::Forced => record_clears(wells, rules, true, reached),
        ChainRule::Enemy => {
            for (k, well) in wells.iter().enumerate() {
                // In two wells of five the enemy's piece provably cannot
                // clear: no sweep.
                if memoryless_piece_cannot_clear(well, rules) {
                    continue;
                }
                // The sweep that finds the enemy's piece keeps its clears.
                let mut locks = Vec::new();
                let piece = choose_piece_memoryless_and_clears(well, rules, |x, y, o| locks.push((x, y, o)));
                clears_of_locks(well, piece, &locks, |next, _| reached(k, next));
            }
        }
    }
}

/// Every S and Z clear of each of `wells`, once per set of cells placed,
/// with the lines it clears: `reached(k, piece, next, lines)`.
fn sz_clears(wells: &[Well], rules: Rules, reached: impl FnMut(usize, Piece, Well, u32)) {
    wells_clears(wells, rules, false, reached)
}

/// `sz_clears`, or with `s_only` the S clears alone.
fn wells_clears(wells: &[Well], rules: Rules, s_only: bool, mut reached: impl FnMut(usize, Piece, Well, u32)) {
    // Only the wells where some S or Z could complete a row are swept.
    let (mut swept, mut owners) = SWEPT.take();
    swept.clear();
    owners.clear();
    for (i, well) in wells.iter().enumerate() {
        if sz_might_clear(well, rules) {
            swept.push(*well);
            owners.push(i);
        }
    }
    let mut visit = |k: usize, piece: Piece, x, y, o| {
        let mut next = swept[k];
        let lines = next.lock(piece.shape(o), x, y);
        if lines > 0 && !next.is_game_over() {
            reached(owners[k], piece, next, lines);
        }
    };
    if s_only {
        for_each_completing_s_lock(&swept, rules, |k, x, y, o| visit(k, Piece::S, x, y, o));
    } else {
        for_each_completing_sz_lock(&swept, rules, visit);
    }
    SWEPT.set((swept, owners));
}

/// A clear: the well it came from (an index), the piece, the well it
/// leaves and the lines it clears.
type Clear = (usize, Piece, Well, u32);

thread_local! {
    // Buffers the sweeps of every layer of every call need, lent to one
    // call at a time (taken and given back: a nested call finds them
    // taken and makes its own). Allocated per call they cost a few
    // percent of a chained search.
    static SWEPT: Cell<(Vec<Well>, Vec<usize>)> = Cell::default();
    static CLEARS: Cell<Vec<Clear>> = Cell::default();
    static SORTED: Cell<Vec<Clear>> = Cell::default();
    static STARTS: Cell<Vec<usize>> = Cell::default();
}

/// The record engine's rule for each of `wells` (see `ChainRule::Record`);
/// `forced`: only in wells where every piece can clear (`ChainRule::Forced`).
fn record_clears(wells: &[Well], rules: Rules, forced: bool, reached: impl FnMut(usize, Well)) {
    if forced {
        record_clears_sz(wells, rules, true, reached)
    } else {
        s_first_clears(wells, rules, reached)
    }
}

/// `record_clears` from one S/Z sweep of every well that could clear.
fn record_clears_sz(wells: &[Well], rules: Rules, forced: bool, mut reached: impl FnMut(usize, Well)) {
    // S's clears decide most wells: S is the piece unless it can clear two
    // lines, and where S cannot clear the chain stops, so one S/Z sweep of
    // the wells that could clear at all does nearly all the work.
    let mut sz: Vec<Clear> = Vec::new();
    sz_clears(wells, rules, |k, piece, next, lines| sz.push((k, piece, next, lines)));
    // The sweep interleaves four wells: grouped by well, S before Z, each
    // piece's clears in their order (a counting sort; the comparison sort
    // took 5% of a chained search).
    let mut by_well = Vec::new();
    group_by_well(&sz, wells.len(), &mut by_well);
    let mut rest = Vec::new();
    for group in by_well.chunk_by(|a, b| a.0 == b.0) {
        let k = group[0].0;
        let (s, z) = group.split_at(group.partition_point(|c| c.1 == Piece::S));
        if forced && (s.is_empty() || z.is_empty() || !others_clear(&wells[k], rules)) {
            continue;
        }
        for c in record_choice(&wells[k], rules, s, z, &mut rest) {
            reached(k, c.2);
        }
    }
}

/// The record rule without `forced`: S is the enemy's piece in nearly
/// every well (it has no clear, or only one-line clears), so the wells are
/// swept for S alone, eight to a sweep, and for Z (and the rest in order)
/// only where an S clears two lines. The same wells, in the same order,
/// as `record_clears_sz`.
fn s_first_clears(wells: &[Well], rules: Rules, mut reached: impl FnMut(usize, Well)) {
    let mut s = CLEARS.take();
    s.clear();
    wells_clears(wells, rules, true, |k, piece, next, lines| s.push((k, piece, next, lines)));
    let mut sorted = SORTED.take();
    group_by_well(&s, wells.len(), &mut sorted);
    CLEARS.set(s);
    let mut rest = Vec::new();
    for group in sorted.chunk_by(|a, b| a.0 == b.0) {
        let k = group[0].0;
        if single(group) {
            for c in group {
                reached(k, c.2);
            }
            continue;
        }
        // Rare: an S clears two lines. This well's S and Z clears as the
        // S/Z sweep gives them (S before Z), and the rule's choice.
        let mut sz = Vec::new();
        sz_clears(std::slice::from_ref(&wells[k]), rules, |_, piece, next, lines| sz.push((0, piece, next, lines)));
        let mut by_well = Vec::new();
        group_by_well(&sz, 1, &mut by_well);
        let (s, z) = by_well.split_at(by_well.partition_point(|c| c.1 == Piece::S));
        for c in record_choice(&wells[k], rules, s, z, &mut rest) {
            reached(k, c.2);
        }
    }
    SORTED.set(sorted);
}

/// Do all of `clears` clear one line?
fn single(clears: &[Clear]) -> bool {
    clears.iter().all(|c| c.3 == 1)
}

/// The clears of the piece the record rule picks in `well`, given S's
/// clears `s` and Z's `z` (the rest are found here when both clear two
/// lines, into `rest`). A piece with no clear is the enemy's and ends the
/// chain.
fn record_choice<'a>(
    well: &Well,
    rules: Rules,
    s: &'a [Clear],
    z: &'a [Clear],
    rest: &'a mut Vec<Clear>,
) -> &'a [Clear] {
    if s.is_empty() || single(s) {
        return s;
    }
    if z.is_empty() || single(z) {
        return z;
    }
    // S and Z both clear two lines: the rest in order. No random stack of
    // near-full rows tried (two million) reached this.
    rest.clear();
    let k = s[0].0;
    for piece in [Piece::O, Piece::I, Piece::L, Piece::J, Piece::T] {
        let mut clears = Vec::new();
        piece_clears(well, rules, piece, |next, lines| clears.push((k, piece, next, lines)));
        if single(&clears) {
            *rest = clears;
            break;
        }
    }
    rest
}

/// `clears` ordered by well, S before Z, each piece's in their order,
/// into `sorted`.
fn group_by_well(clears: &[Clear], wells: usize, sorted: &mut Vec<Clear>) {
    let key = |c: &Clear| c.0 * 2 + usize::from(c.1 != Piece::S);
    let mut at = STARTS.take();
    at.clear();
    at.resize(wells * 2 + 1, 0);
    for c in clears {
        at[key(c) + 1] += 1;
    }
    for i in 0..wells * 2 {
        at[i + 1] += at[i];
    }
    sorted.clear();
    sorted.extend_from_slice(clears);
    for c in clears {
        sorted[at[key(c)]] = *c;
        at[key(c)] += 1;
    }
    STARTS.set(at);
}

/// Can each of O, I, L, J and T clear a line in `well` (without ending
/// the game)?
fn others_clear(well: &Well, rules: Rules) -> bool {
    [Piece::O, Piece::I, Piece::L, Piece::J, Piece::T].into_iter().all(|piece| {
        let mut any = false;
        for_each_completing_lock(well, rules, &[piece], |piece, x, y, o| {
            if !any {
                let mut next = *well;
                any = next.lock(piece.shape(o), x, y) > 0 && !next.is_game_over();
            }
        });
        any
    })
}

/// The clears `piece` can make in `well`, once per well they leave, with
/// the lines each clears.
fn piece_clears(well: &Well, rules: Rules, piece: Piece, reached: impl FnMut(Well, u32)) {
    let mut locks = Vec::new();
    for_each_completing_lock(well, rules, &[piece], |_, x, y, o| locks.push((x, y, o)));
    clears_of_locks(well, piece, &locks, reached)
}

/// The clears of `piece`'s completing `locks` in `well`, once per well
/// they leave, with the lines each clears.
fn clears_of_locks(well: &Well, piece: Piece, locks: &[(i32, i32, u8)], mut reached: impl FnMut(Well, u32)) {
    let mut placed: Vec<Well> = Vec::new();
    for &(x, y, o) in locks {
        let mut next = *well;
        let lines = next.lock(piece.shape(o), x, y);
        if lines > 0 && !next.is_game_over() && !placed.contains(&next) {
            placed.push(next);
            reached(next, lines);
        }
    }
}

/// Can some S or Z placement possibly complete a row? Exact as a
/// necessary condition (see `sz_completable_rows`), and a few bit
/// operations against the sweep it saves.
#[inline]
fn sz_might_clear(well: &Well, rules: Rules) -> bool {
    sz_completable_rows(well, rules) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_game::reference::reference_choose_piece;
    use hatetris_game::{for_each_lock_position, Well};

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
    fn naive_follow(
        eval: &dyn Evaluator,
        rules: Rules,
        well: &Well,
        rule: ChainRule,
        chain: u32,
        follow: usize,
    ) -> f32 {
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
                    let row =
                        hatetris_game::FULL_ROW & !(0b11 << gap) & !(((rng >> 40) & 1) as u16) << ((rng >> 44) % 10);
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
}
