//! A connection's lines: read one at a time, at most [`MAX_LINE`] bytes
//! (a longer one closes the connection: no client of the protocol sends
//! one, and reading on would let a client make the server hold as much as
//! it sends), and written with a time limit.

use super::{MAX_LINE, WRITE_TIMEOUT};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

/// What reading gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line, without its line break; bytes that are not UTF-8 replaced.
    Line(String),
    /// More than [`MAX_LINE`] bytes without a line break.
    TooLong,
    /// The client closed the connection (or it broke).
    Closed,
}

/// Reads lines; safe to cancel (in `tokio::select!`): what was read of a
/// line is kept for the next call.
pub struct LineReader<R> {
    inner: BufReader<R>,
    partial: Vec<u8>,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Lines of `inner`.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner: BufReader::new(inner),
            partial: Vec::new(),
        }
    }

    /// The next line.
    pub async fn next(&mut self) -> Read {
        loop {
            let room = (MAX_LINE + 1).saturating_sub(self.partial.len()) as u64;
            let read = (&mut self.inner)
                .take(room)
                .read_until(b'\n', &mut self.partial)
                .await;
            match read {
                Err(_) => return Read::Closed,
                Ok(0) if self.partial.is_empty() => return Read::Closed,
                // The last line, without its line break.
                Ok(0) => return Read::Line(self.take_line()),
                Ok(_) if self.partial.ends_with(b"\n") => return Read::Line(self.take_line()),
                Ok(_) if self.partial.len() > MAX_LINE => return Read::TooLong,
                Ok(_) => continue,
            }
        }
    }

    fn take_line(&mut self) -> String {
        let bytes = std::mem::take(&mut self.partial);
        let text = String::from_utf8_lossy(&bytes);
        text.trim_end_matches(['\n', '\r']).to_owned()
    }
}

/// Writes `text` (lines with their breaks), within [`WRITE_TIMEOUT`];
/// `false` when the connection is gone or the client does not read.
pub async fn write<W: AsyncWrite + Unpin>(writer: &mut W, text: &str) -> bool {
    let writing = async {
        writer.write_all(text.as_bytes()).await?;
        writer.flush().await
    };
    matches!(
        tokio::time::timeout(WRITE_TIMEOUT, writing).await,
        Ok(Ok(()))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_read_whole_and_bounded() {
        let long = "x".repeat(MAX_LINE + 10);
        let input = format!("LOGIN a b\r\n\n+7776FU\n{long}\n");
        let mut reader = LineReader::new(input.as_bytes());
        assert_eq!(reader.next().await, Read::Line("LOGIN a b".into()));
        assert_eq!(reader.next().await, Read::Line("".into()));
        assert_eq!(reader.next().await, Read::Line("+7776FU".into()));
        assert_eq!(reader.next().await, Read::TooLong);
        let mut last = LineReader::new(&b"AGREE"[..]);
        assert_eq!(last.next().await, Read::Line("AGREE".into()));
        assert_eq!(last.next().await, Read::Closed);
        let mut bytes = LineReader::new(&b"\xff\xfeLOGIN\n"[..]);
        assert_eq!(
            bytes.next().await,
            Read::Line("\u{fffd}\u{fffd}LOGIN".into())
        );
    }
}
