//! `tactica run --watch`: plays in real time at the scenario's tick rate, watches the scripts and
//! takes an edit into the running game.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

fn folder(name: &str, rate: u32) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-reload-cli-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "......\n......\n").unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        format!(
            "name = \"Watch\"\nmap = \"map.txt\"\ntick_rate = {rate}\n\
             [[entities]]\nname = \"troll\"\nkind = \"troll\"\nat = [1, 1]\nscripts = [\"troll.lua\"]\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("troll.lua"), taunt("Grr!")).unwrap();
    dir
}

fn taunt(line: &str) -> String {
    format!("function on_think()\n  Say(\"{line}\")\nend\n")
}

#[test]
fn watch_plays_at_the_scenario_tick_rate() {
    let dir = folder("rate", 20);
    let started = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", dir.to_str().unwrap(), "--watch", "--ticks", "10"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(err.contains("watching 1 script files"), "{err}");
    assert!(out.contains("Playing Watch") && out.contains("for 10 ticks at 20 Hz"), "{out}");
    assert!(out.contains("Played 10 ticks (0.5 s of game time)"), "{out}");
    // Ten ticks at 20 Hz take at least half a second of wall time (a loaded machine only adds).
    assert!(elapsed >= Duration::from_millis(500), "{elapsed:?}");
}

#[test]
fn watch_takes_an_edit_into_the_running_game() {
    let dir = folder("edit", 20);
    // Long enough for a loaded machine; the test stops it as soon as the edit shows.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", dir.to_str().unwrap(), "--watch", "--ticks", "1200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let tx2 = tx.clone();
    std::thread::spawn(move || BufReader::new(stdout).lines().map_while(Result::ok).for_each(|l| drop(tx.send(l))));
    std::thread::spawn(move || BufReader::new(stderr).lines().map_while(Result::ok).for_each(|l| drop(tx2.send(l))));
    let deadline = Instant::now() + Duration::from_secs(50);
    let mut seen = Vec::new();
    let wait_for = |what: &str, seen: &mut Vec<String>| loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                let hit = line.contains(what);
                seen.push(line);
                if hit {
                    return;
                }
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                panic!("never saw {what:?}:\n{}", seen.join("\n"))
            }
        }
    };
    wait_for("troll says: \"Grr!\"", &mut seen);
    std::fs::write(dir.join("troll.lua"), "function on_think(\n").unwrap();
    wait_for("the old code keeps running", &mut seen);
    assert!(seen.iter().any(|l| l.contains("troll.lua:2:")), "file:line of the Lua error:\n{}", seen.join("\n"));
    std::fs::write(dir.join("troll.lua"), taunt("Back off!")).unwrap();
    wait_for("troll says: \"Back off!\"", &mut seen);
    assert!(seen.iter().any(|l| l.starts_with("reloaded ") && l.ends_with("(troll)")), "{}", seen.join("\n"));
    // Each reload is said once, as above: the log's `reload` events are not narrated again.
    let again = seen.iter().filter(|l| l.contains("NOT reloaded") || l.contains(" reloaded for ")).count();
    assert_eq!(again, 0, "{}", seen.join("\n"));
    assert_eq!(seen.iter().filter(|l| l.contains("the old code keeps running")).count(), 1, "{}", seen.join("\n"));
    child.kill().unwrap();
    child.wait().unwrap();
}
