//! Starting a timely computation on a cluster, and the one exchange the
//! spread commands are made of.

use crate::net::{connect, Cluster};
use crate::watch::Watchdog;
use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::net::TcpStream;
use std::rc::Rc;
use std::sync::{mpsc, Mutex};
use std::time::Duration;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

/// Connects to the cluster's peers (refusing any whose `fingerprint`
/// differs) and runs `work` as this process's one timely worker; returns
/// what it returned. What `work` sends on its channel reaches `on_event`
/// on the calling thread while it runs. A peer lost mid-run makes timely's network threads
/// panic, which poisons the worker's queues; that comes back as an error
/// naming this process, not as a hang; so does a peer silent for
/// `cluster.silence` (`crate::watch`).
pub fn execute<T, M, F>(cluster: &Cluster, fingerprint: u64, on_event: &mut dyn FnMut(M), work: F) -> Result<T>
where
    T: Send + 'static,
    M: Send + 'static,
    F: FnOnce(&mut Worker, &mpsc::Sender<M>) -> T + Send + 'static,
{
    let me = cluster.process;
    // Machines whose CPUs take other SIMD paths may value wells otherwise
    // (the evaluator picks its code at run time): they refuse each other.
    let links = connect(cluster, fingerprint ^ cpu_features())?;
    // Heartbeats beside timely's connections: a peer frozen, or behind a
    // link that went down, is silent; its silence shuts timely's sockets
    // down and the run fails as when a connection closes.
    let data = links.data.iter().flatten().map(TcpStream::try_clone).collect::<std::io::Result<Vec<_>>>()?;
    let watchdog = Watchdog::start(me, &cluster.addresses, links.beats, data, cluster.silence)
        .context("cannot start the heartbeats")?;
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(1, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) = initialize_networking_from_sockets(local, links.data, me, 1, hooks)
        .context("cannot start timely's networking")?;
    let builders: Vec<AllocatorBuilder> = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    let (tx, rx) = mpsc::channel::<M>();
    let work = Mutex::new(Some((work, tx)));
    let guards = quiet_network_panics(|| {
        timely::execute::execute_from(builders, Box::new(guard), timely::WorkerConfig::default(), move |worker| {
            let (work, tx) = work.lock().unwrap_or_else(|p| p.into_inner()).take().expect("one worker per process");
            work(worker, &tx)
        })
    })
    .map_err(|e| anyhow::anyhow!("timely: {e}"))?;
    for m in rx {
        on_event(m);
    }
    // Joining also joins timely's network threads, and panics if one of
    // them did (a peer's connection closed, or the heartbeats shut it
    // down): that is an error here, the silent peer's if one was.
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()));
    let fault = watchdog.fault();
    drop(watchdog);
    let lost = || match &fault {
        Some(why) => anyhow::anyhow!("{why}"),
        None => anyhow::anyhow!("process {me}: a peer was lost mid-run (its connection closed)"),
    };
    let mut outcomes = joined.map_err(|_| lost())?;
    match outcomes.pop() {
        Some(Ok(o)) => Ok(o),
        Some(Err(_)) => Err(lost()),
        None => bail!("process {me}: no worker ran"),
    }
}

/// A hash that every process computes alike (SipHash with fixed keys, as
/// `std`'s `DefaultHasher` does not promise across builds): the
/// fingerprints processes compare before they work together.
#[allow(deprecated)]
pub fn stable_hash(feed: impl FnOnce(&mut std::hash::SipHasher)) -> u64 {
    use std::hash::Hasher;
    let mut h = std::hash::SipHasher::new();
    feed(&mut h);
    h.finish()
}

/// The SIMD features the evaluator and the trainer choose their code by.
fn cpu_features() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let has = [
            std::arch::is_x86_feature_detected!("avx2"),
            std::arch::is_x86_feature_detected!("fma"),
            std::arch::is_x86_feature_detected!("bmi2"),
            std::arch::is_x86_feature_detected!("popcnt"),
        ];
        has.iter().enumerate().map(|(i, &h)| u64::from(h) << (56 + i)).sum()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        1 << 63
    }
}

/// Runs `f` with a panic hook that keeps timely's network-thread panics
/// (and the worker panics they cause) off standard error: the caller
/// reports them as one line. Other panics print as usual.
fn quiet_network_panics<R>(f: impl FnOnce() -> R) -> R {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let text = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            let network = text.starts_with("timely communication error")
                || text.contains("MergeQueue poisoned")
                || text.contains("Failed to receive MergeQueue")
                || text.starts_with("Send thread panic")
                || text.starts_with("Recv thread panic");
            if !network {
                default(info);
            }
        }));
    });
    f()
}

/// What the dataflow delivered here: (source, round, payload).
type Inbox<P> = Rc<RefCell<Vec<(u32, u64, P)>>>;

/// All-to-all exchanges of payloads `P` between the workers, in rounds.
pub struct Exchanger<P: timely::ExchangeData + Clone> {
    input: InputHandleVec<u64, (u64, u32, u64, P)>,
    probe: ProbeHandle<u64>,
    inbox: Inbox<P>,
}

impl<P: timely::ExchangeData + Clone + Serialize + DeserializeOwned> Exchanger<P> {
    /// Builds the dataflow on `worker`; every worker must build it.
    pub fn new(worker: &mut Worker) -> Self {
        let inbox: Inbox<P> = Rc::new(RefCell::new(Vec::new()));
        let mut input = InputHandleVec::new();
        let probe = ProbeHandle::new();
        let sink = Rc::clone(&inbox);
        worker.dataflow(|scope| {
            scope
                .input_from(&mut input)
                .exchange(|m: &(u64, u32, u64, P)| m.0)
                .inspect(move |m: &(u64, u32, u64, P)| sink.borrow_mut().push((m.1, m.2, m.3.clone())))
                .probe_with(&probe);
        });
        Exchanger { input, probe, inbox }
    }

    /// One all-to-all exchange: `out[d]` goes to worker `d`; returns what
    /// every worker sent here, by source, and the bytes sent to others.
    /// A peer may be a round ahead: its next message can arrive before this
    /// round ends, and waits for its round.
    pub fn all_to_all(&mut self, worker: &mut Worker, out: Vec<P>) -> (Vec<P>, u64) {
        let me = worker.index();
        let mut bytes = 0;
        let round = *self.input.time();
        for (d, p) in out.into_iter().enumerate() {
            let m = (d as u64, me as u32, round, p);
            if d != me {
                bytes += bincode::serialized_size(&m).unwrap_or(0);
            }
            self.input.send(m);
        }
        let next = round + 1;
        self.input.advance_to(next);
        while self.probe.less_than(&next) {
            worker.step_or_park(Some(Duration::from_millis(1)));
        }
        let (mut got, later): (Vec<_>, Vec<_>) =
            std::mem::take(&mut *self.inbox.borrow_mut()).into_iter().partition(|m| m.1 == round);
        *self.inbox.borrow_mut() = later;
        got.sort_by_key(|m| m.0);
        (got.into_iter().map(|m| m.2).collect(), bytes)
    }

    /// Every worker's `mine`, by worker.
    pub fn all_gather(&mut self, worker: &mut Worker, mine: P) -> Vec<P> {
        let n = worker.peers();
        self.all_to_all(worker, vec![mine; n]).0
    }
}
