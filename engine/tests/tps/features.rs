//! The other generators and criteria, reservations, failure actions, records and reload.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec2;
use tactica_engine::Value;
use tactica_engine::grid::Map;
use tactica_engine::tactics::query::*;
use tactica_engine::world::{Command, Entity, Region, World};

use super::common::*;

fn map_value(entries: &[(&str, Value)]) -> Value {
    Value::Map(entries.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect::<BTreeMap<_, _>>())
}

#[test]
fn a_lua_table_and_the_block_syntax_compile_to_the_same_query() {
    let lua = Value::List(vec![
        map_value(&[
            ("Generation", map_value(&[("hidespots_from_target_around_puppet", Value::Int(15))])),
            ("Conditions", map_value(&[("min_distance_from_puppet", Value::Int(5))])),
            ("Weights", map_value(&[("distance_from_puppet", Value::Float(-1.0))])),
        ]),
        map_value(&[("Generation", map_value(&[("grid_around_puppet", Value::Int(10))]))]),
    ]);
    let from_value = compile_value("cover", &lua, QueryConfig::default()).unwrap();
    let from_text = parse_queries(
        "t.tac",
        "query cover {
            option {
                Generation = { hidespots_from_target_around_puppet = 15 },
                Conditions = { min_distance_from_puppet = 5 },
                Weights = { distance_from_puppet = -1.0 },
            }
            option { Generation { grid_around_puppet = 10 } }
        }",
        QueryConfig::default(),
    )
    .unwrap()
    .remove(0);
    assert_eq!(from_value, from_text);
    // Lua arrays may arrive keyed "1", "2"; attentionTarget is target's CryEngine name.
    let keyed = map_value(&[
        ("2", map_value(&[("Generation", map_value(&[("grid_around_puppet", Value::Int(10))]))])),
        (
            "1",
            map_value(&[
                ("Generation", map_value(&[("hidespots_from_attentionTarget_around_puppet", Value::Int(15))])),
                ("Conditions", map_value(&[("min_distance_from_puppet", Value::Int(5))])),
                ("Weights", map_value(&[("distance_from_puppet", Value::Float(-1.0))])),
            ]),
        ),
    ]);
    let mut q = compile_value("cover", &keyed, QueryConfig::default()).unwrap();
    q.options[0].generators[0].key = "hidespots_from_target_around_puppet".into();
    assert_eq!(q, from_value);
    assert_eq!(
        format_query(&q).lines().nth(2).unwrap().trim(),
        "generate hidespots_from_target_around_puppet (radius 15, spacing 1)"
    );
}

#[test]
fn reservations_make_squad_members_pick_different_points_and_current_point_validates() {
    let mut w = TestWorld::new(Map::open(30, 30));
    let east = Vec2::X;
    w.hidespots = (0..4).map(|i| spot(i, v(12.5 + i as f32, 10.5), east, true)).collect();
    let q = option("Generation { hidespots_from_target_around_puppet = 10 } Weights { distance_from_puppet = -1 }");
    let who = owners(3);
    let mut res = Reservations::new();
    let mut picks = Vec::new();
    for &o in &who {
        let req = QueryRequest::new(o, objects(v(10.5, 10.5), Some(v(25.5, 10.5))));
        let (out, _) = Evaluation::run(Arc::clone(&q), req, &w.env(&res));
        let c = best(&out).candidate;
        res.reserve(o, c).unwrap();
        picks.push(c.source);
    }
    assert_eq!(picks, vec![PointSource::Hidespot(0), PointSource::Hidespot(1), PointSource::Hidespot(2)]);
    assert_eq!(
        res.reserve(who[0], Candidate { source: PointSource::Hidespot(1), ..*res.held_by(who[1]).unwrap() }),
        Err(who[1])
    );
    // A validation query generates only the point held and keeps only key conditions (001:L150).
    let validate = option("Generation { currentPoint = true } Conditions { coverFrom_target = true }");
    let ask = |target: Vec2| {
        let req = QueryRequest::new(who[1], objects(v(10.5, 10.5), Some(target)));
        Evaluation::run(Arc::clone(&validate), req, &w.env(&res)).0
    };
    assert_eq!(best(&ask(v(25.5, 10.5))).candidate.source, PointSource::Hidespot(1));
    assert!(matches!(ask(v(0.5, 10.5)), Outcome::Failed(_)), "the target went round our cover");
    res.release(who[1]);
    assert!(res.held_by(who[1]).is_none());
}

#[test]
fn entities_region_and_rail_generators() {
    let mut world = World::new(Map::open(30, 30), 10, 3);
    let near = world.spawn(Entity::new("m1", "medkit", glam::IVec2::new(12, 10))).unwrap();
    world.spawn(Entity::new("m2", "medkit", glam::IVec2::new(28, 28))).unwrap();
    world.spawn(Entity::new("crate", "crate", glam::IVec2::new(11, 10))).unwrap();
    world.add_region("yard", Region::new(glam::IVec2::new(2, 2), glam::IVec2::new(5, 3)));
    let mut w = TestWorld::new(world.map().clone());
    w.rails.push(CoverRail {
        id: 9,
        points: vec![v(10.0, 20.0), v(20.0, 20.0)],
        cover: cover(Some(Vec2::Y), true, false),
    });
    let res = Reservations::new();
    let env = QueryEnv { entities: &world, ..w.env(&res) };
    let me = objects(v(10.5, 10.5), None);
    let q = option("Generation { entities_around_puppet = { kind = \"medkit\", radius = 10 } }");
    let (out, _) = run(&q, &env, me);
    assert_eq!(best(&out).candidate.source, PointSource::Entity(near));
    let q = option("Generation { region = { name = \"yard\", spacing = 2 } } Weights { distance_from_puppet = 1 }");
    let (_, rec) = run(&q, &env, me);
    let pts: Vec<Vec2> = rec.options[0].candidates.iter().map(|c| c.position).collect();
    assert_eq!(pts, vec![v(2.5, 2.5), v(4.5, 2.5)]);
    let q = option(
        "Generation { coverRails_around_puppet = { radius = 12, spacing = 5 } } Conditions { lowCover = true, hardCover = true }",
    );
    let (out, rec) = run(&q, &env, objects(v(14.5, 12.5), None));
    let pts: Vec<Vec2> = rec.options[0].candidates.iter().map(|c| c.position).collect();
    // The closest rail point to us first, then every 5 m along the rail within 12 m.
    assert_eq!(pts, vec![v(14.5, 20.0), v(10.0, 20.0), v(15.0, 20.0), v(20.0, 20.0)]);
    assert_eq!(best(&out).candidate.position, v(14.5, 20.0));
}

#[test]
fn path_distance_sees_walls_that_straight_distance_ignores() {
    // A wall between us and the point straight across; the way round is long.
    let w = TestWorld::new(map(&["..........", "....#.....", "....#.....", "....#.....", ".........."]));
    let res = Reservations::new();
    let q = option(
        "Generation { grid_around_puppet = 3 } Conditions { max_pathDistance_from_puppet = 3 } Weights { distance_from_puppet = 1 }",
    );
    let (out, rec) = run(&q, &w.env(&res), objects(v(2.5, 2.5), None));
    // The farthest straight-line point within 3 path steps; nothing beyond the wall qualifies.
    let r = best(&out);
    assert!(r.candidate.position.x < 4.0);
    assert_eq!(w.path_distance(v(2.5, 2.5), r.candidate.position), Some(3.0));
    let beyond = rec.options[0].candidates.iter().find(|c| c.position == v(5.5, 2.5)).unwrap();
    assert_eq!(beyond.status, CandidateStatus::Failed("max_pathDistance_from_puppet".into()));
    assert_eq!(beyond.tests.last().unwrap().raw, 7.0);
}

#[test]
fn influence_line_of_fire_camera_and_random() {
    let mut w = TestWorld::new(Map::open(20, 20));
    for (i, t) in w.threat.iter_mut().enumerate() {
        *t = (i % 20) as f32 / 2.0; // threat grows eastwards
    }
    let res = Reservations::new();
    let q = option(
        "Generation { grid_around_puppet = 2 } Conditions { max_influence_threat = 4.9 } Weights { influence_threat = 1 }",
    );
    let (out, _) = run(&q, &w.env(&res), objects(v(8.5, 8.5), None));
    assert_eq!(best(&out).candidate.position.x, 9.5, "the most threatened column still under 4.9");
    assert!((best(&out).score - 0.45).abs() < 1e-9, "4.5 normalised in the layer's 0..10");
    let q = option("Generation { grid_around_puppet = 1 } Weights { influence_ghosts = 1 }");
    let (out, _) = run(&q, &w.env(&res), objects(v(8.5, 8.5), None));
    let Outcome::Failed(f) = out else { panic!() };
    assert_eq!(f.options[0].reason, FailureReason::UnknownLayer("ghosts".into()));

    // The player at (10.5, 15.5) looks north; we are at (5.5, 10.5): points east of x = 10.5 make
    // us cross his line of fire.
    let player = ObjectState { position: v(10.5, 15.5), forward: v(0.0, -1.0), speed: 0.0 };
    let o = objects(v(5.5, 10.5), None).with(ObjectKind::Player, player);
    let q = option(
        "Generation { grid_around_puppet = 8 } Conditions { crossesLineOfFire_player = false, min_cameraCenter_player = 0 } Weights { cameraCenter_player = -1, distance_from_player = -0.5 }",
    );
    let (out, rec) = run(&q, &w.env(&res), o);
    for c in &rec.options[0].candidates {
        let crosses = segments_intersect(v(5.5, 10.5), c.position, player.position, player.position + v(0.0, -30.0));
        let on_screen = camera_center(player.position, player.forward, c.position, 45.0) >= 0.0;
        let valid = !crosses && on_screen && w.map.passable(cell(c.position));
        assert_eq!(valid, !matches!(c.status, CandidateStatus::Failed(_) | CandidateStatus::Blocked), "{c:?}");
    }
    let r = best(&out).candidate.position;
    assert!(r.x < 10.5 && camera_center(player.position, player.forward, r, 45.0) < 0.25, "near the edge of view: {r}");

    // Random is seeded: the same seed picks the same point, another seed (almost surely) another.
    let q = option("Generation { grid_around_puppet = 5 } Weights { random = 1 }");
    let pick = |seed| {
        let mut req = QueryRequest::new(owner(), objects(v(8.5, 8.5), None));
        req.seed = seed;
        Evaluation::run(Arc::clone(&q), req, &w.env(&res)).0.best().unwrap().candidate.position
    };
    assert_eq!(pick(1), pick(1));
    assert!((2..6).map(pick).any(|p| p != pick(1)));
}

#[test]
fn leftness_picks_the_flank_and_bounds_the_wedge() {
    let w = TestWorld::new(Map::open(20, 20));
    let res = Reservations::new();
    // The target at (10.5, 10.5) faces east; its left is north (+y). We stand 3 m west of it.
    let target = ObjectState { position: v(10.5, 10.5), forward: v(1.0, 0.0), speed: 0.0 };
    let o = objects(v(7.5, 10.5), None).with(ObjectKind::Target, target);
    let q = option(
        "Generation { grid_around_target = 3 } Conditions { min_distance_from_target = 2 } Weights { leftness_of_target = 1, distance_from_target = 0.1 }",
    );
    let (out, _) = run(&q, &w.env(&res), o);
    assert_eq!(best(&out).candidate.position, v(10.5, 13.5), "straight to the left, 3 m off");
    // Sine 1 normalised in −1..1 is 1; 3 m of the 30 m range adds 0.1 × 0.1.
    assert!((best(&out).score - 1.01).abs() < 1e-6, "{}", best(&out).score);
    // As a condition: max_leftness = −0.5 keeps only points at least 30° to the right (south).
    let q = option("Generation { grid_around_target = 3 } Conditions { max_leftness_of_target = -0.5 }");
    let (_, rec2) = run(&q, &w.env(&res), o);
    let mut kept = 0;
    for c in &rec2.options[0].candidates {
        let l = leftness(target.position, target.forward, c.position);
        let passed = !matches!(c.status, CandidateStatus::Failed(_) | CandidateStatus::Blocked);
        assert_eq!(passed, l <= -0.5, "{c:?} leftness {l}");
        kept += usize::from(passed);
    }
    // On the 7×7 grid: rows y = 7.5 .. 9.5 (dy = −3..−1) with dx/dy ratios giving sine ≤ −0.5.
    let expect = (-3i32..=3)
        .flat_map(|dx| (-3i32..=3).map(move |dy| (dx, dy)))
        .filter(|&(dx, dy)| {
            let (x, y) = (dx as f64, dy as f64);
            (x != 0.0 || y != 0.0) && y / (x * x + y * y).sqrt() <= -0.5
        })
        .count();
    assert_eq!(kept, expect);
    assert_eq!(kept, 17, "7 + 7 + 3 points in the three southern rows");
}

#[test]
fn several_results_come_best_first_and_failure_actions_become_commands() {
    let w = TestWorld::new(Map::open(20, 20));
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 2 } Weights { distance_from_referencePoint = -1 }");
    let mut req = QueryRequest::new(
        owner(),
        objects(v(8.5, 8.5), None).with(ObjectKind::ReferencePoint, ObjectState::at(v(15.5, 8.5))),
    );
    req.results = 3;
    let (out, _) = Evaluation::run(Arc::clone(&q), req.clone(), &w.env(&res));
    let Outcome::Found(r) = &out else { panic!() };
    let pts: Vec<Vec2> = r.iter().map(|r| r.candidate.position).collect();
    assert_eq!(pts, vec![v(10.5, 8.5), v(10.5, 7.5), v(10.5, 9.5)]);
    assert_eq!(out, evaluate_exhaustive(&q, &req, &w.env(&res)).0);

    let q = query(
        "query q { option { Generation { grid_around_puppet = 1 } Conditions { min_distance_from_target = 50 } }
          on_failure { signal = \"flank_failed\", scope = \"alpha\", blackboard = \"noFlank\" } }",
    );
    let (out, _) =
        Evaluation::run(q, QueryRequest::new(owner(), objects(v(8.5, 8.5), Some(v(9.5, 9.5)))), &w.env(&res));
    let Outcome::Failed(f) = out else { panic!() };
    assert_eq!(describe_failure(&f), "option 1: 9 failed min_distance_from_target");
    let cmds = f.commands(owner());
    assert_eq!(cmds[0], Command::SetBlackboard { entity: owner(), key: "noFlank".into(), value: Value::Bool(true) });
    assert!(
        matches!(&cmds[1], Command::Request { action: tactica_engine::coord::Action::Signal { scope, id }, .. } if scope == "alpha" && id == "flank_failed")
    );
    // A missing object fails the option with a reason rather than panicking.
    let q = option("Generation { grid_around_leader = 1 }");
    let (out, _) = Evaluation::run(q, QueryRequest::new(owner(), objects(v(8.5, 8.5), None)), &w.env(&res));
    assert_eq!(
        describe_failure(match &out {
            Outcome::Failed(f) => f,
            _ => panic!(),
        }),
        "option 1: object `leader` is not set"
    );
}

#[test]
fn the_record_shows_every_candidate_its_failed_condition_and_each_contribution() {
    let w = TestWorld::new(map(&[".....", ".....", "..#..", ".....", "....."]));
    let res = Reservations::new();
    let q = option(
        "Generation { grid_around_puppet = 1 } Conditions { min_distance_from_puppet = 1 } Weights { distance_from_target = 1, visible_from_target = 2 }",
    );
    let (_, rec) = run(&q, &w.env(&res), objects(v(1.5, 1.5), Some(v(4.5, 4.5))));
    let text = format_record(&rec);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "query q: found 1 point(s) in option 1");
    assert_eq!(lines[1], "option 1 (9 candidates)");
    assert_eq!(lines.len(), 11);
    assert!(lines[6].contains("(  1.50,   1.50) red   score   0.000  failed min_distance_from_puppet | min_distance_from_puppet=0.000 FAIL"), "{}", lines[6]);
    assert!(lines[10].contains("(  2.50,   2.50) red   score   0.000  blocked"), "{}", lines[10]);
    // Independently: the score of each valid point is distance/30 + 2 × visible; ties go to the
    // first generated.
    let (me, target) = (v(1.5, 1.5), v(4.5, 4.5));
    let mut expect: Option<(f64, Vec2)> = None;
    for j in -1..=1 {
        for i in -1..=1 {
            let p = me + v(i as f32, j as f32);
            if p == me || !w.map.passable(cell(p)) {
                continue;
            }
            let seen = tactica_engine::grid::line_of_sight(&w.map, cell(target), cell(p));
            let score = f64::from(p.distance(target)) / 30.0 + if seen { 2.0 } else { 0.0 };
            if expect.is_none_or(|(s, _)| score > s) {
                expect = Some((score, p));
            }
        }
    }
    let (score, p) = expect.unwrap();
    let best_line = lines.iter().find(|l| l.contains("BEST")).unwrap();
    let head = format!("  ({:6.2}, {:6.2}) white score {score:7.3}  BEST", p.x, p.y);
    assert!(best_line.starts_with(&head), "{best_line} vs {head}");
    let d = p.distance(target);
    assert!(
        best_line
            .ends_with(&format!("| distance_from_target={d:.3} +{:.3} | visible_from_target=1.000 +2.000", d / 30.0)),
        "{best_line}"
    );
    assert!(text.contains("blue") || text.contains("green"));
}

#[test]
fn the_library_reloads_and_keeps_the_old_query_on_a_mistake() {
    let mut lib = QueryLibrary::new(QueryConfig::default());
    lib.load_text("a.tac", "query cover { option { Generation { grid_around_puppet = 3 } } }").unwrap();
    let old = lib.get("cover").unwrap();
    let err = lib
        .load_text("a.tac", "query cover { option { Generation { grid_around_puppet = 5 } Weights { bogus = 1 } } }");
    assert!(err.is_err());
    assert!(Arc::ptr_eq(&old, &lib.get("cover").unwrap()), "the old version stays");
    lib.load_text("a.tac", "query cover { option { Generation { grid_around_puppet = 5 } } }").unwrap();
    assert_eq!(lib.get("cover").unwrap().options[0].generators[0].radius, 5.0);
    assert_eq!(old.options[0].generators[0].radius, 3.0, "running evaluations keep their version");
    lib.load_value("v", &map_value(&[("Generation", map_value(&[("grid_around_puppet", Value::Int(1))]))])).unwrap();
    assert_eq!(lib.names().collect::<Vec<_>>(), vec!["cover", "v"]);
}
