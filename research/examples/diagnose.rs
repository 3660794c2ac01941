//! Diagnostics of evaluators against the long public games, and the
//! cross-entropy search over a network's output weights, as measured in
//! docs/experiments.md. Public games only measure here; `cem` learns from
//! a suite of the engine's own games.
//!
//! ```sh
//! cargo run --release -p hatetris-research --example diagnose -- agreement net baseline net=OTHER.hnet
//! cargo run --release -p hatetris-research --example diagnose -- retention 1000 net baseline
//! cargo run --release -p hatetris-research --example diagnose -- heights net
//! cargo run --release -p hatetris-research --example diagnose -- beam EVAL WIDTH PIECES
//! cargo run --release -p hatetris-research --example diagnose -- targets net
//! cargo run --release -p hatetris-research --example diagnose -- cut net net=OTHER.hnet
//! cargo run --release -p hatetris-research --example diagnose -- look EVAL LOOK_W LOOK_D WIDTH PIECES [SUITE [N]]
//! cargo run --release -p hatetris-research --example diagnose -- cem TRAIN.htsu VAL.htsu OUT_DIR [INIT.hnet]
//! cargo run --release -p hatetris-research --example diagnose -- unseen MIN NET.hnet OUT.hnet DATA.htds...
//! cargo run --release -p hatetris-research --example diagnose -- init HIDDEN SEED W1_SCALE OUT.hnet
//! cargo run --release -p hatetris-research --example diagnose -- refine EVAL SAMPLES.htds OUT.htds WIDTH DEPTH SEED [STEP [survival [GAMMA]]]
//! cargo run --release -p hatetris-research --example diagnose -- mc EVAL GAMES WIDTH OPEN_PIECES NOISE
//! cargo run --release -p hatetris-research --example diagnose -- mcwells GAMES.json OUT.htds
//! cargo run --release -p hatetris-research --example diagnose -- wideopen EVAL GAMES WIDTH OPEN_PIECES NOISE WIDE UNTIL
//! cargo run --release -p hatetris-research --example diagnose -- pairs EVAL SAMPLES.htds X.htds Y.htds WIDTH DEPTH SEED
//! cargo run --release -p hatetris-research --example diagnose -- aggs EVAL SAMPLES.htds PREFIX WIDTH DEPTH SEED
//! cargo run --release -p hatetris-research --example diagnose -- trunk EVAL DELTA OUT.htds EXCLUDE[,EXCLUDE...]|- REPLAY...
//! cargo run --release -p hatetris-research --example diagnose -- bottoms EVAL WIDTH DEPTHS REPLAY AT [ROWS [EVERY]]
//! cargo run --release -p hatetris-research --example diagnose -- rowprice EVAL WIDTH PIECES EVERY REPLAY...
//! cargo run --release -p hatetris-research --example diagnose -- bestline SAVE OUT.b2048 [EVAL...]
//! cargo run --release -p hatetris-research --example diagnose -- linevalues REPLAY EVAL...
//! cargo run --release -p hatetris-research --example diagnose -- ancestry REPLAY SAVE...
//! ```
//!
//! Fixtures are read from `fixtures/` at the repository root.

use hatetris_eval::{Baseline, EvalSpec, Evaluator, Network, QuantizedNetwork};
use hatetris_game::{choose_piece_and_landings, Enemy, Rules, Well};
use hatetris_search::{
    moves_for_keys, quiescence::quiescent_value, replay_line, run, BeamState, Lookahead, Move, SearchConfig,
};
use hatetris_search::{Blend, ChainRule, Chains};
use hatetris_strength::{measure, summarize, Suite};
use rand::{Rng, SeedableRng};

/// One S/Z clear deep: the chains these diagnoses were measured with.
const SZ1: Chains = Chains { rule: ChainRule::Sz, depth: 1, band: 0, blend: Blend::FULL, follow: 0 };
use rayon::prelude::*;
use std::path::Path;

const RULES: Rules = Rules::STANDARD;
const ENEMY: Enemy = Enemy::Hatetris;
/// The long public games of the default suite, and where their positions
/// are read from (the suite's own rule: after the first 100 pieces).
const GAMES: [&str; 3] = ["knewjade (5)", "Tim (2)", "David & Felipe (2)"];
const FIRST: usize = 100;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("agreement") => agreement(&evaluators(&args[1..])),
        Some("retention") => retention(args[1].parse().expect("width"), &evaluators(&args[2..])),
        Some("heights") => heights(&evaluators(&args[1..])),
        Some("beam") => beam(
            &evaluators(&args[1..2]).remove(0).1,
            args[2].parse().expect("WIDTH"),
            args[3].parse().expect("PIECES"),
        ),
        Some("targets") => targets(&evaluators(&args[1..2]).remove(0).1),
        Some("cut") => cut(&evaluators(&args[1..])),
        Some("groups") => groups(&evaluators(&args[1..2]).remove(0).1),
        Some("look") => look_strength(&args[1..]),
        Some("unseen") => unseen(args[1].parse().expect("MIN"), Path::new(&args[2]), Path::new(&args[3]), &args[4..]),
        Some("init") => {
            // Network::random with its first layer scaled: a start for `train --init`.
            let mut net = Network::random(args[1].parse().expect("HIDDEN"), args[2].parse().expect("SEED"));
            let scale: f32 = args[3].parse().expect("W1_SCALE");
            net.w1.iter_mut().for_each(|w| *w *= scale);
            net.save(Path::new(&args[4])).expect("save");
        }
        Some("refine") => refine(&args[1..]),
        Some("pairs") => pairs(&args[1..]),
        Some("aggs") => aggregates(&args[1..]),
        Some("mc") => mc(&args[1..]),
        Some("mcwells") => mc_wells(&args[1..]),
        Some("wideopen") => wide_opening(&args[1..]),
        Some("trunk") => trunk(&args[1..]),
        Some("bottoms") => bottoms(&args[1..]),
        Some("rowprice") => row_price(&args[1..]),
        Some("bestline") => best_line(&args[1..]),
        Some("ancestry") => ancestry(&args[1..]),
        Some("linevalues") => line_values(&args[1..]),
        Some("cem") => cem(Path::new(&args[1]), Path::new(&args[2]), Path::new(&args[3]), args.get(4)),
        _ => eprintln!(
            "usage: diagnose agreement EVAL... | retention WIDTH EVAL... | heights EVAL... | cem TRAIN VAL OUT [INIT] \
             | refine EVAL SAMPLES OUT WIDTH DEPTH SEED [STEP [survival [GAMMA]]] | pairs EVAL SAMPLES X Y WIDTH DEPTH SEED \
             (the others: the module doc)"
        ),
    }
}

fn evaluators(specs: &[String]) -> Vec<(String, Box<dyn Evaluator>)> {
    specs.iter().map(|s| (s.clone(), s.parse::<EvalSpec>().expect("evaluator").load().expect("loads").0)).collect()
}

/// The three long public games: each one's moves, and its wells (the
/// well after k moves at index k, the empty well first).
fn public_games() -> Vec<(String, Vec<Move>, Vec<Well>)> {
    let tsv = hatetris_game::fixtures::read_fixture("known-replays.tsv");
    let mut games = Vec::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        if GAMES.contains(&fields[0]) && !games.iter().any(|(n, _, _)| n == fields[0]) {
            let (moves, wells) = game_line(fields[4]);
            games.push((fields[0].to_string(), moves, wells));
        }
    }
    games
}

/// A replay's moves and its wells (the well after k moves at index k, the
/// empty well first).
fn game_line(replay: &str) -> (Vec<Move>, Vec<Well>) {
    let (moves, states) = game_states(replay);
    (moves, states.into_iter().map(|(well, _)| well).collect())
}

/// A replay's moves and its states: the well and score after k moves at
/// index k, the empty well first.
fn game_states(replay: &str) -> (Vec<Move>, Vec<(Well, u32)>) {
    let keys = hatetris_game::replay::decode(replay.trim()).expect("replay");
    let moves = moves_for_keys(RULES, ENEMY, &keys);
    let mut states = vec![(Well::EMPTY, 0)];
    replay_line(RULES, ENEMY, &moves, |_, well, score| states.push((*well, score))).expect("the game's own line");
    (moves, states)
}

/// How each evaluator ranks the game's own move among the distinct
/// landings of the piece the enemy gives, valued as the search values
/// them (quiescence 1); also whether the enemy's memory changes its piece.
fn agreement(evals: &[(String, Box<dyn Evaluator>)]) {
    // Per evaluator: positions, share of siblings above, first, first three.
    let mut totals = vec![(0usize, 0f64, 0usize, 0usize); evals.len()];
    let mut memory_changes = (0, 0);
    for (_, moves, wells) in public_games() {
        for p in FIRST..moves.len() - 1 {
            let state = BeamState::from_moves(&moves[..p], RULES, ENEMY).expect("the game's own line");
            let entry = &state.beam[0];
            let memory = state.tree.memory_at(entry.node);
            let (piece, landings) = choose_piece_and_landings(&entry.well, RULES, Some(&memory));
            let (free, _) = choose_piece_and_landings(&entry.well, RULES, None::<&hatetris_game::SeenWells>);
            memory_changes.0 += usize::from(piece != free);
            memory_changes.1 += 1;
            let played = wells[p + 1];
            // The landings are distinct wells already.
            let children: Vec<Well> = landings.into_iter().filter(|l| !l.well.is_game_over()).map(|l| l.well).collect();
            if children.len() < 2 || !children.contains(&played) {
                continue;
            }
            for ((_, eval), t) in evals.iter().zip(&mut totals) {
                let value = quiescent_value(eval.as_ref(), RULES, &played, ChainRule::Sz, 1);
                let above = children
                    .iter()
                    .filter(|w| quiescent_value(eval.as_ref(), RULES, w, ChainRule::Sz, 1) > value)
                    .count();
                t.0 += 1;
                t.1 += above as f64 / (children.len() - 1) as f64;
                t.2 += usize::from(above == 0);
                t.3 += usize::from(above < 3);
            }
        }
    }
    println!("the enemy's memory changes its piece at {} of {} positions", memory_changes.0, memory_changes.1);
    println!("evaluator\tpositions\tsiblings_above\tfirst\tfirst_three");
    for ((name, _), t) in evals.iter().zip(&totals) {
        let n = t.0 as f64;
        println!("{name}\t{}\t{:.3}\t{:.3}\t{:.3}", t.0, t.1 / n, t.2 as f64 / n, t.3 as f64 / n);
    }
}

/// From every 25th position after piece 100, a search of `width` with the
/// game's memory: the first depth at which the game's own well is not in
/// the beam, and the cells and stack height of that well against the
/// beam's best 100 wells there.
fn retention(width: usize, evals: &[(String, Box<dyn Evaluator>)]) {
    let games = public_games();
    let horizon = 40;
    let config = sz_config(width, 1, horizon);
    let stack = |w: &Well| (RULES.depth() - w.rating(RULES) as usize) as f64;
    for (name, eval) in evals {
        let mut kept = Vec::new();
        // Sums at the depth of leaving: the game's cells and stack, the beam's.
        let mut at_exit = [0f64; 4];
        for (_, moves, wells) in &games {
            for p in (FIRST..moves.len().saturating_sub(horizon)).step_by(25) {
                let line = &wells[p..=p + horizon];
                let mut state = BeamState::from_moves(&moves[..p], RULES, ENEMY).expect("the game's own line");
                let mut left = horizon;
                run(&mut state, &config, eval.as_ref(), &mut |s| {
                    let k = s.depth;
                    if s.beam.iter().any(|e| e.well == line[k]) {
                        return true;
                    }
                    left = k;
                    let mut best: Vec<&hatetris_search::Entry> = s.beam.iter().collect();
                    best.sort_by(|a, b| b.value.total_cmp(&a.value));
                    best.truncate(100);
                    let n = best.len() as f64;
                    at_exit[0] += line[k].cells() as f64;
                    at_exit[1] += stack(&line[k]);
                    at_exit[2] += best.iter().map(|e| e.well.cells() as f64).sum::<f64>() / n;
                    at_exit[3] += best.iter().map(|e| stack(&e.well)).sum::<f64>() / n;
                    false
                });
                kept.push(left);
            }
        }
        kept.sort_unstable();
        let n = kept.len() as f64;
        let exits = at_exit.map(|x| x / n);
        println!(
            "{name}: {} starts; the game's line stays in the beam {:.1} pieces (median {}); when it leaves: \
             the game's well {:.1} cells, stack {:.1} rows; the beam's best 100 {:.1} cells, {:.1} rows",
            kept.len(),
            kept.iter().sum::<usize>() as f64 / n,
            kept[kept.len() / 2],
            exits[0],
            exits[1],
            exits[2],
            exits[3]
        );
    }
}

/// The lookahead from `well` (no memory, quiescence 0, as refine plays
/// it): pieces survived (at most `depth`) and the best value at its end.
fn look(well: &Well, width: usize, depth: usize, eval: &dyn Evaluator) -> (usize, Option<f32>) {
    let config = sz_config(width, 0, depth);
    let mut state = BeamState::from_well(*well);
    run(&mut state, &config, eval, &mut |_| true);
    (state.pieces_survived(), state.beam.iter().map(|e| e.value).reduce(f32::max))
}

/// Where a width-1,000 beam of `eval` drops a public game's well (as in
/// `retention`): that well and the beam's wells there, best first.
fn cut_cases(eval: &dyn Evaluator) -> Vec<(Well, Vec<Well>)> {
    let horizon = 40;
    let config = sz_config(1000, 1, horizon);
    let mut cases: Vec<(Well, Vec<Well>)> = Vec::new();
    for (_, moves, wells) in &public_games() {
        for p in (FIRST..moves.len().saturating_sub(horizon)).step_by(25) {
            let line = &wells[p..=p + horizon];
            let mut state = BeamState::from_moves(&moves[..p], RULES, ENEMY).expect("the game's own line");
            run(&mut state, &config, eval, &mut |s| {
                if s.beam.iter().any(|e| e.well == line[s.depth]) {
                    return true;
                }
                let mut best: Vec<&hatetris_search::Entry> = s.beam.iter().collect();
                best.sort_by(|a, b| b.value.total_cmp(&a.value));
                cases.push((line[s.depth], best.iter().map(|e| e.well).collect()));
                false
            });
        }
    }
    cases
}

/// At the cut cases (`cut_cases`): do refine-like lookaheads value the
/// public well above the beam's best 10, and does a width-1,000 search
/// survive longer from it? Answers whether any lookahead target could teach the
/// beam to keep the sustainable line.
fn targets(eval: &dyn Evaluator) {
    let mut cases = cut_cases(eval);
    cases.iter_mut().for_each(|(_, best)| best.truncate(10));
    println!(
        "{} cases; per lookahead: share of the beam's best 10 valued above the public well, mean values",
        cases.len()
    );
    let looks: Vec<(usize, usize)> = match std::env::var("LOOKS") {
        Ok(l) => l
            .split(',')
            .map(|p| p.split_once('x').map(|(w, d)| (w.parse().unwrap(), d.parse().unwrap())).unwrap())
            .collect(),
        Err(_) => vec![(100, 10), (100, 30), (1000, 10), (1000, 30), (100, 60)],
    };
    for (width, depth) in looks {
        let rows: Vec<(f64, f64, f64)> = cases
            .par_iter()
            .map(|(public, best)| {
                let y = |w: &Well| match look(w, width, depth, eval) {
                    (d, Some(v)) if d >= depth => v as f64,
                    _ => -1.0,
                };
                let yp = y(public);
                let ys: Vec<f64> = best.iter().map(y).collect();
                let above = ys.iter().filter(|&&v| v > yp).count() as f64 / ys.len() as f64;
                (above, yp, ys.iter().sum::<f64>() / ys.len() as f64)
            })
            .collect();
        let n = rows.len() as f64;
        println!(
            "lookahead {width} x {depth}: share above {:.3}; public {:.3}, beam's best {:.3}",
            rows.iter().map(|r| r.0).sum::<f64>() / n,
            rows.iter().map(|r| r.1).sum::<f64>() / n,
            rows.iter().map(|r| r.2).sum::<f64>() / n
        );
    }
    if std::env::var("LOOKS").is_ok() {
        return;
    }
    // Outcomes: pieces a width-1,000 search survives (at most 150).
    let rows: Vec<(f64, f64)> = cases
        .par_iter()
        .map(|(public, best)| {
            let s = |w: &Well| look(w, 1000, 150, eval).0 as f64;
            (s(public), best.iter().take(3).map(s).sum::<f64>() / 3.0)
        })
        .collect();
    let n = rows.len() as f64;
    let wins = rows.iter().filter(|r| r.0 > r.1).count();
    println!(
        "width-1,000 search from the well, at most 150 pieces: public {:.1}, the beam's best 3 {:.1} (public longer in {wins} of {})",
        rows.iter().map(|r| r.0).sum::<f64>() / n,
        rows.iter().map(|r| r.1).sum::<f64>() / n,
        rows.len()
    );
}

/// The cut cases of the first evaluator's beams, valued by each
/// evaluator as the search values wells: the share of the beam's best 10,
/// and of every 10th of its wells, that it values above the public well
/// (the first evaluator: 1 by construction; lower agrees more with the
/// lookaheads and outcomes).
fn cut(evals: &[(String, Box<dyn Evaluator>)]) {
    let cases = cut_cases(evals[0].1.as_ref());
    let share = |eval: &dyn Evaluator, pick: &(dyn Fn(&[Well]) -> Vec<Well> + Sync)| {
        let value = |w: &Well| quiescent_value(eval, RULES, w, ChainRule::Sz, 1);
        let total: f64 = cases
            .par_iter()
            .map(|(public, beam)| {
                let v = value(public);
                let wells = pick(beam);
                wells.iter().filter(|w| value(w) > v).count() as f64 / wells.len() as f64
            })
            .sum();
        total / cases.len() as f64
    };
    println!("{} cases: share of the beam's wells valued above the public well", cases.len());
    println!("evaluator\tbest_10\tevery_10th");
    for (name, eval) in evals {
        let best = share(eval.as_ref(), &|b| b[..b.len().min(10)].to_vec());
        let spread = share(eval.as_ref(), &|b| b.iter().step_by(10).copied().collect());
        println!("{name}\t{best:.3}\t{spread:.3}");
    }
}

/// How well the network's values order the children of one beam entry
/// (the choices a search makes) against refine's lookahead (width 100,
/// 10 pieces), compared with how well they order wells across entries
/// and depths: from a width-1,000 game of `eval`, every 5th depth, 16
/// entries a depth.
fn groups(eval: &dyn Evaluator) {
    use hatetris_strength::stats::spearman;
    let config = sz_config(1000, 1, 0);
    let mut families: Vec<Vec<Well>> = Vec::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    run(&mut BeamState::new(), &config, eval, &mut |s| {
        if s.depth % 5 == 0 && !s.beam.is_empty() {
            for _ in 0..16 {
                let e = &s.beam[rng.gen_range(0..s.beam.len())];
                let memory = s.tree.memory_at(e.node);
                let (_, landings) = choose_piece_and_landings(&e.well, RULES, Some(&memory));
                let children: Vec<Well> =
                    landings.into_iter().filter(|l| !l.well.is_game_over()).map(|l| l.well).collect();
                if children.len() >= 3 {
                    families.push(children);
                }
            }
        }
        true
    });
    // (value, lookahead 100 x 10, lookahead 200 x 10) of each child: the
    // second lookahead tells how much of the disagreement is the
    // lookahead's own noise.
    let scored: Vec<Vec<[f64; 3]>> = families
        .par_iter()
        .map(|f| {
            f.iter()
                .map(|w| {
                    let y = |width| match look(w, width, 10, eval) {
                        (d, Some(v)) if d >= 10 => v as f64,
                        _ => -1.0,
                    };
                    [quiescent_value(eval, RULES, w, ChainRule::Sz, 1) as f64, y(100), y(200)]
                })
                .collect()
        })
        .collect();
    let column = |f: &[[f64; 3]], i: usize| f.iter().map(|c| c[i]).collect::<Vec<f64>>();
    let all: Vec<[f64; 3]> = scored.iter().flatten().copied().collect();
    let within = |i: usize, j: usize| {
        let rs: Vec<f64> =
            scored.iter().map(|f| spearman(&column(f, i), &column(f, j))).filter(|r| r.is_finite()).collect();
        rs.iter().sum::<f64>() / rs.len() as f64
    };
    // The best child by value: the share of its siblings whose lookahead is higher.
    let regret: f64 = scored
        .iter()
        .map(|f| {
            let best = f.iter().max_by(|a, b| a[0].total_cmp(&b[0])).unwrap();
            f.iter().filter(|c| c[1] > best[1]).count() as f64 / (f.len() - 1) as f64
        })
        .sum::<f64>()
        / scored.len() as f64;
    println!(
        "{} families, {} wells. Spearman over all wells: value~lookahead {:.3}; within a family (mean): \
         value~lookahead {:.3}, value~lookahead(200) {:.3}, lookahead~lookahead(200) {:.3}; \
         siblings whose lookahead beats the highest-valued child's: {:.3}",
        scored.len(),
        all.len(),
        spearman(&column(&all, 0), &column(&all, 1)),
        within(0, 1),
        within(0, 2),
        within(1, 2),
        regret
    );
}

/// Whole games in lower wells (heights 8 to 12, widths 1,000 and 10,000):
/// does any low well sustain?
fn heights(evals: &[(String, Box<dyn Evaluator>)]) {
    for height in 8..=12 {
        let rules = Rules::with_height(height).expect("a height of 1 to 16");
        for width in [1000, 10000] {
            for (name, eval) in evals {
                let config = SearchConfig { rules, ..sz_config(width, 1, 0) };
                let result = hatetris_search::search(&config, eval.as_ref(), &mut |_| {});
                println!(
                    "height {height}, width {width}, {name}: {} lines, {} pieces",
                    result.score,
                    result.moves.len()
                );
            }
        }
    }
}

/// What a search's beam holds, depth by depth from the empty well: its
/// size, the lines of its best entry and their mean, the cells and the
/// stack's height (rows holding a cell) of its best-valued entry and their
/// means, and the values. A beam that walks into a well its evaluator
/// overvalues shows it here before it dies.
fn beam(eval: &dyn Evaluator, width: usize, pieces: usize) {
    let config = sz_config(width, 0, pieces);
    let mut state = BeamState::new();
    println!("depth beam lines(max mean) cells(top mean) stack(top mean) value(top mean)");
    run(&mut state, &config, eval, &mut |s| {
        let n = s.beam.len().max(1) as f64;
        let stack = |w: &Well| w.playable(RULES).iter().filter(|&&r| r != 0).count();
        let Some(top) = s.beam.iter().max_by(|a, b| a.value.total_cmp(&b.value)) else {
            println!("{} 0", s.depth);
            return true;
        };
        println!(
            "{} {} {} {:.1} {} {:.1} {} {:.1} {:.3} {:.3}",
            s.depth,
            s.beam.len(),
            s.beam.iter().map(|e| e.score).max().unwrap_or(0),
            s.beam.iter().map(|e| e.score as f64).sum::<f64>() / n,
            top.well.cells(),
            s.beam.iter().map(|e| e.well.cells() as f64).sum::<f64>() / n,
            stack(&top.well),
            s.beam.iter().map(|e| stack(&e.well) as f64).sum::<f64>() / n,
            top.value,
            s.beam.iter().map(|e| e.value as f64).sum::<f64>() / n,
        );
        true
    });
}

/// Noisy cross-entropy search over the output weights `w2` of a network
/// (their direction: the scale is kept, since only the order of values
/// steers a beam). Fitness: mean pieces a width-100 beam survives (at most
/// 100) from the starts of `train`, a suite of the engine's own games;
/// `val`, other own games, is measured with each generation's mean.
fn cem(train: &Path, val: &Path, out: &Path, init: Option<&String>) {
    const GENERATIONS: usize = 20;
    const POPULATION: usize = 16;
    const ELITE: usize = 4;
    const SIGMA: f32 = 0.3;
    let (train, val) = (Suite::load(train).expect("train suite"), Suite::load(val).expect("validation suite"));
    let init = init.map(|p| Network::load(Path::new(p)).expect("network")).unwrap_or_else(Network::embedded_default);
    std::fs::create_dir_all(out).expect("output directory");
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    let scale = norm(&init.w2);
    let with = |w2: &[f32]| Network { w2: w2.iter().map(|x| x * scale / norm(w2)).collect(), ..init.clone() };
    let fitness = |net: &Network, suite: &Suite| {
        summarize(&measure(suite, &QuantizedNetwork::new(net), 100, 100, SZ1, 0, &mut |_, _| {})).mean_pieces
    };
    let sigma0 = SIGMA * scale / (init.hidden as f32).sqrt();
    let mut mean = init.w2.clone();
    let mut sigma = vec![sigma0; mean.len()];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    println!("generation 0: train {:.2} validation {:.2}", fitness(&init, &train), fitness(&init, &val));
    for g in 1..=GENERATIONS {
        let candidates: Vec<Vec<f32>> =
            (0..POPULATION).map(|_| mean.iter().zip(&sigma).map(|(m, s)| m + s * normal(&mut rng)).collect()).collect();
        let scores: Vec<f64> = candidates.par_iter().map(|c| fitness(&with(c), &train)).collect();
        let mut order: Vec<usize> = (0..POPULATION).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        // The noise term keeps the search from collapsing before the end.
        let noise = sigma0 * 0.1 * (1.0 - g as f32 / GENERATIONS as f32);
        for i in 0..mean.len() {
            let elite: Vec<f32> = order[..ELITE].iter().map(|&c| candidates[c][i]).collect();
            let m = elite.iter().sum::<f32>() / ELITE as f32;
            let var = elite.iter().map(|x| (x - m).powi(2)).sum::<f32>() / ELITE as f32;
            mean[i] = m;
            sigma[i] = (var + noise * noise).sqrt();
        }
        let net = with(&mean);
        net.save(&out.join(format!("mean-{g:03}.hnet"))).expect("writes the network");
        println!(
            "generation {g}: train {:.2} validation {:.2} (best candidate {:.2})",
            fitness(&net, &train),
            fitness(&net, &val),
            scores[order[0]]
        );
    }
}

/// A standard normal deviate (Box-Muller), so that no distribution crate is
/// needed for one function.
fn normal(rng: &mut impl Rng) -> f32 {
    let u: f32 = rng.gen_range(f32::EPSILON..1.0);
    let v: f32 = rng.gen();
    (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
}

/// Suite strength of a search whose values are `EVAL`'s best LOOK_W x
/// LOOK_D lookahead (LOOK_W 0: the plain search, quiescence 1), at outer
/// WIDTH for at most PIECES: the mean, the seconds, and each start's
/// pieces (for pairing), over the first N starts of SUITE (default: the
/// embedded suite, all starts).
fn look_strength(args: &[String]) {
    let eval = evaluators(&args[0..1]).remove(0).1;
    let (lw, ld): (usize, usize) = (args[1].parse().unwrap(), args[2].parse().unwrap());
    let (width, pieces): (usize, usize) = (args[3].parse().unwrap(), args[4].parse().unwrap());
    let mut suite = match args.get(5).filter(|s| *s != "-") {
        Some(p) => Suite::load(Path::new(p)).expect("suite"),
        None => Suite::embedded_default(),
    };
    if let Some(n) = args.get(6) {
        suite.starts.truncate(n.parse().unwrap());
    }
    let started = std::time::Instant::now();
    let results = if lw == 0 {
        measure(&suite, &*eval, width, pieces, SZ1, 0, &mut |_, _| {})
    } else {
        let look = Lookahead::new(&*eval, lw, ld);
        measure(&suite, &look, width, pieces, Chains::default(), 0, &mut |_, _| {})
    };
    let secs = started.elapsed().as_secs_f64();
    let s = summarize(&results);
    let per: Vec<String> = results.iter().map(|r| r.pieces_survived.to_string()).collect();
    println!(
        "look {lw}x{ld} width {width}: {:.1} pieces {:.1} lines {:.1} s [{}]",
        s.mean_pieces,
        s.mean_lines,
        secs,
        per.join(",")
    );
}

/// How many inputs the wells of data sets leave (nearly) untouched, and
/// the network with those inputs' first-layer rows set to zero: a row
/// trained on fewer than MIN wells holds mostly its starting weights, which
/// the search still adds in for every well that has the pattern.
fn unseen(min: u64, net_path: &Path, out: &Path, data: &[String]) {
    let mut count = vec![0u64; hatetris_eval::NUM_FEATURES];
    let mut f = Vec::new();
    let mut wells = 0u64;
    for path in data {
        for s in hatetris_learn::dataset::read_dataset(Path::new(path)).expect("data set") {
            f.clear();
            hatetris_eval::active_features(&s.rows[..s.len as usize], &mut f);
            for &i in &f {
                count[i as usize] += 1;
            }
            wells += 1;
        }
    }
    let rows = hatetris_eval::ROW_FEATURES;
    let (row_rare, win_rare) =
        (count[..rows].iter().filter(|&&c| c < min).count(), count[rows..].iter().filter(|&&c| c < min).count());
    println!(
        "{wells} wells: {} of {rows} row inputs and {} of {} window inputs seen in fewer than {min}",
        row_rare,
        win_rare,
        count.len() - rows
    );
    let mut hit = [0usize; 2];
    for (name, _, game) in public_games() {
        let mut n = [0usize; 2];
        for w in &game[FIRST..] {
            f.clear();
            hatetris_eval::active_features(w.playable(RULES), &mut f);
            n[0] += 1;
            n[1] += f.iter().any(|&i| count[i as usize] < min) as usize;
        }
        println!("{name}: {} of {} wells after piece {FIRST} hold such an input", n[1], n[0]);
        hit[0] += n[0];
        hit[1] += n[1];
    }
    println!("all: {} of {}", hit[1], hit[0]);
    let mut net = Network::load(net_path).expect("network");
    let h = net.hidden;
    for (i, &c) in count.iter().enumerate() {
        if c < min {
            net.w1[i * h..(i + 1) * h].fill(0.0);
        }
    }
    net.save(out).expect("save");
}

/// What `refine` and `pairs` share: the evaluator (args[0]), the wells of
/// the samples (args[1]), a refine config with WIDTH and DEPTH at
/// args[at], args[at + 1], the SEED after them, and a progress printer.
type RefineInput = (String, Box<dyn Evaluator>, Vec<Well>, hatetris_learn::cycle::RefineConfig, u64);

fn refine_input(args: &[String], at: usize) -> RefineInput {
    use hatetris_learn::dataset::{read_dataset, Sample};
    let (name, eval) = evaluators(&args[..1]).remove(0);
    let samples = read_dataset(Path::new(&args[1])).expect("samples");
    let config = hatetris_learn::cycle::RefineConfig {
        width: args[at].parse().expect("WIDTH"),
        depth: args[at + 1].parse().expect("DEPTH"),
        ..Default::default()
    };
    let seed: u64 = args[at + 2].parse().expect("SEED");
    (name, eval, samples.iter().map(Sample::well).collect(), config, seed)
}

fn wells_progress(total: usize) -> impl FnMut(usize) {
    let started = std::time::Instant::now();
    let mut reported = 0;
    move |done| {
        if done >= reported + 16384 {
            reported = done;
            eprintln!("{done}/{total} wells, {:.0} s", started.elapsed().as_secs_f64());
        }
    }
}

/// Refine's raw pairs: each well's value x and its lookahead's y (the
/// best value DEPTH pieces on, -1 if the WIDTH beam dies), unscaled, as two
/// data sets in the samples' order, for targets made offline from both.
fn pairs(args: &[String]) {
    use hatetris_learn::cycle::refine_pairs;
    use hatetris_learn::dataset::{write_dataset, Sample};
    let (name, eval, wells, config, seed) = refine_input(args, 4);
    let started = std::time::Instant::now();
    let pairs = refine_pairs(&wells, RULES, &config, eval.as_ref(), seed, &mut wells_progress(wells.len()));
    let write = |path: &str, what: &str, pick: fn(&(f32, f32)) -> f32| {
        let data: Vec<Sample> =
            wells.iter().zip(&pairs).map(|(w, p)| Sample::new(w.playable(RULES), pick(p))).collect();
        write_dataset(Path::new(path), &format!("{what} by {name}"), &data).expect("write");
    };
    write(&args[2], "value", |&(x, _)| x);
    write(&args[3], "lookahead", |&(_, y)| y);
    println!("{} wells paired by {name} in {:.1} s", wells.len(), started.elapsed().as_secs_f64());
}

/// Other readings of refine's lookahead beam than its best value at the
/// last depth: PREFIX-x.htds (the value), and PREFIX-y{max,t5,t20,all,
/// depths}.htds: the best at the last depth (refine's y), the mean of the
/// best 5, of the best 20, of the whole beam there, and the mean over the
/// depths of each depth's best; all -1 if the beam dies before the last
/// depth; and PREFIX-lines.htds, the lines the best entry there cleared
/// on its way (0 if the beam died). Unscaled, in the samples' order.
fn aggregates(args: &[String]) {
    use hatetris_learn::dataset::{write_dataset, Sample};
    let (name, eval, wells, config, seed) = refine_input(args, 3);
    let search = config.search(RULES, seed);
    const KINDS: [&str; 5] = ["max", "t5", "t20", "all", "depths"];
    let started = std::time::Instant::now();
    let mut progress = wells_progress(wells.len());
    let mut rows: Vec<[f32; 7]> = Vec::with_capacity(wells.len());
    for block in wells.chunks(256) {
        rows.par_extend(block.par_iter().map(|w| {
            let x = eval.evaluate(w.playable(RULES));
            let mut state = BeamState::from_well(*w);
            let mut bests = Vec::with_capacity(config.depth);
            run(&mut state, &search, eval.as_ref(), &mut |s| {
                if let Some(b) = s.beam.iter().map(|e| e.value).reduce(f32::max) {
                    bests.push(b);
                }
                true
            });
            if state.pieces_survived() < config.depth || state.beam.is_empty() {
                return [x, -1.0, -1.0, -1.0, -1.0, -1.0, 0.0];
            }
            // Best first; the best entry's lines ride along with its value.
            let mut v: Vec<(f32, u32)> = state.beam.iter().map(|e| (e.value, e.score)).collect();
            v.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
            let top = |k: usize| v[..k.min(v.len())].iter().map(|e| e.0).sum::<f32>() / k.min(v.len()) as f32;
            let depths = bests.iter().sum::<f32>() / bests.len() as f32;
            [x, v[0].0, top(5), top(20), top(v.len()), depths, v[0].1 as f32]
        }));
        progress(rows.len());
    }
    let prefix = &args[2];
    for (k, kind) in std::iter::once("x").chain(KINDS.iter().copied()).chain(["lines"]).enumerate() {
        let data: Vec<Sample> = wells.iter().zip(&rows).map(|(w, r)| Sample::new(w.playable(RULES), r[k])).collect();
        let path = match kind {
            "x" | "lines" => format!("{prefix}-{kind}.htds"),
            _ => format!("{prefix}-y{kind}.htds"),
        };
        write_dataset(Path::new(&path), &format!("{kind} by {name}"), &data).expect("write");
    }
    println!("{} wells read by {name} in {:.1} s", wells.len(), started.elapsed().as_secs_f64());
}

/// The cycle's refine step (knewjade's lookahead target, scaled; step 0.5
/// unless given) on a data set's wells with any evaluator, `mean=`
/// included: targets from an ensemble's lookahead, or another step; with
/// `survival`, the survival target (below -0.66 exactly when the lookahead
/// died within 10 pieces, at gamma 0.98).
fn refine(args: &[String]) {
    use hatetris_learn::cycle::{refine_targets, TargetKind};
    use hatetris_learn::dataset::{write_dataset, Sample};
    let (name, eval, wells, mut config, seed) = refine_input(args, 3);
    config.step = args.get(6).map_or(0.5, |s| s.parse().expect("STEP"));
    config.target = match args.get(7).map(String::as_str) {
        None | Some("lookahead") => TargetKind::Lookahead,
        Some("survival") => TargetKind::Survival,
        Some(other) => panic!("target {other}: lookahead or survival (the others need families)"),
    };
    if let Some(g) = args.get(8) {
        config.gamma = g.parse().expect("GAMMA");
    }
    let started = std::time::Instant::now();
    let total = wells.len();
    let targets = refine_targets(&wells, None, RULES, &config, eval.as_ref(), seed, &mut wells_progress(total));
    let refined: Vec<Sample> = wells.iter().zip(&targets).map(|(w, t)| Sample::new(w.playable(RULES), *t)).collect();
    write_dataset(Path::new(&args[2]), &format!("refine by {name}"), &refined).expect("write");
    println!("{total} wells refined by {name} in {:.1} s", started.elapsed().as_secs_f64());
}

/// What, early in a game, tells how long it will live? GAMES games of EVAL
/// at WIDTH as `hatetris games` plays them (each opened by OPEN_PIECES
/// pieces over values with seeded noise NOISE, seed 0); one JSON line per
/// game: its pieces and lines, and at every 25th piece its line's well's
/// value, cells and frozen rows.
fn mc(args: &[String]) {
    use hatetris_game::frozen::{frozen_at, HOLD};
    use hatetris_strength::games::{play_games, GamesConfig};
    let (name, eval) = evaluators(&args[..1]).remove(0);
    let config = GamesConfig {
        games: args[1].parse().expect("GAMES"),
        width: args[2].parse().expect("WIDTH"),
        open: args[3].parse().expect("OPEN_PIECES"),
        noise: args[4].parse().expect("NOISE"),
        seed: 0,
        chains: Chains::default(),
    };
    let games = play_games(eval.as_ref(), &config, &mut |_, _| {}).expect("the games replay");
    for (g, game) in games.iter().enumerate() {
        let mut wells = Vec::new();
        replay_line(RULES, ENEMY, &game.line, |_, w, _| wells.push(*w)).expect("the line replays");
        let at: Vec<serde_json::Value> = (25..wells.len())
            .step_by(25)
            .map(|d| {
                let w = &wells[d - 1];
                serde_json::json!({
                    "piece": d,
                    "value": eval.evaluate(w.playable(RULES)),
                    "cells": w.rows.iter().map(|r| r.count_ones()).sum::<u32>(),
                    "frozen": (d - 1 + HOLD <= wells.len()).then(|| frozen_at(&wells, d - 1, HOLD)),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"eval": name, "game": g, "width": config.width, "pieces": game.pieces, "lines": game.lines, "at": at})
        );
    }
}

/// Every well of every game's line in a `hatetris games --json` file, its
/// target the pieces that game still lived after it (the outcome of the
/// games' search from there); rows in the games' order, depth by depth, so
/// that a script can regroup them by game and depth.
fn mc_wells(args: &[String]) {
    use hatetris_learn::dataset::{write_dataset, Sample};
    let text = std::fs::read_to_string(&args[0]).expect("GAMES.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("games JSON");
    let mut samples = Vec::new();
    for eval in json["evals"].as_array().expect("evals") {
        for game in eval["games"].as_array().expect("games") {
            let (_, line) = game_line(game["replay"].as_str().expect("replay"));
            let wells = &line[1..];
            let n = wells.len();
            for (d, w) in wells.iter().enumerate() {
                samples.push(Sample::new(w.playable(RULES), (n - 1 - d) as f32));
            }
        }
    }
    write_dataset(Path::new(&args[1]), "games' wells by remaining pieces", &samples).expect("write");
    println!("{} wells", samples.len());
}

/// A wider beam where the game is decided: `hatetris games`'s games (seed
/// 0, the same noisy openings), but from the opening's end to piece UNTIL
/// the beam holds WIDE entries, then WIDTH again; one JSON line per game
/// (pair them with `games --json` by index).
fn wide_opening(args: &[String]) {
    use hatetris_strength::games::{game_salt, noisy_opening};
    let (name, eval) = evaluators(&args[..1]).remove(0);
    let games: usize = args[1].parse().expect("GAMES");
    let width: usize = args[2].parse().expect("WIDTH");
    let open: usize = args[3].parse().expect("OPEN_PIECES");
    let noise: f32 = args[4].parse().expect("NOISE");
    let wide: usize = args[5].parse().expect("WIDE");
    let until: usize = args[6].parse().expect("UNTIL");
    for i in 0..games {
        let salt = game_salt(0, i);
        let search = SearchConfig { width, seed: salt, ..SearchConfig::default() };
        let opening = noisy_opening(eval.as_ref(), &search, open, noise, salt);
        let mut state = BeamState::from_moves(&opening, RULES, ENEMY).expect("the opening replays");
        let wide_config = SearchConfig { width: wide, max_depth: until.saturating_sub(open).max(1), ..search.clone() };
        run(&mut state, &wide_config, eval.as_ref(), &mut |_| true);
        let narrow = SearchConfig { max_depth: 0, ..search };
        run(&mut state, &narrow, eval.as_ref(), &mut |_| true);
        let line = state.result().moves;
        let end = replay_line(RULES, ENEMY, &line, |_, _, _| {}).expect("the line replays");
        println!(
            "{}",
            serde_json::json!({"eval": name, "game": i, "pieces": line.len(), "lines": end.score, "wide": wide, "until": until})
        );
    }
}

/// The diagnostics' searches: `width` wide, S/Z chains `quiescence` deep
/// (the chains of the runs they diagnosed), to `max_depth` pieces (0: the
/// game's end), the standard rules and enemy.
fn sz_config(width: usize, quiescence: u32, max_depth: usize) -> SearchConfig {
    SearchConfig {
        width,
        rules: RULES,
        enemy: ENEMY,
        quiescence,
        chain_rule: ChainRule::Sz,
        max_depth,
        ..SearchConfig::default()
    }
}

/// The master games' own choices as targets ("hindsight families"): at
/// each lock of each REPLAY, the children of the well before it (the
/// landings of the piece the enemy deals) valued by EVAL, and the child the
/// game played (the one whose future the wide master beam kept) moved to
/// at least DELTA above its siblings: where a sibling is valued above
/// `v_played - DELTA`, the two meet at the midpoint `c` of the played
/// child's value and the best sibling's, the played child's target is
/// `max(v, c + DELTA/2)` and every sibling's `min(v, c - DELTA/2)`; every
/// other child keeps its own value, which anchors the fit. A parent well
/// met before (the tail games share their openings) or found in an
/// EXCLUDE replay (the games a yardstick starts from) is skipped. Prints
/// how often the played child already stood first, by phase of the game.
fn trunk(args: &[String]) {
    use hatetris_learn::dataset::{write_dataset, Sample};
    use rustc_hash::FxHashSet;
    let (_, eval) = evaluators(&args[..1]).remove(0);
    let delta: f32 = args[1].parse().expect("DELTA");
    let out = Path::new(&args[2]);
    let line_of = |path: &str| game_line(&std::fs::read_to_string(path).expect("replay file"));
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    if args[3] != "-" {
        for path in args[3].split(',') {
            seen.extend(line_of(path).1.iter().map(Well::hash64));
        }
    }
    let excluded = seen.len();
    let phases = [0usize, 200, 600, usize::MAX];
    // Per phase: families, played first, sum of the share of siblings above, families changed.
    let mut stats = [(0usize, 0usize, 0f64, 0usize); 3];
    let mut samples = Vec::new();
    for path in &args[4..] {
        let (moves, wells) = line_of(path);
        for (p, mv) in moves.iter().enumerate() {
            let parent = wells[p];
            if !seen.insert(parent.hash64()) {
                continue;
            }
            let (piece, landings) = choose_piece_and_landings(&parent, RULES, None::<&hatetris_game::SeenWells>);
            let played = wells[p + 1];
            let children: Vec<Well> = landings.into_iter().filter(|l| !l.well.is_game_over()).map(|l| l.well).collect();
            if piece != mv.piece || children.len() < 2 || !children.contains(&played) {
                continue;
            }
            let values: Vec<f32> = children.iter().map(|w| eval.evaluate(w.playable(RULES))).collect();
            let at = children.iter().position(|w| *w == played).expect("played child");
            let v = values[at];
            let best_sibling =
                values.iter().enumerate().filter(|&(i, _)| i != at).map(|(_, &x)| x).fold(f32::MIN, f32::max);
            let above = values.iter().filter(|&&x| x > v).count();
            let phase = phases.windows(2).position(|w| (w[0]..w[1]).contains(&p)).expect("a phase");
            let s = &mut stats[phase];
            s.0 += 1;
            s.1 += usize::from(above == 0);
            s.2 += above as f64 / (children.len() - 1) as f64;
            let changed = best_sibling > v - delta;
            s.3 += usize::from(changed);
            let c = (v + best_sibling) / 2.0;
            for (i, (w, &x)) in children.iter().zip(&values).enumerate() {
                let target = match (changed, i == at) {
                    (false, _) => x,
                    (true, true) => x.max(c + delta / 2.0),
                    (true, false) => x.min(c - delta / 2.0),
                };
                samples.push(Sample::new(w.playable(RULES), target.clamp(-1.0, 1.0)));
            }
        }
    }
    println!("{excluded} wells of the excluded games; phase\tfamilies\tplayed_first\tsiblings_above\tchanged");
    for (w, s) in phases.windows(2).zip(&stats) {
        let n = s.0.max(1) as f64;
        println!(
            "pieces {}-{}\t{}\t{:.3}\t{:.3}\t{:.3}",
            w[0],
            w[1].min(99_999),
            s.0,
            s.1 as f64 / n,
            s.2 / n,
            s.3 as f64 / n
        );
    }
    write_dataset(out, &format!("trunk families, delta {delta}"), &samples).expect("write");
    println!("{} wells written to {}", samples.len(), out.display());
}

/// Does a wide beam keep more than one floor? From the position after AT
/// pieces of REPLAY, a search as the lineage's master searches (record
/// chains of depth 4 on every candidate, blend 0.5) of WIDTH for DEPTHS
/// pieces; every EVERY depths (default 10): the bottom rows every entry
/// shares (a floor the whole beam has buried), the distinct signatures of
/// the bottom ROWS rows (default 2) among the entries, the share of the
/// largest signature among all entries and among the 1,000 best by value,
/// and the best score.
fn bottoms(args: &[String]) {
    use rustc_hash::FxHashMap;
    let (_, eval) = evaluators(&args[..1]).remove(0);
    let width: usize = args[1].parse().expect("WIDTH");
    let depths: usize = args[2].parse().expect("DEPTHS");
    let (moves, _) = game_line(&std::fs::read_to_string(&args[3]).expect("REPLAY"));
    let at: usize = args[4].parse().expect("AT");
    let rows: usize = args.get(5).map_or(2, |r| r.parse().expect("ROWS"));
    let every: usize = args.get(6).map_or(10, |r| r.parse().expect("EVERY"));
    let mut state = BeamState::from_moves(&moves[..at], RULES, ENEMY).expect("the game's own line");
    let config = SearchConfig {
        width,
        rules: RULES,
        enemy: ENEMY,
        quiescence: 4,
        chain_rule: ChainRule::Record,
        chain_blend: Blend::from_thousandths(500).expect("a blend"),
        // The beam counts depth from its start, not from the game's first piece.
        max_depth: depths,
        ..SearchConfig::default()
    };
    let bottom = |w: &Well, k: usize| -> u16 { w.rows[w.rows.len() - 1 - k] };
    println!("depth\tbeam\tshared_floor\tsignatures\tlargest\tlargest_top1000\tbest_score");
    run(&mut state, &config, eval.as_ref(), &mut |s| {
        if s.depth % every != 0 || s.beam.is_empty() {
            return true;
        }
        let first = s.beam[0].well;
        let shared = (0..first.rows.len())
            .take_while(|&k| bottom(&first, k) != 0 && s.beam.iter().all(|e| bottom(&e.well, k) == bottom(&first, k)))
            .count();
        let sig = |w: &Well| -> u64 { (0..rows).fold(0u64, |acc, k| acc << 10 | u64::from(bottom(w, k))) };
        let mut groups: FxHashMap<u64, usize> = FxHashMap::default();
        for e in &s.beam {
            *groups.entry(sig(&e.well)).or_default() += 1;
        }
        let (&big, &count) = groups.iter().max_by_key(|&(_, &c)| c).expect("a group");
        let mut order: Vec<usize> = (0..s.beam.len()).collect();
        order.sort_unstable_by(|&a, &b| s.beam[b].value.total_cmp(&s.beam[a].value));
        let top = &order[..order.len().min(1000)];
        let top_big = top.iter().filter(|&&i| sig(&s.beam[i].well) == big).count();
        println!(
            "{}\t{}\t{}\t{}\t{:.3}\t{:.3}\t{}",
            s.depth,
            s.beam.len(),
            shared,
            groups.len(),
            count as f64 / s.beam.len() as f64,
            top_big as f64 / top.len() as f64,
            s.best_score
        );
        true
    });
}

/// What a buried row costs, by the network and by a search: at every
/// EVERY-th lock of each replay from piece 100 to 150 before its end, the
/// well W, and W+ (every row up one, a garbage row with one hole at the
/// floor: one more row that can never clear before the rows above it do),
/// where W's top playable row is empty. Prints the network's values of
/// both, the gap between the best two children of W's dealt piece (the
/// margins its choices are made by), and the pieces a plain WIDTH-wide
/// search survives from each (at most PIECES).
fn row_price(args: &[String]) {
    let (_, eval) = evaluators(&args[..1]).remove(0);
    let width: usize = args[1].parse().expect("WIDTH");
    let pieces: usize = args[2].parse().expect("PIECES");
    let every: usize = args[3].parse().expect("EVERY");
    let config =
        SearchConfig { width, rules: RULES, enemy: ENEMY, quiescence: 0, max_depth: pieces, ..SearchConfig::default() };
    let value = |w: &Well| eval.evaluate(w.playable(RULES));
    let survive = |w: Well| {
        let mut state = BeamState::from_well(w);
        run(&mut state, &config, eval.as_ref(), &mut |_| true);
        state.pieces_survived()
    };
    println!("game\tpiece\tv\tv_plus\tsibling_gap\tsurvived\tsurvived_plus");
    let (mut values, mut survived, mut gaps) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()), Vec::new());
    for path in &args[4..] {
        let (_, wells) = game_line(&std::fs::read_to_string(path).expect("REPLAY"));
        let name = Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        let last = wells.len().saturating_sub(150);
        for t in (100..last).step_by(every) {
            let w = wells[t];
            let top = w.rows.len() - RULES.height();
            if w.rows[top] != 0 {
                continue;
            }
            let mut rows = w.rows;
            rows.copy_within(top + 1.., top);
            let n = rows.len();
            rows[n - 1] = hatetris_game::FULL_ROW & !(1 << (t * 7 % 10));
            let plus = Well::from_rows(rows);
            let (_, landings) = choose_piece_and_landings(&w, RULES, None::<&hatetris_game::SeenWells>);
            let mut children: Vec<f32> =
                landings.iter().filter(|l| !l.well.is_game_over()).map(|l| value(&l.well)).collect();
            children.sort_unstable_by(|a, b| b.total_cmp(a));
            let gap = if children.len() >= 2 { children[0] - children[1] } else { f32::NAN };
            let (v, vp) = (value(&w), value(&plus));
            let (sv, sp) = (survive(w), survive(plus));
            println!("{name}\t{t}\t{v:.4}\t{vp:.4}\t{gap:.4}\t{sv}\t{sp}");
            values.0.push(v as f64);
            values.1.push(vp as f64);
            survived.0.push(sv as f64);
            survived.1.push(sp as f64);
            if gap.is_finite() {
                gaps.push(gap as f64);
            }
        }
    }
    let dv = hatetris_strength::stats::paired(&values.0, &values.1);
    let ds = hatetris_strength::stats::paired(&survived.0, &survived.1);
    gaps.sort_unstable_by(f64::total_cmp);
    eprintln!(
        "{} wells: v - v_plus {:.4} [{:.4}, {:.4}] (W+ valued lower in {}); sibling gap median {:.4}; survived - survived_plus {:.1} [{:.1}, {:.1}] pieces",
        dv.n,
        dv.mean_diff,
        dv.ci95.0,
        dv.ci95.1,
        dv.wins,
        gaps.get(gaps.len() / 2).copied().unwrap_or(f64::NAN),
        ds.mean_diff,
        ds.ci95.0,
        ds.ci95.1
    );
}

/// The best line so far of a saved search, as a replay (`hatetris verify
/// --trace` then shows its wells): SAVE is a `search --checkpoint` file
/// (`checkpoint.htck`) or a cycle's `search.htsc`, whose checkpoint it
/// holds first (a u64 length after the frame's 8-byte header). On stderr,
/// the beam: its stack heights, its values' deciles, and per height its
/// entries, mean value and lines.
fn best_line(args: &[String]) {
    let restored = read_save(Path::new(&args[0]));
    let result = restored.state.result();
    let keys = hatetris_search::keys_for_line(RULES, ENEMY, &result.moves).expect("the line's keys");
    let replay = hatetris_game::replay::encode(&keys, hatetris_game::replay::Format::Base2048);
    std::fs::write(&args[1], replay).expect("OUT");
    eprintln!("depth {}: best line {} lines, {} pieces", restored.state.depth, result.score, result.moves.len());
    // Each beam entry's stack height (playable rows up to the highest cell)
    // and covered empty cells, as the hand-made baseline measures them,
    // found once for the quartiles and every table below.
    let beam = &restored.state.beam;
    let (heights, covered): (Vec<usize>, Vec<usize>) = beam
        .iter()
        .map(|e| {
            let f = Baseline::features(e.well.playable(RULES));
            (f.max_height as usize, f.holes as usize)
        })
        .unzip();
    if beam.is_empty() {
        return;
    }
    let mut sorted = heights.clone();
    sorted.sort_unstable();
    let q = |f: f64| sorted[((sorted.len() - 1) as f64 * f) as usize];
    eprintln!(
        "beam of {}: stack height min {} quartiles {} {} {} max {}",
        sorted.len(),
        q(0.0),
        q(0.25),
        q(0.5),
        q(0.75),
        q(1.0)
    );
    let values: Vec<f32> = beam.iter().map(|e| e.value).collect();
    eprintln!("values: {}", deciles(values.clone()));
    // Per stack height: how much of the beam, at what value and score.
    let mut lines: std::collections::BTreeMap<usize, (u32, u32)> = Default::default();
    for (e, &h) in beam.iter().zip(&heights) {
        let r = lines.entry(h).or_insert((u32::MAX, 0));
        r.0 = r.0.min(e.score);
        r.1 = r.1.max(e.score);
    }
    for ((h, (n, v)), (lo, hi)) in by_height(&heights, &values).into_iter().zip(lines.into_values()) {
        eprintln!("  height {h:2}: {n:7} entries, mean value {v:+.3}, lines {lo}-{hi}");
    }
    // Per band of covered empty cells (an empty cell below a filled one in
    // its column): does the beam still hold wells with fewer holes, and how
    // does the network rank them against the holed ones?
    let mut bands: std::collections::BTreeMap<usize, (usize, f64, f32, usize)> = Default::default();
    for ((e, &c), &h) in beam.iter().zip(&covered).zip(&heights) {
        let r = bands.entry(c / 5 * 5).or_insert((0, 0.0, f32::MIN, 0));
        r.0 += 1;
        r.1 += e.value as f64;
        r.2 = r.2.max(e.value);
        r.3 += h;
    }
    for (b, (n, sum, best, hsum)) in bands {
        eprintln!(
            "  covered {b:2}-{:2}: {n:7} entries, mean value {:+.4}, best {best:+.4}, mean height {:.1}",
            b + 4,
            sum / n as f64,
            hsum as f64 / n as f64
        );
    }
    // The same beam valued by other evaluators (plain, no chains), to
    // tell one network's reading of the wells from another's.
    for (name, eval) in evaluators(&args[2..]) {
        let own: Vec<f32> = beam.par_iter().map(|e| eval.evaluate(e.well.playable(RULES))).collect();
        eprintln!("{name}: {}", deciles(own.clone()));
        let means: Vec<String> =
            by_height(&heights, &own).into_iter().map(|(h, (_, v))| format!("{h}:{v:+.3}")).collect();
        eprintln!("  mean by height {}", means.join(" "));
    }
}

/// A search's save: a cycle's (`HTSC`, the checkpoint inside) or
/// `search --checkpoint`'s own.
fn read_save(path: &Path) -> hatetris_search::checkpoint::Restored {
    let bytes = std::fs::read(path).expect("SAVE");
    let inner = if bytes.starts_with(b"HTSC") {
        let n = u64::from_le_bytes(bytes[8..16].try_into().expect("length")) as usize;
        &bytes[16..16 + n]
    } else {
        &bytes[..]
    };
    hatetris_search::checkpoint::from_bytes(inner, path).expect("a checkpoint")
}

/// Entries and mean value at each stack height, in height order.
fn by_height(heights: &[usize], values: &[f32]) -> Vec<(usize, (usize, f64))> {
    let mut sums: std::collections::BTreeMap<usize, (usize, f64)> = Default::default();
    for (&h, &v) in heights.iter().zip(values) {
        let r = sums.entry(h).or_insert((0, 0.0));
        r.0 += 1;
        r.1 += v as f64;
    }
    sums.into_iter().map(|(h, (n, sum))| (h, (n, sum / n as f64))).collect()
}

/// A beam's values in brief: least, deciles 1, 5 and 9, greatest, and the
/// spread between deciles 1 and 9.
fn deciles(mut values: Vec<f32>) -> String {
    values.sort_unstable_by(f32::total_cmp);
    let v = |f: f64| values[((values.len() - 1) as f64 * f) as usize];
    format!(
        "min {:+.4} deciles 1/5/9 {:+.4} {:+.4} {:+.4} max {:+.4} (spread 1-9 {:.4})",
        v(0.0),
        v(0.1),
        v(0.5),
        v(0.9),
        v(1.0),
        v(0.9) - v(0.1)
    )
}

/// Where a finished game's line stood in its search's saved beams: for
/// each save (any order), the piece, the rank by value of the beam entry
/// holding the line's well and score at that piece (0 the best), as a
/// fraction of the beam, and its value against the beam's best and last.
/// A line that rode near the cut was nearly lost (the width bound it); one
/// in the top few percent was the network's own choice.
fn ancestry(args: &[String]) {
    let (_, line) = game_states(&std::fs::read_to_string(&args[0]).expect("REPLAY"));
    println!("piece\tdepth\trank\tfraction\tvalue\tbest\tlast\tbeam");
    let mut rows = Vec::new();
    for path in &args[1..] {
        let restored = read_save(Path::new(path));
        let pieces = restored.state.result().moves.len();
        let beam = &restored.state.beam;
        // A save past the line's end, or of a beam that has died, ranks nothing.
        let Some(&(well, score)) = line.get(pieces).filter(|_| !beam.is_empty()) else { continue };
        // The line's well may be in the beam more than once (other paths,
        // other enemy memories): its best entry stands for it.
        let mine = beam.iter().filter(|e| e.well == well && e.score == score).map(|e| e.value).reduce(f32::max);
        let best = beam.iter().map(|e| e.value).fold(f32::MIN, f32::max);
        let last = beam.iter().map(|e| e.value).fold(f32::MAX, f32::min);
        let row = match mine {
            Some(v) => {
                let rank = beam.iter().filter(|e| e.value > v).count();
                format!(
                    "{pieces}\t{}\t{rank}\t{:.4}\t{v:+.4}\t{best:+.4}\t{last:+.4}\t{}",
                    restored.state.depth,
                    rank as f64 / beam.len() as f64,
                    beam.len()
                )
            }
            None => format!("{pieces}\t{}\t-\t-\t-\t{best:+.4}\t{last:+.4}\t{}", restored.state.depth, beam.len()),
        };
        rows.push((pieces, row));
    }
    rows.sort_by_key(|r| r.0);
    for (_, r) in rows {
        println!("{r}");
    }
}

/// Each evaluator's value of every well along a replay (the well after k
/// locks on line k, tab-separated: k, then one value an evaluator), to
/// read against `verify`'s rows_frozen_at and `--trace`.
fn line_values(args: &[String]) {
    let replay = std::fs::read_to_string(&args[0]).expect("REPLAY");
    let (_, wells) = game_line(&replay);
    let evals = evaluators(&args[1..]);
    println!("lock\t{}", evals.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join("\t"));
    for (k, w) in wells.iter().enumerate() {
        let values: Vec<String> = evals.iter().map(|(_, e)| format!("{:.5}", e.evaluate(w.playable(RULES)))).collect();
        println!("{k}\t{}", values.join("\t"));
    }
}
