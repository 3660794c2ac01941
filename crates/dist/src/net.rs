//! The cluster's settings and its connections.
//!
//! Timely moves every byte of the search; only the connections are made
//! here, because timely's own start-up retries forever and reports on
//! standard output: a peer that never comes up must instead fail within
//! `connect_timeout`, quietly. The handshake is timely's (the connecting
//! process sends its index) plus a fingerprint of the command's settings
//! and input, so that processes started with different ones refuse each other.

use anyhow::{bail, Context, Result};
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::Path;
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
}

impl Cluster {
    /// One process alone (no network).
    pub fn single() -> Cluster {
        Cluster { addresses: vec!["127.0.0.1:0".into()], process: 0, connect_timeout: Duration::from_secs(30) }
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
        Ok(Cluster { addresses, process, connect_timeout })
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

const MAGIC: u64 = 0x4854_6469_7374_0001; // "HTdist" v1

/// Connects to every peer (lower indices are dialled, higher ones
/// accepted), all within `cluster.connect_timeout`: the sockets timely's
/// `initialize_networking_from_sockets` takes, `None` at this process.
pub fn connect(cluster: &Cluster, fingerprint: u64) -> Result<Vec<Option<TcpStream>>> {
    let me = cluster.process;
    let n = cluster.processes();
    let deadline = Instant::now() + cluster.connect_timeout;
    let secs = cluster.connect_timeout.as_secs_f64();
    let mut sockets: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    if n == 1 {
        return Ok(sockets);
    }
    // Listen first, so that peers dialling us find the port open.
    let listener = if me + 1 < n {
        let l = TcpListener::bind(&cluster.addresses[me])
            .with_context(|| format!("process {me} cannot listen on {}", cluster.addresses[me]))?;
        l.set_nonblocking(true)?;
        Some(l)
    } else {
        None
    };
    for (peer, slot) in sockets.iter_mut().enumerate().take(me) {
        let address = &cluster.addresses[peer];
        let stream = loop {
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
        s.write_all(&MAGIC.to_le_bytes())?;
        s.write_all(&(me as u64).to_le_bytes())?;
        s.write_all(&fingerprint.to_le_bytes())?;
        // The peer answers once it has checked the settings.
        s.set_read_timeout(Some(deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10))))?;
        let mut ack = [0u8; 1];
        match s.read_exact(&mut ack) {
            Ok(()) if ack[0] == 1 => {}
            Ok(()) => bail!("process {peer} runs other settings than process {me} (its command, settings, evaluator, input, cluster or CPU features differ)"),
            Err(_) => bail!("process {me} reached process {peer} at {address} but had no answer within {secs} s"),
        }
        s.set_read_timeout(None)?;
        *slot = Some(s);
    }
    if let Some(listener) = listener {
        let mut waiting = n - me - 1;
        while waiting > 0 {
            match listener.accept() {
                Ok((mut s, _)) => {
                    s.set_nonblocking(false)?;
                    s.set_nodelay(true)?;
                    s.set_read_timeout(Some(
                        deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10)),
                    ))?;
                    let mut buf = [0u8; 24];
                    if s.read_exact(&mut buf).is_err() {
                        continue; // not one of ours, or too slow: keep waiting
                    }
                    s.set_read_timeout(None)?;
                    let word = |i: usize| u64::from_le_bytes(buf[8 * i..8 * i + 8].try_into().unwrap());
                    if word(0) != MAGIC {
                        continue;
                    }
                    let peer = word(1) as usize;
                    if peer <= me || peer >= n || sockets[peer].is_some() {
                        bail!("process {me}: a peer claims the index {peer}, which is not expected");
                    }
                    if word(2) != fingerprint {
                        let _ = s.write_all(&[0]);
                        bail!("process {peer} runs other settings than process {me} (its command, settings, evaluator, input, cluster or CPU features differ)");
                    }
                    s.write_all(&[1])?;
                    sockets[peer] = Some(s);
                    waiting -= 1;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        let missing: Vec<String> =
                            (me + 1..n).filter(|&p| sockets[p].is_none()).map(|p| p.to_string()).collect();
                        bail!(
                            "process {me} heard from no process {} at {} within {secs} s (is it running?)",
                            missing.join(", "),
                            cluster.addresses[me]
                        );
                    }
                    sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(e).context("cannot accept a peer"),
            }
        }
    }
    Ok(sockets)
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
}
