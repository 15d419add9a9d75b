//! Load-time diagnostics: each error kind, with file and line for text and the key path for
//! `Value` maps.

use std::collections::BTreeMap;

use tactica_engine::Value;
use tactica_engine::tactics::query::*;
use tactica_syntax::Code;

fn text_errors(src: &str) -> Vec<QueryError> {
    parse_queries("cover.tac", src, QueryConfig::default()).expect_err("must be rejected").0
}

fn at(line: u32, column: u32) -> Location {
    Location::File { file: "cover.tac".into(), line, column }
}

fn map(entries: &[(&str, Value)]) -> Value {
    Value::Map(entries.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect::<BTreeMap<_, _>>())
}

#[test]
fn unknown_keyword_suggests_the_closest_and_points_at_the_line() {
    let e = text_errors(
        "query q {
    option {
        Generation { grid_around_puppet = 10 }
        Weights { distanse_from_puppet = -1 }
    }
}",
    );
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].location, at(4, 19));
    assert_eq!(
        e[0].kind,
        QueryErrorKind::UnknownKeyword {
            key: "distanse_from_puppet".into(),
            word: "distanse".into(),
            suggestion: Some("distance".into())
        }
    );
    assert_eq!(
        e[0].to_string(),
        "cover.tac:4:19: [E0091] unknown keyword `distanse` in `distanse_from_puppet`; did you mean `distance`?"
    );
    // An unknown object gets an object suggestion.
    let e = text_errors("query q { option { Generation { grid_around_pupet = 3 } } }");
    assert!(
        matches!(&e[0].kind, QueryErrorKind::UnknownKeyword { word, suggestion: Some(s), .. } if word == "pupet" && s == "puppet")
    );
    // An unknown section too.
    let e = text_errors("query q { option {\n Generation { grid_around_puppet = 3 }\n Wieghts { random = 1 } } }");
    assert_eq!(e[0].location, at(3, 2));
    assert!(matches!(&e[0].kind, QueryErrorKind::UnknownSection { suggestion: Some(s), .. } if s == "Weights"));
}

#[test]
fn keyword_in_the_wrong_section_says_where_it_belongs() {
    let src = "query q {
  option {
    Generation { grid_around_puppet = 10, distance_from_puppet = 1 }
    Conditions { hidespots_around_puppet = 5 }
    Weights { min_distance_from_puppet = 5 }
  }
  option {
    Generation { grid_around_puppet = 10 }
    Conditions { distance_from_puppet = 5, min_visible_from_target = 1 }
  }
}";
    let e = text_errors(src);
    let got: Vec<(u32, &str)> = e
        .iter()
        .map(|e| match (&e.location, &e.kind) {
            (Location::File { line, .. }, QueryErrorKind::WrongSection { key, .. }) => (*line, key.as_str()),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (4, "hidespots_around_puppet"),
            (3, "distance_from_puppet"),
            (5, "min_distance_from_puppet"),
            (9, "distance_from_puppet"),
            (9, "min_visible_from_target"),
        ]
    );
    assert!(e[1].to_string().contains("belongs in Conditions or Weights"));
    assert!(e[3].to_string().contains("write min_distance_from_puppet or max_distance_from_puppet"));
}

#[test]
fn missing_object_names_a_corrected_key() {
    let e = text_errors(
        "query q {\n option {\n  Generation { grid = 10 }\n  Weights { distance = -1, visible_the = 1 }\n }\n}",
    );
    let kinds: Vec<_> = e.iter().map(|e| (e.location.clone(), e.kind.clone())).collect();
    assert_eq!(
        kinds[0],
        (
            at(3, 16),
            QueryErrorKind::MissingObject {
                key: "grid".into(),
                what: "a centre object",
                example: "grid_around_puppet".into()
            }
        )
    );
    assert!(
        matches!(&kinds[1], (l, QueryErrorKind::MissingObject { key, .. }) if *l == at(4, 13) && key == "distance")
    );
    assert!(matches!(&kinds[2], (_, QueryErrorKind::MissingObject { key, .. }) if key == "visible_the"));
    // A property of the point takes no object; a criterion takes one.
    let e = text_errors(
        "query q { option { Generation { grid_around_puppet = 1 } Weights { softCover_from_target = 1, distance_from_puppet_to_target = 1 } } }",
    );
    assert!(e.iter().all(|e| matches!(e.kind, QueryErrorKind::UnexpectedObject { .. })), "{e:?}");
}

#[test]
fn bad_value_types_are_reported_with_the_expected_type() {
    let src = "query q {
 option {
  Generation { grid_around_puppet = \"far\" }
  Conditions { visible_from_target = 0, min_distance_from_puppet = true }
  Weights { distance_from_puppet = { x = 1 } }
 }
}";
    let e = text_errors(src);
    let got: Vec<(Location, String, &str)> = e
        .iter()
        .map(|e| match &e.kind {
            QueryErrorKind::BadValue { key, expected, .. } => (e.location.clone(), key.clone(), *expected),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    // Sections in key order (Conditions, Generation, Weights), keys in key order within each.
    assert_eq!(got[0], (at(4, 41), "min_distance_from_puppet".into(), "a number (the raw limit)"));
    assert_eq!(got[1], (at(4, 16), "visible_from_target".into(), "true or false"));
    assert_eq!(got[2], (at(3, 16), "grid_around_puppet".into(), "a radius (number) or {radius = …, spacing = …}"));
    assert_eq!(got[3], (at(5, 13), "distance_from_puppet".into(), "a number (the weight)"));
    assert!(e[1].to_string().ends_with("expects true or false, found int 0"));
}

#[test]
fn value_maps_report_key_paths() {
    // The Lua table {Generation = {...}, Conditions = {...}} as the binding hands it over.
    let q = map(&[
        ("Generation", map(&[("hidespots_from_target_around_puppet", Value::Int(15))])),
        ("Conditions", map(&[("min_distance_from_puppet", Value::Str("5".into()))])),
        ("Weights", map(&[("distanceFrom_puppet", Value::Float(-1.0))])),
    ]);
    let e = compile_value("cover", &q, QueryConfig::default()).unwrap_err().0;
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].location, Location::KeyPath("Conditions.min_distance_from_puppet".into()));
    assert!(matches!(e[0].kind, QueryErrorKind::BadValue { .. }));
    assert_eq!(e[1].location, Location::KeyPath("Weights.distanceFrom_puppet".into()));
    assert!(matches!(&e[1].kind, QueryErrorKind::UnknownKeyword { suggestion: Some(s), .. } if s == "distance"));
    // Options in a list name their index.
    let q = Value::List(vec![map(&[("Generation", map(&[("grid_around_leader", Value::Bool(true))]))])]);
    let e = compile_value("q", &q, QueryConfig::default()).unwrap_err().0;
    assert_eq!(e[0].location, Location::KeyPath("[0].Generation.grid_around_leader".into()));
    assert_eq!(
        e[0].to_string(),
        "[0].Generation.grid_around_leader: [E0092] `grid_around_leader` expects a radius (number) or {radius = …, spacing = …}, found bool true"
    );
}

#[test]
fn syntax_errors_and_empty_options_have_positions() {
    let e = text_errors("query q {\n option {\n  Generation { grid_around_puppet 10 }\n }\n}");
    assert_eq!(e[0].location, at(3, 35));
    assert!(
        matches!(&e[0].kind, QueryErrorKind::Syntax { code: Code::Syntax, message: m, label: l, .. } if m == "unexpected `10`" && l == "expected `=` or `{`"),
        "{e:?}"
    );
    let e = text_errors("query q {\n option {\n  Weights { random = 1 }\n }\n}");
    assert_eq!(e[0].location, at(2, 2));
    assert_eq!(e[0].kind, QueryErrorKind::NoGeneration { option: 1 });
    let e = text_errors("query q { option { Generation { grid_around_puppet = 1 } }");
    assert!(
        matches!(&e[0].kind, QueryErrorKind::Syntax { message: m, .. } if m == "this block is never closed"),
        "{e:?}"
    );
    assert_eq!(e[0].location, at(1, 9), "where the unclosed block opens");
    let e = text_errors("query q { option { Generation { grid_around_puppet = 1 } } } $");
    assert_eq!(e[0].location, at(1, 62));
}
