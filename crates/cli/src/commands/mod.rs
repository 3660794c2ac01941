pub mod bench;
pub mod cycle;
pub mod play;
pub mod progress;
pub mod search;
pub mod solve;
pub mod train;
pub mod verify;
