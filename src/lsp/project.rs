//! The scenario a script belongs to: the scenario `.toml` in the script's folder or a folder
//! above it whose entities or world scripts name the script. Its names (places, globals, kinds,
//! signals — [`crate::editor::scenario_api`]) check, complete and document the script, and its
//! places are where "go to definition" of a place lands.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

use serde::Deserialize;
use toml::Spanned;

use super::text::LineIndex;
use crate::host::Api;
use crate::scenario::files::{MAX_SCENARIO_BYTES, read_text};

/// How many folders above a script are searched for its scenario (`scripts_dir` nests one).
const FOLDERS_UP: usize = 3;
/// Each of those folders is read for its own entries only, and at most this many: an editor
/// opening a script in a huge folder (a download folder, a home) still answers at once. Links
/// are not followed out of the folder ([`crate::walk`]).
const SCAN: crate::walk::WalkLimits = crate::walk::WalkLimits { max_depth: 1, max_entries: 4_000 };
/// At most this many `.toml` files are considered in one search: each may be a scenario, and
/// loading one is bounded by the load budget, not free (a folder of thousands of them must not
/// hold the editor).
const MAX_TOMLS: usize = 64;

/// A scenario that loaded, with what editors need of it.
#[derive(Debug)]
pub struct Project {
    /// The scenario file.
    pub file: PathBuf,
    /// Its text, and the index of its lines.
    pub text: String,
    /// The index of `text`'s lines.
    pub index: LineIndex,
    /// The standard API with the scenario's names.
    pub api: Api,
    /// The script files it uses (canonical paths).
    pub scripts: BTreeSet<PathBuf>,
    /// Each place and region with the byte range of its key in `text`.
    pub places: Vec<(String, Range<usize>)>,
}

/// The keys of `[places]` and `[regions]`, with their spans.
#[derive(Deserialize)]
struct Names {
    #[serde(default)]
    places: BTreeMap<Spanned<String>, toml::Value>,
    #[serde(default)]
    regions: BTreeMap<Spanned<String>, toml::Value>,
}

/// Key spans of every place and region `text` declares (empty when it does not parse).
pub fn place_spans(text: &str) -> Vec<(String, Range<usize>)> {
    let Ok(names) = toml::from_str::<Names>(text) else { return Vec::new() };
    names.places.keys().chain(names.regions.keys()).map(|k| (k.get_ref().clone(), k.span())).collect()
}

/// The scenarios met so far, by file, reloaded when the file changes on disk.
#[derive(Default)]
pub struct Projects {
    loaded: HashMap<PathBuf, (Option<SystemTime>, Option<Rc<Project>>)>,
}

impl Projects {
    /// The scenario `script` belongs to, if any.
    pub fn for_script(&mut self, script: &Path) -> Option<Rc<Project>> {
        let canonical = canonical(script);
        let mut considered = 0;
        for dir in canonical.ancestors().skip(1).take(FOLDERS_UP) {
            let walked = crate::walk::walk(dir, SCAN, |_| false);
            let tomls = walked.files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "toml"));
            for toml in tomls {
                considered += 1;
                if considered > MAX_TOMLS {
                    return None;
                }
                if let Some(p) = self.get(&toml).filter(|p| p.scripts.contains(&canonical)) {
                    return Some(p);
                }
            }
        }
        None
    }

    /// The scenario in `file`, loaded again when its modification time changed.
    fn get(&mut self, file: &Path) -> Option<Rc<Project>> {
        let stamp = std::fs::metadata(file).and_then(|m| m.modified()).ok();
        if let Some((s, p)) = self.loaded.get(file)
            && *s == stamp
        {
            return p.clone();
        }
        let project = load(file).map(Rc::new);
        self.loaded.insert(file.to_path_buf(), (stamp, project.clone()));
        project
    }

    /// Forgets every scenario (a script was saved: the signals its scenario's scripts use may
    /// have changed).
    pub fn forget(&mut self) {
        self.loaded.clear();
    }
}

fn load(file: &Path) -> Option<Project> {
    if !crate::cli::check::is_scenario(file) {
        return None;
    }
    let scenario = crate::scenario::Loader::new().limits(crate::cli::load_limits()).load(file).ok()?;
    let text = read_text(file, MAX_SCENARIO_BYTES).ok()?;
    let mut scripts: BTreeSet<PathBuf> = scenario
        .entity_scripts
        .iter()
        .flat_map(|e| e.files.iter())
        .chain(&scenario.world_scripts)
        .map(|p| canonical(p))
        .collect();
    // Behaviour trees and the files of their leaves belong to the scenario too.
    for (_, entry) in scenario.world.models.iter() {
        let tactica_engine::decide::Model::Tree(def) = &*entry.model else { continue };
        let tree = PathBuf::from(&entry.source);
        let dir = tree.parent().map(Path::to_path_buf).unwrap_or_default();
        scripts.extend(def.leaf_files().iter().map(|f| canonical(&dir.join(f))));
        scripts.insert(canonical(&tree));
    }
    Some(Project {
        file: canonical(file),
        index: LineIndex::new(&text),
        places: place_spans(&text),
        api: crate::editor::scenario_api(&scenario),
        scripts,
        text,
    })
}

/// The canonical path of a file, or of its folder joined with its name when the file itself
/// does not exist yet (an editor's new buffer).
fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| match (p.parent().and_then(|d| d.canonicalize().ok()), p.file_name()) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => p.to_path_buf(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_regions_with_their_key_spans() {
        let text = "name = \"x\"\n[places]\nkDock = [1, 2]\n\"my gate\" = [3, 4]\n[regions]\nyard = { min = [0, 0], max = [2, 2] }\n";
        let spans = place_spans(text);
        let names: Vec<&str> = spans.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["kDock", "my gate", "yard"]);
        assert_eq!(&text[spans[0].1.clone()], "kDock");
        assert_eq!(&text[spans[2].1.clone()], "yard");
    }

    /// A script's scenario is found beside it through loops of links and a huge folder: the
    /// search reads each folder's own entries, at most [`SCAN`]'s, and follows no link out.
    #[cfg(unix)]
    #[test]
    fn the_scenario_search_ends_in_looped_and_crowded_folders() {
        use std::os::unix::fs::symlink;
        let base = tempfile::Builder::new().prefix("tactica-project-").tempdir().unwrap().keep();
        let (root, outside) = (base.join("mod"), base.join("outside"));
        std::fs::create_dir_all(root.join("scripts")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("map.txt"), "....\n....\n").unwrap();
        let scenario = "map = \"map.txt\"\nscripts_dir = \"scripts\"\n[[entities]]\nname = \"g\"\nkind = \"x\"\nat = [1, 1]\nscripts = [\"g.lua\"]\n";
        std::fs::write(root.join("scenario.toml"), scenario).unwrap();
        std::fs::write(root.join("scripts/g.lua"), "function on_spawn() end\n").unwrap();
        symlink(&root, root.join("scripts/up")).unwrap();
        symlink(root.join("scripts"), root.join("loop")).unwrap();
        // A scenario outside that lists the script through a link: not this script's scenario.
        std::fs::write(outside.join("other.toml"), scenario.replace("g.lua", "../mod/scripts/g.lua")).unwrap();
        symlink(outside.join("other.toml"), root.join("other.toml")).unwrap();
        let mut projects = Projects::default();
        let found = projects.for_script(&root.join("scripts/g.lua")).expect("its scenario");
        assert!(found.file.ends_with("mod/scenario.toml"), "{}", found.file.display());
        // At most MAX_TOMLS files are considered: 64 others named first hide the scenario.
        for i in 0..MAX_TOMLS {
            std::fs::write(root.join(format!("a{i:03}.toml")), "").unwrap();
        }
        assert!(Projects::default().for_script(&root.join("scripts/g.lua")).is_none());
        std::fs::remove_file(root.join("a000.toml")).unwrap();
        assert!(Projects::default().for_script(&root.join("scripts/g.lua")).is_some(), "63 others: found");
        for i in 1..MAX_TOMLS {
            std::fs::remove_file(root.join(format!("a{i:03}.toml"))).unwrap();
        }
        // Past the bound, a folder's further entries are not read: the scenario, named last, is
        // not found, and the search still ends.
        for i in 0..SCAN.max_entries {
            std::fs::File::create(root.join(format!("a{i:05}.dat"))).unwrap();
        }
        std::fs::rename(root.join("scenario.toml"), root.join("zz.toml")).unwrap();
        let started = std::time::Instant::now();
        assert!(Projects::default().for_script(&root.join("scripts/g.lua")).is_none());
        assert!(started.elapsed().as_secs() < 10);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
