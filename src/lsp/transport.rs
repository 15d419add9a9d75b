//! JSON-RPC over stdio with `Content-Length` framing, forgiving where `lsp-server`'s own stdio
//! transport gives up: a message that is not JSON, not JSON-RPC, or has a broken header is
//! reported on stderr and skipped, and the server goes on with the next one. The server side is
//! an ordinary [`lsp_server::Connection`].

use std::io::{self, BufRead, Read, Write};
use std::thread;

use lsp_server::{Connection, Message};

/// A message larger than this is skipped unread (an editor's whole file is far smaller).
const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The server's connection over `input` and `output`, and the two threads that move the bytes
/// (join them after the server returned and dropped the connection).
pub fn connect(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> (Connection, thread::JoinHandle<()>, thread::JoinHandle<()>) {
    let (server, client) = Connection::memory();
    let Connection { sender: to_server, receiver: from_server } = client;
    let reader = thread::spawn(move || {
        let mut input = input;
        loop {
            match read_message(&mut input) {
                Ok(None) => break,
                Ok(Some(Ok(msg))) => {
                    let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                    if to_server.send(msg).is_err() || exit {
                        break;
                    }
                }
                Ok(Some(Err(why))) => eprintln!("tactica lsp: skipped a message: {why}"),
                Err(e) => {
                    eprintln!("tactica lsp: cannot read the input: {e}");
                    break;
                }
            }
        }
        // Dropping `to_server` tells the server its client is gone.
    });
    let writer = thread::spawn(move || {
        let mut output = output;
        for msg in from_server {
            if msg.write(&mut output).is_err() {
                break;
            }
        }
    });
    (server, reader, writer)
}

/// The next message: `Ok(None)` at the end of the input, `Ok(Some(Err(why)))` for one that is
/// malformed but skipped (the input stays framed), `Err` when the input itself failed.
fn read_message(input: &mut impl BufRead) -> io::Result<Option<Result<Message, String>>> {
    let mut length = None;
    let mut bad_header = None;
    let mut line = String::new();
    let mut saw_header = false;
    loop {
        line.clear();
        let mut raw = Vec::new();
        if input.read_until(b'\n', &mut raw)? == 0 {
            return Ok(if saw_header { Some(Err("the input ended inside a header".into())) } else { None });
        }
        line.push_str(&String::from_utf8_lossy(&raw));
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if saw_header {
                break;
            }
            continue; // blank lines between messages
        }
        saw_header = true;
        match header.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad_header = Some(format!("a bad Content-Length: {:?}", value.trim())),
                }
            }
            Some(_) => {}
            None => bad_header = Some(format!("a malformed header line: {header:?}")),
        }
    }
    let Some(length) = length else {
        return Ok(Some(Err(bad_header.unwrap_or_else(|| "no Content-Length header".into()))));
    };
    if length > MAX_MESSAGE_BYTES {
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(Some(Err(format!("a message of {length} bytes is too large"))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    if let Some(why) = bad_header {
        return Ok(Some(Err(why)));
    }
    Ok(Some(match serde_json::from_slice::<Message>(&body) {
        Ok(msg) => Ok(msg),
        Err(e) => {
            Err(format!("not a JSON-RPC message ({e}): {}", String::from_utf8_lossy(&body[..body.len().min(200)])))
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn malformed_messages_are_skipped_and_framing_holds() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = [
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","what":1}"#),
            "Content-Length: x\r\n\r\n".to_owned(),
            "X-Other: 1\r\n\r\n".to_owned(),
            frame(good),
        ]
        .concat();
        let mut r = io::BufReader::new(input.as_bytes());
        assert!(read_message(&mut r).unwrap().unwrap().is_err());
        assert!(read_message(&mut r).unwrap().unwrap().is_err());
        assert!(read_message(&mut r).unwrap().unwrap().is_err());
        assert!(read_message(&mut r).unwrap().unwrap().is_err());
        assert!(matches!(read_message(&mut r).unwrap().unwrap(), Ok(Message::Notification(_))));
        assert!(read_message(&mut r).unwrap().is_none());
    }
}
