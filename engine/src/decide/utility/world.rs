//! What a brain sees: actors (itself and its contacts), targets and regions.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::value::{Table, Value};
use crate::world::WorldRng;

/// A character as the brain believes it to be (a GAIA actor or contact): where it is and what
/// its data store holds (`Side`, `IsOfficer`, `health` …).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Actor {
    /// Its name.
    pub name: String,
    /// Its position.
    pub position: Vec2,
    /// Its data store.
    #[serde(default)]
    pub data: Table,
}

/// Everything a brain reads in one update. The host builds it from the world; scripts can build
/// it from plain values with [`Situation::from_value`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Situation {
    /// The brain's own actor.
    pub me: Actor,
    /// The other characters it knows about (contacts).
    pub actors: Vec<Actor>,
    /// The global blackboard.
    pub globals: Table,
    /// Game time in seconds.
    pub time: f64,
}

/// Which actor a target refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActorRef {
    /// The brain's own actor.
    Me,
    /// An index into [`Situation::actors`].
    Other(usize),
}

impl Situation {
    /// The actor a reference names.
    pub fn actor(&self, r: ActorRef) -> Option<&Actor> {
        match r {
            ActorRef::Me => Some(&self.me),
            ActorRef::Other(i) => self.actors.get(i),
        }
    }

    /// Reads `{time, me = {name, position, data}, actors = [...], globals = {...}}`; positions are
    /// `Vec2` values or `[x, y]` lists. Missing parts are empty.
    pub fn from_value(v: &Value) -> Situation {
        let Value::Map(m) = v else { return Situation::default() };
        let actors = match m.get("actors") {
            Some(Value::List(items)) => items.iter().map(actor_from_value).collect(),
            _ => Vec::new(),
        };
        Situation {
            me: m.get("me").map(actor_from_value).unwrap_or_default(),
            actors,
            globals: match m.get("globals") {
                Some(Value::Map(g)) => g.clone(),
                _ => Table::new(),
            },
            time: m.get("time").and_then(Value::as_f64).unwrap_or(0.0),
        }
    }
}

fn actor_from_value(v: &Value) -> Actor {
    let Value::Map(m) = v else { return Actor::default() };
    let position = match m.get("position") {
        Some(Value::Vec2(p)) => *p,
        Some(Value::List(xy)) if xy.len() == 2 => {
            Vec2::new(xy[0].as_f64().unwrap_or(0.0) as f32, xy[1].as_f64().unwrap_or(0.0) as f32)
        }
        _ => Vec2::ZERO,
    };
    Actor {
        name: m.get("name").map(ToString::to_string).unwrap_or_default(),
        position,
        data: match m.get("data") {
            Some(Value::Map(d)) => d.clone(),
            _ => Table::new(),
        },
    }
}

/// A position and/or entity named in configuration (Listing 8.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Target {
    /// The brain's own actor.
    #[serde(rename = "self")]
    Me,
    /// A fixed position (no entity).
    Position {
        /// x.
        x: f32,
        /// y.
        y: f32,
    },
    /// An actor by name.
    ByName {
        /// The name.
        name: String,
    },
    /// The entity a picker is evaluating.
    PickerEntity,
    /// The actor whose name is stored in a brain-blackboard variable (`SnipeTarget`).
    Variable {
        /// The variable.
        variable: String,
    },
}

/// A resolved target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolved {
    /// Where it is.
    pub position: Vec2,
    /// Which actor, if it has one.
    pub actor: Option<ActorRef>,
}

impl Target {
    /// Resolves the target; `None` when it is not valid now (no such actor, no picker entity).
    pub fn resolve(&self, sit: &Situation, picker: Option<usize>, blackboard: &Table) -> Option<Resolved> {
        let by_name = |name: &str| -> Option<Resolved> {
            if sit.me.name == name {
                return Some(Resolved { position: sit.me.position, actor: Some(ActorRef::Me) });
            }
            let i = sit.actors.iter().position(|a| a.name == name)?;
            Some(Resolved { position: sit.actors[i].position, actor: Some(ActorRef::Other(i)) })
        };
        match self {
            Target::Me => Some(Resolved { position: sit.me.position, actor: Some(ActorRef::Me) }),
            Target::Position { x, y } => Some(Resolved { position: Vec2::new(*x, *y), actor: None }),
            Target::ByName { name } => by_name(name),
            Target::PickerEntity => {
                let i = picker?;
                Some(Resolved { position: sit.actors.get(i)?.position, actor: Some(ActorRef::Other(i)) })
            }
            Target::Variable { variable } => by_name(blackboard.get(variable)?.as_str()?),
        }
    }
}

/// An area (Listing 8.6): kill zones, lines of retreat, spawn areas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Region {
    /// Within `radius` of a centre.
    Circle {
        /// The centre.
        center: [f32; 2],
        /// The radius.
        radius: f32,
    },
    /// `origin + s·a + t·b` for `s, t` in `[0, 1]`.
    Parallelogram {
        /// A corner.
        origin: [f32; 2],
        /// One side.
        a: [f32; 2],
        /// The other side.
        b: [f32; 2],
    },
    /// A simple polygon (even-odd rule).
    Polygon {
        /// The corners in order.
        points: Vec<[f32; 2]>,
    },
}

impl Region {
    /// Whether `p` lies inside.
    pub fn contains(&self, p: Vec2) -> bool {
        match self {
            Region::Circle { center, radius } => p.distance_squared(Vec2::from(*center)) <= radius * radius,
            Region::Parallelogram { origin, a, b } => {
                let (a, b, d) = (Vec2::from(*a), Vec2::from(*b), p - Vec2::from(*origin));
                let det = a.perp_dot(b);
                if det.abs() < f32::EPSILON {
                    return false;
                }
                let s = d.perp_dot(b) / det;
                let t = a.perp_dot(d) / det;
                (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t)
            }
            Region::Polygon { points } => {
                let mut inside = false;
                let n = points.len();
                for i in 0..n {
                    let (a, b) = (Vec2::from(points[i]), Vec2::from(points[(i + n - 1) % n]));
                    if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                        inside = !inside;
                    }
                }
                inside
            }
        }
    }

    /// A random position inside; may fail (`None`) for degenerate regions, as GAIA allows.
    pub fn random_position(&self, rng: &mut WorldRng) -> Option<Vec2> {
        match self {
            Region::Circle { center, radius } => {
                let r = radius * (rng.range(0.0, 1.0) as f32).sqrt();
                let a = rng.range(0.0, std::f64::consts::TAU) as f32;
                Some(Vec2::from(*center) + r * Vec2::from_angle(a))
            }
            Region::Parallelogram { origin, a, b } => Some(
                Vec2::from(*origin)
                    + rng.range(0.0, 1.0) as f32 * Vec2::from(*a)
                    + rng.range(0.0, 1.0) as f32 * Vec2::from(*b),
            ),
            Region::Polygon { points } => {
                let (lo, hi) = points.iter().fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), p| {
                    (lo.min(Vec2::from(*p)), hi.max(Vec2::from(*p)))
                });
                (0..64).find_map(|_| {
                    let p = Vec2::new(
                        rng.range(f64::from(lo.x), f64::from(hi.x)) as f32,
                        rng.range(f64::from(lo.y), f64::from(hi.y)) as f32,
                    );
                    self.contains(p).then_some(p)
                })
            }
        }
    }
}
