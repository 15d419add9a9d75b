//! `file:` URIs and paths. Editors send percent-encoded `file:///…` URIs; anything else (an
//! unsaved buffer's `untitled:`) has no path, and is served as a file of its extension alone.

use std::path::{Path, PathBuf};

use lsp_types::Uri;

/// The path of a `file:` URI, percent-decoded; `None` for other schemes or a broken encoding.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///C:/x` on Windows; `file://host/x` names another machine, which we cannot read.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = decode(path)?;
    #[cfg(windows)]
    let decoded = decoded.strip_prefix('/').filter(|p| p.get(1..2) == Some(":")).unwrap_or(decoded.as_str()).to_owned();
    Some(PathBuf::from(decoded))
}

/// The extension a URI's last segment has (`untitled:Untitled-1.tac` has one too).
pub fn extension(uri: &Uri) -> String {
    let s = uri.as_str();
    let s = s.split(['?', '#']).next().unwrap_or(s);
    let last = s.rsplit(['/', ':']).next().unwrap_or(s);
    Path::new(last).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase()
}

/// The `file:` URI of an absolute path.
pub fn from_path(path: &Path) -> Option<Uri> {
    let text = path.to_str()?.replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.parse().ok()
}

fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_uris_round_trip() {
        let p = Path::new("/tmp/my mods/goblin é.lua");
        let uri = from_path(p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/my%20mods/goblin%20%C3%A9.lua");
        assert_eq!(to_path(&uri).unwrap(), p);
        assert_eq!(extension(&uri), "lua");
        let untitled: Uri = "untitled:Untitled-1.tac".parse().unwrap();
        assert_eq!(to_path(&untitled), None);
        assert_eq!(extension(&untitled), "tac");
    }
}
