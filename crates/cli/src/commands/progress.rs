//! Progress for long runs: a bar on a terminal, plain log lines otherwise.

use hatetris_search::DepthReport;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub struct DepthProgress {
    bar: Option<ProgressBar>,
    quiet: bool,
    label: String,
    last_log: Instant,
}

impl DepthProgress {
    pub fn new(quiet: bool, label: &str) -> DepthProgress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(ProgressStyle::with_template("{spinner} {prefix} [{elapsed_precise}] {msg}").unwrap());
            b.set_prefix(label.to_string());
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        DepthProgress { bar, quiet, label: label.to_string(), last_log: Instant::now() }
    }

    fn line(r: &DepthReport) -> String {
        format!(
            "depth {} beam {} best {} lines, {:.0} entries/s, tree {} nodes",
            r.depth, r.beam, r.best_score, r.entries_per_sec, r.tree_nodes
        )
    }

    pub fn update(&mut self, r: &DepthReport) {
        if let Some(b) = &self.bar {
            b.set_message(Self::line(r));
        } else if !self.quiet && self.last_log.elapsed() >= Duration::from_secs(5) {
            eprintln!("{}: {}", self.label, Self::line(r));
            self.last_log = Instant::now();
        }
    }

    pub fn finish(&mut self, r: &DepthReport) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if !self.quiet {
            eprintln!("{}: done, {} in {:.1}s", self.label, Self::line(r), r.elapsed_secs);
        }
    }

    /// Clears the bar without a closing line (the caller reports instead).
    pub fn finish_quietly(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}
