//! The `hatetris` command. Thin: every subcommand parses its flags and calls
//! the library crates; errors print one line and exit with status 2.

mod checks;
mod commands;
mod input;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "hatetris", version, about = "A HATETRIS engine: exact rules, beam search, a learned evaluator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a full game from the empty well with the embedded default network and print its replay.
    Play(commands::play::PlayArgs),
    /// Play a replay and print its score as JSON.
    Verify(commands::verify::VerifyArgs),
    /// Draw the well a replay ends in.
    Show(commands::verify::ShowArgs),
    /// Run the search -> refine -> learn cycle.
    Cycle(commands::cycle::CycleArgs),
    /// Beam search for a long game.
    Search(commands::search::SearchArgs),
    /// A cycle's refine step on its own, over one process or many: the data set the cycle writes.
    Refine(commands::refine::RefineArgs),
    /// Hunt for a record: searches restarted from a book of the best lines (UCB1).
    Hunt(commands::hunt::HuntArgs),
    /// Measure speed: JSON lines {"name","ns_per_op","ops"}.
    Bench(commands::bench::BenchArgs),
    /// Solve small wells exactly.
    Solve(commands::solve::SolveArgs),
    /// Train a network on data sets.
    Train(commands::train::TrainArgs),
    /// Label the wells of data sets with the mean value of several evaluators.
    Label(commands::label::LabelArgs),
    /// Search one game and write samples of its beams as a data set (wells for `label`).
    Sample(commands::sample::SampleArgs),
    /// Write a suite of start positions taken from replays.
    Suite(commands::suite::SuiteArgs),
    /// Measure an evaluator's search from the starts of a suite (and compare two).
    Strength(commands::strength::StrengthArgs),
    /// Compare stored `strength --json` results start by start (paired, pooled over suites).
    Compare(commands::compare::CompareArgs),
    /// Play many full games with noisy openings: mean lines, pieces, rows frozen (and compare two).
    Games(commands::games::GamesArgs),
}

fn main() {
    // Output piped into a reader that stops early (`| head`) ends the
    // process quietly, as other command-line tools do, instead of a panic
    // in `println!`: Rust ignores SIGPIPE unless told otherwise.
    #[cfg(unix)]
    // SAFETY: restoring a signal's default action before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let (cli, matches) = match parse() {
        Ok(parsed) => parsed,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                e.exit();
            }
            eprintln!("error: {}", arg_error_line(&e));
            std::process::exit(2);
        }
    };
    // The cluster flags together, before any command starts.
    let dist = match &cli.command {
        Command::Search(a) => Some(&a.dist),
        Command::Refine(a) => Some(&a.dist),
        Command::Cycle(a) => Some(&a.dist),
        Command::Hunt(a) => Some(&a.dist),
        Command::Sample(a) => Some(&a.dist),
        _ => None,
    };
    if let Err(e) = dist.map_or(Ok(()), |d| d.check()) {
        eprintln!("error: {}", one_line(&e));
        std::process::exit(2);
    }
    let result = match &cli.command {
        Command::Play(a) => commands::play::play(a),
        Command::Verify(a) => commands::verify::verify(a),
        Command::Show(a) => commands::verify::show(a),
        Command::Search(a) => {
            commands::search::search(a, matches.subcommand_matches("search").expect("the search command"))
        }
        Command::Refine(a) => commands::refine::refine(a),
        Command::Cycle(a) => commands::cycle::cycle(a, matches.subcommand_matches("cycle").expect("the cycle command")),
        Command::Hunt(a) => commands::hunt::hunt(a),
        Command::Bench(a) => commands::bench::bench(a),
        Command::Solve(a) => commands::solve::solve(a),
        Command::Train(a) => commands::train::train(a),
        Command::Label(a) => commands::label::label(a),
        Command::Sample(a) => commands::sample::sample(a),
        Command::Suite(a) => commands::suite::suite(a),
        Command::Strength(a) => commands::strength::strength(a),
        Command::Compare(a) => commands::compare::compare_files(a),
        Command::Games(a) => commands::games::games(a),
    };
    if let Err(e) = result {
        eprintln!("error: {}", one_line(&e));
        std::process::exit(2);
    }
}

/// The command line parsed, negative numbers read as values (so that
/// `--width -1` is refused as a number, not as an unknown flag), with the
/// matches kept for `cycle` and `search` (which compare the flags given
/// with a stored run's).
fn parse() -> Result<(Cli, clap::ArgMatches), clap::Error> {
    let mut cmd = Cli::command();
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, |s| s.allow_negative_numbers(true));
    }
    let matches = cmd.try_get_matches()?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok((cli, matches))
}

/// A command-line error as one line, without the usage block: its message
/// and any tip; a number that is not one a flag takes is worded as such.
fn arg_error_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = e.to_string();
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return "a command is needed (`hatetris --help` lists them)".into();
    }
    if e.kind() == ErrorKind::ValueValidation {
        if let (Some(ContextValue::String(arg)), Some(ContextValue::String(value))) =
            (e.get(ContextKind::InvalidArg), e.get(ContextKind::InvalidValue))
        {
            let flag = arg.split_whitespace().next().unwrap_or(arg);
            if text.contains("invalid digit found in string") {
                return format!("{flag} must be a whole number (0 or more), not {value}");
            }
            if text.contains("number too large") {
                return format!("{flag} {value} is too large a number");
            }
        }
    }
    let mut parts = Vec::new();
    for (i, block) in text.trim().split("\n\n").enumerate() {
        let block = block.trim();
        if i == 0 || block.starts_with("tip:") {
            let words: Vec<&str> = block.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            parts.push(words.join(" "));
        }
    }
    let line = parts.join("; ");
    line.strip_prefix("error: ").unwrap_or(&line).to_string()
}

/// The error and its causes on one line. The library errors put their
/// source in their own message (so they read well alone), and anyhow's
/// `{:#}` would append it again: a cause already in the line is skipped.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !line.contains(&c) {
            line.push_str(": ");
            line.push_str(&c);
        }
    }
    line
}
