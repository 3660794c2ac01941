pub mod bench;
pub mod compare;
pub mod cycle;
pub mod games;
pub mod hunt;
pub mod label;
pub mod play;
pub mod progress;
pub mod sample;
pub mod search;
pub mod solve;
pub mod strength;
pub mod suite;
pub mod train;
pub mod verify;

/// Sizes rayon's global pool when `--threads` is given (else all cores).
pub fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    use anyhow::Context;
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global().context("cannot start the thread pool")?;
    }
    Ok(())
}

/// `--threads` and `--quiet` as search, sample, games, strength, cycle and hunt
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

impl RunArgs {
    /// Sizes the thread pool as `--threads` asks.
    pub fn start_pool(&self) -> anyhow::Result<()> {
        set_threads(self.threads)
    }
}
