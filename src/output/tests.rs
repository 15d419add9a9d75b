//! The output rule on real folders: what is written, what is refused, and that a refusal leaves
//! the place a link points to as it was.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::*;

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    tempfile::Builder::new().prefix(&format!("tactica-output-{name}-")).tempdir().unwrap().keep()
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_file_is_written_and_replaced_whole_and_missing_folders_are_made() {
    let dir = scratch("plain");
    let file = dir.join("a/b/trace.jsonl");
    write_file(&file, b"one\n").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"one\n");
    write_file(&file, b"two\n").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"two\n");
    assert_eq!(entries(&dir.join("a/b")), ["trace.jsonl"], "no temporary file is left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unfinished_file_leaves_nothing_and_an_old_file_stays() {
    let dir = scratch("unfinished");
    std::fs::write(dir.join("keep.txt"), "old").unwrap();
    let out = OutputDir::create(&dir).unwrap();
    let mut f = out.create_file("keep.txt").unwrap();
    f.write_all(b"half").unwrap();
    drop(f);
    assert_eq!(std::fs::read_to_string(dir.join("keep.txt")).unwrap(), "old");
    assert_eq!(entries(&dir), ["keep.txt"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_link_where_the_file_goes_is_refused_and_its_target_untouched() {
    let dir = scratch("leaf-link");
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, "precious").unwrap();
    std::fs::create_dir(dir.join("mod")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("mod/trace.jsonl")).unwrap();
    let err = write_file(&dir.join("mod/trace.jsonl"), b"overwritten").unwrap_err();
    assert!(
        matches!(&err, OutputError::Link { link, target, .. }
        if link.ends_with("mod/trace.jsonl") && target == &outside),
        "{err}"
    );
    assert!(err.to_string().contains("is a symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious");
    let out = OutputDir::create(&dir.join("mod")).unwrap();
    assert!(matches!(out.write_file("trace.jsonl", b"x"), Err(OutputError::Link { .. })));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_linked_folder_on_the_way_is_refused_inside_and_outside_an_output_folder() {
    let dir = scratch("folder-link");
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("out/sub")).unwrap();
    let err = write_file(&dir.join("out/sub/f.txt"), b"x").unwrap_err();
    assert!(matches!(&err, OutputError::Link { link, .. } if link.ends_with("out/sub")), "{err}");
    let err = OutputDir::create(&dir.join("out/sub")).unwrap_err();
    assert!(matches!(err, OutputError::Link { .. }), "{err}");
    let out = OutputDir::create(&dir.join("out")).unwrap();
    let err = out.write_file("sub/f.txt", b"x").unwrap_err();
    assert!(matches!(err, OutputError::Link { .. }), "{err}");
    assert!(entries(&dir.join("elsewhere")).is_empty(), "nothing was written through the link");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_dangling_link_is_refused_and_nothing_is_made_where_it_points() {
    let dir = scratch("dangling");
    std::os::unix::fs::symlink(dir.join("nowhere/x"), dir.join("f.txt")).unwrap();
    std::os::unix::fs::symlink(dir.join("nofolder"), dir.join("d")).unwrap();
    assert!(matches!(write_file(&dir.join("f.txt"), b"x"), Err(OutputError::Link { .. })));
    assert!(matches!(write_file(&dir.join("d/f.txt"), b"x"), Err(OutputError::Link { .. })));
    assert!(!dir.join("nowhere").exists() && !dir.join("nofolder").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_second_hard_link_keeps_its_old_bytes() {
    let dir = scratch("hard");
    std::fs::write(dir.join("other.txt"), "precious").unwrap();
    std::fs::hard_link(dir.join("other.txt"), dir.join("out.txt")).unwrap();
    write_file(&dir.join("out.txt"), b"new").unwrap();
    assert_eq!(std::fs::read_to_string(dir.join("out.txt")).unwrap(), "new");
    assert_eq!(std::fs::read_to_string(dir.join("other.txt")).unwrap(), "precious");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn folders_and_things_that_are_not_files_are_refused() {
    let dir = scratch("kinds");
    std::fs::create_dir(dir.join("folder")).unwrap();
    let err = write_file(&dir.join("folder"), b"x").unwrap_err();
    assert!(matches!(err, OutputError::NotAFile { what: "a folder", .. }), "{err}");
    std::fs::write(dir.join("file"), "x").unwrap();
    let err = write_file(&dir.join("file/inner.txt"), b"x").unwrap_err();
    assert!(matches!(err, OutputError::NotAFolder { .. }), "{err}");
    assert!(matches!(write_file(Path::new(""), b"x"), Err(OutputError::NoFileName { .. })));
    assert!(matches!(write_file(&dir.join(".."), b"x"), Err(OutputError::NoFileName { .. })));
    let out = OutputDir::create(&dir).unwrap();
    assert!(matches!(out.write_file("../escape.txt", b"x"), Err(OutputError::Outside { .. })));
    assert!(matches!(out.write_file("/tmp/escape.txt", b"x"), Err(OutputError::Outside { .. })));
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        assert!(made, "mkfifo is part of every Unix");
        let err = write_file(&fifo, b"x").unwrap_err();
        assert!(matches!(err, OutputError::NotAFile { what: "a device, pipe or socket", .. }), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
