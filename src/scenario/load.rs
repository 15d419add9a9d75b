//! Turning a scenario file into a ready world.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use glam::{IVec2, Vec2};
use tactica_engine::coord::Action;
use tactica_engine::decide::ModelKind;
use tactica_engine::grid::{self, Map};
use tactica_engine::world::{Entity, EntityId, Region, World};
use toml::Spanned;

use super::budget::{Budget, LoadLimits, ProgressFn, grouped};
use super::cost;
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
    /// `threads`: worker threads for the scripts phase (`None`: the machine's cores).
    pub threads: Option<usize>,
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
    /// `[view] layer_every`: how often `tactica view` records the tactical layers.
    pub view_layer_every: Option<u64>,
    /// Units of load-time work the load was charged ([`LoadLimits::work`]).
    pub load_work: u64,
    /// The limits it was loaded under: what reloads while it plays (a model file, the map) are
    /// held to as well.
    pub load_limits: LoadLimits,
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
/// script path, spawns the entities and queues their first actions — under the default
/// [`LoadLimits`] (see [`Loader`] to set others).
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    Loader::new().load(path)
}

/// Loads a scenario file as [`load`] does, but on `map` instead of the map the file names (a
/// benchmark playing a scenario on a map from elsewhere, a game that generated its level). The
/// file's `map` key is not read; every position, place and region is checked against `map`, and
/// crowds are placed on its open cells. The scenario has no map file then (no map reloads).
pub fn load_with_map(path: &Path, map: Map) -> Result<Scenario, ScenarioError> {
    Loader::new().map(map).load(path)
}

/// Loads a scenario file as [`load`] does, after `edit` changed what the file says (a test moving
/// a character's start, setting a global, leaving an entity out): everything is checked as if
/// the file said it. What `edit` writes carries the spans of what it replaced, so an error it
/// causes points at the entry it changed.
pub fn load_with(path: &Path, edit: impl FnOnce(&mut ScenarioFile)) -> Result<Scenario, ScenarioError> {
    Loader::new().edit(edit).load(path)
}

/// Loads scenarios with limits, a map of the game's own, or a progress report: what [`load`]
/// does, configured.
///
/// ```
/// use tactica::scenario::{LoadLimits, Loader};
///
/// let mut report = |p: &tactica::scenario::LoadProgress<'_>| eprintln!("{}: {} units", p.what, p.units);
/// let scenario = Loader::new()
///     .limits(LoadLimits::new().set_work(500_000_000))
///     .progress(&mut report)
///     .load(std::path::Path::new("examples/harbour/scenario.toml"))?;
/// assert!(scenario.load_work > 0);
/// # Ok::<(), tactica::scenario::ScenarioError>(())
/// ```
#[derive(Default)]
pub struct Loader<'p> {
    limits: LoadLimits,
    map: Option<Map>,
    progress: Option<ProgressFn<'p>>,
    edit: Option<EditFn<'p>>,
}

/// A change to what a scenario file says, made before anything is checked (see [`load_with`]).
type EditFn<'p> = Box<dyn FnOnce(&mut ScenarioFile) + 'p>;

impl std::fmt::Debug for Loader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loader").field("limits", &self.limits).field("map", &self.map.is_some()).finish_non_exhaustive()
    }
}

impl<'p> Loader<'p> {
    /// The default limits, the file's own map, no progress report.
    pub fn new() -> Self {
        Loader::default()
    }

    /// Loads under `limits`.
    #[must_use]
    pub fn limits(mut self, limits: LoadLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Plays on `map` instead of the map the file names (see [`load_with_map`]).
    #[must_use]
    pub fn map(mut self, map: Map) -> Self {
        self.map = Some(map);
        self
    }

    /// Calls `report` before each piece of charged work (a progress bar for long loads).
    #[must_use]
    pub fn progress(mut self, report: ProgressFn<'p>) -> Self {
        self.progress = Some(report);
        self
    }

    /// Changes what the file says before it is checked (see [`load_with`]).
    #[must_use]
    pub fn edit(mut self, edit: impl FnOnce(&mut ScenarioFile) + 'p) -> Self {
        self.edit = Some(Box::new(edit));
        self
    }

    /// Loads the scenario file at `path`.
    pub fn load(self, path: &Path) -> Result<Scenario, ScenarioError> {
        let text = read_text(path, MAX_SCENARIO_BYTES)
            .map_err(|why| ScenarioError::new(path, SourcePos::default(), format!("the scenario {why}")))?;
        let mut parsed = parse(&text, path)?;
        if let Some(edit) = self.edit {
            edit(&mut parsed);
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut folders = Folders::new(dir);
        for folder in &parsed.allow_folders {
            folders.allow(dir, folder.get_ref()).map_err(|why| {
                ScenarioError::new(path, SourcePos::of(&text, folder.span().start), why)
                    .hint("folders are relative to the scenario's own")
            })?;
        }
        let given_map = self.map.is_some();
        let builder = Builder {
            text: &text,
            file: path,
            dir,
            folders,
            map: self.map,
            budget: RefCell::new(Budget::new(self.limits, self.progress)),
            compiled: RefCell::new(BTreeSet::new()),
        };
        let mut scenario = builder.build(parsed)?;
        if given_map {
            scenario.map_file = None;
        }
        Ok(scenario)
    }
}

struct Builder<'a, 'p> {
    text: &'a str,
    file: &'a Path,
    dir: &'a Path,
    folders: Folders,
    /// A map given in place of the file's (see [`load_with_map`]).
    map: Option<Map>,
    budget: RefCell<Budget<'p>>,
    /// Script files already charged for compiling (each is compiled once, however many use it).
    compiled: RefCell<BTreeSet<PathBuf>>,
}

impl Builder<'_, '_> {
    fn err<T>(&self, spanned: &Spanned<T>, message: impl Into<String>) -> ScenarioError {
        ScenarioError::new(self.file, SourcePos::of(self.text, spanned.span().start), message)
    }

    /// Charges `units` for `what`, asked for by `key` written at `at`.
    fn charge<T>(&self, units: u64, key: &str, what: &str, at: &Spanned<T>) -> Result<(), ScenarioError> {
        let pos = SourcePos::of(self.text, at.span().start);
        self.budget.borrow_mut().charge(units, key, what, || (self.file.to_path_buf(), pos))
    }

    fn build(&self, f: ScenarioFile) -> Result<Scenario, ScenarioError> {
        let max_ticks = self.budget.borrow().limits().ticks;
        if *f.ticks.get_ref() > max_ticks {
            return Err(self
                .err(
                    &f.ticks,
                    format!(
                        "`ticks` asks a run to play {} ticks, past the {} the load limits allow",
                        grouped(*f.ticks.get_ref()),
                        grouped(max_ticks)
                    ),
                )
                .hint(
                    "a longer run is asked for where it is played (`tactica run --ticks N`); a game sets                      `LoadLimits::ticks`",
                ));
        }
        let map = match &self.map {
            Some(map) => {
                self.charge(cost::map_cells(map.len() as u64), "map", "the map the game gave, cell by cell", &f.map)?;
                map.clone()
            }
            None => self.load_map(&f.map)?,
        };
        let rate = *f.tick_rate.get_ref();
        if !(1..=1000).contains(&rate) {
            return Err(self.err(&f.tick_rate, format!("tick_rate must be 1 to 1000, not {rate}")));
        }
        let nav = super::nav::nav_config(f.navigation.as_ref(), self.text, self.file)?;
        let hierarchy = super::nav::charge_hierarchy(
            &nav,
            f.navigation.as_ref(),
            &f.map,
            &map,
            &mut self.budget.borrow_mut(),
            self.text,
            self.file,
        )?;
        let mut world = World::with_nav(map, rate, f.seed, nav);
        world.globals = f.globals.clone();
        if let Some(graph) = f.navigation.as_ref().and_then(|n| n.graph.as_ref()) {
            super::nav::install_graph(graph, &mut world, &mut self.budget.borrow_mut(), self.text, self.file)?;
        }
        super::nav::install_doors(
            &f.doors,
            &mut world,
            hierarchy,
            &mut self.budget.borrow_mut(),
            self.text,
            self.file,
        )?;
        super::tactics::install_hidespots(
            &f.hidespots,
            f.waypoints.as_ref(),
            &mut world,
            &mut self.budget.borrow_mut(),
            self.text,
            self.file,
        )?;
        if let Some(section) = &f.queries {
            super::tactics::install_queries(
                section,
                &mut world,
                &mut self.budget.borrow_mut(),
                self.text,
                self.file,
                self.dir,
                &self.folders,
            )?;
        }
        world.models = super::models::load(
            &f.models,
            &mut self.budget.borrow_mut(),
            self.text,
            self.file,
            self.dir,
            &self.folders,
        )?;
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
        if let Some(first) = f.entities.first() {
            // What each character keeps is written in the file itself; what grows is the
            // instances its scripts get and the regions each spawn is checked against.
            let scripts: u64 = f.entities.iter().map(|e| e.get_ref().scripts.len() as u64).sum();
            let units = cost::characters(f.entities.len() as u64, 0)
                .saturating_add(scripts.saturating_mul(cost::PER_INSTANCE))
                .saturating_add((f.entities.len() as u64).saturating_mul(f.regions.len() as u64 * 2));
            let what = format!("{} characters with {scripts} scripts", f.entities.len());
            self.charge(units, "[[entities]]", &what, first)?;
        }
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
        let charge = |units: u64, what: &str, at: &Spanned<u32>| self.charge(units, "count", what, at);
        entity_scripts.extend(super::crowd::spawn(&f.crowd, &mut world, f.seed, &place, charge, |s| {
            self.script(&scripts_dir, s)
        })?);
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
            super::steer::install(steering, &mut world, &mut self.budget.borrow_mut(), self.text, self.file)?;
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
            let spec = super::field::build(self.text, self.file, section)?;
            super::field::charge(section, &spec, &world, &mut self.budget.borrow_mut(), self.text, self.file)?;
            let (width, height) = (world.map().width(), world.map().height());
            world.set_tactical(tactica_engine::field::TacticalMaps::new(width, height, spec));
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
        let view_layer_every = match f.view.as_ref().and_then(|v| v.layer_every.as_ref()) {
            Some(every) if *every.get_ref() == 0 => {
                return Err(self
                    .err(every, "`layer_every` is a number of ticks: 1 or more")
                    .hint("1 records the layers every tick; leave it out to let `tactica view` choose"));
            }
            every => every.map(|e| *e.get_ref()),
        };
        let threads = match &f.threads {
            Some(t) if *t.get_ref() == 0 || *t.get_ref() > 1024 => {
                return Err(self
                    .err(t, "`threads` is a number of worker threads: 1 to 1024")
                    .hint("leave it out to use every core; the trace is the same for any count"));
            }
            t => t.as_ref().map(|t| usize::try_from(*t.get_ref()).unwrap_or(1)),
        };
        Ok(Scenario {
            threads,
            file: self.file.to_path_buf(),
            name,
            world,
            ticks: *f.ticks.get_ref(),
            view_layer_every,
            player,
            encounter_range: *f.encounter_range.get_ref(),
            player_says,
            entity_scripts,
            entity_trees,
            world_scripts,
            data_files,
            map_file: Some(self.dir.join(f.map.get_ref())),
            load_work: self.budget.borrow().spent(),
            load_limits: self.budget.borrow().limits(),
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
        // A map holds at most a cell per byte of its file: charged before the file is read.
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        let what = format!("a map file of {} bytes, cell by cell", grouped(bytes));
        self.charge(cost::map_file(bytes), "map", &what, map)?;
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
        // Each script file is compiled once when the run starts, however many characters use it.
        if self.compiled.borrow_mut().insert(path.clone()) {
            // A file past the size cap is refused when it is read, with that reason.
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len()).min(super::files::MAX_SOURCE_BYTES);
            let what = format!("compiling `{}` ({} bytes)", name.get_ref(), grouped(bytes));
            self.charge(cost::script_file(bytes), "scripts", &what, name)?;
        }
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
