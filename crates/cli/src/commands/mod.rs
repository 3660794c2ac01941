pub mod cycle;
pub mod bench;
pub mod play;
pub mod progress;
pub mod search;
pub mod train;
pub mod verify;
