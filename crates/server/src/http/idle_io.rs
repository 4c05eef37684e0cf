//! A connection that ends when it stands still: no byte read and no byte
//! written for the idle time, and its reads and writes fail with
//! `TimedOut`, which ends whatever is serving it (hyper's connection, or a
//! WebSocket after the upgrade).
//!
//! This is what catches a body that stops half-way, a client that stops
//! reading its answer (its window full, every write pending), and a
//! connection whose other end vanished without a word. hyper's own header
//! timeout catches the slow header lines that keep a connection busy a
//! byte at a time (slowloris); a WebSocket's pings keep it moving while
//! the other end answers.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// `inner`, closed after `idle` without progress either way.
pub struct IdleIo<S> {
    inner: S,
    idle: Duration,
    /// When a byte last moved.
    last: Instant,
    /// Wakes the task at `last + idle` (or earlier, then it sleeps again):
    /// reset only when it fires, not on every read.
    timer: Pin<Box<Sleep>>,
}

impl<S> IdleIo<S> {
    /// `inner`, timed from now.
    pub fn new(inner: S, idle: Duration) -> IdleIo<S> {
        let now = Instant::now();
        IdleIo {
            inner,
            idle,
            last: now,
            timer: Box::pin(tokio::time::sleep_until(now + idle)),
        }
    }

    /// Whether the connection has stood still for the idle time: arms the
    /// timer for the task in `cx` otherwise.
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        loop {
            if self.timer.as_mut().poll(cx).is_pending() {
                return false;
            }
            let deadline = self.last + self.idle;
            if Instant::now() >= deadline {
                return true;
            }
            // Bytes moved since the timer was set: sleep until the new end.
            self.timer.as_mut().reset(deadline);
        }
    }

    /// A write's result, counted as progress when bytes went out, or a
    /// time-out when it is still pending after the idle time.
    fn after_write(
        &mut self,
        cx: &mut Context<'_>,
        written: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match written {
            Poll::Ready(Ok(written)) => {
                if written > 0 {
                    self.last = Instant::now();
                }
                Poll::Ready(Ok(written))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(Self::timed_out())),
            other => other,
        }
    }

    fn timed_out() -> io::Error {
        io::Error::new(
            io::ErrorKind::TimedOut,
            "the connection stood idle too long",
        )
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for IdleIo<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    this.last = Instant::now();
                }
                Poll::Ready(result)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(Self::timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for IdleIo<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write(cx, data);
        this.after_write(cx, written)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write_vectored(cx, data);
        this.after_write(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_flush(cx) {
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(Self::timed_out())),
            other => other,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_shutdown(cx) {
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(Self::timed_out())),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test(start_paused = true)]
    async fn a_silent_connection_times_out_and_a_moving_one_does_not() {
        let (client, server) = tokio::io::duplex(64);
        let mut server = IdleIo::new(server, Duration::from_secs(10));
        let mut client = client;
        let mut byte = [0u8; 1];
        // Bytes every 6 s keep it open well past 10 s.
        let writer = tokio::spawn(async move {
            for _ in 0..5 {
                tokio::time::sleep(Duration::from_secs(6)).await;
                client.write_all(b"x").await.unwrap();
            }
            client
        });
        for _ in 0..5 {
            server.read_exact(&mut byte).await.unwrap();
        }
        let _client = writer.await.unwrap();
        let started = Instant::now();
        let error = server.read_exact(&mut byte).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(10));
    }

    #[tokio::test(start_paused = true)]
    async fn a_reader_that_stops_reading_times_the_writer_out() {
        let (_client, server) = tokio::io::duplex(16);
        let mut server = IdleIo::new(server, Duration::from_secs(5));
        let error = server.write_all(&[0u8; 1024]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }
}
