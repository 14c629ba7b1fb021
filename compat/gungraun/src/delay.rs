//! gungraun's `Delay`: what a command waits for before it starts, with a
//! setup running beside it (`setup_parallel`): a while, a path, a TCP
//! connection, or a UDP answer. The wait is outside the timing and the
//! counts.

use std::net::{SocketAddr, TcpStream, UdpSocket};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What a command waits for before it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DelayKind {
    /// A while.
    DurationElapse(Duration),
    /// A TCP connection.
    TcpConnect(SocketAddr),
    /// A UDP answer to this request.
    UdpResponse(SocketAddr, Vec<u8>),
    /// A path that exists.
    PathExists(PathBuf),
}

/// A command's delay: its kind, how often it looks (10 ms unless said) and
/// for how long at most (600 s unless said, at least 10 ms), as gungraun's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delay {
    kind: DelayKind,
    poll: Option<Duration>,
    timeout: Option<Duration>,
}

impl Delay {
    /// A delay of this kind.
    pub fn new(kind: DelayKind) -> Self {
        Delay {
            kind,
            poll: None,
            timeout: None,
        }
    }
    /// Until `path` exists.
    pub fn from_path<T: Into<PathBuf>>(path: T) -> Self {
        Delay::new(DelayKind::PathExists(path.into()))
    }
    /// Until a TCP connection to `addr` succeeds.
    pub fn from_tcp_socket<T: Into<SocketAddr>>(addr: T) -> Self {
        Delay::new(DelayKind::TcpConnect(addr.into()))
    }
    /// Until `addr` answers `req` over UDP.
    pub fn from_udp_request<T: Into<SocketAddr>, U: Into<Vec<u8>>>(addr: T, req: U) -> Self {
        Delay::new(DelayKind::UdpResponse(addr.into(), req.into()))
    }
    /// How often to look.
    pub fn poll<T: Into<Duration>>(mut self, poll: T) -> Self {
        self.poll = Some(poll.into());
        self
    }
    /// How long to look at most.
    pub fn timeout<T: Into<Duration>>(mut self, timeout: T) -> Self {
        self.timeout = Some(timeout.into());
        self
    }

    /// Waits until what it waits for happens; why not, where its time ran out.
    pub(crate) fn wait(&self) -> Result<(), String> {
        let addr_poll = |poll: Duration| poll.max(Duration::from_millis(1));
        let ready: Box<dyn Fn(Duration) -> bool> = match &self.kind {
            DelayKind::DurationElapse(d) => {
                std::thread::sleep(*d);
                return Ok(());
            }
            DelayKind::PathExists(path) => Box::new(move |_| path.exists()),
            DelayKind::TcpConnect(addr) => {
                Box::new(move |poll| TcpStream::connect_timeout(addr, addr_poll(poll)).is_ok())
            }
            DelayKind::UdpResponse(addr, req) => Box::new(move |poll| answers(addr, req, poll)),
        };
        let timeout = self.timeout.unwrap_or(Duration::from_secs(600));
        let timeout = timeout.max(Duration::from_millis(10));
        let poll = (self.poll.unwrap_or(Duration::from_millis(10)))
            .min(timeout.saturating_sub(Duration::from_millis(5)));
        let start = Instant::now();
        loop {
            let looked = Instant::now();
            if ready(poll) {
                return Ok(());
            }
            if start.elapsed() >= timeout {
                return Err(format!(
                    "the command's delay ({:?}) did not end within {timeout:?}",
                    self.kind
                ));
            }
            std::thread::sleep(poll.saturating_sub(looked.elapsed()));
        }
    }
}

/// Whether `addr` answers `req` within `poll`.
fn answers(addr: &SocketAddr, req: &[u8], poll: Duration) -> bool {
    let any: SocketAddr = match addr {
        SocketAddr::V4(_) => ([0, 0, 0, 0], 0).into(),
        SocketAddr::V6(_) => (std::net::Ipv6Addr::UNSPECIFIED, 0).into(),
    };
    let Ok(socket) = UdpSocket::bind(any) else {
        return false;
    };
    let poll = Some(poll.max(Duration::from_millis(1)));
    let set = socket
        .set_read_timeout(poll)
        .and_then(|()| socket.set_write_timeout(poll));
    let mut buf = [0u8; 1];
    set.is_ok() && socket.send_to(req, addr).is_ok() && socket.recv_from(&mut buf).is_ok()
}

impl From<Duration> for Delay {
    fn from(d: Duration) -> Self {
        Delay::new(DelayKind::DurationElapse(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delay_waits_for_its_path_and_a_port_and_says_when_its_time_runs_out() {
        let dir = std::env::temp_dir().join(format!("nbench-delay-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ready");
        let maker = {
            let path = path.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(30));
                std::fs::write(path, "").unwrap();
            })
        };
        let delay = Delay::from_path(&path).timeout(Duration::from_secs(20));
        assert_eq!(delay.wait(), Ok(()));
        assert!(path.exists());
        maker.join().unwrap();
        // A listening port is connected to; none, and the time runs out.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let open = listener.local_addr().unwrap();
        assert_eq!(Delay::from_tcp_socket(open).wait(), Ok(()));
        drop(listener);
        let missing = Delay::from_path(dir.join("never")).timeout(Duration::from_millis(20));
        let why = missing.wait().unwrap_err();
        assert!(why.contains("did not end within 20ms"), "{why}");
        // A UDP server that answers.
        let server = UdpSocket::bind("127.0.0.1:0").unwrap();
        let at = server.local_addr().unwrap();
        let answering = std::thread::spawn(move || {
            let mut buf = [0u8; 8];
            let (_, from) = server.recv_from(&mut buf).unwrap();
            server.send_to(&[2], from).unwrap();
        });
        let udp = Delay::from_udp_request(at, vec![1]).timeout(Duration::from_secs(20));
        assert_eq!(udp.wait(), Ok(()));
        answering.join().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
