//! A minimal HTTP/1.1 client over one kept-alive loopback connection: enough to
//! drive the server and read its answers, with nothing to configure.

#![allow(dead_code)] // the test uses part of it

use std::io;
use std::net::SocketAddr;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// One connection to the server.
pub struct Conn {
    stream: BufReader<TcpStream>,
}

/// An answer: status code and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Conn {
    pub async fn connect(addr: SocketAddr) -> io::Result<Conn> {
        assert!(
            addr.ip().is_loopback(),
            "the load generator stays on loopback"
        );
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream: BufReader::new(stream),
        })
    }

    /// Sends `GET path` and reads the whole answer.
    pub async fn get(&mut self, path: &str) -> io::Result<Answer> {
        let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n");
        self.stream.get_mut().write_all(request.as_bytes()).await?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await?;
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad(format!("no status line: {line:?}")))?;
        let mut length = None;
        loop {
            line.clear();
            if self.stream.read_line(&mut line).await? == 0 {
                return Err(bad("the connection closed in the headers".into()));
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<usize>().ok();
                }
            }
        }
        let length = length.ok_or_else(|| bad("no content-length".into()))?;
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).await?;
        let body = String::from_utf8(body).map_err(|e| bad(e.to_string()))?;
        Ok(Answer { status, body })
    }
}

fn bad(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}
