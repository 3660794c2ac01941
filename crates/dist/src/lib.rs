//! One beam search, and a learning cycle's refine step, spread over
//! processes on timely dataflow.
//!
//! - [`net`]: the cluster's settings (timely's `-n`, `-p`, `-h`) and its
//!   connections, made within a time limit;
//! - [`beam`]: the search itself, whose line is the single-process line for
//!   any number of processes;
//! - [`refine`]: the refine step, whose data set is the single-process
//!   data set for any number of processes;
//! - [`local`]: a cluster of processes on 127.0.0.1, for a quick try;
//! - [`run`]: starting timely on the cluster, and the all-to-all exchange;
//! - [`watch`]: heartbeats, so that a frozen peer or a dead link fails
//!   the run instead of hanging it;
//! - [`spread`]: the many searches of a cycle, `sample` or a hunt (and a
//!   cycle's refine step) on the cluster.
//!
//! The design, and what it costs: `docs/distributed.md`.

pub mod beam;
pub mod local;
pub mod net;
pub mod refine;
pub mod run;
pub mod spread;
pub mod watch;

pub use beam::{search, DepthCost, Event, Outcome};
pub use net::Cluster;
