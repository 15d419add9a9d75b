//! Every benchmark map loads with the size and passable-cell count counted independently here,
//! and malformed map files give errors with their place, never a panic.

use std::path::{Path, PathBuf};

use tactica_engine::grid::{self, MapErrorKind, shared_data_dir};

/// Width, height and passable count, by reading the text the simplest way possible.
fn count_by_hand(text: &str) -> (usize, usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let header_value = |key: &str| -> usize {
        let line = lines.iter().find(|l| l.starts_with(key)).expect("header line");
        line[key.len()..].trim().parse().expect("number")
    };
    let (w, h) = (header_value("width"), header_value("height"));
    let start = lines.iter().position(|l| l.trim() == "map").expect("map line") + 1;
    let passable =
        lines[start..start + h].iter().flat_map(|l| l.chars()).filter(|c| matches!(c, '.' | 'G' | 'S')).count();
    (w, h, passable)
}

fn benchmark_maps() -> Option<Vec<PathBuf>> {
    let Some(dir) = shared_data_dir() else {
        println!("shared benchmark data not found (../shared/data or TACTICA_DATA): passing over the benchmark maps");
        return None;
    };
    let mut maps: Vec<PathBuf> = std::fs::read_dir(dir.join("maps")).ok()?.flatten().map(|e| e.path()).collect();
    maps.retain(|p| p.extension().is_some_and(|e| e == "map"));
    maps.sort();
    Some(maps)
}

#[test]
fn every_benchmark_map_loads_with_the_counted_size() {
    let Some(maps) = benchmark_maps() else { return };
    assert!(maps.len() >= 20, "expected the 20+ maps of data/README.md, found {}", maps.len());
    for path in &maps {
        let text = std::fs::read_to_string(path).unwrap();
        let (w, h, passable) = count_by_hand(&text);
        let map = grid::load_movingai(path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((map.width() as usize, map.height() as usize), (w, h), "{}", path.display());
        assert_eq!(map.passable_count(), passable, "{}", path.display());
        assert!(map.is_uniform(), "MovingAI maps have unit costs");
    }
}

fn load(bytes: &[u8]) -> Result<grid::Map, grid::MapError> {
    grid::parse_movingai(bytes, Path::new("bad.map"))
}

/// A real map when the shared data is there, else one of our own: malformations are cut from it.
fn sample_map() -> Vec<u8> {
    if let Some(dir) = shared_data_dir()
        && let Ok(bytes) = std::fs::read(dir.join("maps/arena.map"))
    {
        return bytes;
    }
    let mut s = String::from("type octile\nheight 20\nwidth 30\nmap\n");
    for y in 0..20 {
        for x in 0..30 {
            s.push(if (x * 7 + y * 3) % 11 == 0 { '@' } else { '.' });
        }
        s.push('\n');
    }
    s.into_bytes()
}

#[test]
fn truncated_files_are_errors_at_every_cut() {
    let bytes = sample_map();
    let full = load(&bytes).expect("the sample loads");
    let body_start = String::from_utf8_lossy(&bytes).find("map\n").unwrap() + 4;
    // Cut inside the header, at the start of the grid, and inside many rows.
    let mut cuts: Vec<usize> = vec![0, 5, 12, body_start - 1, body_start];
    cuts.extend((body_start + 1..bytes.len() - 1).step_by(97));
    for cut in cuts {
        let r = load(&bytes[..cut]);
        let e = r.expect_err(&format!("cut at {cut} should not load"));
        assert!(e.to_string().starts_with("bad.map"), "{e}");
        // A cut in the middle of a row names that row's line; at a row boundary, the file.
        assert!(
            matches!(
                e.kind,
                MapErrorKind::Truncated { .. }
                    | MapErrorKind::RowLength { .. }
                    | MapErrorKind::Empty
                    | MapErrorKind::MissingHeader(_)
                    | MapErrorKind::BadNumber { .. }
                    | MapErrorKind::UnknownHeader(_)
                    | MapErrorKind::UnsupportedType(_)
            ),
            "cut at {cut}: {e}"
        );
    }
    assert!(full.passable_count() > 0);
}

#[test]
fn oversized_files_are_refused_before_allocating() {
    let e = load(b"type octile\nheight 4000000000\nwidth 4000000000\nmap\n....\n").unwrap_err();
    assert!(matches!(e.kind, MapErrorKind::TooLarge { .. }), "{e}");
    assert_eq!(e.line, 4);
    // More rows than the header says.
    let mut bytes = sample_map();
    bytes.extend_from_slice(&bytes.clone()[bytes.len() - 31..]);
    let e = load(&bytes).unwrap_err();
    assert!(matches!(e.kind, MapErrorKind::TrailingRows | MapErrorKind::RowLength { .. }), "{e}");
    // A row longer than the width.
    let e = load(b"type octile\nheight 2\nwidth 3\nmap\n...\n.....\n").unwrap_err();
    assert_eq!((e.line, e.column), (6, 4));
}

#[test]
fn wrong_headers_are_named() {
    for (text, needle) in [
        ("type octile\nheight 2\nwidht 3\nmap\n", "unknown header line `widht 3`"),
        ("type octile\nheight -2\nwidth 3\nmap\n", "`height` must be a positive whole number, found `-2`"),
        ("type octile\nheight 2\nwidth 3.5\nmap\n", "`width` must be a positive whole number, found `3.5`"),
        ("P5\n640 480\n255\n", "unknown header line `P5`"),
    ] {
        let e = load(text.as_bytes()).unwrap_err();
        assert!(e.to_string().contains(needle), "{text:?} gave {e}");
    }
}

#[test]
fn binary_files_are_refused() {
    // A PNG signature, random bytes, and a map with a NUL in the middle of its grid.
    let png = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n', 0, 0, 0, 13];
    assert_eq!(load(&png).unwrap_err().kind, MapErrorKind::Binary);
    let noise: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    assert!(load(&noise).is_err());
    let mut bytes = sample_map();
    let at = bytes.len() / 2;
    bytes[at] = 0;
    let e = load(&bytes).unwrap_err();
    assert_eq!(e.kind, MapErrorKind::Binary);
    assert!(e.line > 4 && e.column > 0, "{e}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400)) {
        let _ = load(&bytes);
        let _ = grid::parse_ascii(&bytes, Path::new("x.txt"), &grid::TerrainCosts::ascii());
    }

    #[test]
    fn mutated_maps_never_panic(cut in 0usize..2000, byte in proptest::prelude::any::<u8>(), at in 0usize..2000) {
        let mut bytes = sample_map();
        let at = at % bytes.len();
        bytes[at] = byte;
        bytes.truncate(cut.max(1) * bytes.len() / 2000);
        let _ = load(&bytes);
    }
}
