//! Issue 33, "a command line that trusts no folder": every command that writes refuses to write
//! through a symbolic link a downloaded folder could hold, and every command that walks a folder
//! ends, follows no link out of it or round a loop, and says when a bound cut it short.
//!
//! The cases are generated: each writer (`docs -o`, the default `.tactica`, `run --trace`, `run
//! --render`, `render -o`, `path --paths`) meets each kind of link (at the file, at a folder on
//! the way, dangling, a chain of two), plus a plain path that must work; each walk meets loops
//! (`a → b → a`, a link to its own folder), links out, dangling links, a chain deeper than its
//! bound and a folder wider than its bound. Every run is a child process with a time limit; none
//! may die of a signal, and none may change a byte outside the folder.

mod child;

use std::path::{Path, PathBuf};

use child::{Outcome, open_map, scratch, tactica};

/// A mod folder (a scenario with a team layer, a MovingAI map and its queries) beside a folder
/// `outside` holding a file the mod must never touch.
struct Sandbox {
    base: PathBuf,
}

const PRECIOUS: &str = "the player's own file";

impl Sandbox {
    fn new(case: &str) -> Self {
        let base = scratch("untrusted", case);
        let m = base.join("mod");
        std::fs::create_dir_all(&m).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/precious.txt"), PRECIOUS).unwrap();
        std::fs::write(m.join("map.txt"), open_map(8, 6)).unwrap();
        std::fs::write(
            m.join("scenario.toml"),
            "map = \"map.txt\"\nticks = 3\n[field]\nteams = [\"blue\"]\n[[entities]]\nname = \"a\"\nkind = \"x\"\nteam = \"blue\"\nat = [1, 1]\n",
        )
        .unwrap();
        std::fs::write(m.join("m.map"), "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n").unwrap();
        std::fs::write(m.join("m.map.scen"), "version 1\n0\tm.map\t4\t3\t0\t0\t3\t0\t3\n").unwrap();
        Sandbox { base }
    }

    fn at(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }

    fn link(&self, target: &str, at: &str) {
        std::os::unix::fs::symlink(self.at(target), self.at(at)).unwrap();
    }

    /// What `outside` holds: names and contents.
    fn outside(&self) -> Vec<(String, String)> {
        let mut all: Vec<(String, String)> = std::fs::read_dir(self.at("outside"))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let body = std::fs::read_to_string(e.path()).unwrap_or_else(|_| "<folder>".into());
                (e.file_name().to_string_lossy().into_owned(), body)
            })
            .collect();
        all.sort();
        all
    }
}

/// Where a writer puts its output, and the first file it writes there.
#[derive(Clone, Copy, Debug)]
enum Writer {
    Docs,
    Trace,
    Frames,
    Render,
    Paths,
}

impl Writer {
    const ALL: [Writer; 5] = [Writer::Docs, Writer::Trace, Writer::Frames, Writer::Render, Writer::Paths];

    /// Whether it writes into a folder (rather than one file).
    fn folder(self) -> bool {
        matches!(self, Writer::Docs | Writer::Frames)
    }

    /// The first file it writes inside its folder.
    fn first_file(self) -> &'static str {
        match self {
            Writer::Docs => "tactica.lua",
            Writer::Frames => "frame_00000.png",
            _ => unreachable!("a file writer names its file"),
        }
    }

    /// Runs it with its output at `out`.
    fn run(self, s: &Sandbox, out: &Path) -> Outcome {
        let scenario = s.at("mod/scenario.toml");
        let (scen, out) = (scenario.to_str().unwrap(), out.to_str().unwrap());
        let (map, queries) = (s.at("mod/m.map"), s.at("mod/m.map.scen"));
        let args: Vec<&str> = match self {
            Writer::Docs => vec!["docs", scen, "-o", out],
            Writer::Trace => vec!["run", scen, "--quiet", "--trace", out],
            Writer::Frames => vec!["run", scen, "--quiet", "--render", out],
            Writer::Render => vec!["render", scen, "--layer", "influence.blue", "-o", out],
            Writer::Paths => vec!["path", map.to_str().unwrap(), queries.to_str().unwrap(), "--paths", out],
        };
        tactica(&args, None, None)
    }
}

/// The kinds of link a downloaded folder can hold where output goes.
#[derive(Clone, Copy, Debug)]
enum Link {
    /// The file's own name links to a file outside.
    AtFile,
    /// A folder on the way links to a folder outside.
    Parent,
    /// The file's name links to nothing (a file would be made outside).
    Dangling,
    /// A link to a link to a file outside.
    Chain,
}

impl Link {
    const ALL: [Link; 4] = [Link::AtFile, Link::Parent, Link::Dangling, Link::Chain];
}

/// Sets up `link` for `writer` in `s` and returns the output path to give it.
fn place(s: &Sandbox, writer: Writer, link: Link) -> PathBuf {
    let (file_rel, out) = if writer.folder() {
        std::fs::create_dir_all(s.at("mod/out")).unwrap();
        (format!("mod/out/{}", writer.first_file()), s.at("mod/out"))
    } else {
        ("mod/out.dat".to_owned(), s.at("mod/out.dat"))
    };
    match link {
        Link::AtFile => s.link("outside/precious.txt", &file_rel),
        Link::Dangling => s.link("outside/made.txt", &file_rel),
        Link::Chain => {
            s.link("outside/precious.txt", "mod/hop");
            s.link("mod/hop", &file_rel);
        }
        Link::Parent => {
            s.link("outside", "mod/linked");
            return if writer.folder() { s.at("mod/linked/sub") } else { s.at("mod/linked/out.dat") };
        }
    }
    out
}

#[test]
fn every_writer_refuses_every_kind_of_link_and_leaves_the_outside_alone() {
    let mut failures = Vec::new();
    for writer in Writer::ALL {
        for link in Link::ALL {
            let s = Sandbox::new(&format!("{writer:?}-{link:?}"));
            let before = s.outside();
            let out = place(&s, writer, link);
            let o = writer.run(&s, &out);
            let case = format!("{writer:?} through {link:?}");
            if !o.exited(1) {
                failures.push(format!("{case}: ended with {:?}/{:?}\n{}", o.code, o.signal, o.stderr));
            } else if !o.stderr.contains("is a symbolic link") || !o.stderr.contains("remove the link") {
                failures.push(format!("{case}: the refusal does not say why:\n{}", o.stderr));
            }
            if s.outside() != before {
                failures.push(format!("{case}: the outside folder changed: {:?}", s.outside()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_writer_writes_a_plain_path_and_replaces_an_old_file() {
    for writer in Writer::ALL {
        let s = Sandbox::new(&format!("{writer:?}-plain"));
        let out = if writer.folder() { s.at("mod/new/out") } else { s.at("mod/new/out.dat") };
        let first = writer.run(&s, &out);
        assert!(first.exited(0), "{writer:?}: {}", first.stderr);
        let file = if writer.folder() { out.join(writer.first_file()) } else { out.clone() };
        assert!(std::fs::metadata(&file).unwrap().len() > 0, "{writer:?} wrote {}", file.display());
        std::fs::write(&file, "stale").unwrap();
        let again = writer.run(&s, &out);
        assert!(again.exited(0), "{writer:?}: {}", again.stderr);
        assert_ne!(std::fs::read_to_string(&file).unwrap_or_default(), "stale", "{writer:?} replaced the old file");
        let hidden: Vec<_> = std::fs::read_dir(file.parent().unwrap())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(".tactica-"))
            .collect();
        assert!(hidden.is_empty(), "{writer:?} left a temporary file behind");
    }
}

/// `tactica docs` writes into `.tactica` in the folder it is run from: a mod folder opened in a
/// terminal must not turn that default into a way out.
#[test]
fn the_default_definitions_folder_is_not_followed_out_of_the_working_folder() {
    let s = Sandbox::new("default-docs");
    s.link("outside", "mod/.tactica");
    let o = tactica(&["docs"], Some(&s.at("mod")), None);
    assert!(o.exited(1), "{}", o.stderr);
    assert!(o.stderr.contains("`.tactica` is a symbolic link"), "{}", o.stderr);
    assert_eq!(s.outside(), [("precious.txt".to_owned(), PRECIOUS.to_owned())]);
    // A relative path is checked part by part from the working folder.
    let o = tactica(&["docs", "-o", ".tactica/deeper"], Some(&s.at("mod")), None);
    assert!(o.exited(1) && o.stderr.contains("is a symbolic link"), "{}", o.stderr);
    std::fs::remove_file(s.at("mod/.tactica")).unwrap();
    let o = tactica(&["docs"], Some(&s.at("mod")), None);
    assert!(o.exited(0), "{}", o.stderr);
    assert!(s.at("mod/.tactica/tactica.lua").is_file());
}

/// A link in a folder the user cannot write to was not unpacked by them: it is the system's own
/// (macOS's `/tmp` is one) and is followed. The same link in a folder they can write to is not.
#[test]
fn links_in_folders_the_user_cannot_write_are_followed() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new("system-link");
    std::fs::create_dir_all(s.at("system")).unwrap();
    std::fs::create_dir_all(s.at("target")).unwrap();
    std::fs::create_dir_all(s.at("mine")).unwrap();
    s.link("target", "system/link");
    s.link("target", "mine/link");
    let mode = |p: &str, m: u32| std::fs::set_permissions(s.at(p), std::fs::Permissions::from_mode(m)).unwrap();
    mode("system", 0o555);
    mode("target", 0o777);
    mode("mine", 0o777);
    // As root every folder is writable, so the child runs as `nobody`; anyone else runs it as
    // themselves (`system` is not writable to its owner either).
    // SAFETY: `geteuid` has no preconditions.
    let uid = (unsafe { libc::geteuid() } == 0).then_some(65_534);
    let followed = s.at("system/link/defs");
    let o = tactica(&["docs", "-o", followed.to_str().unwrap()], None, uid);
    assert!(o.exited(0), "{}", o.stderr);
    assert!(s.at("target/defs/tactica.lua").is_file());
    let refused = s.at("mine/link/defs");
    let o = tactica(&["docs", "-o", refused.to_str().unwrap()], None, uid);
    assert!(o.exited(1) && o.stderr.contains("mine/link` is a symbolic link"), "{}", o.stderr);
    mode("system", 0o755);
}

/// A folder for the walks: real scripts, and whatever `traps` adds.
fn walk_folder(case: &str, traps: impl FnOnce(&Path)) -> (PathBuf, PathBuf) {
    let base = scratch("walks", case);
    let root = base.join("mod");
    std::fs::create_dir_all(root.join("a")).unwrap();
    std::fs::create_dir_all(root.join("b")).unwrap();
    std::fs::create_dir_all(base.join("outside")).unwrap();
    std::fs::write(root.join("a/one.tac"), "Say(\"one\");\n").unwrap();
    std::fs::write(root.join("b/two.lua"), "function on_spawn(self)\n  Say(\"two\")\nend\n").unwrap();
    std::fs::write(base.join("outside/secret.lua"), "function on_spawn(self) Say(\"secret\") end\n").unwrap();
    traps(&root);
    (base, root)
}

#[test]
fn check_walks_end_on_loops_and_never_follow_links_out() {
    use std::os::unix::fs::symlink;
    type Trap = fn(&Path);
    let cases: [(&str, Trap, &[&str]); 5] = [
        (
            "a-b-a",
            |r| {
                symlink(r.join("b"), r.join("a/to_b")).unwrap();
                symlink(r.join("a"), r.join("b/to_a")).unwrap();
            },
            &["a/to_b: is a symbolic link to a folder", "b/to_a: is a symbolic link to a folder"],
        ),
        ("self", |r| symlink(r, r.join("a/self")).unwrap(), &["a/self: is a symbolic link to a folder"]),
        ("dot", |r| symlink(".", r.join("b/here")).unwrap(), &["b/here: is a symbolic link to a folder"]),
        (
            "out",
            |r| symlink(r.join("../outside/secret.lua"), r.join("b/stolen.lua")).unwrap(),
            &["b/stolen.lua: is a symbolic link to a file outside the folder"],
        ),
        (
            "dangling",
            |r| symlink(r.join("nowhere.lua"), r.join("a/gone.lua")).unwrap(),
            &["a/gone.lua: is a symbolic link to nothing"],
        ),
    ];
    for (case, trap, warnings) in cases {
        let (_, root) = walk_folder(case, trap);
        let o = tactica(&["check", root.to_str().unwrap()], None, None);
        assert!(o.exited(0), "{case}: {:?}\n{}", o.code, o.stderr);
        assert!(o.stdout.contains("a/one.tac") && o.stdout.contains("b/two.lua"), "{case}: {}", o.stdout);
        assert!(!o.stdout.contains("secret") && !o.stderr.contains("secret"), "{case} read outside:\n{}", o.stdout);
        for w in warnings {
            assert!(o.stderr.contains(w), "{case}: no `{w}` in\n{}", o.stderr);
        }
        assert!(o.stdout.contains(&format!("{} warning", warnings.len())), "{case}: {}", o.stdout);
        let denied = tactica(&["check", root.to_str().unwrap(), "--deny-warnings"], None, None);
        assert!(denied.exited(1), "{case}: a link not followed fails --deny-warnings");
    }
}

#[test]
fn a_chain_deeper_than_the_bound_and_a_folder_wider_than_it_stop_the_walk_with_an_error() {
    let (_, deep) = walk_folder("deep", |r| {
        let mut d = r.to_path_buf();
        for i in 0..40 {
            d.push(format!("d{i}"));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("x.tac"), "Say(\"deep\");\n").unwrap();
        }
    });
    let o = tactica(&["check", deep.to_str().unwrap()], None, None);
    assert!(o.exited(1), "{}", o.stderr);
    assert!(o.stderr.contains("lies more than 32 folders deep and was not entered"), "{}", o.stderr);
    assert!(o.stdout.contains("d30/x.tac"), "what lies within the bound is checked:\n{}", o.stdout);
    assert!(!o.stdout.contains("d31/x.tac"), "{}", o.stdout);

    let (_, wide) = walk_folder("wide", |r| {
        let many = r.join("many");
        std::fs::create_dir_all(&many).unwrap();
        for i in 0..100_001 {
            std::fs::File::create(many.join(format!("{i:06}.dat"))).unwrap();
        }
    });
    let o = tactica(&["check", wide.to_str().unwrap()], None, None);
    assert!(o.exited(1), "{}", o.stderr);
    assert!(o.stderr.contains("the walk stopped after 100000 entries (its bound)"), "{}", o.stderr);
    assert!(o.stdout.contains("a/one.tac"), "entries before the bound are checked:\n{}", o.stdout);
    assert!(o.seconds < 60.0, "{} s", o.seconds);
}

/// The hint for a missing file searches the scenario's folder: loops and links there neither
/// hold it nor lead it out.
#[test]
fn the_missing_file_hint_search_ends_in_a_looped_folder() {
    use std::os::unix::fs::symlink;
    let (_, root) = walk_folder("missing", |r| {
        symlink(r.join("b"), r.join("a/to_b")).unwrap();
        symlink(r.join("a"), r.join("b/to_a")).unwrap();
        symlink(r, r.join("loop")).unwrap();
        symlink(r.join("../outside/secret.lua"), r.join("a/secret.lua")).unwrap();
        std::fs::write(r.join("map.txt"), open_map(4, 4)).unwrap();
        std::fs::write(
            r.join("scenario.toml"),
            "map = \"map.txt\"\n[[entities]]\nname = \"e\"\nkind = \"x\"\nat = [1, 1]\nscripts = [\"two.lua\", \"secret.lua\"]\n",
        )
        .unwrap();
    });
    let o = tactica(&["check", root.join("scenario.toml").to_str().unwrap()], None, None);
    assert!(o.exited(1), "{}", o.stderr);
    assert!(
        o.stderr.contains("`b/two.lua` exists, but script names are looked up beside the scenario file"),
        "{}",
        o.stderr
    );
    assert!(o.seconds < 30.0);
}

/// Polling looks at the watched files alone: a folder beside them holding a loop, a device, a
/// 64 GiB (sparse) file and thousands of entries costs nothing per poll (a poll of the folder
/// read every byte of every file in it, every 100 ms), and an edit is still seen.
#[test]
fn polling_watches_the_files_not_their_folders() {
    use std::os::unix::fs::symlink;
    let (_, root) = walk_folder("watch", |r| {
        symlink(r, r.join("a/loop")).unwrap();
        symlink("/dev/zero", r.join("a/zero.lua")).unwrap();
        std::fs::File::create(r.join("a/huge.dat")).unwrap().set_len(64 << 30).unwrap();
        for i in 0..5_000 {
            std::fs::File::create(r.join(format!("a/{i}.dat"))).unwrap();
        }
    });
    let script = root.join("a/one.tac");
    let started = std::time::Instant::now();
    let w = tactica::reload::FileWatcher::polling([script.clone()]).unwrap();
    assert!(w.is_polling());
    assert!(started.elapsed().as_secs_f64() < 2.0, "watching took {:?}", started.elapsed());
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(w.changed().is_empty(), "nothing changed yet");
    std::fs::write(&script, "Say(\"edited, and longer than before\");\n").unwrap();
    let mut seen = Default::default();
    for _ in 0..50 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        seen = w.changed();
        if !seen.is_empty() {
            break;
        }
    }
    assert!(seen.iter().any(|p: &PathBuf| p.ends_with("a/one.tac")), "{seen:?}");
    assert!(started.elapsed().as_secs() < 20);
}
