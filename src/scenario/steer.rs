//! The `[steering]` section of a scenario: flocks, formations, patterns and pursuers, checked and
//! installed into the world's [`Steering`](tactica_engine::steer::Steering).
//!
//! ```toml
//! [steering.flocks.birds]
//! kind = "bird"            # or members = ["b1", "b2"]
//! view = "wide"            # wide | limited | narrow | none
//! length = 0.5             # body length; radii and distances below are in body lengths
//! leaders_chase = "guide"  # leaders chase (or intercept) this entity
//!
//! [steering.formations.squad]
//! captain = "sarge"
//! members = ["a", "b", "c"]
//! shape = "pyramid"        # pyramid | line
//! path = [[6, 6], "gate"]
//!
//! [steering.patterns.square]
//! base = "patrol"          # patrol | zigzag, distances times `scale`
//! scale = 0.025
//!
//! [[steering.agents]]
//! entity = "wolf"
//! chase = "deer"           # exactly one of chase, evade, intercept, pattern, potential, tile_chase,
//!                          # trace_toward, follow_trail, tile_route, trace_walls
//!
//! [steering.tile_routes]
//! round = [[0, 0], [6, 0], [6, 4], [0, 0]]   # corners, relative to the first; last = first: a loop
//!
//! [steering.tile_steps]
//! square = [{ forward = 3 }, { turn_right = 2 }]   # cells and 45° steps (turn_right: +x → −y)
//!
//! [steering.tile_grids]
//! lanes = [[[2, 2], [12, 2]], [[7, 0], [7, 8]]]  # segments a `tile_wander` agent may walk
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use glam::{IVec2, Vec2};
use serde::Deserialize;
use tactica_engine::steer::{
    FlockParams, FlockSpec, FormationSpec, PATROL_PATTERN, PatternSpec, PatternStep, Shape, SteerOrder, StepControl,
    ViewParams, ZIGZAG_PATTERN, view_mode,
};
use tactica_engine::world::{EntityId, World};
use toml::Spanned;

use super::error::{ScenarioError, SourcePos};
use super::file::Position;
use super::load::with_suggestion;

/// The `[steering]` section.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SteeringSection {
    /// Flocks by name.
    #[serde(default)]
    pub flocks: BTreeMap<String, Spanned<FlockEntry>>,
    /// Formations by name.
    #[serde(default)]
    pub formations: BTreeMap<String, Spanned<FormationEntry>>,
    /// Patterns by name (`patrol` and `zigzag` exist at the book's scale).
    #[serde(default)]
    pub patterns: BTreeMap<String, Spanned<PatternEntry>>,
    /// Tile routes by name: their corners, relative to the first.
    #[serde(default)]
    pub tile_routes: BTreeMap<String, Spanned<Vec<[i32; 2]>>>,
    /// Pattern grids by name: the segments whose cells are marked, in map cells.
    #[serde(default)]
    pub tile_grids: BTreeMap<String, Spanned<Vec<[[i32; 2]; 2]>>>,
    /// Control-data arrays on tiles by name: `{ forward = cells }`, `{ turn_right = 45° steps }`.
    #[serde(default)]
    pub tile_steps: BTreeMap<String, Spanned<Vec<Spanned<StepEntry>>>>,
    /// Entities that chase, evade, intercept or fly a pattern from tick 0.
    #[serde(default)]
    pub agents: Vec<Spanned<AgentEntry>>,
}

/// One flock. Defaults are [`FlockParams::default`]'s.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlockEntry {
    /// Members by entity name.
    #[serde(default)]
    pub members: Vec<Spanned<String>>,
    /// Every entity of this kind is a member too.
    #[serde(default)]
    pub kind: Option<String>,
    /// Field of view for cohesion and alignment: `wide`, `limited`, `narrow` or `none`.
    #[serde(default)]
    pub view: Option<Spanned<String>>,
    /// View radius in body lengths (all three fields of view).
    #[serde(default)]
    pub view_radius: Option<f32>,
    /// Steering force of cohesion.
    #[serde(default)]
    pub cohesion: Option<f32>,
    /// Steering force of alignment.
    #[serde(default)]
    pub alignment: Option<f32>,
    /// Steering force of separation.
    #[serde(default)]
    pub separation: Option<f32>,
    /// Separation distance in body lengths.
    #[serde(default)]
    pub separation_distance: Option<f32>,
    /// Body length in map units.
    #[serde(default)]
    pub length: Option<f32>,
    /// Turn rate at full force, radians per second.
    #[serde(default)]
    pub turn_rate: Option<f32>,
    /// Whether feelers see the map's walls (default true).
    #[serde(default)]
    pub avoid_walls: Option<bool>,
    /// Feeler length in body lengths.
    #[serde(default)]
    pub feeler_length: Option<f32>,
    /// Steering weight that turns a part of the flock that has lost the rest back to it (0: off).
    #[serde(default)]
    pub regroup: Option<f32>,
    /// How near, in body lengths, members must be to count as one part when regrouping.
    #[serde(default)]
    pub regroup_link: Option<f32>,
    /// While a part is apart, the rest of the flock flies at most this fraction of top speed.
    #[serde(default)]
    pub regroup_wait: Option<f32>,
    /// Leaders (units with nobody ahead) chase this entity.
    #[serde(default)]
    pub leaders_chase: Option<Spanned<String>>,
    /// Leaders intercept rather than chase.
    #[serde(default)]
    pub leaders_intercept: bool,
}

/// One formation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationEntry {
    /// The captain's entity name.
    pub captain: Spanned<String>,
    /// Members in slot order.
    #[serde(default)]
    pub members: Vec<Spanned<String>>,
    /// `pyramid` (default) or `line`.
    #[serde(default)]
    pub shape: Option<Spanned<String>>,
    /// Slot spacing in map units (default 1.5).
    #[serde(default)]
    pub spacing: Option<f32>,
    /// The captain's throttle, 0–1 (default 0.6): members need speed to spare in turns.
    #[serde(default)]
    pub captain_throttle: Option<f32>,
    /// The captain's waypoints: cells or places.
    #[serde(default)]
    pub path: Vec<Spanned<Position>>,
    /// How near a waypoint counts as reached (default 3).
    #[serde(default)]
    pub waypoint_radius: Option<f32>,
}

/// One pattern: a book pattern scaled, or explicit steps.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternEntry {
    /// `patrol` or `zigzag` (002a Ex. 3-16, 3-17).
    #[serde(default)]
    pub base: Option<Spanned<String>>,
    /// Multiplies the base pattern's distances (the book's are in its own units: 200 per leg).
    #[serde(default)]
    pub scale: Option<f32>,
    /// Explicit steps instead of a base.
    #[serde(default)]
    pub steps: Vec<Spanned<StepEntry>>,
}

/// One pattern step: `{ forward = 5 }`, `{ turn_right = 90 }` or `{ turn_left = 60 }`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StepEntry {
    /// Straight on for this distance.
    Forward(f32),
    /// Turn right (local +x, the book's port thruster) through these degrees.
    TurnRight(f32),
    /// Turn left through these degrees.
    TurnLeft(f32),
}

/// One steered entity.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentEntry {
    /// The entity.
    pub entity: Spanned<String>,
    /// Chase this entity.
    #[serde(default)]
    pub chase: Option<Spanned<String>>,
    /// Evade this entity.
    #[serde(default)]
    pub evade: Option<Spanned<String>>,
    /// Intercept this entity.
    #[serde(default)]
    pub intercept: Option<Spanned<String>>,
    /// Fly this pattern.
    #[serde(default)]
    pub pattern: Option<Spanned<String>>,
    /// Move toward this entity under the Lennard-Jones potentials.
    #[serde(default)]
    pub potential: Option<Spanned<String>>,
    /// Chase this entity tile by tile along the book's line.
    #[serde(default)]
    pub tile_chase: Option<Spanned<String>>,
    /// Head for this entity, tracing round obstacles.
    #[serde(default)]
    pub trace_toward: Option<Spanned<String>>,
    /// Follow this entity's breadcrumbs.
    #[serde(default)]
    pub follow_trail: Option<Spanned<String>>,
    /// Explore by following walls (`trace_walls = true`).
    #[serde(default)]
    pub trace_walls: Option<Spanned<bool>>,
    /// Walk this tile route.
    #[serde(default)]
    pub tile_route: Option<Spanned<String>>,
    /// Wander this pattern grid.
    #[serde(default)]
    pub tile_wander: Option<Spanned<String>>,
    /// Run this control-data array on tiles.
    #[serde(default)]
    pub tile_steps: Option<Spanned<String>>,
}

struct Ctx<'a> {
    text: &'a str,
    file: &'a Path,
}

impl Ctx<'_> {
    fn err<T>(&self, at: &Spanned<T>, message: impl Into<String>) -> ScenarioError {
        ScenarioError::new(self.file, SourcePos::of(self.text, at.span().start), message)
    }

    fn entity(&self, world: &World, name: &Spanned<String>) -> Result<EntityId, ScenarioError> {
        world.find(name.get_ref()).ok_or_else(|| {
            let names: Vec<&str> = world.entities().map(|(_, e)| e.name.as_str()).collect();
            with_suggestion(self.err(name, format!("no entity is named `{}`", name.get_ref())), name.get_ref(), &names)
        })
    }

    fn choice<T>(&self, at: &Spanned<String>, what: &str, options: &[(&str, T)]) -> Result<T, ScenarioError>
    where
        T: Copy,
    {
        let word = at.get_ref().as_str();
        options.iter().find(|(n, _)| *n == word).map(|(_, v)| *v).ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            with_suggestion(self.err(at, format!("unknown {what} `{word}`")), word, &names)
        })
    }

    fn positive<T>(&self, at: &Spanned<T>, what: &str, v: Option<f32>, default: f32) -> Result<f32, ScenarioError> {
        let v = v.unwrap_or(default);
        if v.is_finite() && v > 0.0 {
            Ok(v)
        } else {
            Err(self.err(at, format!("{what} must be a positive number, not {v}")))
        }
    }
}

/// Checks the section and installs it: patterns, flocks (and their members), formations (captain
/// and members in slot order), then the single agents. Names, shapes, views and patterns that do
/// not exist are errors at their line and column, with a did-you-mean hint.
pub(super) fn install(
    section: &SteeringSection,
    world: &mut World,
    budget: &mut super::budget::Budget<'_>,
    text: &str,
    file: &Path,
) -> Result<(), ScenarioError> {
    let cx = Ctx { text, file };
    for (name, entry) in &section.patterns {
        let spec = pattern(&cx, entry)?;
        world.steering_mut().add_pattern(name.clone(), spec);
    }
    for (name, segments) in &section.tile_grids {
        if segments.get_ref().is_empty() {
            return Err(cx
                .err(segments, format!("tile grid `{name}` marks no cells"))
                .hint("write `[[[x0, y0], [x1, y1]], …]`, the segments whose cells a wanderer may enter"));
        }
        let lines: Vec<(IVec2, IVec2)> =
            segments.get_ref().iter().map(|[a, b]| (IVec2::from_array(*a), IVec2::from_array(*b))).collect();
        if let Some(c) = lines.iter().flat_map(|&(a, b)| [a, b]).find(|&c| !world.map().contains(c)) {
            return Err(cx
                .err(segments, format!("tile grid `{name}`: ({}, {}) is off the map", c.x, c.y))
                .hint("a pattern grid's segments run between cells of the map"));
        }
        // Each grid covers the whole map; its segments are drawn cell by cell.
        let longest = lines.iter().map(|&(a, b)| u64::from((a - b).abs().max_element().unsigned_abs()) + 1).max();
        let units = super::cost::tile_grid(world.map(), lines.len() as u64, longest.unwrap_or(0));
        let what = format!("tile grid `{name}`: a pattern grid over the whole map");
        budget.charge(units, &format!("[steering.tile_grids] {name}"), &what, || {
            (file.to_path_buf(), super::error::SourcePos::of(text, segments.span().start))
        })?;
        let (w, h) = (world.map().width(), world.map().height());
        world.steering_mut().add_tile_grid(name.clone(), w, h, &lines);
    }
    for (name, steps) in &section.tile_steps {
        if steps.get_ref().is_empty() {
            return Err(cx
                .err(steps, format!("tile steps `{name}` have no entries"))
                .hint("write `[{ forward = 3 }, { turn_right = 2 }, …]`"));
        }
        let mut controls = Vec::new();
        for step in steps.get_ref() {
            let (v, control) = match *step.get_ref() {
                StepEntry::Forward(n) => (n, StepControl { step_forward: n, ..StepControl::default() }),
                StepEntry::TurnRight(n) => (n, StepControl { turn_right: n, ..StepControl::default() }),
                StepEntry::TurnLeft(n) => (n, StepControl { turn_left: n, ..StepControl::default() }),
            };
            if !(v.fract() == 0.0 && (0.0..=1000.0).contains(&v)) {
                return Err(cx
                    .err(step, format!("tile steps `{name}`: {v} is not a whole number from 0 to 1000"))
                    .hint("on tiles a move is whole cells and a turn whole 45° steps"));
            }
            controls.push(control);
        }
        world.steering_mut().add_tile_steps(name.clone(), controls);
    }
    for (name, corners) in &section.tile_routes {
        let cells: Vec<IVec2> = corners.get_ref().iter().map(|&c| IVec2::from_array(c)).collect();
        if cells.is_empty() {
            return Err(cx
                .err(corners, format!("tile route `{name}` has no corners"))
                .hint("write `[[0, 0], [4, 0], …]`"));
        }
        world
            .steering_mut()
            .add_tile_route(name.clone(), &cells)
            .map_err(|e| cx.err(corners, format!("tile route `{name}`: {e}")).hint("split it into shorter routes"))?;
    }
    for (name, entry) in &section.flocks {
        let (spec, members) = flock(&cx, world, entry)?;
        world.steering_mut().add_flock(name.clone(), spec);
        for id in members {
            world.steer(id, SteerOrder::JoinFlock(name.clone())).map_err(|e| cx.err(entry, e.to_string()))?;
        }
    }
    for (name, entry) in &section.formations {
        let f = entry.get_ref();
        let captain = cx.entity(world, &f.captain)?;
        let shape = match &f.shape {
            Some(s) => cx.choice(s, "shape", &[("pyramid", Shape::Pyramid), ("line", Shape::Line)])?,
            None => Shape::Pyramid,
        };
        let throttle = f.captain_throttle.unwrap_or(0.6);
        if !(throttle > 0.0 && throttle <= 1.0) {
            return Err(cx.err(entry, format!("captain_throttle must be in (0, 1], not {throttle}")));
        }
        let mut path = Vec::with_capacity(f.path.len());
        for p in &f.path {
            path.push(point(&cx, world, p)?);
        }
        let spec = FormationSpec {
            shape,
            spacing: cx.positive(entry, "spacing", f.spacing, 1.5)?,
            captain_throttle: throttle,
            path,
            waypoint_radius: cx.positive(entry, "waypoint_radius", f.waypoint_radius, 3.0)?,
        };
        world.steering_mut().add_formation(name.clone(), spec, captain);
        for (slot, m) in f.members.iter().enumerate() {
            let id = cx.entity(world, m)?;
            world.steer(id, SteerOrder::FormUp { captain, slot }).map_err(|e| cx.err(m, e.to_string()))?;
        }
    }
    for entry in &section.agents {
        let a = entry.get_ref();
        let id = cx.entity(world, &a.entity)?;
        let given: Vec<(&str, &Spanned<String>)> = [
            ("chase", &a.chase),
            ("evade", &a.evade),
            ("intercept", &a.intercept),
            ("pattern", &a.pattern),
            ("potential", &a.potential),
            ("tile_chase", &a.tile_chase),
            ("trace_toward", &a.trace_toward),
            ("follow_trail", &a.follow_trail),
            ("tile_route", &a.tile_route),
            ("tile_wander", &a.tile_wander),
            ("tile_steps", &a.tile_steps),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
        if let Some(walls) = &a.trace_walls {
            if !given.is_empty() || !*walls.get_ref() {
                return Err(cx.err(walls, "`trace_walls = true` is an agent's one behaviour; write it alone"));
            }
            world.steer(id, SteerOrder::TraceWalls).map_err(|e| cx.err(walls, e.to_string()))?;
            continue;
        }
        let [(key, arg)] = given[..] else {
            return Err(cx.err(
                entry,
                "an agent needs exactly one of `chase`, `evade`, `intercept`, `pattern`, `potential`, `tile_chase`, `trace_toward`, `follow_trail`, `tile_route`, `tile_wander`, `tile_steps` or `trace_walls`",
            ));
        };
        let order = match key {
            "pattern" => {
                if !world.steering().has_pattern(arg.get_ref()) {
                    let mut names = vec!["patrol", "zigzag"];
                    names.extend(section.patterns.keys().map(String::as_str));
                    let message = format!("no pattern is named `{}`", arg.get_ref());
                    return Err(with_suggestion(cx.err(arg, message), arg.get_ref(), &names));
                }
                SteerOrder::RunPattern(arg.get_ref().clone())
            }
            "chase" => SteerOrder::Chase(cx.entity(world, arg)?),
            "evade" => SteerOrder::Evade(cx.entity(world, arg)?),
            "potential" => SteerOrder::Potential(cx.entity(world, arg)?),
            "tile_chase" => SteerOrder::TileChase(cx.entity(world, arg)?),
            "trace_toward" => SteerOrder::TraceToward(cx.entity(world, arg)?),
            "follow_trail" => SteerOrder::FollowTrail(cx.entity(world, arg)?),
            "tile_route" => {
                if !world.steering().has_tile_route(arg.get_ref()) {
                    let names: Vec<&str> = section.tile_routes.keys().map(String::as_str).collect();
                    let message = format!("no tile route is named `{}`", arg.get_ref());
                    return Err(with_suggestion(
                        cx.err(arg, message).hint("declare it under [steering.tile_routes]"),
                        arg.get_ref(),
                        &names,
                    ));
                }
                SteerOrder::RunTileRoute(arg.get_ref().clone())
            }
            "tile_wander" => {
                if !world.steering().has_tile_grid(arg.get_ref()) {
                    let names: Vec<&str> = section.tile_grids.keys().map(String::as_str).collect();
                    let message = format!("no tile grid is named `{}`", arg.get_ref());
                    return Err(with_suggestion(
                        cx.err(arg, message).hint("declare it under [steering.tile_grids]"),
                        arg.get_ref(),
                        &names,
                    ));
                }
                SteerOrder::WanderTileGrid(arg.get_ref().clone())
            }
            "tile_steps" => {
                if !world.steering().has_tile_steps(arg.get_ref()) {
                    let names: Vec<&str> = section.tile_steps.keys().map(String::as_str).collect();
                    let message = format!("no tile steps are named `{}`", arg.get_ref());
                    return Err(with_suggestion(
                        cx.err(arg, message).hint("declare them under [steering.tile_steps]"),
                        arg.get_ref(),
                        &names,
                    ));
                }
                SteerOrder::RunTileSteps(arg.get_ref().clone())
            }
            _ => SteerOrder::Intercept(cx.entity(world, arg)?),
        };
        world.steer(id, order).map_err(|e| cx.err(arg, e.to_string()))?;
    }
    Ok(())
}

fn point(cx: &Ctx<'_>, world: &World, p: &Spanned<Position>) -> Result<Vec2, ScenarioError> {
    let cell = match p.get_ref() {
        Position::Cell(c) => IVec2::from_array(*c),
        Position::Place(name) => match world.place(name) {
            Some(at) => at.floor().as_ivec2(),
            None => {
                let names: Vec<&str> = world.places().keys().map(String::as_str).collect();
                return Err(with_suggestion(cx.err(p, format!("no place is named `{name}`")), name, &names));
            }
        },
    };
    if !world.map().passable(cell) {
        return Err(cx.err(p, format!("waypoint ({}, {}) is off the map or in a wall", cell.x, cell.y)));
    }
    Ok(cell.as_vec2() + Vec2::splat(0.5))
}

fn flock(
    cx: &Ctx<'_>,
    world: &World,
    entry: &Spanned<FlockEntry>,
) -> Result<(FlockSpec, Vec<EntityId>), ScenarioError> {
    let f = entry.get_ref();
    let d = FlockParams::default();
    let view = match &f.view {
        Some(v) if v.get_ref() == "none" => None,
        Some(v) => Some(view_mode(v.get_ref()).ok_or_else(|| {
            let message = format!("unknown view `{}`", v.get_ref());
            with_suggestion(cx.err(v, message), v.get_ref(), &["wide", "limited", "narrow", "none"])
        })?),
        None => d.view,
    };
    let r = cx.positive(entry, "view_radius", f.view_radius, d.view_params.wide_radius)?;
    let mut params = FlockParams {
        view,
        view_params: ViewParams { wide_radius: r, limited_radius: r, narrow_radius: r * 0.75, ..d.view_params },
        separation_factor: cx.positive(entry, "separation_distance", f.separation_distance, d.separation_factor)?,
        cohesion: f.cohesion.unwrap_or(d.cohesion),
        alignment: f.alignment.unwrap_or(d.alignment),
        separation: f.separation.unwrap_or(d.separation),
        leader_force: if f.leaders_chase.is_some() { 1.0 } else { 0.0 },
        regroup: f.regroup.unwrap_or(d.regroup),
        regroup_link: cx.positive(entry, "regroup_link", f.regroup_link, d.regroup_link)?,
        regroup_wait: cx.positive(entry, "regroup_wait", f.regroup_wait, d.regroup_wait)?,
        ..d
    };
    if params.regroup_wait > 1.0 {
        let wait = params.regroup_wait;
        return Err(cx.err(entry, format!("regroup_wait is a fraction of top speed, at most 1, not {wait}")));
    }
    params.feeler.visibility_factor =
        cx.positive(entry, "feeler_length", f.feeler_length, d.feeler.visibility_factor)?;
    let length = cx.positive(entry, "length", f.length, 1.0)?;
    // The default clearance (1 unit) is sized for body length 1; keep it proportional.
    params.feeler.clearance = d.feeler.clearance * length;
    if ![params.cohesion, params.alignment, params.separation, params.regroup].iter().all(|w| w.is_finite()) {
        return Err(cx.err(entry, "flock weights must be finite numbers"));
    }
    let quarry = match &f.leaders_chase {
        Some(q) => Some(cx.entity(world, q)?),
        None => None,
    };
    let mut members = Vec::new();
    for m in &f.members {
        members.push(cx.entity(world, m)?);
    }
    if let Some(kind) = &f.kind {
        members.extend(world.entities().filter(|(_, e)| &e.kind == kind).map(|(id, _)| id));
    }
    members.sort();
    members.dedup();
    if members.is_empty() {
        return Err(cx.err(entry, "a flock needs `members` or a `kind` that some entity has"));
    }
    let spec = FlockSpec {
        params,
        length,
        turn_rate: cx.positive(entry, "turn_rate", f.turn_rate, 3.0)?,
        avoid_walls: f.avoid_walls.unwrap_or(true),
        quarry,
        intercept: f.leaders_intercept,
    };
    Ok((spec, members))
}

fn pattern(cx: &Ctx<'_>, entry: &Spanned<PatternEntry>) -> Result<PatternSpec, ScenarioError> {
    let p = entry.get_ref();
    let scale = cx.positive(entry, "scale", p.scale, 1.0)?;
    let steps: Vec<PatternStep> = match (&p.base, p.steps.is_empty()) {
        (Some(base), true) => {
            let book: &[PatternStep] =
                cx.choice(base, "pattern base", &[("patrol", &PATROL_PATTERN[..]), ("zigzag", &ZIGZAG_PATTERN[..])])?;
            book.iter().map(|s| PatternStep { position_limit: s.position_limit * scale, ..*s }).collect()
        }
        (None, false) => {
            let mut out = Vec::new();
            for s in &p.steps {
                let step = match *s.get_ref() {
                    StepEntry::Forward(d) => PatternStep::forward(d * scale),
                    StepEntry::TurnRight(a) => PatternStep::turn(true, a),
                    StepEntry::TurnLeft(a) => PatternStep::turn(false, a),
                };
                let limit = if step.limit_heading { step.heading_limit } else { step.position_limit };
                if !(limit.is_finite() && limit > 0.0) {
                    return Err(cx.err(s, "a pattern step needs a positive distance or angle"));
                }
                out.push(step);
            }
            out
        }
        _ => return Err(cx.err(entry, "a pattern needs either `base` or `steps`, not both")),
    };
    Ok(PatternSpec { steps })
}
