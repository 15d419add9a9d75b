//! The keyword registry: every word a query key may contain, with the type tag that says where it
//! may be used (001:L51).
//!
//! A key is keywords joined by underscores. The registry is data, so the parser, the diagnostics
//! (did-you-mean suggestions) and `docs/tps.md` all read one table, and adding a criterion is one
//! row here plus its evaluation in `criteria.rs` (extensibility, 001:L35).

/// An object a criterion is measured against (001:L45, L55, L155).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ObjectKind {
    /// The agent that asks.
    Puppet,
    /// The agent's attack target (`target`, or CryEngine's own name `attentionTarget`).
    Target,
    /// A general-purpose position (a goal, a defend point).
    ReferencePoint,
    /// The player.
    Player,
    /// The squad leader.
    Leader,
    /// The squad's centre (the mean position of its members).
    SquadCenter,
}

impl ObjectKind {
    /// Every object, in slot order.
    pub const ALL: [ObjectKind; 6] = [
        ObjectKind::Puppet,
        ObjectKind::Target,
        ObjectKind::ReferencePoint,
        ObjectKind::Player,
        ObjectKind::Leader,
        ObjectKind::SquadCenter,
    ];

    /// The object's keyword.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Puppet => "puppet",
            ObjectKind::Target => "target",
            ObjectKind::ReferencePoint => "referencePoint",
            ObjectKind::Player => "player",
            ObjectKind::Leader => "leader",
            ObjectKind::SquadCenter => "squadCenter",
        }
    }

    /// The object a keyword names, if it names one.
    pub fn from_keyword(word: &str) -> Option<ObjectKind> {
        match word {
            "puppet" => Some(ObjectKind::Puppet),
            "target" | "attentionTarget" => Some(ObjectKind::Target),
            "referencePoint" => Some(ObjectKind::ReferencePoint),
            "player" => Some(ObjectKind::Player),
            "leader" => Some(ObjectKind::Leader),
            "squadCenter" => Some(ObjectKind::SquadCenter),
            _ => None,
        }
    }

    /// The slot index of the object in [`super::Objects`].
    pub(crate) fn slot(self) -> usize {
        self as usize
    }
}

/// Words placed between a criterion and its object for readability; the parser drops them (001:L49).
pub const GLUE_WORDS: [&str; 5] = ["from", "to", "at", "of", "the"];

/// The word that names the generation centre (`hidespots_from_target_around_puppet`, 001:L80–L81).
pub const AROUND: &str = "around";

/// The three sections of an option (001:L41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// Where candidate points come from.
    Generation,
    /// Filters: a point is valid only if all pass.
    Conditions,
    /// Scoring of the valid points.
    Weights,
}

impl Section {
    /// The section's name as queries write it.
    pub fn name(self) -> &'static str {
        match self {
            Section::Generation => "Generation",
            Section::Conditions => "Conditions",
            Section::Weights => "Weights",
        }
    }

    /// The section a name means (case-insensitive, so `.tac` can write `generation`).
    pub fn from_name(name: &str) -> Option<Section> {
        match name.to_ascii_lowercase().as_str() {
            "generation" => Some(Section::Generation),
            "conditions" => Some(Section::Conditions),
            "weights" => Some(Section::Weights),
            _ => None,
        }
    }
}

/// How expensive a criterion is; cheap tests run on every candidate before the heap is built,
/// expensive ones only on the points that can still win (001:L193–L211).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CostClass {
    /// Arithmetic on data at hand (distances, flags, a lookup).
    Cheap,
    /// A ray cast or a path search.
    Expensive,
}

/// A generation method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GeneratorKind {
    /// Hidespots from the tactical waypoint database, optionally hiding from an object.
    Hidespots,
    /// A square grid of points around a centre.
    Grid,
    /// Concentric circles of points around a centre (Brink's cover finding).
    Circles,
    /// The positions of every entity of a kind, returning their ids.
    Entities,
    /// Points inside a named region (defend, patrol, advance areas).
    Region,
    /// Positions on cover rails: the closest to the centre, and more at a spacing.
    CoverRails,
    /// Only the point the asking agent holds now (a validation query, 001:L146–L150).
    CurrentPoint,
    /// Doorways near the centre: open cells between two walls, one cell wide.
    Doorways,
    /// Sniper spots near the centre: open cells beside a wall that see the object from afar.
    SniperSpots,
}

/// A test criterion, usable as a condition or (when it yields a number or a bool) a weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Criterion {
    /// Straight-line distance to an object.
    Distance,
    /// Progress towards an object per distance travelled, in [−1, 1] (001:L124–L126).
    Directness,
    /// Whether the point can be seen from an object (grid line of sight).
    Visible,
    /// The point has hard cover.
    HardCover,
    /// The point has soft cover (001:L45).
    SoftCover,
    /// The point has high cover (001:L103's `providesHighCover`).
    HighCover,
    /// The point has low cover.
    LowCover,
    /// The point's cover protects against an object (the target lies in its cover cone).
    CoverFrom,
    /// The cover's quality in [0, 1]; 0 for a point without cover.
    CoverQuality,
    /// We reach the point no later than the object does (001:L140–L144).
    CanReachBefore,
    /// Path distance from an object, from the path oracle.
    PathDistance,
    /// The value of a named influence layer at the point.
    Influence,
    /// Moving from the puppet to the point crosses the object's line of fire (001:L173).
    CrossesLineOfFire,
    /// Where the point lies in the object's view: 1 at the centre, 0 at the edge, negative off
    /// screen (001:L172).
    CameraCenter,
    /// A seeded random number in [0, 1), stable per point.
    Random,
    /// How far the point lies to the object's left (+1) or right (−1) of its facing: the sine of
    /// the angle from its forward vector to the point.
    Leftness,
    /// Standing at the point, the agent can shoot the object: line of sight within range (over
    /// low cover, which a standing shooter clears).
    CanShoot,
    /// Crouched at the point, the agent can shoot the object: as [`Criterion::CanShoot`], but low
    /// cover that faces the object blocks the shot.
    CanShootCrouched,
    /// How many opponents (entities of another team than the asker's) see the point, within range.
    Exposure,
}

/// What a criterion yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// A number with declared limits (for normalising weights, 001:L108).
    Float,
    /// True or false (1 or 0 as a weight, 001:L106).
    Bool,
}

/// Whether a keyword takes an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectRule {
    /// It never does (`softCover`).
    None,
    /// It may (`hidespots` hides from one if given).
    Optional,
    /// It must (`distance`).
    Required,
}

/// What a keyword is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeywordKind {
    /// A generation method (Generation section only).
    Generator(GeneratorKind),
    /// A test (Conditions or Weights).
    Test(Criterion),
}

/// One registered criterion keyword with its type tag.
#[derive(Debug, Clone, Copy)]
pub struct Keyword {
    /// The keyword as written.
    pub name: &'static str,
    /// Generator or test.
    pub kind: KeywordKind,
    /// Whether it takes a (`from`) object.
    pub object: ObjectRule,
    /// Whether it needs a generation centre (`around_X`).
    pub centre: bool,
    /// Whether the word after it is a name parameter (`influence_threat`).
    pub param: bool,
    /// Float or bool (tests only; generators say `Float`).
    pub output: OutputKind,
    /// Cost class (tests only).
    pub cost: CostClass,
    /// One line for docs and diagnostics.
    pub doc: &'static str,
}

const fn generator(
    name: &'static str,
    g: GeneratorKind,
    object: ObjectRule,
    centre: bool,
    doc: &'static str,
) -> Keyword {
    Keyword {
        name,
        kind: KeywordKind::Generator(g),
        object,
        centre,
        param: false,
        output: OutputKind::Float,
        cost: CostClass::Cheap,
        doc,
    }
}

const fn test(
    name: &'static str,
    c: Criterion,
    object: ObjectRule,
    output: OutputKind,
    cost: CostClass,
    doc: &'static str,
) -> Keyword {
    Keyword { name, kind: KeywordKind::Test(c), object, centre: false, param: false, output, cost, doc }
}

use CostClass::{Cheap, Expensive};
use ObjectRule::{None as NoObject, Optional, Required};
use OutputKind::{Bool, Float};

/// Every criterion keyword. Aliases are separate rows naming the same kind.
pub const KEYWORDS: &[Keyword] = &[
    generator(
        "hidespots",
        GeneratorKind::Hidespots,
        Optional,
        true,
        "hidespots within radius of the centre, hiding from the object",
    ),
    generator("grid", GeneratorKind::Grid, NoObject, true, "a square grid (half-width = value) around the centre"),
    generator(
        "circles",
        GeneratorKind::Circles,
        NoObject,
        true,
        "concentric circles (outer radius = value) around the centre",
    ),
    generator("entities", GeneratorKind::Entities, NoObject, true, "entities of `kind` within `radius` of the centre"),
    generator("region", GeneratorKind::Region, NoObject, false, "points inside the named region"),
    generator(
        "coverRails",
        GeneratorKind::CoverRails,
        NoObject,
        true,
        "closest point (and spaced points) on cover rails near the centre",
    ),
    generator("currentPoint", GeneratorKind::CurrentPoint, NoObject, false, "only the point the agent holds now"),
    generator("currentHidespot", GeneratorKind::CurrentPoint, NoObject, false, "alias of currentPoint"),
    generator(
        "doorways",
        GeneratorKind::Doorways,
        NoObject,
        true,
        "doorways within radius of the centre: open cells with walls on two opposite sides",
    ),
    generator(
        "sniperSpots",
        GeneratorKind::SniperSpots,
        Required,
        true,
        "open cells within radius of the centre, beside a wall, that see the object from 10 or more away",
    ),
    test("distance", Criterion::Distance, Required, Float, Cheap, "straight-line distance to the object"),
    test(
        "directness",
        Criterion::Directness,
        Required,
        Float,
        Cheap,
        "progress towards the object per metre moved, −1..1",
    ),
    test("visible", Criterion::Visible, Required, Bool, Expensive, "the object has line of sight to the point"),
    test("lineOfSight", Criterion::Visible, Required, Bool, Expensive, "alias of visible"),
    test("hardCover", Criterion::HardCover, NoObject, Bool, Cheap, "the point has hard cover"),
    test("softCover", Criterion::SoftCover, NoObject, Bool, Cheap, "the point has soft cover"),
    test("highCover", Criterion::HighCover, NoObject, Bool, Cheap, "the point has high cover"),
    test("providesHighCover", Criterion::HighCover, NoObject, Bool, Cheap, "alias of highCover"),
    test("lowCover", Criterion::LowCover, NoObject, Bool, Cheap, "the point has low cover"),
    test("coverFrom", Criterion::CoverFrom, Required, Bool, Cheap, "the point's cover protects against the object"),
    test("coverQuality", Criterion::CoverQuality, NoObject, Float, Cheap, "cover quality 0..1"),
    test("canReachBefore", Criterion::CanReachBefore, Required, Bool, Cheap, "we get there no later than the object"),
    test("pathDistance", Criterion::PathDistance, Required, Float, Expensive, "path distance from the object"),
    Keyword {
        param: true,
        ..test("influence", Criterion::Influence, NoObject, Float, Cheap, "the named influence layer's value")
    },
    test(
        "crossesLineOfFire",
        Criterion::CrossesLineOfFire,
        Required,
        Bool,
        Cheap,
        "the move crosses the object's line of fire",
    ),
    test(
        "cameraCenter",
        Criterion::CameraCenter,
        Required,
        Float,
        Cheap,
        "1 at the object's view centre, 0 at the edge, <0 off screen",
    ),
    test(
        "leftness",
        Criterion::Leftness,
        Required,
        Float,
        Cheap,
        "+1 straight to the object's left, −1 to its right, 0 ahead or behind",
    ),
    test("random", Criterion::Random, NoObject, Float, Cheap, "seeded random 0..1, stable per point"),
    test("canShoot", Criterion::CanShoot, Required, Bool, Expensive, "standing here, a shot at the object is clear"),
    test(
        "canShootCrouched",
        Criterion::CanShootCrouched,
        Required,
        Bool,
        Expensive,
        "crouched here, a shot at the object is clear (low cover facing it blocks)",
    ),
    test("exposure", Criterion::Exposure, NoObject, Float, Expensive, "how many opponents see the point, in range"),
];

/// The registered keyword named `word`.
pub fn lookup(word: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.name == word)
}

/// The closest known word to `word` among `candidates`, if one is close enough to be a likely typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            let cl = c.to_ascii_lowercase();
            // A known word run together with the next (`distanceFrom`) is a near miss too.
            let run_on = cl.len() >= 4 && lower.starts_with(&cl) && lower != cl;
            (if run_on { 1 } else { strsim::levenshtein(&lower, &cl) }, c)
        })
        .filter(|&(d, c)| d <= 2.max(c.len() / 3))
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

/// Every word that may follow a criterion: objects, glue and `around`.
pub(crate) fn object_words() -> impl Iterator<Item = &'static str> {
    ObjectKind::ALL.iter().map(|o| o.name()).chain(["attentionTarget", AROUND]).chain(GLUE_WORDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_unique_and_objects_round_trip() {
        let mut names: Vec<_> = KEYWORDS.iter().map(|k| k.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KEYWORDS.len());
        for o in ObjectKind::ALL {
            assert_eq!(ObjectKind::from_keyword(o.name()), Some(o));
        }
        assert_eq!(ObjectKind::from_keyword("attentionTarget"), Some(ObjectKind::Target));
    }

    #[test]
    fn suggestions_find_typos_and_ignore_nonsense() {
        let names = || KEYWORDS.iter().map(|k| k.name);
        assert_eq!(suggest("distanse", names()), Some("distance"));
        assert_eq!(suggest("hidspots", names()), Some("hidespots"));
        assert_eq!(suggest("Directness", names()), Some("directness"));
        assert_eq!(suggest("xyzzyplugh", names()), None);
        assert_eq!(suggest("distanceFrom", names()), Some("distance"));
    }
}
