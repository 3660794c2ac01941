pub mod bench;
pub mod play;
pub mod progress;
pub mod search;
pub mod verify;
pub mod solve;
