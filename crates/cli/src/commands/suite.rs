//! `hatetris suite`: start positions for `hatetris strength`, taken from
//! replays of real games.

use crate::input::read_replay;
use anyhow::{bail, Result};
use clap::Args;
use hatetris_strength::Suite;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// A replay (a file, or `-` for standard input; raw, hex, Base65536 or
    /// Base2048). Repeat for several games.
    #[arg(long = "from", required = true)]
    pub from: Vec<PathBuf>,
    /// Take a start every N pieces.
    #[arg(long)]
    pub every: usize,
    /// The first start is after this many pieces.
    #[arg(long, default_value_t = 0)]
    pub skip: usize,
    /// The last start is after at most this many pieces (default: the
    /// game's end): e.g. a game's steady phase, before the rows near its
    /// floor froze.
    #[arg(long)]
    pub until: Option<usize>,
    /// The suite file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Names of the games (one per --from, in order; default: each file's
    /// name without its extension).
    #[arg(long)]
    pub source: Vec<String>,
}

/// A replay's default name: its file name without the extension.
fn stem(path: &Path) -> String {
    if path == Path::new("-") {
        return "stdin".into();
    }
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string())
}

pub fn suite(args: &SuiteArgs) -> Result<()> {
    if args.every == 0 {
        bail!("--every must be at least 1");
    }
    if let Some(until) = args.until {
        if until == 0 || until < args.skip {
            bail!("--until must be at least 1 and at least --skip ({}), got {until}", args.skip);
        }
    }
    if !args.source.is_empty() && args.source.len() != args.from.len() {
        bail!(
            "{} --source names for {} --from replays (give one per replay, or none)",
            args.source.len(),
            args.from.len()
        );
    }
    crate::checks::not_an_input("out", &args.out, args.from.iter().map(|p| ("from", p.as_path())))?;
    crate::checks::output("out", &args.out)?;
    let mut suite = Suite::default();
    let mut counts = Vec::new();
    for (i, path) in args.from.iter().enumerate() {
        let keys = read_replay(Some(path))?;
        let name = args.source.get(i).cloned().unwrap_or_else(|| stem(path));
        let mut part = Suite::from_replay(&name, &keys, args.every, args.skip);
        if let Some(until) = args.until {
            part.starts.retain(|start| start.piece as usize <= until);
        }
        if part.starts.is_empty() {
            bail!("--skip {} leaves no starts in {} (its game is not that long)", args.skip, path.display());
        }
        counts.push(format!("{name} {}", part.starts.len()));
        suite.starts.extend(part.starts);
    }
    suite.save(&args.out)?;
    println!("wrote {} starts ({}) to {}", suite.starts.len(), counts.join(", "), args.out.display());
    Ok(())
}
