//! A hunt in a run directory, resumable at any moment:
//!
//! - `book.htbk`: the settings, the book and the history of iterations
//!   (JSON in the engine's file frame: magic, version, CRC32), written
//!   atomically after every iteration; a killed hunt redoes at most the
//!   iteration it was in, which gives the same line again (a search's line
//!   depends only on its start, width and seed);
//! - `best.b2048`: the best line, replayed by the engine from the empty
//!   well through its own decoder before it is written;
//! - `metrics.jsonl` and `progress.png`: the history, rewritten from the
//!   book after every iteration.

use crate::book::{Book, Choice};
use hatetris_eval::Evaluator;
use hatetris_fileio::frame::{self, FrameError};
use hatetris_fileio::write_atomically;
use hatetris_game::replay::Format;
use hatetris_game::{Enemy, Rules};
use hatetris_search::runner::{Alone, Runner};
use hatetris_search::{verified_replay, BeamState, Blend, ChainRule, DepthReport, LineError, SearchConfig};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

const MAGIC: &[u8; 4] = b"HTBK";
const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HuntConfig {
    /// The evaluator's identity (`EvalSpec::load`): a resumed hunt must
    /// find the same weights.
    pub eval: String,
    /// Beam width of the k-th search from one position; a position is
    /// searched at most once at each.
    pub widths: Vec<usize>,
    pub seed: u64,
    /// Pieces between the book's positions on a line.
    pub stride: u32,
    /// Weight of UCB1's exploration term (values are in [0, 1]).
    pub explore: f64,
    /// Line-clear chain depth of the searches.
    pub quiescence: u32,
    /// Which clears the chains follow; hunts from before the rules existed
    /// followed every S and Z clear.
    #[serde(default = "sz_rule")]
    pub chain_rule: ChainRule,
    /// Chain only this many times the width of best candidates (0: all).
    #[serde(default)]
    pub chain_band: u32,
    /// How much of a chain's rise counts (1: all, as books before the
    /// setting existed searched).
    #[serde(default)]
    pub chain_blend: Blend,
    /// How many wells a chain goes on from after each clear (0: every one,
    /// as books before the setting existed searched).
    #[serde(default)]
    pub chain_follow: u32,
}

fn sz_rule() -> ChainRule {
    ChainRule::Sz
}

/// One search of the hunt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    pub iteration: usize,
    pub node: u32,
    /// Pieces placed before the search started.
    pub node_depth: u32,
    pub width: usize,
    /// Final lines of the line the search found.
    pub lines: u32,
    pub pieces: usize,
    /// The hunt's best after this iteration.
    pub best_lines: u32,
    pub search_seconds: f64,
    /// Hunt time (every run of the command added) when the iteration ended.
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HuntState {
    pub config: HuntConfig,
    pub book: Book,
    pub history: Vec<Iteration>,
}

#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    #[error("cannot {action} {path}: {source}")]
    Io { action: &'static str, path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Frame { path: PathBuf, source: FrameError },
    #[error("{path}: damaged book body: {what}")]
    Body { path: PathBuf, what: String },
    #[error("the line from book position {node} does not replay: {source}")]
    Line { node: u32, source: LineError },
    #[error("the engine scores the best line {verified} but the search expected {expected}")]
    Mismatch { verified: u32, expected: u32 },
    #[error("the widths must be at least 1")]
    BadWidths,
    #[error("the stride must be at least 1")]
    BadStride,
    #[error("{0}")]
    Spread(String),
}

/// When to stop: the hunt's totals over every run of the command.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    pub iterations: Option<usize>,
    pub seconds: Option<f64>,
}

pub enum HuntEvent<'a> {
    /// A search is about to start.
    Start { iteration: usize, choice: &'a Choice, width: usize },
    /// A search went one piece deeper.
    Depth(&'a DepthReport),
    /// An iteration ended and everything is written.
    Done(&'a Iteration),
    /// The best line improved and `best.b2048` was written.
    NewBest { lines: u32, path: &'a Path },
    /// Every position of the book has been searched at every width.
    Exhausted,
    /// The progress plot could not be drawn (the hunt goes on).
    PlotFailed(String),
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> HuntError {
    let path = path.to_path_buf();
    move |source| HuntError::Io { action, path, source }
}

impl HuntState {
    pub fn new(config: HuntConfig) -> Result<HuntState, HuntError> {
        if config.widths.is_empty() || config.widths.contains(&0) {
            return Err(HuntError::BadWidths);
        }
        if config.stride == 0 {
            return Err(HuntError::BadStride);
        }
        Ok(HuntState { book: Book::new(config.stride), config, history: Vec::new() })
    }

    pub fn book_path(dir: &Path) -> PathBuf {
        dir.join("book.htbk")
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        frame::encode(MAGIC, VERSION, &serde_json::to_vec(self).expect("a hunt state serialises"))
    }

    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<HuntState, HuntError> {
        let (_, body) = frame::decode(bytes, MAGIC, "hunt book", &[VERSION])
            .map_err(|source| HuntError::Frame { path: path.to_path_buf(), source })?;
        serde_json::from_slice(body).map_err(|e| HuntError::Body { path: path.to_path_buf(), what: e.to_string() })
    }

    /// The hunt saved in `dir`, if there is one.
    pub fn load(dir: &Path) -> Result<Option<HuntState>, HuntError> {
        let path = Self::book_path(dir);
        match std::fs::read(&path) {
            Ok(bytes) => Self::from_bytes(&bytes, &path).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io("read", &path)(e)),
        }
    }

    fn save(&self, dir: &Path) -> Result<(), HuntError> {
        let path = Self::book_path(dir);
        write_atomically(&path, &self.to_bytes()).map_err(io("write", &path))
    }

    fn seconds(&self) -> f64 {
        self.history.last().map_or(0.0, |i| i.seconds)
    }

    fn search_config(&self, width: usize, iteration: usize) -> SearchConfig {
        SearchConfig {
            width,
            rules: Rules::STANDARD,
            enemy: Enemy::Hatetris,
            quiescence: self.config.quiescence,
            chain_rule: self.config.chain_rule,
            chain_band: self.config.chain_band,
            chain_blend: self.config.chain_blend,
            chain_follow: self.config.chain_follow,
            seed: self.config.seed ^ (iteration as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            twins: 1,
            max_depth: 0,
        }
    }

    /// Runs iterations until `budget` is spent, saving after each. A search
    /// still running when the time is up is abandoned (the book stays as
    /// the last finished iteration left it, so it is reproducible).
    pub fn run(
        &mut self,
        dir: &Path,
        eval: &Arc<dyn Evaluator>,
        budget: Budget,
        on_event: &mut dyn FnMut(HuntEvent),
    ) -> Result<(), HuntError> {
        // Alone, the evaluator's name is never read.
        self.run_on(&mut Alone, dir, eval, "", budget, on_event)
    }

    /// [`HuntState::run`] with the searches run by `runner`. Spread over
    /// processes (each with its own `dir`, all with the same settings),
    /// the processes agree before each iteration whether to go on (the
    /// time is up when it is up on any of them), and a search is never
    /// abandoned midway, so that every book stays the same.
    pub fn run_on(
        &mut self,
        runner: &mut dyn Runner,
        dir: &Path,
        eval: &Arc<dyn Evaluator>,
        eval_name: &str,
        budget: Budget,
        on_event: &mut dyn FnMut(HuntEvent),
    ) -> Result<(), HuntError> {
        let spread = runner.processes() > 1;
        std::fs::create_dir_all(dir).map_err(io("create", dir))?;
        // Before any search: what a killed hunt left half-written goes,
        // the directory must take new files, and a best line deleted by
        // hand is written again from the book.
        hatetris_fileio::remove_stale_temps(dir).map_err(io("clean", dir))?;
        hatetris_fileio::check_writable(&Self::book_path(dir)).map_err(io("write in", dir))?;
        self.restore_best(dir)?;
        let started = Instant::now();
        let base = self.seconds();
        let now = |started: &Instant| base + started.elapsed().as_secs_f64();
        let out_of_time = |t: f64| budget.seconds.is_some_and(|s| t >= s);
        loop {
            let iteration = self.history.len();
            let stop = budget.iterations.is_some_and(|n| iteration >= n) || out_of_time(now(&started));
            let stop = if spread { runner.least(u64::from(!stop)).map_err(HuntError::Spread)? == 0 } else { stop };
            if stop {
                return Ok(());
            }
            let Some(choice) = self.book.choose(self.config.explore, self.config.widths.len() as u32) else {
                on_event(HuntEvent::Exhausted);
                return Ok(());
            };
            let width = self.config.widths[choice.restarts as usize];
            on_event(HuntEvent::Start { iteration, choice: &choice, width });
            let config = self.search_config(width, iteration);
            let mut state = BeamState::from_moves(&choice.path, config.rules, config.enemy)
                .map_err(|source| HuntError::Line { node: choice.node, source })?;
            let t = Instant::now();
            let mut abandoned = false;
            let result = runner
                .search(&mut state, &config, eval, eval_name, false, &mut |report, _| {
                    on_event(HuntEvent::Depth(report));
                    abandoned = !spread && out_of_time(now(&started));
                    !abandoned
                })
                .map_err(HuntError::Spread)?;
            if abandoned {
                return Ok(());
            }
            if self.book.improved_by(result.score) {
                let verified = verified_replay(config.rules, config.enemy, &result.moves, Format::Base2048)
                    .map_err(|source| HuntError::Line { node: choice.node, source })?;
                if verified.score != result.score {
                    return Err(HuntError::Mismatch { verified: verified.score, expected: result.score });
                }
                let path = dir.join("best.b2048");
                write_atomically(&path, format!("{}\n", verified.replay).as_bytes()).map_err(io("write", &path))?;
                on_event(HuntEvent::NewBest { lines: result.score, path: &path });
            }
            self.book.record(choice.node, &result.moves, result.score);
            self.history.push(Iteration {
                iteration,
                node: choice.node,
                node_depth: choice.depth,
                width,
                lines: result.score,
                pieces: result.moves.len(),
                best_lines: self.book.best_lines,
                search_seconds: t.elapsed().as_secs_f64(),
                seconds: now(&started),
            });
            self.save(dir)?;
            self.write_reports(dir, on_event)?;
            on_event(HuntEvent::Done(self.history.last().unwrap()));
        }
    }

    /// Writes `best.b2048` from the book's best line if the file is missing.
    fn restore_best(&self, dir: &Path) -> Result<(), HuntError> {
        let path = dir.join("best.b2048");
        if self.book.best_line.is_empty() || path.exists() {
            return Ok(());
        }
        let moves: Vec<hatetris_search::moves::Move> =
            self.book.best_line.iter().map(|&m| hatetris_search::moves::Move::unpack(m)).collect();
        let verified = verified_replay(Rules::STANDARD, Enemy::Hatetris, &moves, Format::Base2048)
            .map_err(|source| HuntError::Line { node: 0, source })?;
        write_atomically(&path, format!("{}\n", verified.replay).as_bytes()).map_err(io("write", &path))
    }

    /// `metrics.jsonl` and `progress.png` from the history.
    fn write_reports(&self, dir: &Path, on_event: &mut dyn FnMut(HuntEvent)) -> Result<(), HuntError> {
        let mut text = String::new();
        for i in &self.history {
            text += &serde_json::to_string(i).expect("an iteration serialises");
            text.push('\n');
        }
        let path = dir.join("metrics.jsonl");
        write_atomically(&path, text.as_bytes()).map_err(io("write", &path))?;
        let minutes = |i: &Iteration| i.seconds / 60.0;
        // The best line as steps: it holds until a search improves it.
        let mut best: Vec<(f64, f64)> = Vec::new();
        for i in &self.history {
            if let Some(&(_, last)) = best.last() {
                best.push((minutes(i), last));
            }
            best.push((minutes(i), i.best_lines as f64));
        }
        let each: Vec<(f64, f64)> = self.history.iter().map(|i| (minutes(i), i.lines as f64)).collect();
        let plot = hatetris_plot::plot_losses(
            &dir.join("progress.png"),
            "hunt: lines against minutes",
            &[("best line", best), ("each search", each)],
        );
        if let Err(e) = plot {
            on_event(HuntEvent::PlotFailed(e.to_string()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hatetris_eval::Baseline;
    use hatetris_game::replay;
    use hatetris_search::{moves_for_keys, run};

    fn baseline() -> Arc<dyn Evaluator> {
        Arc::new(Baseline)
    }

    fn config() -> HuntConfig {
        HuntConfig {
            eval: "baseline".into(),
            widths: vec![8, 24],
            seed: 3,
            stride: 10,
            explore: 0.3,
            quiescence: 1,
            chain_rule: ChainRule::Record,
            chain_band: 0,
            chain_blend: Blend::FULL,
            chain_follow: 0,
        }
    }

    #[test]
    fn a_stride_of_0_is_refused_and_a_deleted_best_line_comes_back() {
        assert!(matches!(HuntState::new(HuntConfig { stride: 0, ..config() }), Err(HuntError::BadStride)));
        let dir = tempfile::tempdir().unwrap();
        let mut hunt = HuntState::new(config()).unwrap();
        hunt.run(dir.path(), &baseline(), Budget { iterations: Some(1), seconds: None }, &mut |_| {}).unwrap();
        let best = dir.path().join("best.b2048");
        let line = std::fs::read_to_string(&best).unwrap();
        std::fs::remove_file(&best).unwrap();
        let stale = dir.path().join(".hatetris-killed.tmp");
        std::fs::write(&stale, b"half").unwrap();
        hunt.run(dir.path(), &baseline(), Budget { iterations: Some(1), seconds: None }, &mut |_| {}).unwrap();
        assert_eq!(std::fs::read_to_string(&best).unwrap(), line);
        assert!(!stale.exists());
    }

    /// A hunt stopped after some iterations and resumed from its files
    /// makes the same book as one that ran straight through; its best
    /// replay, decoded and played, scores what the book says.
    #[test]
    fn resume_gives_the_same_book_and_the_best_replay_verifies() {
        let straight = tempfile::tempdir().unwrap();
        let mut a = HuntState::new(config()).unwrap();
        a.run(straight.path(), &baseline(), Budget { iterations: Some(6), seconds: None }, &mut |_| {}).unwrap();

        let split = tempfile::tempdir().unwrap();
        let mut b = HuntState::new(config()).unwrap();
        b.run(split.path(), &baseline(), Budget { iterations: Some(2), seconds: None }, &mut |_| {}).unwrap();
        drop(b);
        let mut b = HuntState::load(split.path()).unwrap().unwrap();
        assert_eq!(b.history.len(), 2);
        b.run(split.path(), &baseline(), Budget { iterations: Some(6), seconds: None }, &mut |_| {}).unwrap();

        assert_eq!(a.book, b.book);
        let strip = |h: &[Iteration]| h.iter().map(|i| (i.node, i.width, i.lines, i.pieces)).collect::<Vec<_>>();
        assert_eq!(strip(&a.history), strip(&b.history));
        assert!(a.history.iter().any(|i| i.node_depth > 0), "some search restarted mid-game");

        let text = std::fs::read_to_string(split.path().join("best.b2048")).unwrap();
        let keys = replay::decode(text.trim()).unwrap();
        let out = hatetris_game::play(Rules::STANDARD, Enemy::Hatetris, &keys, |_, _| {});
        assert_eq!(out.score, b.book.best_lines);
        let moves: Vec<u32> =
            moves_for_keys(Rules::STANDARD, Enemy::Hatetris, &keys).iter().map(|m| m.pack()).collect();
        assert_eq!(moves, b.book.best_line);
        let metrics = std::fs::read_to_string(split.path().join("metrics.jsonl")).unwrap();
        assert_eq!(metrics.lines().count(), 6);
    }

    /// A search restarted from a book position plays, from the empty well
    /// with the real enemy (memory and loop rule included), to the pieces
    /// and score the search assumed.
    #[test]
    fn a_restarts_line_replays_from_the_empty_well_as_the_search_assumed() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = HuntState::new(config()).unwrap();
        let mut restarts = Vec::new();
        h.run(dir.path(), &baseline(), Budget { iterations: Some(5), seconds: None }, &mut |_| {}).unwrap();
        for i in h.history.iter().filter(|i| i.node_depth > 0) {
            restarts.push(i.clone());
        }
        assert!(!restarts.is_empty());
        // Redo each restart's search and replay its whole line.
        for i in restarts {
            let path = h.book.path(i.node);
            let config = h.search_config(i.width, i.iteration);
            let mut state = BeamState::from_moves(&path, config.rules, config.enemy).unwrap();
            run(&mut state, &config, &Baseline, &mut |_| true);
            let result = state.result();
            assert_eq!(&result.moves[..path.len()], &path[..]);
            let v = verified_replay(config.rules, config.enemy, &result.moves, Format::Base2048).unwrap();
            assert_eq!((v.score, v.pieces), (result.score, result.moves.len()));
        }
    }

    #[test]
    fn a_damaged_book_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = HuntState::new(config()).unwrap();
        h.run(dir.path(), &baseline(), Budget { iterations: Some(1), seconds: None }, &mut |_| {}).unwrap();
        let path = HuntState::book_path(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x20;
        std::fs::write(&path, &bytes).unwrap();
        let err = HuntState::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("book.htbk") && err.contains("checksum"), "{err}");
        std::fs::write(&path, &bytes[..10]).unwrap();
        let err = HuntState::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
        assert!(HuntState::new(HuntConfig { widths: vec![], ..config() }).is_err());
    }
}
