//! Pairing stored measurements. Searches are deterministic, so an
//! evaluator measured once (`hatetris strength --json`) can be compared
//! later with any other measured on the same suite with the same settings,
//! and several suites pooled into one interval, without searching again.

use super::stats::{mean, paired, paired_where_both, Paired};
use hatetris_search::ChainRule;
use serde::Deserialize;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CompareError {
    #[error("{0}: not a `hatetris strength --json` result: {1}")]
    Format(String, String),
    #[error("{name}: holds {have} evaluator(s), no index {index}")]
    NoEval { name: String, have: usize, index: usize },
    #[error("{a} and {b} were measured with different {what} ({va} against {vb})")]
    Settings { a: String, b: String, what: &'static str, va: String, vb: String },
    #[error("{a} and {b} are not the same starts ({why})")]
    Starts { a: String, b: String, why: String },
    #[error("nothing to compare: give files in pairs, A then B")]
    Empty,
}

/// One evaluator's stored results on one suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Where it was read from, for messages.
    pub name: String,
    pub eval: String,
    pub suite: String,
    pub settings: Settings,
    pub starts: Vec<StartRecord>,
}

/// What must agree for two measurements to be paired.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Settings {
    pub width: usize,
    pub pieces: usize,
    pub quiescence: u32,
    /// Measurements from before the rules existed followed S/Z chains.
    #[serde(default = "sz_rule")]
    pub chain_rule: ChainRule,
    pub seed: u64,
}

fn sz_rule() -> ChainRule {
    ChainRule::Sz
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct StartRecord {
    pub source: String,
    pub piece: u32,
    pub pieces: u32,
    pub lines: u32,
    /// None where the line was too short to measure, and in files written
    /// before `strength` reported it.
    #[serde(default)]
    pub frozen_per_100: Option<f64>,
}

#[derive(Deserialize)]
struct FileShape {
    suite: String,
    #[serde(flatten)]
    settings: Settings,
    evals: Vec<EvalShape>,
}

#[derive(Deserialize)]
struct EvalShape {
    eval: String,
    starts: Vec<StartRecord>,
}

impl Measurement {
    /// The `index`-th evaluator (0: `--eval`, 1: `--vs`) of a `strength
    /// --json` output read from `name`.
    pub fn parse(name: &str, text: &str, index: usize) -> Result<Self, CompareError> {
        let file: FileShape =
            serde_json::from_str(text).map_err(|e| CompareError::Format(name.to_string(), e.to_string()))?;
        let have = file.evals.len();
        let eval =
            file.evals.into_iter().nth(index).ok_or(CompareError::NoEval { name: name.to_string(), have, index })?;
        Ok(Measurement {
            name: name.to_string(),
            eval: eval.eval,
            suite: file.suite,
            settings: file.settings,
            starts: eval.starts,
        })
    }

    fn column(&self, f: impl Fn(&StartRecord) -> u32) -> Vec<f64> {
        self.starts.iter().map(|s| f(s) as f64).collect()
    }

    pub fn mean_pieces(&self) -> f64 {
        mean(&self.column(|s| s.pieces))
    }

    pub fn mean_lines(&self) -> f64 {
        mean(&self.column(|s| s.lines))
    }

    /// The mean rows frozen per 100 pieces over the starts that have one
    /// (NaN when none has).
    pub fn mean_frozen_per_100(&self) -> f64 {
        mean(&self.starts.iter().filter_map(|s| s.frozen_per_100).collect::<Vec<_>>())
    }
}

/// Paired differences, `a` minus `b`, of pieces survived, lines added and
/// rows frozen per 100 pieces (over the starts where both have a value).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub pieces: Paired,
    pub lines: Paired,
    pub frozen: Paired,
}

/// Checks that `a` and `b` can be paired: the same settings and the same
/// starts (source and piece) in the same order. The suite's file name may
/// differ (the same suite read from two paths).
pub fn check_pair(a: &Measurement, b: &Measurement) -> Result<(), CompareError> {
    let (sa, sb) = (&a.settings, &b.settings);
    let differ = |what: &'static str, va: String, vb: String| {
        Err(CompareError::Settings { a: a.name.clone(), b: b.name.clone(), what, va, vb })
    };
    if sa.width != sb.width {
        return differ("widths", sa.width.to_string(), sb.width.to_string());
    }
    if sa.pieces != sb.pieces {
        return differ("piece limits", sa.pieces.to_string(), sb.pieces.to_string());
    }
    if sa.quiescence != sb.quiescence {
        return differ("quiescence depths", sa.quiescence.to_string(), sb.quiescence.to_string());
    }
    if sa.quiescence > 0 && sa.chain_rule != sb.chain_rule {
        return differ("chain rules", sa.chain_rule.to_string(), sb.chain_rule.to_string());
    }
    if sa.seed != sb.seed {
        return differ("seeds", sa.seed.to_string(), sb.seed.to_string());
    }
    let starts_differ = |why: String| Err(CompareError::Starts { a: a.name.clone(), b: b.name.clone(), why });
    if a.starts.len() != b.starts.len() {
        return starts_differ(format!("{} against {} starts", a.starts.len(), b.starts.len()));
    }
    if a.starts.is_empty() {
        return starts_differ("no starts".to_string());
    }
    if let Some((i, (x, y))) =
        a.starts.iter().zip(&b.starts).enumerate().find(|(_, (x, y))| x.source != y.source || x.piece != y.piece)
    {
        return starts_differ(format!(
            "start {} is {} piece {} against {} piece {}",
            i + 1,
            x.source,
            x.piece,
            y.source,
            y.piece
        ));
    }
    Ok(())
}

/// The paired differences over all the pairs' starts together (each pair
/// checked by [`check_pair`]): one interval for several suites.
pub fn compare(pairs: &[(Measurement, Measurement)]) -> Result<Comparison, CompareError> {
    if pairs.is_empty() {
        return Err(CompareError::Empty);
    }
    let (mut pa, mut pb, mut la, mut lb) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    for (a, b) in pairs {
        check_pair(a, b)?;
        pa.extend(a.column(|s| s.pieces));
        pb.extend(b.column(|s| s.pieces));
        la.extend(a.column(|s| s.lines));
        lb.extend(b.column(|s| s.lines));
        fa.extend(a.starts.iter().map(|s| s.frozen_per_100));
        fb.extend(b.starts.iter().map(|s| s.frozen_per_100));
    }
    Ok(Comparison { pieces: paired(&pa, &pb), lines: paired(&la, &lb), frozen: paired_where_both(&fa, &fb) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A start's source, piece, pieces survived and lines added.
    type Row = (&'static str, u32, u32, u32);

    /// `file` of one evaluator whose starts carry these rows frozen per
    /// 100 pieces (None: a line too short to measure).
    fn with_frozen(width: usize, name: &str, rows: &[Row], frozen: &[Option<f64>]) -> String {
        let mut v: serde_json::Value = serde_json::from_str(&file(width, &[(name, rows)])).unwrap();
        for (s, f) in v["evals"][0]["starts"].as_array_mut().unwrap().iter_mut().zip(frozen) {
            s["frozen_per_100"] = json!(f);
        }
        v.to_string()
    }

    fn file(width: usize, evals: &[(&str, &[Row])]) -> String {
        let evals: Vec<_> = evals
            .iter()
            .map(|(name, starts)| {
                let starts: Vec<_> = starts
                    .iter()
                    .map(|(source, piece, pieces, lines)| {
                        json!({"source": source, "piece": piece, "score": 0, "pieces": pieces, "lines": lines, "value": 0.5})
                    })
                    .collect();
                json!({"eval": name, "mean_pieces": 0.0, "mean_lines": 0.0, "lines_per_piece": null,
                       "rank_correlation": null, "starts": starts})
            })
            .collect();
        json!({"suite": "s", "width": width, "pieces": 250, "quiescence": 1, "seed": 0, "evals": evals}).to_string()
    }

    const A: &[Row] = &[("g", 100, 3, 1), ("g", 125, 5, 2), ("h", 100, 4, 0), ("h", 125, 8, 3)];
    const B: &[Row] = &[("g", 100, 1, 0), ("g", 125, 2, 1), ("h", 100, 4, 0), ("h", 125, 5, 1)];

    /// The pieces columns are stats' hand-worked example (differences 2, 3,
    /// 0, 3), so the pooled interval must be the one computed there; split
    /// into two files per side the pool is the same.
    #[test]
    fn pairs_and_pools_as_the_statistics_say() {
        let a = Measurement::parse("a", &file(1000, &[("net=a", A)]), 0).unwrap();
        let b = Measurement::parse("b", &file(1000, &[("net=b", B)]), 0).unwrap();
        assert_eq!((a.mean_pieces(), b.mean_lines()), (5.0, 0.5));
        let whole = compare(&[(a, b)]).unwrap();
        let p = paired(&[3.0, 5.0, 4.0, 8.0], &[1.0, 2.0, 4.0, 5.0]);
        assert_eq!(whole.pieces, p);
        assert_eq!(whole.lines, paired(&[1.0, 2.0, 0.0, 3.0], &[0.0, 1.0, 0.0, 1.0]));
        let half = |name: &str, rows: &[Row]| Measurement::parse(name, &file(1000, &[("x", rows)]), 0);
        let split = vec![
            (half("a1", &A[..2]).unwrap(), half("b1", &B[..2]).unwrap()),
            (half("a2", &A[2..]).unwrap(), half("b2", &B[2..]).unwrap()),
        ];
        let pooled = compare(&split).unwrap();
        // No file holds rows frozen: that pair is empty (NaN, unequal to itself).
        assert_eq!((pooled.pieces, pooled.lines, pooled.frozen.n), (whole.pieces, whole.lines, 0));
    }

    /// A `--vs` file holds two evaluators: index 1 is the second, and
    /// pairing a file's two sides gives what `--vs` printed.
    #[test]
    fn the_second_evaluator_of_a_vs_file() {
        let text = file(1000, &[("net=a", A), ("net=b", B)]);
        let b = Measurement::parse("ab", &text, 1).unwrap();
        assert_eq!(b.eval, "net=b");
        let a = Measurement::parse("ab", &text, 0).unwrap();
        assert_eq!(compare(&[(a, b)]).unwrap().pieces.mean_diff, 2.0);
        let err = Measurement::parse("ab", &text, 2).unwrap_err().to_string();
        assert_eq!(err, "ab: holds 2 evaluator(s), no index 2");
    }

    /// Rows frozen pair only where both sides measured; a file from
    /// before `strength` reported them pairs none and still compares.
    #[test]
    fn rows_frozen_pair_where_both_measured() {
        let a =
            Measurement::parse("a", &with_frozen(1000, "x", A, &[Some(1.0), None, Some(2.0), Some(0.5)]), 0).unwrap();
        let b =
            Measurement::parse("b", &with_frozen(1000, "y", B, &[Some(3.0), Some(1.0), None, Some(1.5)]), 0).unwrap();
        assert_eq!(a.mean_frozen_per_100(), 3.5 / 3.0);
        let c = compare(&[(a.clone(), b)]).unwrap();
        assert_eq!(c.frozen, paired(&[1.0, 0.5], &[3.0, 1.5]));
        assert_eq!((c.frozen.n, c.frozen.mean_diff), (2, -1.5));
        let old = Measurement::parse("old", &file(1000, &[("z", B)]), 0).unwrap();
        assert!(old.mean_frozen_per_100().is_nan());
        let c = compare(&[(a, old)]).unwrap();
        assert_eq!((c.frozen.n, c.pieces.n), (0, 4));
    }

    #[test]
    fn what_cannot_be_paired_is_refused() {
        let a = Measurement::parse("a", &file(1000, &[("x", A)]), 0).unwrap();
        let wide = Measurement::parse("w", &file(3000, &[("x", B)]), 0).unwrap();
        let err = compare(&[(a.clone(), wide)]).unwrap_err().to_string();
        assert_eq!(err, "a and w were measured with different widths (1000 against 3000)");
        let short = Measurement::parse("s", &file(1000, &[("x", &B[..3])]), 0).unwrap();
        assert!(compare(&[(a.clone(), short)]).unwrap_err().to_string().contains("4 against 3 starts"));
        let mut moved = B.to_vec();
        moved[1].1 = 150;
        let moved = Measurement::parse("m", &file(1000, &[("x", &moved)]), 0).unwrap();
        let err = compare(&[(a, moved)]).unwrap_err().to_string();
        assert!(err.contains("start 2 is g piece 125 against g piece 150"), "{err}");
        assert!(matches!(compare(&[]), Err(CompareError::Empty)));
        let err = Measurement::parse("bad", "{\"suite\": 3}", 0).unwrap_err().to_string();
        assert!(err.starts_with("bad: not a `hatetris strength --json` result"), "{err}");
    }
}
