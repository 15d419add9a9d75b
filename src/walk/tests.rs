//! Walks over folders built to trap them: loops of links, links out, deep chains, wide folders.

use std::path::{Path, PathBuf};

use super::*;

fn scratch(name: &str) -> PathBuf {
    tempfile::Builder::new().prefix(&format!("tactica-walk-{name}-")).tempdir().unwrap().keep()
}

fn touch(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, "").unwrap();
}

fn names(root: &Path, paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/")).collect()
}

const WIDE: WalkLimits = WalkLimits { max_depth: 8, max_entries: 1_000 };

#[test]
fn files_come_in_name_order_and_entered_folders_are_chosen() {
    let root = scratch("order");
    for f in ["b.lua", "a/z.tac", "a/b.tac", ".hidden/x.lua", "c.rhai"] {
        touch(&root.join(f));
    }
    let walked = walk(&root, WIDE, |_| true);
    assert_eq!(names(&root, &walked.files), [".hidden/x.lua", "a/b.tac", "a/z.tac", "b.lua", "c.rhai"]);
    assert!(walked.skipped.is_empty() && walked.stopped.is_none());
    let walked = walk(&root, WIDE, |d| !d.file_name().unwrap().to_string_lossy().starts_with('.'));
    assert_eq!(names(&root, &walked.files), ["a/b.tac", "a/z.tac", "b.lua", "c.rhai"]);
    let file = walk(&root.join("b.lua"), WIDE, |_| true);
    assert_eq!(file.files, [root.join("b.lua")], "a file is found alone");
    std::fs::remove_dir_all(&root).unwrap();
}

#[cfg(unix)]
#[test]
fn loops_of_links_end_and_are_reported_once_each() {
    use std::os::unix::fs::symlink;
    let root = scratch("loops");
    touch(&root.join("a/one.lua"));
    touch(&root.join("b/two.lua"));
    symlink(root.join("b"), root.join("a/to_b")).unwrap();
    symlink(root.join("a"), root.join("b/to_a")).unwrap();
    symlink(&root, root.join("a/self")).unwrap();
    symlink(".", root.join("dot")).unwrap();
    let walked = walk(&root, WIDE, |_| true);
    assert_eq!(names(&root, &walked.files), ["a/one.lua", "b/two.lua"]);
    let skipped: Vec<(String, Skip)> =
        walked.skipped.iter().map(|(p, s)| (names(&root, std::slice::from_ref(p)).remove(0), s.clone())).collect();
    assert_eq!(
        skipped,
        [
            ("a/self".to_owned(), Skip::LinkToFolder),
            ("a/to_b".to_owned(), Skip::LinkToFolder),
            ("b/to_a".to_owned(), Skip::LinkToFolder),
            ("dot".to_owned(), Skip::LinkToFolder),
        ]
    );
    assert!(walked.stopped.is_none());
    std::fs::remove_dir_all(&root).unwrap();
}

#[cfg(unix)]
#[test]
fn links_to_files_count_only_inside_the_folder() {
    use std::os::unix::fs::symlink;
    let base = scratch("links");
    let root = base.join("mod");
    touch(&root.join("real.lua"));
    touch(&base.join("secret.lua"));
    symlink(root.join("real.lua"), root.join("alias.lua")).unwrap();
    symlink(base.join("secret.lua"), root.join("out.lua")).unwrap();
    symlink(root.join("gone.lua"), root.join("dangling.lua")).unwrap();
    symlink("/dev/zero", root.join("zero.lua")).unwrap();
    let walked = walk(&root, WIDE, |_| true);
    assert_eq!(names(&root, &walked.files), ["alias.lua", "real.lua"]);
    let skips: Vec<&Skip> = walked.skipped.iter().map(|(_, s)| s).collect();
    assert_eq!(skips, [&Skip::Dangling, &Skip::LinkOutside, &Skip::LinkOutside]);
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_chain_deeper_than_the_bound_stops_there_and_says_where() {
    let root = scratch("deep");
    let mut deep = root.clone();
    for i in 0..12 {
        deep.push(format!("d{i}"));
        touch(&deep.join("x.lua"));
    }
    let walked = walk(&root, WalkLimits { max_depth: 5, max_entries: 1_000 }, |_| true);
    assert_eq!(walked.files.len(), 4, "x.lua in d0 … d3: depths 2 to 5");
    match &walked.stopped {
        Some(WalkStop::TooDeep { folder, max_depth: 5 }) => assert!(folder.ends_with("d0/d1/d2/d3/d4"), "{folder:?}"),
        other => panic!("{other:?}"),
    }
    let message = walked.stopped.unwrap().to_string();
    assert!(message.contains("more than 5 folders deep") && message.contains("d4"), "{message}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_folder_wider_than_the_bound_stops_at_the_bound() {
    let root = scratch("wide");
    for i in 0..300 {
        touch(&root.join(format!("f{i:03}.lua")));
    }
    let walked = walk(&root, WalkLimits { max_depth: 4, max_entries: 100 }, |_| true);
    assert_eq!(walked.files.len(), 100);
    assert_eq!(walked.files.last().unwrap(), &root.join("f099.lua"), "the first 100 in name order");
    assert_eq!(walked.stopped, Some(WalkStop::TooMany { root: root.clone(), max_entries: 100 }));
    let exact = walk(&root, WalkLimits { max_depth: 4, max_entries: 300 }, |_| true);
    assert_eq!((exact.files.len(), exact.stopped), (300, None), "exactly the bound is still whole");
    std::fs::remove_dir_all(&root).unwrap();
}
