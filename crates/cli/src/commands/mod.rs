pub mod bench;
pub mod compare;
pub mod cycle;
pub mod dist;
pub mod games;
pub mod hunt;
pub mod label;
pub mod play;
pub mod progress;
pub mod refine;
pub mod sample;
pub mod search;
pub mod solve;
pub mod strength;
pub mod suite;
pub mod train;
pub mod verify;

/// Sizes rayon's global pool when `--threads` is given (else all cores);
/// more than the machine can use is refused.
pub fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    use anyhow::Context;
    crate::checks::threads(threads)?;
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global().context("cannot start the thread pool")?;
    }
    Ok(())
}

/// `--threads` and `--quiet` as search, refine, sample, games, strength, cycle and hunt
/// share them (train, solve and label word theirs differently).
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

/// The clear chains a search's values look through, as every searching
/// command takes them.
#[derive(clap::Args, Debug, Clone)]
pub struct ChainArgs {
    /// Depth of the line-clear chains a value looks through (0: off).
    #[arg(long, default_value_t = hatetris_search::quiescence::DEFAULT_CHAIN)]
    pub quiescence: u32,
    /// Which clears the chains follow: `record` (the record engine's: the
    /// first of S, Z, O, I, L, J, T that cannot clear two lines, one line a
    /// step), `forced` (the record rule only where every piece can clear,
    /// so that the enemy cannot avoid a clear), `enemy` (the piece the
    /// enemy would give there) or `sz` (every S and Z clear).
    #[arg(long, default_value_t = hatetris_search::ChainRule::default())]
    pub chain_rule: hatetris_search::ChainRule,
    /// Chain only the candidates among this many times the width best by
    /// their own values (0: every candidate).
    #[arg(long, default_value_t = 0)]
    pub chain_band: u32,
    /// How much of a chain's rise counts, from 0 to 1 (up to three
    /// places): a well of own value v whose chains reach m is worth
    /// v + blend (max(v, m) - v); 1 is the record engine's max(v, m).
    #[arg(long, default_value_t = hatetris_search::Blend::FULL)]
    pub chain_blend: hatetris_search::Blend,
    /// After each clear, go on from only this many of the wells it reaches,
    /// the best by their own values (0: from every one, the whole tree the
    /// rule allows; 1: one line of clears, about 0.6 times the cost).
    #[arg(long, default_value_t = 0)]
    pub chain_follow: u32,
}

impl ChainArgs {
    /// The setting, checked: a depth past `MAX_CHAIN` is refused.
    pub fn chains(&self) -> anyhow::Result<hatetris_search::Chains> {
        chain_depth("quiescence", self.quiescence)?;
        if self.chain_band > MAX_BAND {
            anyhow::bail!("--chain-band must be at most {MAX_BAND}");
        }
        if self.chain_follow > MAX_FOLLOW {
            anyhow::bail!("--chain-follow must be at most {MAX_FOLLOW}");
        }
        Ok(self.unchecked())
    }

    /// The setting as given (after `chains` has checked it).
    pub fn unchecked(&self) -> hatetris_search::Chains {
        hatetris_search::Chains {
            rule: self.chain_rule,
            depth: self.quiescence,
            band: self.chain_band,
            blend: self.chain_blend,
            follow: self.chain_follow,
        }
    }
}

/// Chains longer than the rows of a well clear nothing more: 100 is past
/// any chain a game can hold, and keeps the depth well inside the 24 bits
/// a checkpoint stores it in.
pub const MAX_CHAIN: u32 = 100;

/// Refuses a chain depth (`--FLAG`) past [`MAX_CHAIN`].
pub fn chain_depth(flag: &str, depth: u32) -> anyhow::Result<()> {
    if depth > MAX_CHAIN {
        anyhow::bail!("--{flag} must be at most {MAX_CHAIN}");
    }
    Ok(())
}

/// A band of 1,000 widths chains every candidate any piece can give (at
/// most a few dozen landings an entry); the cap keeps it in a checkpoint's
/// 16 bits.
pub const MAX_BAND: u32 = 1000;

/// A clear reaches at most a few dozen wells: following 100 of them is
/// following every one, by another road.
pub const MAX_FOLLOW: u32 = 100;

impl RunArgs {
    /// Sizes the thread pool as `--threads` asks.
    pub fn start_pool(&self) -> anyhow::Result<()> {
        set_threads(self.threads)
    }
}
