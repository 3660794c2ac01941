//! The run's tests: resumption, spread, the search step's extras.

use super::super::config::{retune_config, MAX_FROM_END};
use super::super::refine::RefineConfig;
use super::super::search::sample_game;
use super::*;
use crate::dataset::Sample;
use hatetris_game::frozen::{freezing_rate, HOLD};
use hatetris_game::Well;
use hatetris_search::runner::Runner;
use hatetris_search::{BeamState, Blend, ChainRule, SearchConfig};
use hatetris_strength::{Start, Suite};
use rustc_hash::FxHashSet;
use std::path::PathBuf;

#[test]
fn a_retune_changes_the_budget_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    assert!(retune_config(dir.path(), &tiny()).unwrap_err().to_string().contains("no config.json"));
    write_json(&dir.path().join("config.json"), &tiny()).unwrap();
    let wider = CycleConfig {
        width: 24,
        samples_per_depth: 9,
        quiescence: 3,
        chain_rule: ChainRule::Enemy,
        chain_band: 2,
        chain_blend: Blend::from_thousandths(500).unwrap(),
        chain_follow: 1,
        refine: RefineConfig {
            width: 8,
            every: 2,
            quiescence: 2,
            chain_rule: ChainRule::Enemy,
            chain_blend: Blend::from_thousandths(500).unwrap(),
            chain_follow: 1,
            ..tiny().refine
        },
        history: 1,
        sample_only_refined: true,
        master_from_end: 50,
        train: TrainConfig { max_epochs: 1, learning_rate: 5e-4, ..tiny().train },
        ..tiny()
    };
    // Each retunable setting is taken over by its own copy, and the
    // list holds them all.
    let mut taken = tiny();
    for (name, retune) in super::super::config::RETUNABLE {
        let before = taken.clone();
        retune(&mut taken, &wider);
        assert_ne!(taken, before, "{name} took nothing over");
    }
    assert_eq!(taken, wider);
    retune_config(dir.path(), &wider).unwrap();
    assert_eq!(stored_config(dir.path()).unwrap(), Some(wider.clone()));
    for other in [
        CycleConfig { seed: 6, ..wider.clone() },
        CycleConfig { max_depth: 1, ..wider.clone() },
        CycleConfig { refine: RefineConfig { depth: 5, ..wider.refine.clone() }, ..wider.clone() },
        CycleConfig { train: TrainConfig { batch_size: 7, ..wider.train.clone() }, ..wider.clone() },
    ] {
        assert!(retune_config(dir.path(), &other).unwrap_err().to_string().contains("may be retuned"));
        assert_eq!(stored_config(dir.path()).unwrap(), Some(wider.clone()), "unchanged");
    }
}

/// A network whose games at a few dozen entries wide live long and
/// clear lines: d4 (`crates/eval/nets/d4.hnet`). The embedded default
/// (gen-b's generation 34) was trained on beams of 200,000 and below a
/// few hundred entries its games end within about 30 pieces.
fn narrow_beam_network() -> Network {
    Network::from_bytes(include_bytes!("../../../../eval/nets/d4.hnet")).expect("d4 is a valid network")
}

fn tiny() -> CycleConfig {
    CycleConfig {
        width: 12,
        samples_per_depth: 6,
        refine: RefineConfig { width: 4, depth: 3, ..RefineConfig::default() },
        history: 3,
        quiescence: 1,
        seed: 5,
        max_depth: 24,
        train: TrainConfig { hidden: 8, batch_size: 32, max_epochs: 2, ..TrainConfig::default() },
        suite_width: 2,
        suite_pieces: 3,
        ..CycleConfig::default()
    }
}

fn steps(events: &[String], kind: &str) -> Vec<String> {
    events.iter().filter(|e| e.starts_with(kind)).cloned().collect()
}

fn run(dir: &Path, cycles: usize, stop: Option<(usize, Step)>) -> (Vec<CycleMetrics>, Vec<String>) {
    let mut events = Vec::new();
    let net = Network::random(8, 1);
    let metrics = run_cycles(dir, cycles, &tiny(), &net, stop, &mut |e| match e {
        CycleEvent::StepStarted { cycle, step } => events.push(format!("started {cycle} {step:?}")),
        CycleEvent::StepSkipped { cycle, step } => events.push(format!("skipped {cycle} {step:?}")),
        _ => {}
    })
    .unwrap();
    (metrics, events)
}

/// Runs cycle 1's search step alone; its record, or the run's error.
fn search_only(dir: &Path, config: &CycleConfig) -> Result<SearchRecord, CycleError> {
    let net = Network::random(8, 1);
    run_cycles(dir, 1, config, &net, Some((1, Step::Search)), &mut |_| {})?;
    Ok(read_json(&cycle_dir(dir, 1).join("search.json")).unwrap())
}

#[test]
fn a_search_killed_midway_goes_on_from_its_save_to_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    // Children in a band: the pending children cross the saves too.
    let config = CycleConfig { sample_children: true, sample_band: 0.5, checkpoint_entries: 48, ..tiny() };
    assert_eq!(config.checkpoint_depths(), 4);
    let whole = tmp.path().join("whole");
    let record = search_only(&whole, &config).unwrap();
    let samples = std::fs::read(cycle_dir(&whole, 1).join("samples.htds")).unwrap();
    // The saves go once the record is written.
    assert!(!cycle_dir(&whole, 1).join(resume::FILE).exists());
    assert!(!cycle_dir(&whole, 1).join(resume::PREVIOUS).exists());

    let killed = tmp.path().join("killed");
    let net = Network::random(8, 1);
    let kill = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_cycles(&killed, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
            if let CycleEvent::SearchDepth { report, .. } = e {
                assert!(report.depth < 10, "killed at depth 10");
            }
        })
    }));
    assert!(kill.is_err());
    let cdir = cycle_dir(&killed, 1);
    assert!(!cdir.join("samples.htds").exists() && cdir.join(resume::FILE).exists());
    let resumed_at = |dir: &Path| {
        let mut at = None;
        run_cycles(dir, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
            if let CycleEvent::SearchResumed { depth, .. } = e {
                at = Some(depth);
            }
        })
        .unwrap();
        let again: SearchRecord = read_json(&cycle_dir(dir, 1).join("search.json")).unwrap();
        assert_eq!(
            (again.lines, &again.replay, again.pieces, again.wells_sampled),
            (record.lines, &record.replay, record.pieces, record.wells_sampled)
        );
        assert_eq!(std::fs::read(cycle_dir(dir, 1).join("samples.htds")).unwrap(), samples);
        at
    };
    // A copy whose last save is damaged goes on from the save before.
    let damaged = tmp.path().join("damaged");
    std::fs::create_dir_all(cycle_dir(&damaged, 1)).unwrap();
    for name in ["config.json", "net-000.hnet"] {
        std::fs::copy(killed.join(name), damaged.join(name)).unwrap();
    }
    let mut bytes = std::fs::read(cdir.join(resume::FILE)).unwrap();
    bytes[100] ^= 1;
    std::fs::write(cycle_dir(&damaged, 1).join(resume::FILE), bytes).unwrap();
    std::fs::copy(cdir.join(resume::PREVIOUS), cycle_dir(&damaged, 1).join(resume::PREVIOUS)).unwrap();
    assert_eq!(resumed_at(&killed), Some(8));
    assert_eq!(resumed_at(&damaged), Some(4));
    // Never saved with 0 entries.
    let never = tmp.path().join("never");
    search_only(&never, &CycleConfig { checkpoint_entries: 0, ..config.clone() }).unwrap();
    let kept = std::fs::read(cycle_dir(&never, 1).join("samples.htds")).unwrap();
    assert_eq!(kept, samples, "saving changes nothing");
}

#[test]
fn a_sampled_game_leaves_nothing_but_its_data_set() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("w.htds");
    let net: Arc<dyn Evaluator> = Arc::new(Network::random(8, 1));
    let config = CycleConfig { checkpoint_entries: 12, ..tiny() };
    let record = sample_game(&mut Alone, &net, "net", &config, &out, &mut |_| {}).unwrap();
    assert!(record.pieces > 2);
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["w.htds"]);
}

/// One process whose peers answer `least` with the values given, in
/// order: how a spread step agrees, without the network.
struct Peers(std::collections::VecDeque<u64>);

impl Runner for Peers {
    fn processes(&self) -> usize {
        1
    }
    fn search(
        &mut self,
        state: &mut BeamState,
        config: &SearchConfig,
        eval: &Arc<dyn Evaluator>,
        name: &str,
        every: bool,
        on_depth: &mut dyn FnMut(&hatetris_search::DepthReport, Option<&BeamState>) -> bool,
    ) -> Result<hatetris_search::SearchResult, String> {
        Alone.search(state, config, eval, name, every, on_depth)
    }
    fn least(&mut self, value: u64) -> Result<u64, String> {
        Ok(self.0.pop_front().map_or(value, |peer| peer.min(value)))
    }
}

impl Spread for Peers {
    fn refine_pairs(
        &mut self,
        wells: &[Well],
        families: Option<&[u32]>,
        settings: &PartSettings,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<(f32, f32)>, CycleError> {
        Alone.refine_pairs(wells, families, settings, progress)
    }
}

#[test]
fn spread_the_search_goes_on_from_the_last_save_every_process_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let config = CycleConfig { checkpoint_entries: 48, ..tiny() };
    let net = Network::random(8, 1);
    let whole = tmp.path().join("whole");
    let record = search_only(&whole, &config).unwrap();
    // A run killed at depth 10 holds saves at depths 4 and 8.
    let killed = tmp.path().join("killed");
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_cycles(&killed, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
            if let CycleEvent::SearchDepth { report, .. } = e {
                assert!(report.depth < 10, "killed at depth 10");
            }
        })
    }));
    let copy = |name: &str| {
        let to = tmp.path().join(name);
        std::fs::create_dir_all(cycle_dir(&to, 1)).unwrap();
        for f in ["config.json", "net-000.hnet", "cycle-001/search.htsc", "cycle-001/search.prev.htsc"] {
            std::fs::copy(killed.join(f), to.join(f)).unwrap();
        }
        to
    };
    // (peers' answers to "the depth of your last save + 1", then to
    // "do you hold the agreed one"; resumed at)
    for (peers, at) in [(vec![9, 1], Some(8)), (vec![5, 1], Some(4)), (vec![0, 0], None), (vec![9, 0], None)] {
        let dir = copy("spread");
        let mut resumed = None;
        let mut runner = Peers(peers.into());
        run_cycles_on(&mut runner, &dir, 1, &config, &net, Some((1, Step::Search)), &mut |e| {
            if let CycleEvent::SearchResumed { depth, .. } = e {
                resumed = Some(depth);
            }
        })
        .unwrap();
        assert_eq!(resumed, at);
        let again: SearchRecord = read_json(&cycle_dir(&dir, 1).join("search.json")).unwrap();
        assert_eq!((again.replay, again.wells_sampled), (record.replay.clone(), record.wells_sampled));
        assert_eq!(
            std::fs::read(cycle_dir(&dir, 1).join("samples.htds")).unwrap(),
            std::fs::read(cycle_dir(&whole, 1).join("samples.htds")).unwrap()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_game_short_of_the_last_is_searched_again_by_the_network_before() {
    let tmp = tempfile::tempdir().unwrap();
    // d4's game of 40 pieces clears lines.
    let net = narrow_beam_network();
    let plain = tmp.path().join("plain");
    let base = CycleConfig { max_depth: 40, ..tiny() };
    run_cycles(&plain, 2, &base, &net, Some((2, Step::Search)), &mut |_| {}).unwrap();
    // Any game is short of 100 times a game with lines.
    let config = CycleConfig { retry_below: 100.0, ..base };
    let with = tmp.path().join("with");
    run_cycles(&with, 2, &config, &net, Some((2, Step::Search)), &mut |_| {}).unwrap();
    let first: SearchRecord = read_json(&cycle_dir(&with, 1).join("search.json")).unwrap();
    let a: SearchRecord = read_json(&cycle_dir(&plain, 2).join("search.json")).unwrap();
    let b: SearchRecord = read_json(&cycle_dir(&with, 2).join("search.json")).unwrap();
    assert!(first.retry_lines.is_none(), "cycle 1 has no game before it");
    assert_eq!((a.lines, &a.replay), (b.lines, &b.replay), "the cycle's own game is unchanged");
    assert!(first.lines > 0, "the last game has lines");
    assert!(b.retry_lines.is_some());
    assert!(b.wells_sampled > a.wells_sampled, "both games' beams are sampled");
    assert!(a.retry_lines.is_none());
}

/// The record's freezing rate is the one the engine's replay of the
/// game gives (as `hatetris verify` prints it).
#[test]
fn the_game_records_how_fast_it_froze_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let net = narrow_beam_network();
    // Wide enough that the game outlives the freezing rate's hold.
    let config = CycleConfig { max_depth: 70, width: 40, ..tiny() };
    run_cycles(tmp.path(), 1, &config, &net, Some((1, Step::Search)), &mut |_| {}).unwrap();
    let r: SearchRecord = read_json(&cycle_dir(tmp.path(), 1).join("search.json")).unwrap();
    assert!(r.pieces > HOLD + 2, "{} pieces", r.pieces);
    let keys = hatetris_game::replay::decode(&r.replay).unwrap();
    let mut wells = Vec::new();
    hatetris_game::play(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &keys, |g, _| wells.push(*g.well()));
    assert_eq!(r.frozen_per_100, freezing_rate(&wells, HOLD));
    assert!(r.frozen_per_100.is_some());
}

#[test]
fn openings_add_other_games_reproducibly() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = search_only(&tmp.path().join("plain"), &tiny()).unwrap();
    let config = CycleConfig { openings: 2, opening_pieces: 5, opening_noise: 0.5, opening_samples: 3, ..tiny() };
    let with = search_only(&tmp.path().join("with"), &config).unwrap();
    let again = search_only(&tmp.path().join("again"), &config).unwrap();
    assert_eq!((with.lines, &with.replay), (plain.lines, &plain.replay), "the game itself is unchanged");
    assert!(plain.opening_lines.is_empty());
    assert_eq!(with.opening_lines.len(), 2);
    assert!(with.wells_sampled > plain.wells_sampled);
    assert_eq!((with.wells_sampled, &with.opening_lines), (again.wells_sampled, &again.opening_lines));
    let a = read_dataset(&cycle_dir(&tmp.path().join("with"), 1).join("samples.htds")).unwrap();
    let b = read_dataset(&cycle_dir(&tmp.path().join("again"), 1).join("samples.htds")).unwrap();
    assert!(a.iter().zip(&b).all(|(x, y)| x.well() == y.well()), "the same wells from the same seed");
    // The openings' wells are not the game's: other lines were played.
    let own = read_dataset(&cycle_dir(&tmp.path().join("plain"), 1).join("samples.htds")).unwrap();
    let own: FxHashSet<Well> = own.iter().map(Sample::well).collect();
    assert!(a.iter().filter(|s| !own.contains(&s.well())).count() > 10);
}

#[test]
fn starts_add_their_beams_to_the_samples_and_public_positions_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    // An own game: a small search's line, with starts every 5 pieces.
    let search = SearchConfig {
        width: 12,
        rules: Rules::STANDARD,
        enemy: hatetris_game::Enemy::Hatetris,
        quiescence: 0,
        chain_rule: ChainRule::Sz,
        chain_band: 0,
        chain_blend: Blend::FULL,
        chain_follow: 0,
        seed: 1,
        twins: 1,
        max_depth: 20,
    };
    let line = hatetris_search::search(&search, &Network::random(8, 1), &mut |_| {}).moves;
    let keys = hatetris_search::keys_for_line(search.rules, search.enemy, &line).unwrap();
    let own = Suite::from_replay("own", &keys, 5, 5);
    assert!(own.starts.len() >= 3);
    let own_path = tmp.path().join("own.htsu");
    own.save(&own_path).unwrap();

    let plain = search_only(&tmp.path().join("plain"), &tiny()).unwrap();
    let config = CycleConfig { starts: Some(own_path.clone()), start_pieces: 4, ..tiny() };
    let with = search_only(&tmp.path().join("with"), &config).unwrap();
    assert_eq!((with.lines, &with.replay), (plain.lines, &plain.replay), "the game itself is unchanged");
    assert!(with.wells_sampled > plain.wells_sampled);
    assert!(plain.starts_pieces.is_none());
    assert!(with.starts_pieces.is_some_and(|p| p > 0.0 && p <= 4.0));
    let samples = read_dataset(&cycle_dir(&tmp.path().join("with"), 1).join("samples.htds")).unwrap();
    assert_eq!(samples.len(), with.wells_sampled);

    // A position of a public game before the suite's first piece (100),
    // as a denser suite of the same games would hold, is refused too.
    let line = Suite::embedded_default().starts[3].moves[..60].to_vec();
    let end =
        hatetris_search::replay_line(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &line, |_, _, _| {}).unwrap();
    let early = Start { source: "public".into(), piece: 60, score: end.score, well: end.well, moves: line };
    let public = Suite { starts: vec![Suite::embedded_default().starts[3].clone()] };
    let public_early = tmp.path().join("public-early.htsu");
    Suite { starts: vec![early] }.save(&public_early).unwrap();
    let config = CycleConfig { starts: Some(public_early), ..tiny() };
    let err = search_only(&tmp.path().join("public-early"), &config).unwrap_err().to_string();
    assert!(err.contains("strength suite"), "{err}");
    let public_path = tmp.path().join("public.htsu");
    public.save(&public_path).unwrap();
    let config = CycleConfig { starts: Some(public_path), ..tiny() };
    let err = search_only(&tmp.path().join("public"), &config).unwrap_err().to_string();
    assert!(err.contains("strength suite"), "{err}");

    let config = CycleConfig { starts: Some(own_path), height: 11, ..tiny() };
    let err = search_only(&tmp.path().join("low"), &config).unwrap_err().to_string();
    assert!(err.contains("16-row"), "{err}");
}

#[test]
fn the_band_keeps_the_children_near_the_cut_and_leaves_the_game_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let wells = |name: &str, band: f32| {
        let config = CycleConfig { sample_children: true, sample_band: band, ..tiny() };
        let record = search_only(&tmp.path().join(name), &config).unwrap();
        let samples = read_dataset(&cycle_dir(&tmp.path().join(name), 1).join("samples.htds")).unwrap();
        assert_eq!(samples.len(), record.wells_sampled);
        (record, samples.iter().map(Sample::well).collect::<Vec<Well>>())
    };
    let (all, all_wells) = wells("all", 0.0);
    let (wide, wide_wells) = wells("wide", 1e9);
    let (narrow, narrow_wells) = wells("narrow", 0.1);
    assert_eq!((&wide.replay, &narrow.replay), (&all.replay, &all.replay), "the game itself is unchanged");
    // The same entries are sampled: a band only drops children (a very
    // wide one none but those of a last depth whose cut never comes).
    assert!(wide_wells.iter().all(|w| all_wells.contains(w)));
    assert!(narrow_wells.iter().all(|w| wide_wells.contains(w)));
    assert!(!narrow_wells.is_empty() && narrow_wells.len() < wide_wells.len());
}

#[test]
fn students_are_kept_and_a_resumed_learn_step_fits_the_same_network() {
    let tmp = tempfile::tempdir().unwrap();
    let net = Network::random(8, 1);
    let learn = |name: &str, students: usize| {
        let dir = tmp.path().join(name);
        let config = CycleConfig { students, suite_width: 0, ..tiny() };
        run_cycles(&dir, 1, &config, &net, Some((1, Step::Learn)), &mut |_| {}).unwrap();
        dir
    };
    let plain = learn("plain", 0);
    let with = learn("students", 2);
    let c = cycle_dir(&with, 1);
    let files = |d: &Path| std::fs::read(d.join("net.hnet")).unwrap();
    assert!(c.join("student-01.hnet").exists() && c.join("student-02.hnet").exists());
    assert!(!c.join("student-03.hnet").exists() && !cycle_dir(&plain, 1).join("student-01.hnet").exists());
    assert_ne!(files(&c), files(&cycle_dir(&plain, 1)), "the students' mean is another target");
    let students: Vec<Vec<u8>> =
        (1..=2).map(|k| std::fs::read(c.join(format!("student-{k:02}.hnet"))).unwrap()).collect();
    assert_ne!(students[0], students[1], "each student starts from its own weights");

    // Killed in the learn step after the students: the step is redone
    // from the kept students and gives the same network.
    let learned = files(&c);
    std::fs::remove_file(c.join("net.hnet")).unwrap();
    std::fs::remove_file(c.join("train.json")).unwrap();
    learn("students", 2);
    assert_eq!(files(&c), learned);
}

#[test]
fn a_teacher_window_labels_with_the_earlier_cycles_networks_too() {
    let tmp = tempfile::tempdir().unwrap();
    let net = Network::random(8, 1);
    let windowed =
        |window: usize| CycleConfig { students: 1, teacher_window: window, history: 1, suite_width: 0, ..tiny() };
    let learn = |name: &str, window: usize| {
        let dir = tmp.path().join(name);
        run_cycles(&dir, 2, &windowed(window), &net, None, &mut |_| {}).unwrap();
        dir
    };
    let one = learn("one", 1);
    let two = learn("two", 2);
    let file = |d: &Path, c: usize, f: &str| std::fs::read(cycle_dir(d, c).join(f)).unwrap();
    // Cycle 1 has no earlier cycle: the window changes nothing there.
    assert_eq!(file(&one, 1, "net.hnet"), file(&two, 1, "net.hnet"));
    assert_eq!(file(&one, 2, "own.hnet"), file(&two, 2, "own.hnet"));
    assert_ne!(file(&one, 2, "net.hnet"), file(&two, 2, "net.hnet"), "cycle 1's networks teach cycle 2");

    // A window that reaches a cycle without its networks is refused.
    let gap = tmp.path().join("gap");
    let config = windowed(2);
    run_cycles(&gap, 1, &config, &net, None, &mut |_| {}).unwrap();
    std::fs::remove_file(cycle_dir(&gap, 1).join("own.hnet")).unwrap();
    let err = run_cycles(&gap, 2, &config, &net, None, &mut |_| {}).unwrap_err().to_string();
    assert!(err.contains("cycle-001") && err.contains("teacher window"), "{err}");
}

#[test]
fn a_refine_step_done_outside_the_run_is_the_cycles_and_the_run_goes_on_from_it() {
    let tmp = tempfile::tempdir().unwrap();
    // The cycle's own refine step, for comparison.
    let own = tmp.path().join("own");
    run(&own, 1, Some((1, Step::Refine)));
    let dir = tmp.path().join("run");
    assert!(RefineStep::open(&dir, 1).unwrap_err().to_string().contains("no config.json"));
    run(&dir, 1, Some((1, Step::Search)));
    assert!(RefineStep::open(&dir, 2).unwrap_err().to_string().contains("search step"));
    assert!(RefineStep::open(&dir, 0).is_err());
    let step = RefineStep::open(&dir, 1).unwrap();
    assert!(!step.done());
    assert!(step.record(1.0).is_err(), "nothing written yet");
    let (eval, _) = step.evaluator().unwrap();
    let families = step.families.as_deref();
    let targets = super::super::refine_targets(
        &step.wells,
        families,
        step.rules,
        &step.config,
        eval.as_ref(),
        step.seed,
        &mut |_| {},
    );
    step.write(&step.refined, &targets).unwrap();
    step.record(2.5).unwrap();
    assert!(step.done());
    let refined = |d: &Path| std::fs::read(cycle_dir(d, 1).join("refined.htds")).unwrap();
    assert_eq!(refined(&dir), refined(&own));
    let (metrics, events) = run(&dir, 1, None);
    assert_eq!(steps(&events, "skipped"), ["skipped 1 Search", "skipped 1 Refine"]);
    assert_eq!(metrics[0].refine_secs, 2.5);
}

#[test]
fn refine_every_k_refines_every_kth_sampled_well() {
    let tmp = tempfile::tempdir().unwrap();
    let config = CycleConfig { refine: RefineConfig { every: 3, ..tiny().refine }, ..tiny() };
    let net = Network::random(8, 1);
    let metrics = run_cycles(tmp.path(), 1, &config, &net, None, &mut |_| {}).unwrap();
    let c = cycle_dir(tmp.path(), 1);
    let samples = read_dataset(&c.join("samples.htds")).unwrap();
    let refined = read_dataset(&c.join("refined.htds")).unwrap();
    assert!(samples.len() > 6, "enough wells to take a share of");
    let picked: Vec<Well> = samples.iter().step_by(3).map(Sample::well).collect();
    assert_eq!(refined.iter().map(Sample::well).collect::<Vec<_>>(), picked);
    // The refine step alone (`hatetris refine`) takes the same share.
    assert_eq!(RefineStep::open(tmp.path(), 1).unwrap().wells, picked);
    let m = &metrics[0];
    assert_eq!(m.wells_sampled, samples.len());
    assert!((m.refine_ms_per_well - m.refine_secs * 1000.0 / picked.len() as f64).abs() < 1e-9);
    // Children are refined by family: a share would cut families apart.
    let children = CycleConfig { sample_children: true, ..config };
    assert!(children.validate().unwrap_err().to_string().contains("refine-every"));
}

#[test]
fn a_cycle_interrupted_after_refine_resumes_and_leaves_every_file_readable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (metrics, events) = run(dir, 2, Some((1, Step::Refine)));
    assert!(metrics.is_empty());
    assert_eq!(steps(&events, "started"), ["started 1 Search", "started 1 Refine"]);
    let c1 = cycle_dir(dir, 1);
    assert!(c1.join("refined.htds").exists() && !c1.join("net.hnet").exists());
    // Say the stopped process spent 1,000 s searching and 500 refining.
    let mut search: serde_json::Value = read_json(&c1.join("search.json")).unwrap();
    search["search_secs"] = 1000.0.into();
    write_json(&c1.join("search.json"), &search).unwrap();
    write_json(&c1.join("refine.json"), &500.0).unwrap();

    let (metrics, events) = run(dir, 2, None);
    assert_eq!(steps(&events, "skipped"), ["skipped 1 Search", "skipped 1 Refine"]);
    assert_eq!(steps(&events, "started")[0], "started 1 Learn");
    assert_eq!(metrics.len(), 2);
    // The resumed cycle's time counts the steps the earlier process ran.
    let m = &metrics[0];
    assert_eq!((m.search_secs, m.refine_secs), (1000.0, 500.0));
    assert!(m.wall_secs >= 1500.0 && m.wall_secs < 1500.0 + 600.0, "{}", m.wall_secs);
    assert!(m.core_secs.unwrap() >= m.wall_secs);
    assert!(metrics[1].wall_secs < 600.0, "cycle 2 ran here alone: {}", metrics[1].wall_secs);

    for (i, m) in metrics.iter().enumerate() {
        let c = cycle_dir(dir, i + 1);
        let samples = read_dataset(&c.join("samples.htds")).unwrap();
        let refined = read_dataset(&c.join("refined.htds")).unwrap();
        assert_eq!(samples.len(), m.wells_sampled);
        assert_eq!(refined.len(), samples.len());
        assert!(refined.iter().all(|s| (-1.0..=1.0).contains(&s.target)));
        Network::load(&c.join("net.hnet")).unwrap();
        let record: SearchRecord = read_json(&c.join("search.json")).unwrap();
        let keys = hatetris_game::replay::decode(&record.replay).unwrap();
        let out = hatetris_game::play(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &keys, |_, _| {});
        assert_eq!(out.score, m.lines, "the recorded replay scores what the metrics say");
    }
    assert_eq!(read_metrics(&dir.join("metrics.jsonl")).unwrap(), metrics);
    // Each learned network, and the first, was measured on the suite.
    assert!(metrics.iter().all(|m| m.suite_pieces.is_some_and(|p| (0.0..=3.0).contains(&p))));
    let first: SuiteRecord = read_json(&dir.join("suite-000.json")).unwrap();
    assert!(first.network.ends_with("net-000.hnet"));
    for png in ["progress-lines.png", "progress-loss.png", "progress-suite.png"] {
        let bytes = std::fs::read(dir.join(png)).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
    }
    // Nothing half-written is left anywhere.
    let leftovers: Vec<_> =
        walk(dir).into_iter().filter(|p| p.file_name().unwrap().to_string_lossy().contains("tmp")).collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A finished run asked for no more cycles does nothing.
    let (again, events) = run(dir, 2, None);
    assert_eq!(again, metrics);
    assert!(events.is_empty());
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_refused_setting_is_never_stored_and_the_folder_starts_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let damaged = tmp.path().join("damaged.htds");
    std::fs::write(&damaged, b"not a data set").unwrap();
    let net = Network::random(8, 1);
    for (bad, says) in [
        (CycleConfig { train: TrainConfig { batch_size: 0, ..tiny().train }, ..tiny() }, "batch"),
        (CycleConfig { train: TrainConfig { max_epochs: 0, ..tiny().train }, ..tiny() }, "epochs"),
        (CycleConfig { anchor: vec![tmp.path().join("missing.htds")], ..tiny() }, "missing.htds"),
        (CycleConfig { anchor: vec![damaged.clone()], ..tiny() }, "damaged.htds"),
        (CycleConfig { starts: Some(tmp.path().join("missing.htsu")), ..tiny() }, "missing.htsu"),
        (CycleConfig { width: 0, ..tiny() }, "width"),
    ] {
        let err = run_cycles(&dir, 1, &bad, &net, Some((1, Step::Search)), &mut |_| {}).unwrap_err().to_string();
        assert!(err.contains(says), "{err}");
        assert!(!dir.join("config.json").exists(), "{says}: stored");
    }
    search_only(&dir, &tiny()).unwrap();
    assert_eq!(stored_config(&dir).unwrap(), Some(tiny()));
}

#[test]
fn a_damaged_file_in_a_run_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    run(tmp.path(), 1, Some((1, Step::Refine)));
    let refined = cycle_dir(tmp.path(), 1).join("refined.htds");
    let mut bytes = std::fs::read(&refined).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x40;
    std::fs::write(&refined, bytes).unwrap();
    let err = run_cycles(tmp.path(), 1, &tiny(), &Network::random(8, 1), None, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("refined.htds"), "{err}");
}

#[test]
fn sampling_only_the_refined_wells_refines_and_learns_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    // Saves every 4 depths, so that a kill mid-search crosses them.
    let all = CycleConfig { refine: RefineConfig { every: 3, ..tiny().refine }, checkpoint_entries: 48, ..tiny() };
    let only = CycleConfig { sample_only_refined: true, ..all.clone() };
    let net = Network::random(8, 1);
    let (a, b) = (tmp.path().join("all"), tmp.path().join("only"));
    let ma = run_cycles(&a, 2, &all, &net, None, &mut |_| {}).unwrap();
    let mb = run_cycles(&b, 2, &only, &net, None, &mut |_| {}).unwrap();
    for cycle in 1..=2 {
        let (ca, cb) = (cycle_dir(&a, cycle), cycle_dir(&b, cycle));
        for name in ["refined.htds", "net.hnet"] {
            assert_eq!(std::fs::read(ca.join(name)).unwrap(), std::fs::read(cb.join(name)).unwrap(), "{name}");
        }
        let sa = read_dataset(&ca.join("samples.htds")).unwrap();
        let sb = read_dataset(&cb.join("samples.htds")).unwrap();
        assert!(sa.len() > 6);
        assert_eq!(sb, sa.iter().step_by(3).cloned().collect::<Vec<_>>());
        let m = (&ma[cycle - 1], &mb[cycle - 1]);
        assert_eq!((m.0.lines, &m.0.replay, m.0.wells_sampled), (m.1.lines, &m.1.replay, sa.len()));
        assert_eq!(m.1.wells_sampled, sb.len());
    }
    // A kill mid-search: the saves keep the count of wells sampled, and
    // the resumed step writes the same bytes.
    let killed = tmp.path().join("killed");
    let kill = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_cycles(&killed, 1, &only, &net, Some((1, Step::Search)), &mut |e| {
            if let CycleEvent::SearchDepth { report, .. } = e {
                assert!(report.depth < 10, "killed at depth 10");
            }
        })
    }));
    assert!(kill.is_err());
    assert!(cycle_dir(&killed, 1).join(resume::FILE).exists());
    run_cycles(&killed, 1, &only, &net, None, &mut |_| {}).unwrap();
    for name in ["samples.htds", "refined.htds", "net.hnet"] {
        let want = std::fs::read(cycle_dir(&b, 1).join(name)).unwrap();
        assert_eq!(std::fs::read(cycle_dir(&killed, 1).join(name)).unwrap(), want, "{name}");
    }
    // The refine alone takes the same wells; a refine retuned to a share
    // the search did not keep is refused by name.
    assert_eq!(RefineStep::open(&b, 1).unwrap().wells, RefineStep::open(&a, 1).unwrap().wells);
    let record: SearchRecord = read_json(&cycle_dir(&b, 1).join("search.json")).unwrap();
    assert_eq!(record.sampled_every, 3);
    assert_eq!(record.refine_stride(6).unwrap(), 2);
    assert!(record.refine_stride(4).unwrap_err().to_string().contains("sample_only_refined"));
}

#[test]
fn a_master_search_from_the_last_games_end_goes_on_from_its_first_pieces() {
    let tmp = tempfile::tempdir().unwrap();
    // Saves every 4 depths, so that a kill mid-search crosses them.
    let config = CycleConfig { master_from_end: 10, checkpoint_entries: 48, ..tiny() };
    let net = narrow_beam_network();
    let whole = tmp.path().join("whole");
    let metrics = run_cycles(&whole, 2, &config, &net, None, &mut |_| {}).unwrap();
    let moves = |replay: &str| {
        let keys = hatetris_game::replay::decode(replay).unwrap();
        hatetris_search::moves_for_keys(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &keys)
    };
    let (first, second) = (moves(&metrics[0].replay), moves(&metrics[1].replay));
    // The first cycle has no game before it; the second goes on from the
    // first's but for its last 10 pieces.
    let from = first.len() - 10;
    assert!(from > 0, "the first game is longer than 10 pieces");
    assert_eq!((metrics[0].from_piece, metrics[1].from_piece), (None, Some(from)));
    assert_eq!(second[..from], first[..from]);
    assert!(second.len() >= from + 10, "the second game searched on 10 pieces or more");
    let record: SearchRecord = read_json(&cycle_dir(&whole, 2).join("search.json")).unwrap();
    assert_eq!(record.from_piece, Some(from));
    // Killed in the second cycle's search, it goes on from its save to the same bytes.
    let killed = tmp.path().join("killed");
    run_cycles(&killed, 1, &config, &net, None, &mut |_| {}).unwrap();
    let kill = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_cycles(&killed, 2, &config, &net, Some((2, Step::Search)), &mut |e| {
            if let CycleEvent::SearchDepth { cycle: 2, report } = e {
                assert!(report.depth < 10, "killed at depth 10");
            }
        })
    }));
    assert!(kill.is_err());
    assert!(cycle_dir(&killed, 2).join(resume::FILE).exists());
    let mut resumed = None;
    let again = run_cycles(&killed, 2, &config, &net, None, &mut |e| {
        if let CycleEvent::SearchResumed { depth, .. } = e {
            resumed = Some(depth);
        }
    })
    .unwrap();
    assert_eq!(resumed, Some(8));
    assert_eq!(again[1].replay, metrics[1].replay);
    for name in ["samples.htds", "net.hnet"] {
        let want = std::fs::read(cycle_dir(&whole, 2).join(name)).unwrap();
        assert_eq!(std::fs::read(cycle_dir(&killed, 2).join(name)).unwrap(), want, "{name}");
    }
    // A game no longer than the setting: from the empty well.
    let long = CycleConfig { master_from_end: first.len(), ..config.clone() };
    assert!(master_prefix(&long, Rules::STANDARD, Some(&metrics[0].replay)).unwrap().is_empty());
    assert!(master_prefix(&config, Rules::STANDARD, None).unwrap().is_empty());
    // Refused past the most, before anything is written.
    let absurd = CycleConfig { master_from_end: MAX_FROM_END + 1, ..config.clone() };
    assert!(absurd.validate().unwrap_err().to_string().contains("master_from_end"));
}

#[test]
fn each_save_reports_the_best_line_and_the_bottom_rows_it_has_held() {
    let tmp = tempfile::tempdir().unwrap();
    let config = CycleConfig { width: 300, max_depth: 120, checkpoint_entries: 300 * 30, ..tiny() };
    assert_eq!(config.checkpoint_depths(), 30);
    let mut saved = Vec::new();
    let net = Network::embedded_bootstrap();
    run_cycles(tmp.path(), 1, &config, &net, Some((1, Step::Search)), &mut |e| {
        if let CycleEvent::SearchSaved { depth, lines, pieces, rows_held, .. } = e {
            saved.push((depth, lines, pieces, rows_held));
        }
    })
    .unwrap();
    let record: SearchRecord = read_json(&cycle_dir(tmp.path(), 1).join("search.json")).unwrap();
    assert!(record.pieces > 60, "a game long enough to hold rows: {} pieces", record.pieces);
    let depths: Vec<usize> = saved.iter().map(|s| s.0).collect();
    assert_eq!(depths[..2], [30, 60]);
    for (k, (depth, _, pieces, rows)) in saved.iter().enumerate() {
        if k + 1 < saved.len() {
            assert_eq!(pieces, depth, "from the empty well the best line is a piece a depth");
        }
        assert!(rows.iter().all(|&t| t + HOLD <= *pieces), "{rows:?} at {pieces}");
    }
    // The last save is the search's end: the record's game, its rows held
    // as `hatetris verify` counts them.
    let &(_, lines, pieces, ref rows) = saved.last().unwrap();
    assert_eq!((lines, pieces), (record.lines, record.pieces));
    let keys = hatetris_game::replay::decode(&record.replay).unwrap();
    let mut wells = Vec::new();
    hatetris_game::play(Rules::STANDARD, hatetris_game::Enemy::Hatetris, &keys, |g, _| wells.push(*g.well()));
    let held: Vec<usize> =
        hatetris_game::frozen::rows_frozen_at(&wells).into_iter().take_while(|&t| t + HOLD <= pieces).collect();
    assert_eq!(rows, &held);
    assert!(!held.is_empty(), "this game holds rows: {held:?}");
}
