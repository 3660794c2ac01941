//! HATETRIS rules, bit for bit as the official game plays them.
//!
//! - [`well`]: the well as bit rows, locking and line clears;
//! - [`piece`]: the seven pieces in their four orientations;
//! - [`sweep`]: every landing of a piece, by bit-parallel sweeps (scalar
//!   and AVX2 back ends behind one API);
//! - [`peaks`]: how low each of the seven pieces can lock, all at once;
//! - [`reference`]: the plain breadth-first search (yardstick, key paths);
//! - [`enemy`]: HATETRIS and HATETRIS Mild;
//! - [`memory`]: the enemy's memory of seen wells, asked by hash;
//! - [`game`]: playing keys as the official game does;
//! - [`frozen`]: how fast a game buries its well (rows frozen per 100 pieces);
//! - [`replay`]: the raw, hex, Base65536 and Base2048 replay forms.

pub mod enemy;
pub mod fixtures;
pub mod frozen;
pub mod game;
pub mod key;
pub mod memory;
pub mod peaks;
pub mod piece;
pub mod reference;
pub mod replay;
pub mod sweep;
pub mod well;

pub use enemy::{
    choose_piece, choose_piece_and_landings, choose_piece_memoryless, choose_piece_memoryless_and_clears,
    memoryless_piece_cannot_clear, next_piece, Enemy,
};
pub use game::{play, Game, Lock, Outcome};
pub use key::Key;
pub use memory::{HashFilter, Memory, SeenWells};
pub use piece::Piece;
pub use sweep::{
    distinct_landings, for_each_completing_lock, for_each_completing_s_lock, for_each_completing_sz_lock,
    for_each_lock_position, landings, sz_completable_rows, Landing,
};
pub use well::{LockHasher, Rules, Well, BAR, FULL_ROW, MAX_DEPTH, STANDARD_HEIGHT, WIDTH};
