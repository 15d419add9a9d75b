//! Navigation in play: a scenario with walls, swamp, doors that open mid-scenario and 200
//! characters crossing the map. Every plan is checked against an independent A* (the
//! `pathfinding` crate) on the map as it was on that tick, the search budget against every
//! tick's spending, and every tick's movement against the walls by dense sampling.

use std::collections::BTreeMap;
use std::path::PathBuf;

use glam::{IVec2, Vec2};
use tactica::runtime::Runtime;

const W: i32 = 64;
const H: i32 = 40;
const BUDGET: usize = 3000;
const CHARACTERS: usize = 200;

/// The map: a long north–south wall at x = 31 with a gap at the bottom, two doors in it
/// (closed at first), short walls on both sides, and a swamp (cost 5) in the west.
fn map_text() -> String {
    let mut rows = vec![vec![b'.'; W as usize]; H as usize];
    for row in rows.iter_mut().take(H as usize - 3) {
        row[31] = b'#'; // the gap is rows 37..39
    }
    rows[10][8..24].fill(b'#');
    rows[28][12..28].fill(b'#');
    rows[18][38..58].fill(b'#');
    for row in &mut rows[2..16] {
        row[46] = b'#';
    }
    for row in &mut rows[14..24] {
        row[4..12].fill(b'~');
    }
    rows.iter().map(|r| format!("{}\n", String::from_utf8_lossy(r))).collect()
}

/// A small seeded generator, so the test picks its own starts and goals.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: i32) -> i32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as i32
    }
}

fn scenario(dir: &std::path::Path) -> (PathBuf, Vec<(String, IVec2, IVec2)>) {
    let map = map_text();
    let open = |c: IVec2| map.lines().nth(c.y as usize).is_some_and(|r| r.as_bytes()[c.x as usize] == b'.');
    let mut rng = Lcg(7);
    let mut chars = Vec::new();
    let mut taken = std::collections::BTreeSet::new();
    while chars.len() < CHARACTERS {
        let i = chars.len();
        // Half go west to east, half east to west, across the long wall.
        let (sx, gx) = if i % 2 == 0 { (rng.next(28), 34 + rng.next(29)) } else { (34 + rng.next(29), rng.next(28)) };
        let (start, goal) = (IVec2::new(sx, rng.next(H)), IVec2::new(gx, rng.next(H)));
        if open(start) && open(goal) && taken.insert((start.x, start.y)) {
            chars.push((format!("c{i:03}"), start, goal));
        }
    }
    let mut toml = format!(
        "name = \"Crossing\"\nmap = \"map.txt\"\nticks = 600\n\n[navigation]\nbudget = {BUDGET}\nmax_active = 6\nquantum = 200\n\n\
         [doors.north]\ncells = [[31, 8], [31, 9]]\n\n[doors.south]\ncells = [[31, 24]]\n\n\
         [[timeline]]\ntick = 25\nopen = [\"north\"]\n\n[[timeline]]\ntick = 70\nopen = [\"south\"]\n"
    );
    for (name, s, g) in &chars {
        toml.push_str(&format!(
            "\n[[entities]]\nname = \"{name}\"\nkind = \"walker\"\nat = [{}, {}]\nspeed = {}\nactions = [{{ move_to = [{}, {}] }}]\n",
            s.x,
            s.y,
            6 + name[1..].parse::<i32>().unwrap() % 5,
            g.x,
            g.y
        ));
    }
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("map.txt"), map).unwrap();
    std::fs::write(dir.join("scenario.toml"), toml).unwrap();
    (dir.join("scenario.toml"), chars)
}

/// Cell costs of `map` (None: blocked), as the test reads them itself.
fn costs(map: &tactica_engine::grid::Map) -> Vec<Option<f64>> {
    (0..H)
        .flat_map(|y| (0..W).map(move |x| IVec2::new(x, y)))
        .map(|c| map.cost(c).filter(|k| k.is_finite()).map(f64::from))
        .collect()
}

/// An independent optimal cost: A* from the `pathfinding` crate over the same movement rules
/// (8-connected, straight 1, diagonal √2, times the cost of the cell entered, no corner cutting),
/// in integer micro-units because that crate needs a totally ordered cost.
fn optimal(costs: &[Option<f64>], from: IVec2, to: IVec2) -> Option<f64> {
    let at = |c: IVec2| -> Option<f64> {
        if c.x < 0 || c.y < 0 || c.x >= W || c.y >= H { None } else { costs[(c.y * W + c.x) as usize] }
    };
    let micro = |v: f64| (v * 1e6).round() as u64;
    let (_, total) = pathfinding::prelude::astar(
        &from,
        |&c| {
            let mut next = Vec::with_capacity(8);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let n = c + IVec2::new(dx, dy);
                    let Some(k) = at(n) else { continue };
                    if dx != 0
                        && dy != 0
                        && (at(c + IVec2::new(dx, 0)).is_none() || at(c + IVec2::new(0, dy)).is_none())
                    {
                        continue;
                    }
                    let step = if dx != 0 && dy != 0 { std::f64::consts::SQRT_2 } else { 1.0 };
                    next.push((n, micro(step * k)));
                }
            }
            next
        },
        |&c| {
            let d = (c - to).abs();
            micro(f64::from(d.x.min(d.y)) * std::f64::consts::SQRT_2 + f64::from((d.x - d.y).abs())) * 999_999
                / 1_000_000
        },
        |&c| c == to,
    )?;
    Some(total as f64 / 1e6)
}

#[test]
fn two_hundred_characters_cross_a_map_whose_doors_open_by_optimal_paths_within_the_budget() {
    let dir = tempfile::Builder::new().prefix("tactica-navigation-").tempdir().unwrap().keep();
    let (path, chars) = scenario(&dir);
    let loaded = tactica::scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("no scripts to fail"));
    let ids: Vec<_> = chars.iter().map(|(n, _, _)| rt.world().find(n).unwrap()).collect();

    // The map as it was at each tick a door changed, for the plans made on it.
    let mut maps: BTreeMap<u64, Vec<Option<f64>>> = BTreeMap::new();
    maps.insert(0, costs(rt.world().map()));
    let mut positions: Vec<Vec2> = ids.iter().map(|&id| rt.world().entity(id).unwrap().position).collect();
    let mut ticks_at_budget = 0;
    for tick in 0..600u64 {
        let before = rt.world().nav().map_version();
        rt.tick();
        let world = rt.world();
        if world.nav().map_version() != before {
            maps.insert(tick, costs(world.map()));
        }
        let spent = world.nav().spent_last_tick();
        assert!(spent <= BUDGET, "tick {tick} spent {spent} expansions, over the budget of {BUDGET}");
        if spent == BUDGET {
            ticks_at_budget += 1;
        }
        // Doors only open here, so the map after the tick is the one every step of it walked on.
        for (k, &id) in ids.iter().enumerate() {
            let now = world.entity(id).unwrap().position;
            let (a, b) = (positions[k], now);
            let mut prev = a.floor().as_ivec2();
            for s in 0..=400 {
                let p = a.lerp(b, s as f32 / 400.0);
                let c = p.floor().as_ivec2();
                assert!(world.map().passable(c), "{} is in the wall at {c} on tick {tick}", chars[k].0);
                let d = c - prev;
                if d.x != 0 && d.y != 0 {
                    let corner = |c: IVec2| world.map().passable(c);
                    assert!(
                        corner(prev + IVec2::new(d.x, 0)) && corner(prev + IVec2::new(0, d.y)),
                        "{} cut a wall's corner at {prev} → {c} on tick {tick}",
                        chars[k].0
                    );
                }
                prev = c;
            }
            positions[k] = now;
        }
        if ids.iter().all(|&id| world.entity(id).unwrap().actions.is_idle()) {
            break;
        }
    }
    assert!(ticks_at_budget > 0, "200 characters asking at once use the whole budget on some tick");

    let world = rt.world();
    for (k, &id) in ids.iter().enumerate() {
        let e = world.entity(id).unwrap();
        assert_eq!(e.cell(), chars[k].2, "{} did not arrive", chars[k].0);
    }
    let trace = rt.trace();
    assert!(!trace.contains("\"blocked\""), "nobody is stopped");
    assert_eq!(trace.matches("\"kind\":\"arrive\"").count(), CHARACTERS);
    assert_eq!(trace.matches("\"kind\":\"door\"").count(), 2);

    // Every plan, including those made again when a door opened, is optimal on its map.
    let mut plans = 0;
    let mut replans = 0;
    for line in trace.lines().filter(|l| l.contains("\"kind\":\"path\"")) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let tick = v["tick"].as_u64().unwrap();
        let cell = |k: &str| IVec2::new(v[k][0].as_i64().unwrap() as i32, v[k][1].as_i64().unwrap() as i32);
        let (from, to, cost) = (cell("from"), cell("to"), v["cost"].as_f64().unwrap());
        let map = maps.range(..=tick).next_back().unwrap().1;
        let best = optimal(map, from, to).unwrap_or_else(|| panic!("{line}: the independent search finds no path"));
        assert!((cost - best).abs() < 1e-3, "{line}: the optimal cost is {best}");
        plans += 1;
        let name = v["entity"].as_str().unwrap();
        let k = chars.iter().position(|(n, _, _)| n == name).unwrap();
        if from != chars[k].1 {
            replans += 1;
        }
    }
    // Most characters cross the long wall, which needs a search; those made before a door
    // opened are searched again from where they stand.
    eprintln!("{plans} plans, {replans} made again, {ticks_at_budget} ticks at the budget");
    assert!(plans >= CHARACTERS / 2, "{plans} plans");
    assert!(replans > 20, "{replans} plans made again when the doors opened");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays a small scenario: a red sentry in the middle of an open field, and two walkers crossing
/// it, one of which avoids red influence. Returns each walker's closest approach to the sentry.
fn closest_approaches(avoid: &str) -> (f32, f32, String) {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-avoid-{}-", avoid.len())).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), format!("{}\n", ".".repeat(30)).repeat(21)).unwrap();
    let toml = format!(
        "map = \"map.txt\"\nticks = 200\n\n[field]\nteams = [\"red\"]\nradius = 6.0\nstrength = 4.0\n\n\
         [[entities]]\nname = \"sentry\"\nkind = \"soldier\"\nteam = \"red\"\nat = [15, 10]\n\n\
         [[entities]]\nname = \"bold\"\nkind = \"scout\"\nat = [1, 10]\nspeed = 5.0\nactions = [{{ move_to = [28, 10] }}]\n\n\
         [[entities]]\nname = \"wary\"\nkind = \"scout\"\nat = [1, 10]\nspeed = 5.0\navoid = {avoid}\nactions = [{{ move_to = [28, 10] }}]\n"
    );
    std::fs::write(dir.join("scenario.toml"), toml).unwrap();
    let loaded = tactica::scenario::load(&dir.join("scenario.toml")).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("loads"));
    let sentry = Vec2::new(15.5, 10.5);
    let (mut bold, mut wary) = (f32::INFINITY, f32::INFINITY);
    for _ in 0..200 {
        rt.tick();
        let w = rt.world();
        bold = bold.min(w.entity(w.find("bold").unwrap()).unwrap().position.distance(sentry));
        wary = wary.min(w.entity(w.find("wary").unwrap()).unwrap().position.distance(sentry));
    }
    let w = rt.world();
    for name in ["bold", "wary"] {
        assert_eq!(w.entity(w.find(name).unwrap()).unwrap().cell(), IVec2::new(28, 10), "{name} arrives");
    }
    (bold, wary, rt.trace())
}

#[test]
fn a_character_that_avoids_enemy_influence_goes_round_it() {
    let (bold, wary, trace) = closest_approaches("{ \"influence.red\" = 3.0 }");
    // The bold walker crosses the open field in a straight line, through the sentry's cell.
    assert!(bold < 0.01, "bold came within {bold}");
    // The wary one plans with the influence as a cost and keeps its distance.
    assert!(wary > 3.0, "wary came within {wary}");
    let plan = trace.lines().find(|l| l.contains("\"entity\":\"wary\"") && l.contains("\"kind\":\"path\"")).unwrap();
    let cost: f64 = serde_json::from_str::<serde_json::Value>(plan).unwrap()["cost"].as_f64().unwrap();
    assert!(cost > 27.0, "the plan's cost counts the influence crossed as well as the length: {plan}");
    // Without weights nobody searches on open ground.
    assert!(!trace.contains("\"entity\":\"bold\",\"kind\":\"path\""));
    // A weight of zero changes nothing but the need to search: the path is the straight row.
    let (_, indifferent, _) = closest_approaches("{ \"influence.red\" = 0.0 }");
    assert!(indifferent < 0.01, "with weight 0 it crosses as the bold one does ({indifferent})");
}

#[test]
fn avoid_must_name_a_layer_the_scenario_keeps() {
    let dir = tempfile::Builder::new().prefix("tactica-avoid-bad-").tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "......\n......\n").unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        "map = \"map.txt\"\n[field]\nteams = [\"red\"]\n\n[[entities]]\nname = \"a\"\nkind = \"k\"\nat = [0, 0]\navoid = { \"influence.rde\" = 2.0 }\n",
    )
    .unwrap();
    let err = tactica::scenario::load(&dir.join("scenario.toml")).unwrap_err().to_string();
    assert!(
        err.contains(":9:9:") && err.contains("`influence.rde`") && err.contains("did you mean `influence.red`?"),
        "{err}"
    );
}
