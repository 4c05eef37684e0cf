//! One TCP connection to a CSA server: lines out, lines in (read by a
//! thread so that waiting can time out and notice Ctrl-C), the traffic
//! shown on stderr with `--verbose`.

use crate::message::ClientCommand;
use crate::CsaError;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longer lines are cut: a server's line must not fill the memory.
const LINE_LIMIT: u64 = 64 * 1024;
/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// What the reading thread passes on.
enum Incoming {
    Line(String),
    Closed(String),
}

/// A connection to a CSA server.
pub struct ServerConnection {
    stream: TcpStream,
    lines: Receiver<Incoming>,
    closed: Option<String>,
    last_sent: Instant,
    verbose: bool,
}

impl ServerConnection {
    /// Connects to `address` (`host:port`).
    pub fn connect(address: &str, verbose: bool) -> Result<ServerConnection, CsaError> {
        let failed = |reason: String| CsaError::Connect {
            server: address.to_owned(),
            reason,
        };
        let addresses: Vec<_> = address
            .to_socket_addrs()
            .map_err(|e| failed(e.to_string()))?
            .collect();
        let mut last_error = "the name has no address".to_owned();
        for socket in addresses {
            match TcpStream::connect_timeout(&socket, CONNECT_TIMEOUT) {
                Ok(stream) => return ServerConnection::from_stream(stream, verbose),
                Err(error) => last_error = error.to_string(),
            }
        }
        Err(failed(last_error))
    }

    /// Wraps a connected stream (tests use it with their own listener).
    pub fn from_stream(stream: TcpStream, verbose: bool) -> Result<ServerConnection, CsaError> {
        // Moves are single short lines: send each at once.
        let _ = stream.set_nodelay(true);
        let reader = stream
            .try_clone()
            .map_err(|e| CsaError::ConnectionLost(e.to_string()))?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            loop {
                let mut line = Vec::new();
                let read = reader
                    .by_ref()
                    .take(LINE_LIMIT)
                    .read_until(b'\n', &mut line);
                let incoming = match read {
                    Ok(0) => Incoming::Closed("the server closed the connection".to_owned()),
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line);
                        Incoming::Line(text.trim_end_matches(['\n', '\r']).to_owned())
                    }
                    Err(error) => Incoming::Closed(error.to_string()),
                };
                let closed = matches!(incoming, Incoming::Closed(_));
                if sender.send(incoming).is_err() || closed {
                    return;
                }
            }
        });
        Ok(ServerConnection {
            stream,
            lines,
            closed: None,
            last_sent: Instant::now(),
            verbose,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, command: &ClientCommand) -> Result<(), CsaError> {
        let line = command.to_string();
        if self.verbose {
            let shown = match command {
                ClientCommand::Login { user, extended, .. } => {
                    format!("LOGIN {user} ****{}", if *extended { " x1" } else { "" })
                }
                _ => line.clone(),
            };
            eprintln!("csa > {shown}");
        }
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.stream.flush())
            .map_err(|e| CsaError::ConnectionLost(e.to_string()))?;
        self.last_sent = Instant::now();
        Ok(())
    }

    /// The next line, waiting at most `timeout`: None if none came.
    pub fn receive(&mut self, timeout: Duration) -> Result<Option<String>, CsaError> {
        if let Some(reason) = &self.closed {
            return Err(CsaError::ConnectionLost(reason.clone()));
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Incoming::Line(line)) => {
                if self.verbose {
                    eprintln!("csa < {line}");
                }
                Ok(Some(line))
            }
            Ok(Incoming::Closed(reason)) => {
                self.closed = Some(reason.clone());
                Err(CsaError::ConnectionLost(reason))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                let reason = "the connection's reader stopped".to_owned();
                self.closed = Some(reason.clone());
                Err(CsaError::ConnectionLost(reason))
            }
        }
    }

    /// How long since the client last sent anything.
    pub fn idle(&self) -> Duration {
        self.last_sent.elapsed()
    }

    /// Closes both directions; the reading thread then ends.
    pub fn close(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

impl Drop for ServerConnection {
    fn drop(&mut self) {
        self.close();
    }
}
