//! `[[crowd]]`: many characters from one description — how many, which scripts, where (random
//! open cells of the map or of a region, drawn from the seed), squads of N that signal and wait
//! together, and thinks staggered over the think interval so a crowd does not all think on one
//! tick. `docs/scenario.md`, "Crowds".

use std::collections::BTreeSet;
use std::path::PathBuf;

use glam::IVec2;
use serde::Deserialize;
use tactica_engine::Table;
use tactica_engine::world::{Entity, World, WorldRng};
use toml::Spanned;

use super::error::{ScenarioError, SourcePos};
use super::load::{EntityScripts, with_suggestion};

/// The most characters one `[[crowd]]` may hold (a bound for a scenario someone downloaded).
pub const MAX_CROWD: u32 = 100_000;

/// One `[[crowd]]` block as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrowdSpec {
    /// The members' names: `NAME-1` … `NAME-N` (a crowd of one is named `NAME`).
    pub name: Spanned<String>,
    /// How many characters.
    pub count: Spanned<u32>,
    /// What they are.
    pub kind: String,
    /// Their side.
    #[serde(default)]
    pub team: String,
    /// Squads of this many members (`NAME-squad-1`, …); the first of each is tagged `leader`
    /// and has the attribute `leader = true`.
    #[serde(default)]
    pub squad_size: Option<Spanned<u32>>,
    /// Where they stand: random open cells of this region (default: of the whole map).
    #[serde(default)]
    pub region: Option<Spanned<String>>,
    /// The placement's own seed (default: the scenario's `seed`).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Top speed in cells per second.
    #[serde(default = "default_speed")]
    pub speed: Spanned<f32>,
    /// Attributes at spawn.
    #[serde(default)]
    pub attributes: Table,
    /// Labels, on every member.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Script files, attached to every member (compiled once).
    #[serde(default)]
    pub scripts: Vec<Spanned<String>>,
    /// Behaviour scripts think every this many ticks.
    #[serde(default = "default_think")]
    pub think_every: Spanned<u32>,
    /// Spread the members' thinks over the interval (member i thinks on ticks ≡ i mod
    /// `think_every`); `false` makes them all think on the same ticks.
    #[serde(default = "default_stagger")]
    pub stagger: bool,
}

fn default_speed() -> Spanned<f32> {
    Spanned::new(0..0, 1.0)
}
fn default_think() -> Spanned<u32> {
    Spanned::new(0..0, 1)
}
fn default_stagger() -> bool {
    true
}

/// Where the builder reports: the scenario text and file.
pub(super) struct Place<'a> {
    pub text: &'a str,
    pub file: &'a std::path::Path,
}

impl Place<'_> {
    fn err<T>(&self, spanned: &Spanned<T>, outer: &Spanned<CrowdSpec>, message: impl Into<String>) -> ScenarioError {
        // Defaults have an empty span: point at the block instead.
        let span = if spanned.span().is_empty() { outer.span() } else { spanned.span() };
        ScenarioError::new(self.file, SourcePos::of(self.text, span.start), message)
    }
}

/// Spawns every crowd's members into `world` and returns their scripts. `scripts` resolves and
/// checks a script name (as for `[[entities]]`); `seed` is the scenario's; `charge` charges a
/// crowd's load-time work to the load budget at its `count` before it is placed.
pub(super) fn spawn(
    crowds: &[Spanned<CrowdSpec>],
    world: &mut World,
    seed: u64,
    at: &Place<'_>,
    mut charge: impl FnMut(u64, &str, &Spanned<u32>) -> Result<(), ScenarioError>,
    mut script: impl FnMut(&Spanned<String>) -> Result<PathBuf, ScenarioError>,
) -> Result<Vec<EntityScripts>, ScenarioError> {
    let mut out = Vec::new();
    // Cells taken by the scenario's own entities and by earlier crowds.
    let mut taken: BTreeSet<(i32, i32)> = world.entities().map(|(_, e)| (e.cell().y, e.cell().x)).collect();
    for (n, spanned) in crowds.iter().enumerate() {
        let c = spanned.get_ref();
        let count = *c.count.get_ref();
        if count == 0 || count > MAX_CROWD {
            return Err(at
                .err(&c.count, spanned, format!("a crowd's count must be 1 to {MAX_CROWD}, not {count}"))
                .hint("count is how many characters the block stands for"));
        }
        let think_every = *c.think_every.get_ref();
        if think_every == 0 {
            return Err(at
                .err(&c.think_every, spanned, "think_every = 0: it must be 1 or more")
                .hint("think_every = 1 thinks every tick, 2 every other tick, and so on"));
        }
        let speed = *c.speed.get_ref();
        if !(speed.is_finite() && speed >= 0.0) {
            return Err(at.err(&c.speed, spanned, format!("a speed of {speed}: it must be 0 or more")));
        }
        let squad_size = match &c.squad_size {
            Some(s) if *s.get_ref() == 0 => {
                return Err(at
                    .err(s, spanned, "squad_size = 0: a squad has at least one member")
                    .hint("leave squad_size out for a crowd without squads"));
            }
            Some(s) => Some(*s.get_ref()),
            None => None,
        };
        let (min, max) = match &c.region {
            Some(r) => match world.region(r.get_ref()) {
                Some(region) => (region.min, region.max),
                None => {
                    let names: Vec<&str> = world.regions().keys().map(String::as_str).collect();
                    let e = at.err(r, spanned, format!("no region is named `{}`", r.get_ref()));
                    return Err(with_suggestion(e, r.get_ref(), &names));
                }
            },
            None => (IVec2::ZERO, IVec2::new(world.map().width() as i32 - 1, world.map().height() as i32 - 1)),
        };
        // Every member copies what the block says (its name, kind, attributes, tags): at most the
        // block's text each. The area is read cell by cell.
        let area = (i64::from(max.x - min.x) + 1).max(0) as u64 * (i64::from(max.y - min.y) + 1).max(0) as u64;
        let copies = (spanned.span().len() as u64)
            .saturating_mul(super::cost::PER_BYTE_KEPT)
            .saturating_add((world.regions().len() as u64).saturating_mul(2));
        let units = super::cost::crowd(area, u64::from(count), c.scripts.len() as u64)
            .saturating_add(u64::from(count).saturating_mul(copies));
        let what = format!("{count} characters of crowd `{}`, placed among {area} cells", c.name.get_ref());
        charge(units, &what, &c.count)?;
        // Every open cell of the area no one stands in, row by row; then the first `count` of a
        // seeded shuffle.
        let mut free: Vec<IVec2> = Vec::new();
        for y in min.y..=max.y {
            for x in min.x..=max.x {
                let cell = IVec2::new(x, y);
                if world.map().passable(cell) && !taken.contains(&(y, x)) {
                    free.push(cell);
                }
            }
        }
        if free.len() < count as usize {
            let area = c.region.as_ref().map_or_else(|| "the map".to_owned(), |r| format!("region `{}`", r.get_ref()));
            return Err(at
                .err(
                    &c.count,
                    spanned,
                    format!("{count} characters do not fit: {area} has {} free open cells", free.len()),
                )
                .hint("each member stands on an open cell of its own; lower count or widen the area"));
        }
        let mut rng = WorldRng::new(c.seed.unwrap_or(seed) ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for i in 0..count as usize {
            let j = i + rng.below(free.len() - i);
            free.swap(i, j);
        }
        let files = c.scripts.iter().map(&mut script).collect::<Result<Vec<_>, _>>()?;
        let base = c.name.get_ref();
        if base.is_empty() {
            return Err(at.err(&c.name, spanned, "a crowd needs a name: its members are called NAME-1, NAME-2 …"));
        }
        for (i, &cell) in free.iter().take(count as usize).enumerate() {
            let name = if count == 1 { base.clone() } else { format!("{base}-{}", i + 1) };
            let mut e = Entity::new(name, c.kind.clone(), cell);
            e.team = c.team.clone();
            e.speed = speed;
            e.attributes = c.attributes.clone();
            if let Some(tactica_engine::Value::Int(v)) =
                e.attributes.iter().find(|(k, _)| k.eq_ignore_ascii_case("SPEED")).map(|(_, v)| v)
            {
                e.speed = tactica_engine::world::speed_of_attribute(*v);
            }
            e.tags = c.tags.iter().cloned().collect();
            if let Some(size) = squad_size {
                let size = size as usize;
                e.squad = format!("{base}-squad-{}", i / size + 1);
                if i % size == 0 {
                    e.tags.insert("leader".to_owned());
                    e.attributes.insert("leader".to_owned(), tactica_engine::Value::Bool(true));
                }
            }
            let id = world.spawn(e).map_err(|why| at.err(&c.name, spanned, why.to_string()))?;
            taken.insert((cell.y, cell.x));
            if !files.is_empty() {
                let think_phase = if c.stagger { (i as u32) % think_every } else { 0 };
                out.push(EntityScripts { entity: id, files: files.clone(), think_every, think_phase });
            }
        }
    }
    Ok(out)
}
