//! The one way tests reach the fixtures: `fixtures/` at the repository root
//! (public replays with their official scores, lock-by-lock traces). A
//! missing fixture is a test failure with a message that names the file and
//! says where it was looked for.

use std::path::PathBuf;

/// The fixtures folder: `fixtures/` at the repository root.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// The text of `fixtures/NAME`; panics with a clear message if absent.
pub fn read_fixture(name: &str) -> String {
    let path = fixtures_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "fixture {name} not found at {} ({e}); the fixtures live in `fixtures/` at the repository root",
            path.display()
        )
    })
}

/// One line of `known-replays.tsv`.
#[derive(Clone, Debug)]
pub struct KnownReplay {
    pub name: String,
    pub enemy: String,
    pub expected_score: u32,
    pub encoding: String,
    pub replay: String,
}

/// Every replay of `known-replays.tsv`, comment lines skipped.
pub fn known_replays() -> Vec<KnownReplay> {
    read_fixture("known-replays.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.splitn(5, '\t').collect();
            assert_eq!(f.len(), 5, "malformed known-replays line: {l}");
            KnownReplay {
                name: f[0].to_string(),
                enemy: f[1].to_string(),
                expected_score: f[2].parse().expect("expected_score is a number"),
                encoding: f[3].to_string(),
                replay: f[4].to_string(),
            }
        })
        .collect()
}

/// Every well of the recorded HATETRIS games of `known-replays.tsv`, in
/// the order they were played: wells as real games make them, for tests.
pub fn recorded_hatetris_wells(rules: crate::Rules) -> Vec<crate::Well> {
    let mut wells = Vec::new();
    for known in known_replays().iter().filter(|k| k.enemy == "hatetris") {
        let keys = crate::replay::decode(&known.replay).expect("a known replay decodes");
        crate::play(rules, crate::Enemy::Hatetris, &keys, |g, _| wells.push(*g.well()));
    }
    wells
}

/// The children of every `step`-th well of [`recorded_hatetris_wells`]:
/// each piece at each lock position, its lines cleared, games over left
/// out. The wells a search meets, for tests of what it does to them.
pub fn recorded_hatetris_children(rules: crate::Rules, step: usize) -> Vec<crate::Well> {
    let mut children = Vec::new();
    for w in recorded_hatetris_wells(rules).iter().step_by(step) {
        for piece in crate::Piece::ALL {
            crate::for_each_lock_position(w, rules, piece, |x, y, o| {
                let mut next = *w;
                next.lock(piece.shape(o), x, y);
                if !next.is_game_over() {
                    children.push(next);
                }
            });
        }
    }
    children
}
