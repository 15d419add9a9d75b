//! Turning a scenario file into a ready world.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use glam::{IVec2, Vec2};
use tactica_engine::coord::Action;
use tactica_engine::decide::ModelKind;
use tactica_engine::grid::{self, Map};
use tactica_engine::world::{Entity, EntityId, Region, World};
use toml::Spanned;

use super::error::{ScenarioError, SourcePos};
use super::file::{ActionSpec, Position, ScenarioFile};
use super::files::{Folders, MAX_SCENARIO_BYTES, read_text};

/// A loaded scenario: the world at tick 0 and what the runtime needs to play it.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The scenario file.
    pub file: PathBuf,
    /// Its title (the file stem when it has none).
    pub name: String,
    /// The world at tick 0, entities spawned, their first actions queued.
    pub world: World,
    /// Ticks to play.
    pub ticks: u64,
    /// The entity standing for the player.
    pub player: Option<EntityId>,
    /// Encounter range in cells.
    pub encounter_range: f32,
    /// What the player types, by tick.
    pub player_says: BTreeMap<u64, Vec<String>>,
    /// Each scripted entity with its script files (resolved paths) and think interval.
    pub entity_scripts: Vec<EntityScripts>,
    /// Each entity that runs a behaviour tree, and the tree's model name.
    pub entity_trees: Vec<(EntityId, String)>,
    /// World-level script files (resolved paths).
    pub world_scripts: Vec<PathBuf>,
    /// The data files that reload while playing: query libraries and model files.
    pub data_files: Vec<PathBuf>,
    /// The grid map's file (none for a world built in code).
    pub map_file: Option<PathBuf>,
}

/// The scripts attached to one entity.
#[derive(Debug, Clone)]
pub struct EntityScripts {
    /// The entity.
    pub entity: EntityId,
    /// Its script files, in the order the scenario lists them.
    pub files: Vec<PathBuf>,
    /// Behaviour scripts think every this many ticks.
    pub think_every: u32,
    /// … on the ticks that leave this remainder (a crowd staggers its members; 0 otherwise).
    pub think_phase: u32,
}

/// Parses scenario text; `file` names it in errors. Unknown keys and ill-typed values are errors
/// at their line and column.
pub fn parse(text: &str, file: &Path) -> Result<ScenarioFile, ScenarioError> {
    if let Some((key, span)) = non_finite_number(text) {
        return Err(ScenarioError::new(
            file,
            SourcePos::of(text, span.start),
            format!("`{key}` is not a finite number"),
        )
        .hint("nan and inf have no meaning in a scenario; write a number"));
    }
    toml::from_str(text).map_err(|e| {
        let pos = e.span().map(|s| SourcePos::of(text, s.start)).unwrap_or_default();
        let message = e.message().trim().to_owned();
        let err = ScenarioError::new(file, pos, message.clone());
        if let Some((wrong, expected)) = unknown_field(&message) {
            let err = with_suggestion(err, &wrong, &expected);
            return if err.hint.as_deref().is_some_and(|h| h.starts_with("did you mean")) {
                err
            } else {
                err.hint("see docs/scenario.md for the keys a scenario may have")
            };
        }
        if message.contains("missing field") { err.hint("this key is required") } else { err }
    })
}

/// Loads a scenario file: parses it, loads its map, checks every position, place, region and
/// script path, spawns the entities and queues their first actions.
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    load_on(path, None)
}

/// Loads a scenario file as [`load`] does, but on `map` instead of the map the file names (a
/// benchmark playing a scenario on a map from elsewhere, a game that generated its level). The
/// file's `map` key is not read; every position, place and region is checked against `map`, and
/// crowds are placed on its open cells. The scenario has no map file then (no map reloads).
pub fn load_with_map(path: &Path, map: Map) -> Result<Scenario, ScenarioError> {
    let mut scenario = load_on(path, Some(map))?;
    scenario.map_file = None;
    Ok(scenario)
}

fn load_on(path: &Path, map: Option<Map>) -> Result<Scenario, ScenarioError> {
    let text = read_text(path, MAX_SCENARIO_BYTES)
        .map_err(|why| ScenarioError::new(path, SourcePos::default(), format!("the scenario {why}")))?;
    let parsed = parse(&text, path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut folders = Folders::new(dir);
    for folder in &parsed.allow_folders {
        folders.allow(dir, folder.get_ref()).map_err(|why| {
            ScenarioError::new(path, SourcePos::of(&text, folder.span().start), why)
                .hint("folders are relative to the scenario's own")
        })?;
    }
    Builder { text: &text, file: path, dir, folders, map }.build(parsed)
}

struct Builder<'a> {
    text: &'a str,
    file: &'a Path,
    dir: &'a Path,
    folders: Folders,
    /// A map given in place of the file's (see [`load_with_map`]).
    map: Option<Map>,
}

impl Builder<'_> {
    fn err<T>(&self, spanned: &Spanned<T>, message: impl Into<String>) -> ScenarioError {
        ScenarioError::new(self.file, SourcePos::of(self.text, spanned.span().start), message)
    }

    fn build(&self, f: ScenarioFile) -> Result<Scenario, ScenarioError> {
        let map = match &self.map {
            Some(map) => map.clone(),
            None => self.load_map(&f.map)?,
        };
        let rate = *f.tick_rate.get_ref();
        if !(1..=1000).contains(&rate) {
            return Err(self.err(&f.tick_rate, format!("tick_rate must be 1 to 1000, not {rate}")));
        }
        let mut world = World::new(map, rate, f.seed);
        world.globals = f.globals.clone();
        if let Some(section) = &f.navigation {
            super::nav::install_navigation(section, &mut world, self.text, self.file)?;
        }
        super::nav::install_doors(&f.doors, &mut world, self.text, self.file)?;
        super::tactics::install_hidespots(&f.hidespots, f.waypoints.as_ref(), &mut world, self.text, self.file)?;
        if let Some(section) = &f.queries {
            super::tactics::install_queries(section, &mut world, self.text, self.file, self.dir, &self.folders)?;
        }
        world.models = super::models::load(&f.models, self.text, self.file, self.dir, &self.folders)?;
        world.start_genetics();
        for (name, at) in &f.places {
            let cell = IVec2::from_array(*at.get_ref());
            if !world.map().contains(cell) {
                return Err(self.err(at, format!("place `{name}` at ({}, {}) is off the map", cell.x, cell.y)));
            }
            world.add_place(name.clone(), cell.as_vec2() + Vec2::splat(0.5));
        }
        if *f.encounter_range.get_ref() < 0.0 {
            return Err(self
                .err(
                    &f.encounter_range,
                    format!("encounter_range must be 0 or more, not {}", f.encounter_range.get_ref()),
                )
                .hint("it is how near, in cells, the player must come for an `encounter`"));
        }
        for (name, spec) in &f.regions {
            let r = spec.get_ref();
            if r.min[0] > r.max[0] || r.min[1] > r.max[1] {
                return Err(self
                    .err(spec, format!("region `{name}` has its min {:?} past its max {:?}", r.min, r.max))
                    .hint("min is the corner with the smaller x and y; swap the values that are the wrong way round"));
            }
            let region = Region::new(IVec2::from_array(r.min), IVec2::from_array(r.max));
            if !world.map().contains(region.min) || !world.map().contains(region.max) {
                return Err(self.err(spec, format!("region `{name}` reaches off the map")));
            }
            world.add_region(name.clone(), region);
        }
        let scripts_dir = f.scripts_dir.as_deref().map_or_else(|| self.dir.to_path_buf(), |d| self.dir.join(d));
        let mut entity_scripts = Vec::new();
        let mut entity_trees = Vec::new();
        for spanned in &f.entities {
            let spec = spanned.get_ref();
            let cell = self.resolve(&world, &spec.at)?;
            let mut entity = Entity::new(spec.name.clone(), spec.kind.clone(), cell);
            entity.team = spec.team.clone();
            entity.squad = spec.squad.clone();
            if !(spec.speed.is_finite() && spec.speed >= 0.0) {
                return Err(
                    self.err(spanned, format!("`{}` has a speed of {}: it must be 0 or more", spec.name, spec.speed))
                );
            }
            entity.speed = spec.speed;
            entity.attributes = spec.attributes.clone();
            // The classic SPEED attribute is the walking speed, here as when a script sets it.
            if let Some(tactica_engine::Value::Int(v)) =
                entity.attributes.iter().find(|(k, _)| k.eq_ignore_ascii_case("SPEED")).map(|(_, v)| v)
            {
                entity.speed = tactica_engine::world::speed_of_attribute(*v);
            }
            entity.tags = spec.tags.iter().cloned().collect();
            for a in &spec.actions {
                entity.actions.push(self.action(&world, a, &spec.team)?);
            }
            let id = world.spawn(entity).map_err(|e| self.err(&spec.at, e.to_string()))?;
            let files = spec.scripts.iter().map(|s| self.script(&scripts_dir, s)).collect::<Result<Vec<_>, _>>()?;
            if spec.think_every == 0 {
                return Err(self
                    .err(spanned, format!("`{}` has think_every = 0: it must be 1 or more", spec.name))
                    .hint("think_every = 1 thinks every tick, 2 every other tick, and so on"));
            }
            if !files.is_empty() {
                entity_scripts.push(EntityScripts { entity: id, files, think_every: spec.think_every, think_phase: 0 });
            }
            if let Some(tree) = &spec.tree {
                if world.models.tree(tree.get_ref()).is_none() {
                    let trees: Vec<&str> = world
                        .models
                        .iter()
                        .filter(|(_, e)| e.model.kind() == ModelKind::Tree)
                        .map(|(n, _)| n)
                        .collect();
                    let err = self.err(
                        tree,
                        format!("`{}` runs the tree `{}`, which [models] does not declare", spec.name, tree.get_ref()),
                    );
                    let err = if trees.is_empty() {
                        err.hint("declare it: `[models] guard = { tree = \"guard.bt\" }`")
                    } else {
                        with_suggestion(err, tree.get_ref(), &trees)
                    };
                    return Err(err);
                }
                entity_trees.push((id, tree.get_ref().clone()));
            }
        }
        let place = super::crowd::Place { text: self.text, file: self.file };
        entity_scripts
            .extend(super::crowd::spawn(&f.crowd, &mut world, f.seed, &place, |s| self.script(&scripts_dir, s))?);
        let world_scripts = f.scripts.iter().map(|s| self.script(&scripts_dir, s)).collect::<Result<Vec<_>, _>>()?;
        let player = match &f.player {
            Some(p) => Some(world.find(p.get_ref()).ok_or_else(|| {
                let mut names: Vec<&str> = f.entities.iter().map(|e| e.get_ref().name.as_str()).collect();
                names.extend(f.crowd.iter().map(|c| c.get_ref().name.get_ref().as_str()));
                with_suggestion(self.err(p, format!("no entity is named `{}`", p.get_ref())), p.get_ref(), &names)
            })?),
            None => None,
        };
        world.set_player(player);
        if let Some(steering) = &f.steering {
            super::steer::install(steering, &mut world, self.text, self.file)?;
        }
        let mut player_says: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        for entry in &f.timeline {
            let e = entry.get_ref();
            for (k, v) in &e.set {
                world.schedule_global(e.tick, k.clone(), v.clone());
            }
            if let Some(text) = &e.player_says {
                player_says.entry(e.tick).or_default().push(text.clone());
            }
            for (doors, open) in [(&e.open, true), (&e.close, false)] {
                for door in doors {
                    if !world.doors().contains_key(door.get_ref()) {
                        let names: Vec<&str> = world.doors().keys().map(String::as_str).collect();
                        let message = format!("no door is named `{}`", door.get_ref());
                        return Err(with_suggestion(self.err(door, message), door.get_ref(), &names));
                    }
                    world.schedule_door(e.tick, door.get_ref().clone(), open);
                }
            }
        }
        if let Some(section) = &f.field {
            world.set_tactical(super::field::build(self.text, self.file, section, &world)?);
            // The layers stand as the world starts, so tick 0's scripts and plans read them.
            world.update_tactical();
        }
        for spanned in &f.entities {
            if let Some(avoid) = &spanned.get_ref().avoid {
                self.check_avoid(&world, avoid)?;
                let id = world.find(&spanned.get_ref().name).expect("spawned above");
                if let Some(e) = world.entity_mut(id) {
                    e.avoid = avoid.get_ref().clone();
                }
            }
        }
        let queries = f.queries.iter().flat_map(|q| q.files.iter());
        let models = f.models.values().flat_map(|decl| decl.get_ref().values());
        let data_files = queries.chain(models).map(|name| self.dir.join(name.get_ref())).collect();
        let name = f.name.clone().unwrap_or_else(|| {
            self.file.file_stem().map_or_else(|| "scenario".into(), |s| s.to_string_lossy().into_owned())
        });
        Ok(Scenario {
            file: self.file.to_path_buf(),
            name,
            world,
            ticks: f.ticks,
            player,
            encounter_range: *f.encounter_range.get_ref(),
            player_says,
            entity_scripts,
            entity_trees,
            world_scripts,
            data_files,
            map_file: Some(self.dir.join(f.map.get_ref())),
        })
    }

    /// An entity's `avoid` names layers the `[field]` section keeps, one value per cell, with
    /// finite weights.
    fn check_avoid(&self, world: &World, avoid: &Spanned<BTreeMap<String, f32>>) -> Result<(), ScenarioError> {
        let Some(maps) = world.tactical() else {
            return Err(self
                .err(avoid, "`avoid` names tactical layers, but the scenario keeps none")
                .hint("add a [field] section that keeps the layers (docs/scenario.md, \"Tactical maps and senses\")"));
        };
        let names = maps.layer_names();
        for (layer, &weight) in avoid.get_ref() {
            let per_cell = maps.layer(layer).is_some_and(|l| l.values().len() == world.map().len());
            if !per_cell {
                let known: Vec<&str> = names.iter().map(String::as_str).collect();
                let e = self
                    .err(avoid, format!("`avoid` names `{layer}`, which is not a per-cell layer the scenario keeps"));
                return Err(with_suggestion(e, layer, &known));
            }
            if !weight.is_finite() {
                return Err(
                    self.err(avoid, format!("`avoid` gives `{layer}` the weight {weight}: it must be a finite number"))
                );
            }
        }
        Ok(())
    }

    fn load_map(&self, map: &Spanned<String>) -> Result<Map, ScenarioError> {
        let path = self.dir.join(map.get_ref());
        if !path.is_file() {
            let e = self.err(map, format!("the map `{}` does not exist", path.display()));
            return Err(match super::missing::map_hint(self.dir, map.get_ref()) {
                Some(hint) => e.hint(hint),
                None => e,
            });
        }
        self.folders.confine(&path).map_err(|why| self.outside(map, why))?;
        let loaded = if path.extension().is_some_and(|e| e == "map") {
            grid::load_movingai(&path)
        } else {
            grid::load_ascii(&path)
        };
        loaded.map_err(|e| {
            let message = e.kind.to_string();
            ScenarioError::new(e.file, SourcePos { line: e.line, column: e.column }, message)
        })
    }

    fn resolve(&self, world: &World, at: &Spanned<Position>) -> Result<IVec2, ScenarioError> {
        match at.get_ref() {
            Position::Cell([x, y]) => Ok(IVec2::new(*x, *y)),
            Position::Place(name) => world.place(name).map(|p| p.floor().as_ivec2()).ok_or_else(|| {
                let names: Vec<&str> = world.places().keys().map(String::as_str).collect();
                with_suggestion(self.err(at, format!("no place is named `{name}`")), name, &names)
            }),
        }
    }

    fn point(&self, world: &World, p: &Position, spanned: &Spanned<ActionSpec>) -> Result<Vec2, ScenarioError> {
        let cell = self.resolve(world, &Spanned::new(spanned.span(), p.clone()))?;
        if !world.map().contains(cell) {
            return Err(self.err(spanned, format!("({}, {}) is off the map", cell.x, cell.y)));
        }
        Ok(cell.as_vec2() + Vec2::splat(0.5))
    }

    fn action(&self, world: &World, a: &Spanned<ActionSpec>, team: &str) -> Result<Action, ScenarioError> {
        Ok(match a.get_ref() {
            ActionSpec::MoveTo(p) => Action::MoveTo { target: self.point(world, p, a)? },
            ActionSpec::FollowPath(ps) => Action::FollowPath {
                points: ps.iter().map(|p| self.point(world, p, a)).collect::<Result<_, _>>()?,
                next: 0,
            },
            ActionSpec::Say(text) => Action::Say { text: text.clone() },
            ActionSpec::PlaySound(name) => Action::PlaySound { name: name.clone() },
            ActionSpec::Trigger(name) => Action::Trigger { name: name.clone() },
            ActionSpec::Sleep(ticks) => Action::Sleep { ticks: *ticks },
            ActionSpec::Signal(id) => Action::Signal { scope: team.to_owned(), id: id.clone() },
            ActionSpec::Wait(id) => Action::Wait { scope: team.to_owned(), id: id.clone(), logged: false },
        })
    }

    fn script(&self, dir: &Path, name: &Spanned<String>) -> Result<PathBuf, ScenarioError> {
        let path = dir.join(name.get_ref());
        if !path.is_file() {
            let e = self.err(name, format!("the script `{}` does not exist", path.display()));
            return Err(match super::missing::script_hint(self.dir, dir, name.get_ref()) {
                Some(hint) => e.hint(hint),
                None => e,
            });
        }
        self.folders.confine(&path).map_err(|why| self.outside(name, why))?;
        Ok(path)
    }

    fn outside(&self, name: &Spanned<String>, why: String) -> ScenarioError {
        self.err(name, why).hint("a scenario reads files from its own folder; list others in `allow_folders`")
    }
}

/// The first `nan` or `inf` in the file, with its key and where it stands. TOML allows both, and
/// serde would take them into any float field (a NaN range compares false with everything, so it
/// silently disables whatever it sets); no scenario value has a use for them, so they are refused
/// in one place rather than at each field.
fn non_finite_number(text: &str) -> Option<(String, std::ops::Range<usize>)> {
    use toml::de::{DeTable, DeValue};
    fn walk(key: &str, value: &toml::Spanned<DeValue<'_>>) -> Option<(String, std::ops::Range<usize>)> {
        match value.get_ref() {
            DeValue::Float(f) => {
                let s = f.as_str().trim_start_matches(['+', '-']);
                (s == "nan" || s == "inf").then(|| (key.to_owned(), value.span()))
            }
            DeValue::Array(items) => items.iter().find_map(|v| walk(key, v)),
            DeValue::Table(t) => t.iter().find_map(|(k, v)| walk(k.get_ref(), v)),
            _ => None,
        }
    }
    // A file that does not parse is reported by the typed parse that follows, with its position.
    let table = DeTable::parse(text).ok()?;
    table.get_ref().iter().find_map(|(k, v)| walk(k.get_ref(), v))
}

/// The wrong key and the allowed ones, from serde's "unknown field `x`, expected one of `a`, `b`".
fn unknown_field(message: &str) -> Option<(String, Vec<&str>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (wrong, rest) = rest.split_once('`')?;
    let expected = rest.split('`').skip(1).step_by(2).collect();
    Some((wrong.to_owned(), expected))
}

/// The one of `names` closest to `wrong`, if any is close enough to be a typo of it.
pub(super) fn closest<'n>(wrong: &str, names: &[&'n str]) -> Option<&'n str> {
    names
        .iter()
        .map(|n| (strsim::damerau_levenshtein(&wrong.to_lowercase(), &n.to_lowercase()), *n))
        .filter(|&(d, n)| d <= (n.len() / 3).max(2))
        .min()
        .map(|(_, n)| n)
}

/// Adds "did you mean" when one of `names` is close to `wrong`.
pub(super) fn with_suggestion(err: ScenarioError, wrong: &str, names: &[&str]) -> ScenarioError {
    match closest(wrong, names) {
        Some(n) => err.hint(format!("did you mean `{n}`?")),
        None if names.is_empty() => err,
        None => err.hint(format!("known names: {}", names.join(", "))),
    }
}
