//! What of the engine a designer can reach in play, and how.
//!
//! A capability the Rust core has counts for designers only when a scenario key or a script call
//! (in all three languages, since they share this crate's one table) reaches it. [`CAPABILITIES`]
//! lists every unit of the engine — each file or folder under an engine module, the grain at which
//! the engine is organised — with the script calls, scenario keys and commands that reach it, or
//! the reason it is internal (a building block of other capabilities, not something a designer
//! asks for). `docs/api.md` prints the table; a test in the root crate walks `engine/src` and fails
//! when a unit has no entry, when an entry names a unit that is gone, a script call the table does
//! not have, or a scenario key `docs/scenario.md` does not document.

/// How a designer reaches one engine unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// In play: script calls (canonical names of [`crate::Api`] functions), scenario keys (the
    /// section, `""` for the top level, and the key) and `tactica` commands.
    InPlay {
        /// Script calls that use it.
        calls: &'static [&'static str],
        /// Scenario keys `(section, key)` that declare or use it.
        keys: &'static [(&'static str, &'static str)],
        /// `tactica` subcommands (and flags) that use it.
        commands: &'static [&'static str],
    },
    /// Not a designer-facing capability; the reason says what it serves instead.
    Internal(&'static str),
    /// A designer-facing capability that no scenario key or script call reaches yet; the reason
    /// says what is missing. Listed in `docs/api.md` so the gap is visible, not hidden.
    NotYet(&'static str),
}

/// One engine unit and how it is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capability {
    /// The unit: its path under `engine/src` without `.rs` (`field/flood`, `tactics/query`).
    pub unit: &'static str,
    /// What it is, in a designer's words.
    pub what: &'static str,
    /// How it is reached.
    pub reach: Reach,
}

const fn play(
    unit: &'static str,
    what: &'static str,
    calls: &'static [&'static str],
    keys: &'static [(&'static str, &'static str)],
    commands: &'static [&'static str],
) -> Capability {
    Capability { unit, what, reach: Reach::InPlay { calls, keys, commands } }
}

const fn internal(unit: &'static str, what: &'static str, why: &'static str) -> Capability {
    Capability { unit, what, reach: Reach::Internal(why) }
}

#[expect(dead_code, reason = "every unit is in play or internal now; the next one a designer cannot reach yet uses it")]
const fn not_yet(unit: &'static str, what: &'static str, missing: &'static str) -> Capability {
    Capability { unit, what, reach: Reach::NotYet(missing) }
}

/// Every engine unit, in path order.
pub const CAPABILITIES: &[Capability] = &[
    play(
        "coord/action",
        "per-character action queues (move, follow a path, say, sleep, signal, wait …)",
        &["MoveTo", "FollowPath", "Say", "Sleep", "IsIdle"],
        &[("entities", "actions")],
        &[],
    ),
    play(
        "coord/signals",
        "scoped signals and waits between characters",
        &["Signal", "Wait"],
        &[("entities", "actions")],
        &[],
    ),
    play(
        "decide/adaptive",
        "adaptive tactics: learning which tactic works where",
        &["AdaptiveChoose", "AdaptiveRecord", "AdaptiveRate"],
        &[("models", "adaptive")],
        &[],
    ),
    internal(
        "decide/ants",
        "the reference's ant-colony simulation",
        "a self-contained worked example of the reference (`cargo run --example ants`), not a tool characters use",
    ),
    play(
        "decide/bayes",
        "Bayesian networks (variable elimination, learning from counts)",
        &["BayesQuery"],
        &[("models", "bayes")],
        &[],
    ),
    play(
        "decide/bt",
        "behaviour trees: composites, decorators, observer aborts, services, subtrees, built-in and script leaves",
        &["BuildTree", "RunTree", "StopTree", "TreeStatus", "TreeRunning", "GetBlackboard", "SetBlackboard"],
        &[("models", "tree"), ("entities", "tree")],
        &["check"],
    ),
    play(
        "decide/crowd",
        "daily schedules, open-loop action queues, a propositional planner",
        &["ScheduleTask", "ScheduleDue", "HourOfDay", "QueueRun", "QueueFail", "QueueCurrent", "Plan", "PlanNext"],
        &[("models", "schedule"), ("models", "actions"), ("models", "planner")],
        &[],
    ),
    internal(
        "decide/error",
        "model loading errors",
        "the error type of model files; designers meet it as a diagnostic at the file's line and column",
    ),
    internal(
        "decide/expr",
        "the condition language of model files",
        "the `when = \"…\"` expressions inside fsm, rules and utility files; reached through those model kinds",
    ),
    play(
        "decide/fsm",
        "hierarchical finite state machines",
        &["FsmStep", "FsmState", "FsmHooks", "ChangeState"],
        &[("models", "fsm")],
        &[],
    ),
    play(
        "decide/fuzzy",
        "fuzzy logic rule bases",
        &["FuzzyEval", "FuzzyCentroid", "FuzzyDegree"],
        &[("models", "fuzzy")],
        &[],
    ),
    play(
        "decide/learn",
        "neural nets and genetic algorithms",
        &["NnRun", "NnOutput", "GeneticGenome", "GeneticScore", "GeneticEvolve", "GeneticGeneration"],
        &[("models", "nn"), ("models", "genetic")],
        &[],
    ),
    play(
        "decide/registry",
        "named decision models loaded from data files and hot-reloaded",
        &["ModelInput", "ModelClear"],
        &[("", "models")],
        &[],
    ),
    play(
        "decide/rules",
        "forward and backward chaining rule engines",
        &["RulesAssert", "RulesRun", "RulesFact", "RulesProve"],
        &[("models", "rules")],
        &[],
    ),
    play(
        "decide/utility",
        "utility reasoners (considerations, dual utility, pickers)",
        &["UtilityChoose", "UtilityDecide"],
        &[("models", "utility")],
        &[],
    ),
    play(
        "field/automaton",
        "cellular automata over layers",
        &["LayerAt", "BestCell"],
        &[("field.automaton", "rule"), ("field.automaton", "thresholds")],
        &["render --layer"],
    ),
    play(
        "field/convolve",
        "convolution filters over layers",
        &["LayerAt", "BestCell"],
        &[("field.filter", "kernel"), ("field.filter", "boundary")],
        &["render --layer"],
    ),
    play(
        "field/decision",
        "strategic decision maps (resources, offence, conflict)",
        &["ReportResource", "ReportConflict"],
        &[("field", "layers"), ("field", "decision_area")],
        &["render --layer"],
    ),
    play(
        "field/derive",
        "layers a scenario derives from live ones by filters and automata",
        &["LayerAt"],
        &[("field.filter", "from"), ("field.automaton", "from")],
        &["render --layer"],
    ),
    play(
        "field/derived",
        "derived maps: control, balance, tension, security, vulnerability, frontier",
        &["LayerAt", "BestCell", "BestCellIn"],
        &[("field", "layers")],
        &["render --layer"],
    ),
    internal("field/error", "field errors", "the error type of layer operations"),
    play(
        "field/falloff",
        "influence falloff and distance metrics",
        &[],
        &[("field", "falloff"), ("field", "metric")],
        &[],
    ),
    play("field/flood", "map flooding (territory)", &["TerritoryAt"], &[("field", "layers")], &["render --layer"]),
    play(
        "field/graph",
        "influence over a waypoint graph: the [field] teams' members projected along the edges of [navigation.graph]",
        &["GraphInfluenceAt"],
        &[("navigation.graph", "nodes"), ("field", "teams")],
        &[],
    ),
    internal(
        "field/graph_live",
        "the waypoint graph's influence kept up to date in a running world",
        "what `GraphInfluenceAt` reads (`field/graph` in play)",
    ),
    play(
        "field/influence",
        "influence maps per team, updated incrementally",
        &["InfluenceAt"],
        &[("field", "teams"), ("field", "strength"), ("field", "radius")],
        &["render --layer"],
    ),
    internal(
        "field/kernel",
        "convolution kernels",
        "the kernels convolution filters are built from; reached with them",
    ),
    internal(
        "field/layer",
        "the one-value-per-cell layer type",
        "the storage every tactical map is kept in; designers name layers, not this type",
    ),
    play(
        "field/learning",
        "frag maps that learn where fights happen",
        &["RecordFrag"],
        &[("field", "frag_decay")],
        &["render --layer"],
    ),
    play(
        "field/live",
        "the world's live tactical layers",
        &["FieldLayers", "LayerAt"],
        &[("", "field")],
        &["render --layer"],
    ),
    play(
        "field/terrain",
        "terrain analysis: cover, visibility, exposure, difficulty",
        &["CoverAt", "ExposureAt"],
        &[("field", "layers"), ("field", "sight_range"), ("field.cover", "radius")],
        &["render --layer"],
    ),
    internal(
        "grid/cell",
        "the cell a point is in",
        "floor to a cell without a library call, for the walk's per-character cell lookups",
    ),
    internal("grid/data", "where the shared benchmark maps live", "locates benchmark data for tests and benchmarks"),
    internal(
        "grid/error",
        "map loading errors",
        "the error type of map files; designers meet it as a diagnostic at the file's line and column",
    ),
    play("grid/load", "MovingAI and ASCII map loaders with terrain costs", &[], &[("", "map")], &["check"]),
    play("grid/los", "grid line of sight", &["LineOfSight", "CanSee"], &[], &[]),
    play(
        "grid/map",
        "tile maps with per-cell costs, edited while the world runs",
        &["OpenDoor", "CloseDoor", "SetBlocked"],
        &[("", "map"), ("", "doors")],
        &["render"],
    ),
    play(
        "nav/components",
        "the map's connected areas (who can reach what)",
        &["Reachable", "BestCell", "BestCellIn"],
        &[],
        &[],
    ),
    play(
        "nav/plan",
        "each character's plan: searching, walking, unreachable, made again round characters standing in the way",
        &["PathStatus", "CancelPath"],
        &[("navigation", "blocked_ticks")],
        &[],
    ),
    play("path/astar", "A* search", &["MoveTo", "PathDistance", "FindPath"], &[], &["path --algo astar"]),
    play(
        "path/breadcrumbs",
        "breadcrumb trails a follower walks",
        &["FollowTrail"],
        &[("steering.agents", "follow_trail")],
        &[],
    ),
    internal("path/bresenham", "Bresenham lines", "the line walk under line of sight and the tile chase"),
    internal("path/cost", "path costs, heuristics and search status", "the cost rules every search shares"),
    internal(
        "path/follow",
        "path following with a look-ahead radius",
        "a follower for hosts that steer their own bodies; characters in the world follow their paths through the navigation service (`nav`)",
    ),
    play(
        "path/graph",
        "waypoint graphs: moves route over a declared graph (nearest node, A* over the edges, straight legs checked on the grid)",
        &["MoveTo", "PathStatus"],
        &[("navigation.graph", "nodes"), ("navigation.graph", "edges"), ("entities", "actions")],
        &[],
    ),
    internal(
        "path/graph_query",
        "a waypoint route run a few expansions at a time",
        "the search `path/graph` routes run through the navigation service's per-tick budget",
    ),
    play(
        "path/hierarchy",
        "hierarchical pathfinding (HPA*: clusters, border transitions, refinement, incremental updates): every move on a large map, or when the scenario asks, plans through it within the per-tick budget",
        &["MoveTo", "PathStatus"],
        &[("navigation", "hierarchy"), ("entities", "actions")],
        &[],
    ),
    play("path/jps", "jump point search on uniform-cost maps", &[], &[], &["path --algo jps"]),
    play(
        "path/movement",
        "the simple movers: tracing round obstacles (reached); collide-and-turn has no call yet",
        &["TraceToward"],
        &[("steering.agents", "trace_toward")],
        &[],
    ),
    play("path/scen", "MovingAI benchmark scenario solver", &[], &[], &["path"]),
    play(
        "path/sliced",
        "time-sliced path searches under a per-tick budget",
        &["MoveTo", "PathStatus"],
        &[("navigation", "budget"), ("navigation", "max_active"), ("navigation", "quantum")],
        &[],
    ),
    play("path/smooth", "path smoothing by line of sight", &["MoveTo", "FollowPath"], &[("entities", "actions")], &[]),
    play("path/tactical", "tactical path costs per character", &["MoveTo"], &[("entities", "avoid")], &[]),
    play(
        "path/wall_trace",
        "wall tracing (the left-hand rule)",
        &["TraceWalls"],
        &[("steering.agents", "trace_walls")],
        &[],
    ),
    play(
        "sense/hearing",
        "hearing with sound levels, walls and thresholds",
        &["HeardSounds", "PlaySound"],
        &[("field.hearing", "threshold"), ("field.hearing", "levels")],
        &[],
    ),
    play(
        "sense/live",
        "the world's live senses, personal and team radar, touch",
        &["CanSee", "IsVisible", "HeardSounds", "ScentAt", "RadarContacts", "TeamRadar", "Touching"],
        &[("", "field")],
        &[],
    ),
    play(
        "sense/scent",
        "scent trails that fade",
        &["ScentAt"],
        &[("field.scent", "intensity"), ("field.scent", "fade")],
        &[],
    ),
    play(
        "sense/vision",
        "vision cones with line of sight",
        &["CanSee", "IsVisible"],
        &[("field.vision", "range"), ("field.vision", "angle")],
        &[],
    ),
    play(
        "steer/agents",
        "steering in the running world",
        &["Chase", "Evade", "Intercept", "JoinFlock", "FormUp", "RunPattern", "StopSteering", "SteeringOf"],
        &[("", "steering")],
        &["run --render"],
    ),
    internal(
        "steer/body",
        "steering bodies (vehicles)",
        "the position/velocity/heading state every steering behaviour moves",
    ),
    play(
        "steer/chase",
        "chase, evade and intercept",
        &["Chase", "Evade", "Intercept"],
        &[("steering.agents", "chase")],
        &[],
    ),
    play("steer/flock", "flocking rules", &["JoinFlock"], &[("steering.flocks", "view")], &[]),
    internal(
        "steer/flock_scan",
        "the vectorised neighbour scan of flocking",
        "how a flock tick finds neighbours fast; reached through flocks",
    ),
    internal("steer/flock_sim", "one tick of a whole flock", "the flock tick itself; reached through flocks"),
    play("steer/formation", "formations with a captain", &["FormUp"], &[("steering.formations", "shape")], &[]),
    play("steer/los_chase", "the tile line-of-sight chase", &["TileChase"], &[("steering.agents", "tile_chase")], &[]),
    internal(
        "steer/obstacle",
        "obstacle avoidance feelers",
        "how flocks see walls and pillars; reached through flocks",
    ),
    internal("steer/obstacle_cells", "obstacle lookup per cell", "an index that speeds up flock feelers"),
    play(
        "steer/pattern",
        "tile patterns: tile routes (the book's patrol lines, looped or ended), control-data arrays run on tiles, and the 0/1 pattern grid a wanderer walks",
        &["RunTileRoute", "RunTileSteps", "WanderTileGrid"],
        &[
            ("steering", "tile_routes"),
            ("steering", "tile_steps"),
            ("steering", "tile_grids"),
            ("steering.agents", "tile_route"),
            ("steering.agents", "tile_steps"),
            ("steering.agents", "tile_wander"),
        ],
        &[],
    ),
    play(
        "steer/physics_pattern",
        "the book's physics-driven movement patterns (patrol, zig-zag, step lists)",
        &["RunPattern"],
        &[("steering.patterns", "base"), ("steering.patterns", "steps")],
        &[],
    ),
    play("steer/potential", "potential-field movement", &["PotentialChase"], &[("steering.agents", "potential")], &[]),
    play("steer/regroup", "flocks regrouping their stragglers", &[], &[("steering.flocks", "regroup")], &[]),
    internal(
        "steer/spatial_hash",
        "spatial hashing for neighbour queries",
        "the neighbour index under flocking and steering",
    ),
    play(
        "tactics/query",
        "tactical position queries, with a per-tick budget, deferred answers and reservations",
        &["FindPosition", "PositionStatus", "PositionResult", "ReservedPosition", "ReleasePosition"],
        &[("queries", "files"), ("queries", "budget"), ("", "hidespots")],
        &["query", "render --query"],
    ),
    play(
        "tactics/waypoints",
        "tactical waypoints: authored, or generated from the map by ray sampling and condensation, with their values",
        &["Waypoints", "BestWaypoint", "FindPosition"],
        &[("waypoints", "generate"), ("", "hidespots")],
        &[],
    ),
    play(
        "world/blackboard",
        "each character's blackboard, shared by its tree, scripts and models",
        &["GetBlackboard", "SetBlackboard"],
        &[("entities", "tree")],
        &[],
    ),
    internal(
        "world/build",
        "building a world from a game's own rows or cells",
        "a game's Rust code builds its world with WorldBuilder (rows, tiles, doors, places); scripts and scenarios never call it",
    ),
    internal(
        "world/clock",
        "the fixed-step clock",
        "time is the tick count; scripts read it through globals such as HourOfDay",
    ),
    internal("world/command", "commands scripts emit", "how every script call changes the world; not called by name"),
    play(
        "world/entity",
        "characters: kind, team, attributes, tags, speed",
        &["AttributeOf", "KindOf", "NameOf", "PositionOf"],
        &[("", "entities")],
        &[],
    ),
    play("world/events", "the event log that becomes the trace", &["Note"], &[], &["run --trace"]),
    play(
        "world/places",
        "named places and regions",
        &["PlayerLocation", "BestCellIn"],
        &[("", "places"), ("", "regions")],
        &[],
    ),
    internal(
        "world/prefetch",
        "software prefetch for the passes over every character",
        "a cache hint for the tick's loops; nothing a scenario or script can see",
    ),
    play("world/rng", "the world's seeded random generator", &["Random"], &[("", "seed")], &[]),
    internal(
        "world/turns",
        "the order in which worker threads take their turn at the position queries' budget and a game's own functions",
        "keeps a parallel scripts phase's random draws in the one-thread order; not called by name",
    ),
    internal(
        "world/standing",
        "who stands still where, for the walk phase",
        "what `[navigation] blocked_ticks` waits on and plans round; reached through that key",
    ),
    play("world/tick", "the phases of a tick", &[], &[("", "tick_rate"), ("", "ticks"), ("", "timeline")], &["run"]),
];

/// The capability table in Markdown, for `docs/api.md`.
pub fn capabilities_markdown() -> String {
    use std::fmt::Write;
    let mut md = String::new();
    md.push_str("## Engine capabilities in play\n\n");
    md.push_str("Every unit of the Rust core (`engine/src`) and how a designer reaches it: the script calls above,\n");
    md.push_str("the scenario keys of `docs/scenario.md` and the `tactica` commands. A test fails when a unit of\n");
    md.push_str("the engine is missing here.\n\n");
    md.push_str("| engine unit | what | script calls | scenario keys | commands |\n| --- | --- | --- | --- | --- |\n");
    let code = |items: Vec<String>| if items.is_empty() { "—".to_owned() } else { items.join(", ") };
    for c in CAPABILITIES {
        if let Reach::InPlay { calls, keys, commands } = c.reach {
            let calls = code(calls.iter().map(|c| format!("`{c}`")).collect());
            let keys = code(
                keys.iter()
                    .map(|(s, k)| if s.is_empty() { format!("`{k}`") } else { format!("`[{s}]` `{k}`") })
                    .collect(),
            );
            let commands = code(commands.iter().map(|c| format!("`tactica {c}`")).collect());
            let _ = writeln!(md, "| `{}` | {} | {calls} | {keys} | {commands} |", c.unit, c.what);
        }
    }
    md.push_str(
        "\nNot yet reachable in play — capabilities of the core that no scenario key or script call reaches yet:\n\n",
    );
    md.push_str("| engine unit | what | what is missing |\n| --- | --- | --- |\n");
    for c in CAPABILITIES {
        if let Reach::NotYet(missing) = c.reach {
            let _ = writeln!(md, "| `{}` | {} | {missing} |", c.unit, c.what);
        }
    }
    md.push_str("\nInternal units — building blocks of the capabilities above, not reached by name:\n\n");
    md.push_str("| engine unit | what | why internal |\n| --- | --- | --- |\n");
    for c in CAPABILITIES {
        if let Reach::Internal(why) = c.reach {
            let _ = writeln!(md, "| `{}` | {} | {why} |", c.unit, c.what);
        }
    }
    md
}
