//! Hints for a file a scenario names that is not there. The common causes: scripts kept in a
//! `scripts/` folder without `scripts_dir = "scripts"` (names are looked up beside the scenario
//! file unless it says otherwise), a map in a subfolder named without it, and a typo.

use std::path::{Path, PathBuf};

use crate::walk::{WalkLimits, WalkStop, walk};

/// How deep below the scenario's folder the search for a file of the same name goes (folders
/// entered), and how many entries it reads at most, so a scenario kept in a huge folder still
/// loads at once. The walk follows no link into a folder ([`crate::walk`]).
const SEARCH: WalkLimits = WalkLimits { max_depth: 4, max_entries: 4_000 };
/// The typo search reads one folder.
const BESIDE: WalkLimits = WalkLimits { max_depth: 1, max_entries: 4_000 };

/// The hint for a script `name` that is not in `dir` (`scripts_dir`, or the scenario's folder
/// `root` when none is set).
pub(super) fn script_hint(root: &Path, dir: &Path, name: &str) -> Option<String> {
    let looked = match dir.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => "beside the scenario file (no `scripts_dir` is set)".to_owned(),
        Ok(rel) => format!("in `scripts_dir` (`{}`)", slashes(rel)),
        Err(_) => format!("in `{}`", dir.display()),
    };
    if let Some(found) = same_name_under(root, name) {
        let folder = found.parent().map(slashes).unwrap_or_default();
        return Some(format!(
            "`{}` exists, but script names are looked up {looked}: set `scripts_dir = \"{folder}\"`, or \
             name the script by its path from there",
            slashes(&found)
        ));
    }
    close_name(dir, name).map(|n| format!("did you mean `{n}`?"))
}

/// The hint for a map `name` that is not in the scenario's folder `root`.
pub(super) fn map_hint(root: &Path, name: &str) -> Option<String> {
    if let Some(found) = same_name_under(root, name) {
        return Some(format!(
            "`{0}` exists; the map is named by its path from the scenario's folder: `map = \"{0}\"`",
            slashes(&found)
        ));
    }
    close_name(root, name).map(|n| format!("did you mean `{n}`?"))
}

/// A file under `root` (not `root/name` itself) with `name`'s file name, as a path from `root`:
/// the shallowest, and the first in name order among those. Hidden folders and `target` are not
/// searched; a search cut short by its bound gives no answer rather than a wrong one.
fn same_name_under(root: &Path, name: &str) -> Option<PathBuf> {
    let file_name = Path::new(name).file_name()?;
    let walked = walk(root, SEARCH, |dir| {
        dir.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.') && n != "target")
    });
    if matches!(walked.stopped, Some(WalkStop::TooMany { .. })) {
        return None;
    }
    walked
        .files
        .iter()
        .filter(|f| f.file_name() == Some(file_name))
        .filter_map(|f| f.strip_prefix(root).ok())
        .filter(|rel| *rel != Path::new(name))
        .min_by_key(|rel| (rel.components().count(), rel.to_path_buf()))
        .map(Path::to_path_buf)
}

/// A file beside where `dir.join(name)` would be whose name is close to `name`'s (a typo), with
/// the same extension; named as `name` is.
fn close_name(dir: &Path, name: &str) -> Option<String> {
    let wanted = Path::new(name);
    let (file_name, ext) = (wanted.file_name()?.to_string_lossy(), wanted.extension());
    let folder = dir.join(wanted.parent().unwrap_or(Path::new("")));
    let names: Vec<String> = walk(&folder, BESIDE, |_| false)
        .files
        .iter()
        .filter_map(|f| f.file_name().map(PathBuf::from))
        .filter(|p| p.extension() == ext)
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let best = super::load::closest(&file_name, &refs)?;
    Some(match wanted.parent() {
        Some(p) if !p.as_os_str().is_empty() => slashes(&p.join(best)),
        _ => best.to_owned(),
    })
}

/// `path` with `/` between its parts, as a scenario file writes it on every system.
fn slashes(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, files: &[&str]) -> PathBuf {
        let root = tempfile::Builder::new().prefix(&format!("tactica-missing-{name}-")).tempdir().unwrap().keep();
        for f in files {
            let path = root.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        std::fs::create_dir_all(&root).unwrap();
        root
    }

    #[test]
    fn a_script_in_a_subfolder_suggests_scripts_dir() {
        let root = folder("sub", &["scripts/gob.lua", "old/deeper/gob.lua", ".git/gob.lua"]);
        let hint = script_hint(&root, &root, "gob.lua").unwrap();
        assert_eq!(
            hint,
            "`scripts/gob.lua` exists, but script names are looked up beside the scenario file (no \
             `scripts_dir` is set): set `scripts_dir = \"scripts\"`, or name the script by its path from there"
        );
        let hint = script_hint(&root, &root.join("ai"), "gob.lua").unwrap();
        assert!(hint.contains("looked up in `scripts_dir` (`ai`)"), "{hint}");
    }

    #[test]
    fn a_typo_suggests_the_close_name_with_the_same_extension() {
        let root = folder("typo", &["scripts/goblin.lua", "scripts/goblin.rhai", "scripts/orc.lua"]);
        let hint = script_hint(&root, &root.join("scripts"), "gobiln.lua").unwrap();
        assert_eq!(hint, "did you mean `goblin.lua`?");
        assert_eq!(script_hint(&root, &root.join("scripts"), "dragon.lua"), None, "nothing close: no hint");
    }

    #[test]
    fn a_map_in_a_subfolder_is_named_by_its_path() {
        let root = folder("map", &["maps/town.txt", "maps/towns.txt"]);
        assert_eq!(
            map_hint(&root, "town.txt").unwrap(),
            "`maps/town.txt` exists; the map is named by its path from the scenario's folder: `map = \"maps/town.txt\"`"
        );
        assert_eq!(map_hint(&root, "maps/tonw.txt").unwrap(), "did you mean `maps/town.txt`?");
        assert_eq!(map_hint(&root, "nowhere/else.txt"), None);
    }
}
