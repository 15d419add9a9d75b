//! What the game crate outside the workspace prints, and the test inside it computes: the embed
//! example's run and the sandbox cases, each with its trace hash.

/// One text with everything a run depends on.
pub fn summary() -> String {
    let embed = crate::embed::play(60);
    let mut out = String::new();
    for (frame, who, line) in &embed.subtitles {
        out.push_str(&format!("embed {frame} {who}: {line}\n"));
    }
    for (name, at) in &embed.sprites {
        out.push_str(&format!("embed {name} ends at {} {}\n", at.x, at.y));
    }
    out.push_str(&format!("embed crossed at {:?}\n", embed.crossed_at));
    out.push_str(&format!("embed trace {}\n", embed.trace_hash));
    let sandbox = crate::sandbox::play();
    for line in &sandbox.lines {
        out.push_str(&format!("sandbox {line}\n"));
    }
    out.push_str(&format!("sandbox trace {}\n", sandbox.trace_hash));
    out
}
