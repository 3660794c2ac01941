//! Quick check that an evaluator plays: a plain beam search against the real
//! HATETRIS enemy (with its memory). Not the project's search, just a probe.
//! `cargo run --release -p hatetris-eval --example beam_check -- WIDTH [baseline|net]`

use hatetris_eval::baseline::BaselineFeatures;
use hatetris_eval::{Baseline, Evaluator, Network};
use hatetris_game::{choose_piece, distinct_landings, Rules, Well};
use std::collections::HashMap;
use std::rc::Rc;

struct Node {
    well: Well,
    score: u32,
    parent: Option<Rc<Node>>,
}

impl Node {
    /// Times `w` occurs on the path to this node (this well included).
    fn seen(&self, w: &Well) -> u32 {
        let mut n = 0;
        let mut cur = Some(self);
        while let Some(node) = cur {
            n += (node.well == *w) as u32;
            cur = node.parent.as_deref();
        }
        n
    }
}

/// Baseline features with weights from the environment (`W=holes,hole_rows,agg,max,rowt,colt,wells,bump,cells`).
struct Custom([f32; 9]);

impl Evaluator for Custom {
    fn evaluate(&self, rows: &[u16]) -> f32 {
        let BaselineFeatures {
            holes,
            hole_rows,
            aggregate_height,
            max_height,
            row_transitions,
            column_transitions,
            bumpiness,
            cells,
            well_depth,
        } = Baseline::features(rows);
        let f = [
            holes,
            hole_rows,
            aggregate_height,
            max_height,
            row_transitions,
            column_transitions,
            well_depth,
            bumpiness,
            cells,
        ];
        -f.iter()
            .zip(&self.0)
            .map(|(&x, &w)| x as f32 * w)
            .sum::<f32>()
    }
    fn name(&self) -> String {
        format!("custom{:?}", self.0)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let width: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let which = args.get(2).map(String::as_str).unwrap_or("baseline");
    let eval: Box<dyn Evaluator> = match which {
        "net" => Box::new(Network::embedded_default()),
        "custom" => {
            let w: Vec<f32> = std::env::var("W")
                .unwrap()
                .split(',')
                .map(|x| x.parse().unwrap())
                .collect();
            Box::new(Custom(w.try_into().unwrap()))
        }
        _ => Box::new(Baseline),
    };
    let rules = Rules::STANDARD;
    let mut beam = vec![Rc::new(Node {
        well: Well::EMPTY,
        score: 0,
        parent: None,
    })];
    let mut best = 0;
    let mut step = 0;
    let start = std::time::Instant::now();
    while !beam.is_empty() {
        let mut children: HashMap<Well, (u32, Rc<Node>)> = HashMap::new();
        for node in &beam {
            let piece = choose_piece(&node.well, rules, |w| node.seen(w));
            for l in distinct_landings(&node.well, rules, piece) {
                if l.well.is_game_over() {
                    continue;
                }
                let score = node.score + l.lines as u32;
                let e = children.entry(l.well).or_insert((score, node.clone()));
                if score > e.0 {
                    *e = (score, node.clone());
                }
            }
        }
        let mut ranked: Vec<(f32, Node)> = children
            .into_iter()
            .map(|(well, (score, parent))| {
                let v = eval.evaluate(well.playable(rules));
                (
                    v,
                    Node {
                        well,
                        score,
                        parent: Some(parent),
                    },
                )
            })
            .collect();
        if std::env::var("LEX").is_ok() {
            ranked.sort_by(|a, b| (b.1.score, b.0).partial_cmp(&(a.1.score, a.0)).unwrap());
        } else {
            ranked.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        }
        ranked.truncate(width);
        beam = ranked.into_iter().map(|(_, n)| Rc::new(n)).collect();
        if let Some(top) = beam.first() {
            best = best.max(top.score);
        }
        step += 1;
        if step % 50 == 0 {
            eprintln!("step {step}: best {best}, beam {}", beam.len());
        }
    }
    println!(
        "{} width {width}: {best} lines in {step} pieces ({:.1?})",
        eval.name(),
        start.elapsed()
    );
}
