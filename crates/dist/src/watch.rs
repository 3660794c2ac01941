//! Heartbeats between the processes of a run, so that a peer that is
//! frozen (SIGSTOP, a hung machine) or behind a link that went down is
//! noticed: neither closes a socket, and timely would wait for it forever.
//!
//! Beside timely's connection, every pair of processes holds a second one
//! (`crate::net::connect`). Each process writes a byte to every peer every
//! [`interval`] from a thread of its own (so a busy worker still beats),
//! and a thread for each peer reads them. A peer silent for
//! `Cluster::silence` is lost: the reader records why and shuts down
//! every timely socket of this process, which makes timely's network
//! threads fail and the worker with them, as when a peer's connection
//! closes; `crate::run::execute` then reports the recorded reason as one
//! line. A heartbeat connection that ends (the peer's run ended, or its
//! process died and its sockets closed) stops its reader quietly: timely's
//! own connection tells the rest.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a heartbeat is sent when peers may stay silent `silence`:
/// five beats within it, and at least one a second.
pub fn interval(silence: Duration) -> Duration {
    (silence / 5).clamp(Duration::from_millis(10), Duration::from_secs(1))
}

/// The heartbeat threads of one run; dropping it stops them.
pub struct Watchdog {
    stop: Arc<AtomicBool>,
    fault: Arc<Mutex<Option<String>>>,
    beats: Vec<TcpStream>,
    threads: Vec<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts beating on `beats` (by peer; `None` at `me`) and watching for
    /// silence; a silent peer shuts down `data` (clones of timely's sockets).
    pub fn start(
        me: usize,
        addresses: &[String],
        beats: Vec<Option<TcpStream>>,
        data: Vec<TcpStream>,
        silence: Duration,
    ) -> std::io::Result<Watchdog> {
        let stop = Arc::new(AtomicBool::new(false));
        let fault = Arc::new(Mutex::new(None));
        let every = interval(silence);
        let data = Arc::new(data);
        let mut kept = Vec::new();
        let mut writers = Vec::new();
        let mut threads = Vec::new();
        for (peer, beat) in beats.into_iter().enumerate() {
            let Some(beat) = beat else { continue };
            beat.set_write_timeout(Some(every))?;
            beat.set_read_timeout(Some(every))?;
            writers.push(beat.try_clone()?);
            kept.push(beat.try_clone()?);
            let (stop, fault, data) = (Arc::clone(&stop), Arc::clone(&fault), Arc::clone(&data));
            let address = addresses[peer].clone();
            let name = format!("heartbeat-from-{peer}");
            threads.push(std::thread::Builder::new().name(name).spawn(move || {
                let mut reader = beat;
                let mut heard = Instant::now();
                let mut buf = [0u8; 64];
                while !stop.load(Ordering::Relaxed) {
                    match reader.read(&mut buf) {
                        Ok(0) => return, // the peer's run ended or its process died: timely tells
                        Ok(_) => heard = Instant::now(),
                        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                        Err(_) => std::thread::sleep(every), // an unreachable peer: wait out its silence
                    }
                    if heard.elapsed() >= silence && !stop.load(Ordering::Relaxed) {
                        let mut f = fault.lock().unwrap_or_else(|p| p.into_inner());
                        if f.is_none() {
                            *f = Some(format!(
                                "process {me}: process {peer} at {address} was silent for {} s (frozen, or the link to it is down)",
                                silence.as_secs_f64()
                            ));
                        }
                        drop(f);
                        for s in data.iter() {
                            let _ = s.shutdown(Shutdown::Both);
                        }
                        return;
                    }
                }
            })?);
        }
        let writer_stop = Arc::clone(&stop);
        threads.push(std::thread::Builder::new().name("heartbeat".into()).spawn(move || {
            let mut writers = writers;
            while !writer_stop.load(Ordering::Relaxed) {
                for w in writers.iter_mut() {
                    let _ = w.write(&[0]);
                }
                std::thread::sleep(every);
            }
        })?);
        Ok(Watchdog { stop, fault, beats: kept, threads })
    }

    /// Why a peer was taken as lost, if one was.
    pub fn fault(&self) -> Option<String> {
        self.fault.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for s in &self.beats {
            let _ = s.shutdown(Shutdown::Both);
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// Two ends of a loopback connection.
    fn pair() -> (TcpStream, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let a = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (b, _) = l.accept().unwrap();
        (a, b)
    }

    #[test]
    fn a_silent_peer_is_named_and_the_data_sockets_shut_down() {
        let (beat_here, _beat_there) = pair(); // the peer never beats
        let (data_here, mut data_there) = pair();
        let addresses = vec!["a:1".to_string(), "b:2".to_string()];
        let silence = Duration::from_millis(400);
        let started = Instant::now();
        let dog =
            Watchdog::start(0, &addresses, vec![None, Some(beat_here)], vec![data_here.try_clone().unwrap()], silence)
                .unwrap();
        // The data socket's far end sees it closed once the silence is over.
        let mut buf = [0u8; 8];
        assert_eq!(data_there.read(&mut buf).unwrap(), 0);
        let took = started.elapsed();
        assert!(took >= silence && took < silence * 5, "{took:?}");
        let fault = dog.fault().expect("a fault");
        assert!(fault.contains("process 1 at b:2 was silent for 0.4 s"), "{fault}");
    }

    #[test]
    fn a_beating_peer_is_never_a_fault_and_dropping_stops_at_once() {
        let (beat_here, beat_there) = pair();
        let (data_here, _data_there) = pair();
        let addresses = vec!["a:1".to_string(), "b:2".to_string()];
        let silence = Duration::from_millis(300);
        let here = Watchdog::start(0, &addresses, vec![None, Some(beat_here)], vec![data_here], silence).unwrap();
        let (other, _) = pair();
        let there = Watchdog::start(1, &addresses, vec![Some(beat_there), None], vec![other], silence).unwrap();
        std::thread::sleep(silence * 4);
        assert_eq!(here.fault(), None);
        assert_eq!(there.fault(), None);
        let started = Instant::now();
        drop(there);
        drop(here);
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}
