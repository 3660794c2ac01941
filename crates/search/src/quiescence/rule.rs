//! The chain settings: which clears a chain follows (`ChainRule`), how deep
//! and how much of its rise counts (`Chains`, `Blend`), with their names,
//! codes and parsing.

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
pub(super) fn raise_blended(blend: Blend, values: &mut [f32], raise: impl FnOnce(&mut [f32])) {
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
