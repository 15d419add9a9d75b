//! The tactical-map and perception package: what the layers of the scenario's `[field]` section
//! say at a point, the best cell for a layer, sight, hearing and smell, and the reports that feed
//! the frag and decision maps.
//!
//! Points are in map units (cell `(x, y)` covers `[x, x+1) × [y, y+1)`, so `PositionOf(Me())`
//! can be passed as it is); cells returned are vec2s of whole cell coordinates, ready for
//! `MoveTo(c.x, c.y)`. Layer names are those of `tactica render --layer list`.

use glam::{IVec2, Vec2};
use tactica_engine::field::TacticalMaps;
use tactica_engine::sense::{Perception, PerceptionSpec};
use tactica_engine::world::{Command, Entity, EventKind};
use tactica_engine::{Table, Value};

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

/// The functions of this package, in the order the API reference lists them.
pub(crate) fn functions() -> Vec<HostFn> {
    let f = |name, params, ret, doc, imp| HostFn { name, params, ret, doc, imp: HostImpl::Fn(imp) };
    let xy = || vec![p("x", Type::Number), p("y", Type::Number)];
    vec![
        f(
            "InfluenceAt",
            vec![p("team", Type::Str), p("x", Type::Number), p("y", Type::Number)],
            Type::Number,
            "A team's summed influence at a point (`InfluenceAt(\"red\", 4, 2)`); the team must be one the `[field]` section lists.",
            influence_at,
        ),
        f(
            "GraphInfluenceAt",
            vec![p("team", Type::Str), p("node", Type::Str)],
            Type::Number,
            "A team's influence at a node of the waypoint graph (`[navigation.graph]`) by name (`GraphInfluenceAt(\"red\", \"bridge\")`): every member of the `[field]` teams stands at the node its routes start from and projects its influence (attributes `influence`, `influence_radius`, `influence_falloff`) along the edges it can walk now, distance measured along them.",
            graph_influence_at,
        ),
        f(
            "LayerAt",
            vec![p("layer", Type::Str), p("x", Type::Number), p("y", Type::Number)],
            Type::Number,
            "Any kept layer's value at a point (`LayerAt(\"tension\", 4, 2)`; names as `tactica render --layer list` prints them).",
            layer_at,
        ),
        f(
            "RadarContacts",
            vec![p("range", Type::Number)],
            Type::Any,
            "Personal radar: every other entity within `range` cells, walls or not, nearest first (ties in key order), as a list of handles (`RadarContacts(12)`).",
            radar_contacts,
        ),
        f(
            "TeamRadar",
            vec![p("range", Type::Number)],
            Type::Any,
            "Team radar: the entities of other teams within `range` cells that some member of the scripted entity's team can see now (the team's shared list of contacts), nearest first.",
            team_radar,
        ),
        f(
            "Touching",
            vec![],
            Type::Any,
            "Touch: the other entities whose bodies overlap the scripted entity's (centres less than one cell apart), nearest first.",
            touching,
        ),
        f(
            "TerritoryAt",
            vec![p("x", Type::Number), p("y", Type::Number)],
            Type::Any,
            "The team whose territory a point lies in — the map flooded from every team member's influence, walls stopping it — or nil where no team reaches (needs `territory` in the `[field]` layers).",
            territory_at,
        ),
        f(
            "BestCell",
            vec![p("layer", Type::Str), p("x", Type::Number), p("y", Type::Number), p("radius", Type::Number)],
            Type::Any,
            "The open cell with the highest value of a layer within `radius` cells of a point that the scripted entity can walk to, as a vec2 of cell coordinates, or nil (`BestCell(\"cover\", me.x, me.y, 6)`); ties go to the first in row-major order.",
            best_cell,
        ),
        f(
            "BestCellIn",
            vec![p("layer", Type::Str), p("region", Type::Str)],
            Type::Any,
            "The open cell with the highest value of a layer inside a named region that the scripted entity can walk to, or nil (`BestCellIn(\"security.blue\", \"yard\")`).",
            best_cell_in,
        ),
        f(
            "CoverAt",
            xy(),
            Type::Number,
            "The share of simulated attacks the walls block at a point, 0–1 (needs `cover` in the layers).",
            cover_at,
        ),
        f(
            "ExposureAt",
            xy(),
            Type::Number,
            "The share of the scripted entity's enemies that can see a point, 0–1 (needs `exposure` in the layers).",
            exposure_at,
        ),
        f(
            "CanSee",
            vec![p("target", Type::Any)],
            Type::Bool,
            "Whether the scripted entity sees another: within its vision range and cone around its heading, with a clear line of sight (`[field.vision]`, attributes `vision_range` and `vision_angle`).",
            can_see,
        ),
        f(
            "IsVisible",
            xy(),
            Type::Bool,
            "Whether the scripted entity sees a point (same rules as `CanSee`).",
            is_visible,
        ),
        f(
            "HeardSounds",
            vec![],
            Type::Any,
            "The sounds of the last tick the scripted entity heard above its threshold, loudest first: a list of maps with `name`, `source` (the maker's name), `x`, `y` and `level` (dB as it arrived, after distance and walls).",
            heard_sounds,
        ),
        f(
            "ScentAt",
            vec![],
            Type::Any,
            "The strongest scent the scripted entity smells where it stands, or nil: a map with `source`, `x`, `y` (the mark's cell), `strength` and `age` (ticks).",
            scent_at,
        ),
        f(
            "RecordFrag",
            vec![p("attacker", Type::Any), p("victim", Type::Any)],
            Type::Nil,
            "Teaches the frag map a kill: after forgetting (× `frag_decay`), +1 where the attacker stands and −1 where the victim does, at the end of the tick.",
            record_frag,
        ),
        f(
            "ReportResource",
            vec![p("x", Type::Number), p("y", Type::Number), p("amount", Type::Number)],
            Type::Nil,
            "Tells the resource map how much is at a cell now (replaces what was known there).",
            report_resource,
        ),
        f(
            "ReportConflict",
            vec![p("x", Type::Number), p("y", Type::Number), p("enemies", Type::Int), p("strength", Type::Number)],
            Type::Nil,
            "Tells the conflict map of a fight at a cell: how many enemies and their destruction potential.",
            report_conflict,
        ),
        f("FieldLayers", vec![], Type::Any, "The names of every layer the scenario keeps, sorted.", field_layers),
    ]
}

fn bad(function: &'static str, index: usize, expected: impl Into<String>, got: String) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.into(), got }
}

fn type_name(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string())
}

fn num_arg(f: &'static str, args: &[Value], i: usize) -> Result<f32, HostError> {
    let v = args.get(i).and_then(Value::as_f64).filter(|v| v.is_finite());
    v.map(|v| v.clamp(-1e9, 1e9) as f32).ok_or_else(|| bad(f, i, "a finite number", type_name(args.get(i))))
}

fn str_arg<'v>(f: &'static str, args: &'v [Value], i: usize) -> Result<&'v str, HostError> {
    args.get(i).and_then(Value::as_str).ok_or_else(|| bad(f, i, "string", type_name(args.get(i))))
}

fn point_arg(f: &'static str, args: &[Value], i: usize) -> Result<Vec2, HostError> {
    Ok(Vec2::new(num_arg(f, args, i)?, num_arg(f, args, i + 1)?))
}

fn entity_arg<'w>(ctx: &ScriptCtx<'w>, f: &'static str, args: &[Value], i: usize) -> Result<&'w Entity, HostError> {
    match args.get(i) {
        Some(Value::Entity(id)) => {
            ctx.world.entity(*id).ok_or_else(|| bad(f, i, "a live entity", "a stale entity handle".to_owned()))
        }
        other => Err(bad(f, i, "entity", type_name(other))),
    }
}

/// The world's tactical maps, or an error naming the missing `[field]` section.
fn maps<'w>(ctx: &ScriptCtx<'w>, f: &'static str) -> Result<&'w TacticalMaps, HostError> {
    ctx.world.tactical().ok_or_else(|| {
        bad(f, 0, "a layer, but this scenario keeps none (add a [field] section)", "a layer name".to_owned())
    })
}

/// Checks a layer name, with a did-you-mean when it is close to one the scenario keeps.
fn layer_name<'a>(maps: &TacticalMaps, f: &'static str, name: &'a str, index: usize) -> Result<&'a str, HostError> {
    if maps.layer(name).is_some() {
        return Ok(name);
    }
    let names = maps.layer_names();
    let close = names.iter().min_by_key(|n| strsim::levenshtein(n, name)).filter(|n| strsim::levenshtein(n, name) <= 3);
    let expected = match close {
        Some(n) => format!("a kept layer (did you mean `{n}`?)"),
        None => format!("a kept layer ({})", names.join(", ")),
    };
    Err(bad(f, index, expected, format!("`{name}`")))
}

fn cell(p: Vec2) -> IVec2 {
    p.floor().as_ivec2()
}

fn cell_value(c: IVec2) -> Value {
    Value::Vec2(c.as_vec2())
}

/// `InfluenceAt(team, x, y)`.
pub fn influence_at(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let m = maps(ctx, "InfluenceAt")?;
    let team = str_arg("InfluenceAt", args, 0)?;
    let at = point_arg("InfluenceAt", args, 1)?;
    let name = format!("influence.{team}");
    if m.team_index(team).is_none() {
        return Err(bad("InfluenceAt", 0, format!("a team of [field] ({})", m.spec().teams.join(", ")), team.into()));
    }
    Ok(Value::Float(f64::from(m.value_at(&name, cell(at)).unwrap_or(0.0))))
}

/// `GraphInfluenceAt(team, node)`.
pub fn graph_influence_at(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    const F: &str = "GraphInfluenceAt";
    let m = maps(ctx, F)?;
    let team = str_arg(F, args, 0)?;
    let node = str_arg(F, args, 1)?;
    if m.team_index(team).is_none() {
        return Err(bad(F, 0, format!("a team of [field] ({})", m.spec().teams.join(", ")), team.into()));
    }
    let Some((_, names)) = ctx.world.nav().waypoint_graph() else {
        return Err(bad(F, 1, "a waypoint node, but this scenario declares no [navigation.graph]", node.into()));
    };
    let Some(index) = names.iter().position(|n| n == node) else {
        let hint = crate::names::suggest(node, names.iter().map(String::as_str))
            .map_or_else(|| names.join(", "), |s| format!("did you mean `{s}`?"));
        return Err(bad(F, 1, format!("a waypoint node ({hint})"), format!("`{node}`")));
    };
    Ok(Value::Float(f64::from(m.graph_influence(team, index).unwrap_or(0.0))))
}

/// `LayerAt(layer, x, y)`.
pub fn layer_at(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let m = maps(ctx, "LayerAt")?;
    let name = layer_name(m, "LayerAt", str_arg("LayerAt", args, 0)?, 0)?;
    let at = point_arg("LayerAt", args, 1)?;
    Ok(Value::Float(f64::from(m.value_at(name, cell(at)).unwrap_or(0.0))))
}

/// `BestCell(layer, x, y, radius)`.
pub fn best_cell(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let m = maps(ctx, "BestCell")?;
    let name = layer_name(m, "BestCell", str_arg("BestCell", args, 0)?, 0)?;
    let at = point_arg("BestCell", args, 1)?;
    let radius = num_arg("BestCell", args, 3)?.clamp(0.0, 256.0);
    let walker = ctx.me().map(Entity::cell);
    Ok(m.best_near(ctx.world, name, cell(at), radius, walker).map_or(Value::Nil, |(c, _)| cell_value(c)))
}

/// `BestCellIn(layer, region)`.
pub fn best_cell_in(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let m = maps(ctx, "BestCellIn")?;
    let name = layer_name(m, "BestCellIn", str_arg("BestCellIn", args, 0)?, 0)?;
    let region_name = str_arg("BestCellIn", args, 1)?;
    let region = ctx.world.region(region_name).ok_or_else(|| {
        let names: Vec<&str> = ctx.world.regions().keys().map(String::as_str).collect();
        bad("BestCellIn", 1, format!("a region ({})", names.join(", ")), format!("`{region_name}`"))
    })?;
    let walker = ctx.me().map(Entity::cell);
    Ok(m.best_in(ctx.world, name, region.min, region.max, walker).map_or(Value::Nil, |(c, _)| cell_value(c)))
}

/// `TerritoryAt(x, y)`.
pub fn territory_at(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let m = maps(ctx, "TerritoryAt")?;
    layer_name(m, "TerritoryAt", "territory", 0)?;
    let at = point_arg("TerritoryAt", args, 0)?;
    Ok(m.territory_at(cell(at)).map_or(Value::Nil, Value::from))
}

/// `CoverAt(x, y)`.
pub fn cover_at(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let m = maps(ctx, "CoverAt")?;
    let name = layer_name(m, "CoverAt", "cover", 0)?;
    let at = point_arg("CoverAt", args, 0)?;
    Ok(Value::Float(f64::from(m.value_at(name, cell(at)).unwrap_or(0.0))))
}

/// `ExposureAt(x, y)`.
pub fn exposure_at(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let m = maps(ctx, "ExposureAt")?;
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let name = format!("exposure.{}", me.team);
    let name = layer_name(m, "ExposureAt", &name, 0)?;
    let at = point_arg("ExposureAt", args, 0)?;
    Ok(Value::Float(f64::from(m.value_at(name, cell(at)).unwrap_or(0.0))))
}

/// The senses: the scenario's, or the defaults when it declares none.
fn senses<'w>(ctx: &ScriptCtx<'w>) -> std::borrow::Cow<'w, Perception> {
    match ctx.world.tactical() {
        Some(m) => std::borrow::Cow::Borrowed(m.perception()),
        None => std::borrow::Cow::Owned(Perception::new(PerceptionSpec::default())),
    }
}

/// `CanSee(target)`.
pub fn can_see(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let target = entity_arg(ctx, "CanSee", args, 0)?;
    Ok(Value::Bool(senses(ctx).can_see(ctx.world, me, target.position)))
}

/// `IsVisible(x, y)`.
pub fn is_visible(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let at = point_arg("IsVisible", args, 0)?;
    Ok(Value::Bool(senses(ctx).can_see(ctx.world, me, at)))
}

/// Other entities passing `keep`, nearest first (ties in key order), as handles.
fn nearest_first(ctx: &ScriptCtx<'_>, keep: impl Fn(&Entity, f32) -> bool) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let mut found: Vec<(f32, tactica_engine::world::EntityId)> = ctx
        .world
        .entities()
        .filter(|&(id, e)| id != ctx.me && keep(e, e.position.distance(me.position)))
        .map(|(id, e)| (e.position.distance(me.position), id))
        .collect();
    // A stable sort keeps key order among equal distances.
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(Value::List(found.into_iter().map(|(_, id)| Value::Entity(id)).collect()))
}

/// `RadarContacts(range)`.
pub fn radar_contacts(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let range = num_arg("RadarContacts", args, 0)?.max(0.0);
    nearest_first(ctx, |_, d| d <= range)
}

/// `TeamRadar(range)`.
pub fn team_radar(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let range = num_arg("TeamRadar", args, 0)?.max(0.0);
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let team = me.team.clone();
    let senses = senses(ctx);
    let mates: Vec<&Entity> =
        ctx.world.entities().filter(|(_, e)| !team.is_empty() && e.team == team).map(|(_, e)| e).collect();
    let seen = |e: &Entity| mates.iter().any(|m| senses.can_see(ctx.world, m, e.position));
    nearest_first(ctx, |e, d| d <= range && (team.is_empty() || e.team != team) && seen(e))
}

/// `Touching()`.
pub fn touching(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    nearest_first(ctx, |_, d| d < 1.0)
}

/// `HeardSounds()`.
pub fn heard_sounds(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let heard = senses(ctx).heard_by(ctx.world, me);
    let list = heard
        .into_iter()
        .map(|h| {
            let mut m = Table::new();
            m.insert("name".into(), Value::Str(h.name));
            m.insert("source".into(), Value::Str(h.source));
            m.insert("x".into(), Value::Float(f64::from(h.position.x)));
            m.insert("y".into(), Value::Float(f64::from(h.position.y)));
            m.insert("level".into(), Value::Float(f64::from(h.level)));
            Value::Map(m)
        })
        .collect();
    Ok(Value::List(list))
}

/// `ScentAt()`.
pub fn scent_at(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let Some(s) = senses(ctx).smell_at(ctx.world, me.position, Some(ctx.me)) else { return Ok(Value::Nil) };
    let mut m = Table::new();
    m.insert("source".into(), Value::Str(s.source));
    m.insert("x".into(), Value::Int(i64::from(s.cell.x)));
    m.insert("y".into(), Value::Int(i64::from(s.cell.y)));
    m.insert("strength".into(), Value::Float(f64::from(s.strength)));
    m.insert("age".into(), Value::Int(s.age as i64));
    Ok(Value::Map(m))
}

fn cell_list(c: IVec2) -> Value {
    Value::List(vec![Value::Int(i64::from(c.x)), Value::Int(i64::from(c.y))])
}

/// Emits the `note` event the tactical maps learn from at the end of the tick.
fn report(ctx: &mut ScriptCtx<'_>, name: &str, pairs: Vec<(&str, Value)>) {
    let value = Value::Map(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect());
    let entity = ctx.me().map(|_| ctx.me);
    ctx.commands.push(Command::Emit { entity, event: EventKind::Note { name: name.to_owned(), value } });
}

/// `RecordFrag(attacker, victim)`.
pub fn record_frag(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let a = entity_arg(ctx, "RecordFrag", args, 0)?.cell();
    let v = entity_arg(ctx, "RecordFrag", args, 1)?.cell();
    report(ctx, "frag", vec![("attacker", cell_list(a)), ("victim", cell_list(v))]);
    Ok(Value::Nil)
}

/// `ReportResource(x, y, amount)`.
pub fn report_resource(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let at = cell(point_arg("ReportResource", args, 0)?);
    let amount = num_arg("ReportResource", args, 2)?;
    report(ctx, "resource", vec![("cell", cell_list(at)), ("amount", Value::Float(f64::from(amount)))]);
    Ok(Value::Nil)
}

/// `ReportConflict(x, y, enemies, strength)`.
pub fn report_conflict(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let at = cell(point_arg("ReportConflict", args, 0)?);
    let enemies = num_arg("ReportConflict", args, 2)?.max(0.0).floor();
    let strength = num_arg("ReportConflict", args, 3)?;
    let pairs = vec![
        ("cell", cell_list(at)),
        ("enemies", Value::Int(enemies as i64)),
        ("strength", Value::Float(f64::from(strength))),
    ];
    report(ctx, "conflict", pairs);
    Ok(Value::Nil)
}

/// `FieldLayers()`.
pub fn field_layers(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let names = ctx.world.tactical().map(TacticalMaps::layer_names).unwrap_or_default();
    Ok(Value::List(names.into_iter().map(Value::Str).collect()))
}
