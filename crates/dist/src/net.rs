//! The cluster's settings and its connections.
//!
//! Timely moves every byte of the search; only the connections are made
//! here, because timely's own start-up retries forever and reports on
//! standard output: a peer that never comes up must instead fail within
//! `connect_timeout`, quietly. The handshake is timely's (the connecting
//! process sends its index) plus a fingerprint of the command's settings
//! and input, so that processes started with different ones refuse each other.
//!
//! Every pair of processes holds a second connection beside timely's, the
//! heartbeat (`crate::watch`): a peer frozen, or behind a link that went
//! down, closes no socket, and only its silence tells.

use anyhow::{bail, Context, Result};
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Where the processes of a run are and which one this is.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// `host:port` of every process, in process order.
    pub addresses: Vec<String>,
    /// This process's index in `addresses`.
    pub process: usize,
    /// How long to wait for the peers at start.
    pub connect_timeout: Duration,
    /// How long a peer may stay silent mid-run (no heartbeat heard) before
    /// it counts as lost: `--connect-timeout`, at least [`MIN_SILENCE`].
    pub silence: Duration,
    /// Tells, while this process waits for its peers, that one of them is
    /// known gone (a copy `--local` started that ended).
    pub gone: Gone,
}

/// The least silence that counts as a lost peer: a loaded machine may
/// hold a heartbeat thread back for a moment.
pub const MIN_SILENCE: Duration = Duration::from_secs(2);

/// At most this many processes in a cluster: each pair holds two
/// connections and each process a thread for each peer.
pub const MAX_PROCESSES: usize = 256;

/// A check of the peers this process started itself (`None`: all there).
#[derive(Clone, Default)]
pub struct Gone(pub Option<Arc<dyn Fn() -> Option<String> + Send + Sync>>);

impl Gone {
    fn check(&self) -> Result<()> {
        match self.0.as_ref().and_then(|f| f()) {
            Some(why) => bail!("{why}"),
            None => Ok(()),
        }
    }
}

impl std::fmt::Debug for Gone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Gone(watched)" } else { "Gone(none)" })
    }
}

impl Cluster {
    /// One process alone (no network).
    pub fn single() -> Cluster {
        Cluster::new(vec!["127.0.0.1:0".into()], 0, Duration::from_secs(30))
    }

    /// The processes at `addresses`, this one `process`, waiting
    /// `connect_timeout` for its peers at start and as long (at least
    /// [`MIN_SILENCE`]) for a silent peer mid-run.
    pub fn new(addresses: Vec<String>, process: usize, connect_timeout: Duration) -> Cluster {
        let silence = connect_timeout.max(MIN_SILENCE);
        Cluster { addresses, process, connect_timeout, silence, gone: Gone::default() }
    }

    /// The cluster as timely's `-n`, `-p` and `-h` give it: a host file has
    /// one `host:port` a line (blank lines and `#` comments skipped), and at
    /// least `processes` lines; without one, processes are on 127.0.0.1
    /// from port 2101, as timely's default.
    pub fn from_settings(
        processes: usize,
        process: usize,
        hostfile: Option<&Path>,
        connect_timeout: Duration,
    ) -> Result<Cluster> {
        if processes == 0 {
            bail!("--processes must be at least 1");
        }
        if processes > MAX_PROCESSES {
            bail!("--processes {processes} is too many: at most {MAX_PROCESSES}");
        }
        if process >= processes {
            bail!("--process {process} is not below --processes {processes}");
        }
        let addresses: Vec<String> = match hostfile {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the host file {}", path.display()))?;
                let hosts: Vec<String> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(String::from)
                    .collect();
                if hosts.len() < processes {
                    bail!("the host file {} names {} processes, not {processes}", path.display(), hosts.len());
                }
                hosts.into_iter().take(processes).collect()
            }
            None => (0..processes).map(|i| format!("127.0.0.1:{}", 2101 + i)).collect(),
        };
        Ok(Cluster::new(addresses, process, connect_timeout))
    }

    pub fn processes(&self) -> usize {
        self.addresses.len()
    }
}

/// `n` addresses on 127.0.0.1 with ports free now (bound, then released).
pub fn free_local_addresses(n: usize) -> Result<Vec<String>> {
    let listeners: Vec<TcpListener> =
        (0..n).map(|_| TcpListener::bind("127.0.0.1:0")).collect::<std::io::Result<_>>().context("no free port")?;
    listeners.iter().map(|l| Ok(l.local_addr()?.to_string())).collect()
}

// "HTdist" v2: the handshake names the connection's use (timely's bytes
// or the heartbeat).
const MAGIC: u64 = 0x4854_6469_7374_0002;

/// What a connection carries.
const DATA: u64 = 0;
const BEAT: u64 = 1;

/// The connections to every peer (`None` at this process's own index).
pub struct Links {
    /// Timely's, handed to `initialize_networking_from_sockets`.
    pub data: Vec<Option<TcpStream>>,
    /// The heartbeats' (`crate::watch`).
    pub beats: Vec<Option<TcpStream>>,
}

/// `items` joined with ", ", the first few only and then how many in all:
/// an error line stays short whatever the cluster's size.
pub fn short_list(items: &[String]) -> String {
    const SHOWN: usize = 5;
    if items.len() <= SHOWN {
        items.join(", ")
    } else {
        format!("{}, ... ({} in all)", items[..SHOWN].join(", "), items.len())
    }
}

/// Connects to every peer (lower indices are dialled, higher ones
/// accepted), all within `cluster.connect_timeout`, twice: timely's
/// sockets and the heartbeats'.
pub fn connect(cluster: &Cluster, fingerprint: u64) -> Result<Links> {
    let me = cluster.process;
    let n = cluster.processes();
    let deadline = Instant::now() + cluster.connect_timeout;
    let secs = cluster.connect_timeout.as_secs_f64();
    let none = || (0..n).map(|_| None).collect::<Vec<Option<TcpStream>>>();
    let mut links = Links { data: none(), beats: none() };
    if n == 1 {
        return Ok(links);
    }
    let differ = |peer: usize| {
        anyhow::anyhow!("process {peer} runs other settings than process {me} (its command, settings, evaluator, input, cluster or CPU features differ)")
    };
    // Listen first, so that peers dialling us find the port open.
    let listener = if me + 1 < n {
        let l = TcpListener::bind(&cluster.addresses[me])
            .with_context(|| format!("process {me} cannot listen on {}", cluster.addresses[me]))?;
        l.set_nonblocking(true)?;
        Some(l)
    } else {
        None
    };
    for peer in 0..me {
        let address = &cluster.addresses[peer];
        for channel in [DATA, BEAT] {
            let stream = loop {
                cluster.gone.check()?;
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    bail!("process {me} could not reach process {peer} at {address} within {secs} s (is it running?)");
                }
                let target = address
                    .to_socket_addrs()
                    .with_context(|| format!("cannot resolve {address}"))?
                    .next()
                    .with_context(|| format!("{address} resolves to nothing"))?;
                match TcpStream::connect_timeout(&target, left.min(Duration::from_secs(1))) {
                    Ok(s) => break s,
                    Err(_) => sleep(Duration::from_millis(100).min(left)),
                }
            };
            stream.set_nodelay(true)?;
            let mut s = stream;
            let mut hello = Vec::with_capacity(32);
            for word in [MAGIC, me as u64, fingerprint, channel] {
                hello.extend_from_slice(&word.to_le_bytes());
            }
            s.set_write_timeout(Some(
                deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10)),
            ))?;
            let sent = s.write_all(&hello);
            // The peer answers once it has checked the settings.
            s.set_read_timeout(Some(
                deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10)),
            ))?;
            let mut ack = [0u8; 1];
            match sent.and_then(|()| s.read_exact(&mut ack)) {
                Ok(()) if ack[0] == 1 => {}
                Ok(()) => return Err(differ(peer)),
                Err(_) => bail!("process {me} reached process {peer} at {address} but had no answer within {secs} s"),
            }
            s.set_read_timeout(None)?;
            s.set_write_timeout(None)?;
            let slots = if channel == DATA { &mut links.data } else { &mut links.beats };
            slots[peer] = Some(s);
        }
    }
    if let Some(listener) = listener {
        let mut waiting = 2 * (n - me - 1);
        while waiting > 0 {
            match listener.accept() {
                Ok((mut s, _)) => {
                    s.set_nonblocking(false)?;
                    s.set_nodelay(true)?;
                    s.set_read_timeout(Some(
                        deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10)),
                    ))?;
                    let mut buf = [0u8; 32];
                    if s.read_exact(&mut buf).is_err() {
                        continue; // not one of ours, or too slow: keep waiting
                    }
                    s.set_read_timeout(None)?;
                    let word = |i: usize| u64::from_le_bytes(buf[8 * i..8 * i + 8].try_into().unwrap());
                    if word(0) != MAGIC || word(3) > BEAT {
                        continue;
                    }
                    let peer = word(1) as usize;
                    let slots = if word(3) == DATA { &mut links.data } else { &mut links.beats };
                    if peer <= me || peer >= n || slots[peer].is_some() {
                        bail!("process {me}: a peer claims the index {peer}, which is not expected");
                    }
                    if word(2) != fingerprint {
                        let _ = s.write_all(&[0]);
                        return Err(differ(peer));
                    }
                    s.write_all(&[1])?;
                    slots[peer] = Some(s);
                    waiting -= 1;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    cluster.gone.check()?;
                    if Instant::now() >= deadline {
                        let missing: Vec<String> = (me + 1..n)
                            .filter(|&p| links.data[p].is_none() || links.beats[p].is_none())
                            .map(|p| p.to_string())
                            .collect();
                        bail!(
                            "process {me} heard from no process {} at {} within {secs} s (is it running?)",
                            short_list(&missing),
                            cluster.addresses[me]
                        );
                    }
                    sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(e).context("cannot accept a peer"),
            }
        }
    }
    Ok(links)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_file_names_the_processes_in_order_and_is_checked() {
        let dir = std::env::temp_dir().join(format!("hatetris-dist-hosts-{}", std::process::id()));
        std::fs::write(&dir, "# cluster\n10.0.0.1:2101\n\n10.0.0.2:2101\n10.0.0.3:2101\n").unwrap();
        let t = Duration::from_secs(1);
        let c = Cluster::from_settings(2, 1, Some(&dir), t).unwrap();
        assert_eq!(c.addresses, ["10.0.0.1:2101", "10.0.0.2:2101"]);
        assert_eq!(c.process, 1);
        assert!(Cluster::from_settings(4, 0, Some(&dir), t).unwrap_err().to_string().contains("names 3"));
        assert!(Cluster::from_settings(2, 2, Some(&dir), t).is_err());
        assert_eq!(Cluster::from_settings(2, 0, None, t).unwrap().addresses, ["127.0.0.1:2101", "127.0.0.1:2102"]);
        std::fs::remove_file(&dir).unwrap();
    }

    #[test]
    fn a_long_list_of_peers_is_cut_short() {
        let few: Vec<String> = (1..4).map(|i| i.to_string()).collect();
        assert_eq!(short_list(&few), "1, 2, 3");
        let many: Vec<String> = (1..100_000).map(|i| i.to_string()).collect();
        assert_eq!(short_list(&many), "1, 2, 3, 4, 5, ... (99999 in all)");
    }

    #[test]
    fn more_processes_than_the_cap_are_refused() {
        let t = Duration::from_secs(1);
        let e = Cluster::from_settings(1_000_000_000_000, 0, None, t).unwrap_err().to_string();
        assert_eq!(e, format!("--processes 1000000000000 is too many: at most {MAX_PROCESSES}"));
    }
}
