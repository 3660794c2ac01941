//! The `hatetris` command. Thin: every subcommand parses its flags and calls
//! the library crates; errors print one line and exit with status 2.

mod commands;
mod input;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "hatetris", version, about = "A HATETRIS engine: exact rules, beam search, a learned evaluator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a full game with the embedded network and print its replay.
    Play(commands::play::PlayArgs),
    /// Play a replay and print its score as JSON.
    Verify(commands::verify::VerifyArgs),
    /// Draw the well a replay ends in.
    Show(commands::verify::ShowArgs),
    /// Run the search -> refine -> learn cycle.
    Cycle(commands::cycle::CycleArgs),
    /// Beam search for a long game.
    Search(commands::search::SearchArgs),
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
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Play(a) => commands::play::play(a),
        Command::Verify(a) => commands::verify::verify(a),
        Command::Show(a) => commands::verify::show(a),
        Command::Search(a) => commands::search::search(a),
        Command::Cycle(a) => commands::cycle::cycle(a),
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
