//! The evaluator over the engine's own data: the waypoint database, grid A* and field layers.

use std::collections::BTreeMap;

use glam::IVec2;
use tactica_engine::field::Layer;
use tactica_engine::grid::Map;
use tactica_engine::tactics::query::*;
use tactica_engine::tactics::{Origin, Property, Waypoint, WaypointDb};

use super::common::*;

fn waypoint(x: i32, y: i32, dirs: [f32; 4], cover: f32, tags: &[&str]) -> Waypoint {
    let mut w = Waypoint::new(IVec2::new(x, y), Origin::Placed);
    w.cover_by_direction = dirs;
    w.properties.set(Property::Cover, cover);
    w.tags = tags.iter().map(|t| (*t).to_owned()).collect();
    w
}

#[test]
fn waypoint_database_hidespots_keep_the_cones_that_face_the_target() {
    let mut db = WaypointDb::new();
    // [north, east, south, west]
    let east = db.add(waypoint(12, 10, [0.0, 0.9, 0.0, 0.0], 0.8, &[]));
    let _west = db.add(waypoint(8, 10, [0.0, 0.0, 0.0, 0.9], 0.8, &[]));
    let north_east = db.add(waypoint(10, 8, [0.7, 0.6, 0.0, 0.0], 0.0, &["soft"]));
    let all_round = db.add(waypoint(10, 12, [0.0; 4], 0.4, &["low"]));
    let _rally = db.add(waypoint(11, 11, [0.0; 4], 0.0, &[]));
    let map = Map::open(30, 30);
    let res = Reservations::new();
    let env = QueryEnv { hidespots: &db, ..QueryEnv::new(&map, &res) };
    let q =
        option("Generation { hidespots_from_target_around_puppet = 10 } Weights { hardCover = 1, coverQuality = 0.5 }");
    let (out, rec) = run(&q, &env, objects(v(10.5, 10.5), Some(v(25.5, 9.5))));
    let ids: Vec<PointSource> = rec.options[0].candidates.iter().map(|c| c.source).collect();
    assert_eq!(
        ids,
        vec![PointSource::Hidespot(east.0), PointSource::Hidespot(north_east.0), PointSource::Hidespot(all_round.0)]
    );
    assert_eq!(best(&out).candidate.source, PointSource::Hidespot(east.0));
    assert!((best(&out).score - 1.4).abs() < 1e-6, "hard (1) + quality 0.8 × 0.5");
    let soft = rec.options[0].candidates[1].tests.iter().find(|t| t.key == "hardCover").unwrap();
    assert_eq!(soft.raw, 0.0);
}

#[test]
fn astar_path_distance_and_field_layers_drive_criteria() {
    let m = map(&["........", "..#.....", "..#.....", "..#.....", "........"]);
    let oracle = AStarOracle::new(&m);
    let mut layers = BTreeMap::new();
    let mut threat = Layer::new(8, 5);
    threat.set(IVec2::new(0, 2), 4.0);
    threat.set(IVec2::new(4, 2), 2.0);
    layers.insert("threat".to_owned(), threat);
    let res = Reservations::new();
    let env = QueryEnv { paths: &oracle, influence: &layers, ..QueryEnv::new(&m, &res) };
    let q = option(
        "Generation { grid_around_puppet = 2 } Conditions { max_pathDistance_from_puppet = 2.5 } Weights { distance_from_puppet = 1 }",
    );
    let (out, rec) = run(&q, &env, objects(v(1.5, 2.5), None));
    // Straight through the wall is 2 away; round its end (no corner cutting) it is 6 straight steps.
    assert_eq!(oracle.path_distance(v(1.5, 2.5), v(3.5, 2.5)), Some(6.0));
    let across = rec.options[0].candidates.iter().find(|c| c.position == v(3.5, 2.5)).unwrap();
    assert!(
        matches!(&across.status, CandidateStatus::Failed(k) if k == "max_pathDistance_from_puppet")
            || across.status == CandidateStatus::Partial,
        "{across:?}"
    );
    assert!(across.max_score < best(&out).score || across.status != CandidateStatus::Partial);
    // The farthest point within 2.5 of path: two straight steps or one diagonal and one straight.
    let r = best(&out);
    assert!(r.candidate.position.x < 2.0);
    assert_eq!(r.candidate.position, v(0.5, 0.5));
    let q = option("Generation { grid_around_puppet = 1 } Weights { influence_threat = 1 }");
    let (out, _) = run(&q, &env, objects(v(1.5, 2.5), None));
    assert_eq!(best(&out).candidate.position, v(0.5, 2.5));
    assert_eq!(best(&out).score, 1.0, "4 is the top of the layer's range 0..4");
}
