//! Map loaders: MovingAI `.map` files and plain ASCII grids.
//!
//! Both read the whole text first and check it before allocating the grid, so a malformed file is
//! an error naming its line and column — never a panic, never a huge allocation.

use std::path::Path;

use super::error::{MapError, MapErrorKind};
use super::map::{MAX_CELLS, Map};

/// What entering each tile character costs; `None` means the tile is blocked.
#[derive(Debug, Clone)]
pub struct TerrainCosts {
    table: [Option<Option<f32>>; 128],
}

impl TerrainCosts {
    /// MovingAI's rules: `.`, `G` and `S` cost 1; `@`, `O`, `T`, `W` and anything else is blocked.
    pub fn movingai() -> Self {
        let mut t = TerrainCosts { table: [Some(None); 128] };
        for c in [b'.', b'G', b'S'] {
            t.table[c as usize] = Some(Some(1.0));
        }
        t
    }

    /// The ASCII-grid legend: `.` and space open (1), `"` grassland (3), `~` swamp (5) — the book's
    /// terrain example (002b §3.7) — `1`–`9` that cost, `G`/`S` as in MovingAI (1), and `#`, `@`,
    /// `O`, `T`, `W` blocked. Any other character is an error, so a typo in a hand-drawn map is
    /// caught rather than silently walled off.
    pub fn ascii() -> Self {
        let mut t = TerrainCosts { table: [None; 128] };
        for c in [b'.', b' ', b'G', b'S'] {
            t.table[c as usize] = Some(Some(1.0));
        }
        t.table[b'"' as usize] = Some(Some(3.0));
        t.table[b'~' as usize] = Some(Some(5.0));
        for d in 1..=9u8 {
            t.table[(b'0' + d) as usize] = Some(Some(f32::from(d)));
        }
        for c in [b'#', b'@', b'O', b'T', b'W'] {
            t.table[c as usize] = Some(None);
        }
        t
    }

    /// Sets the cost of `tile` (`None` = blocked).
    pub fn set(&mut self, tile: char, cost: Option<f32>) -> &mut Self {
        if let Some(slot) = self.table.get_mut(tile as usize) {
            *slot = Some(cost.map(|c| c.max(1.0)));
        }
        self
    }

    /// The cost of `tile`: `Some(None)` blocked, `Some(Some(c))` passable, `None` unknown.
    pub fn get(&self, tile: u8) -> Option<Option<f32>> {
        self.table.get(tile as usize).copied().flatten()
    }
}

fn err(file: &Path, line: usize, column: usize, kind: MapErrorKind) -> MapError {
    MapError { file: file.to_path_buf(), line, column, kind }
}

/// Checks that `bytes` are text a map can be made of, and returns them as a `str`.
fn as_text<'a>(bytes: &'a [u8], file: &Path) -> Result<&'a str, MapError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, col) = position_of(bytes, e.valid_up_to());
            return Err(err(file, line, col, MapErrorKind::Binary));
        }
    };
    if let Some(at) = text.bytes().position(|b| b.is_ascii_control() && b != b'\n' && b != b'\r' && b != b'\t') {
        let (line, col) = position_of(bytes, at);
        return Err(err(file, line, col, MapErrorKind::Binary));
    }
    Ok(text)
}

fn position_of(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

/// The most bytes a map file is read to: the largest map ([`MAX_CELLS`]) with a CR LF per cell
/// is below it, so only a file that cannot be a map is cut off (a device such as `/dev/zero`
/// would otherwise be read until memory runs out).
const MAX_FILE_BYTES: u64 = 3 * MAX_CELLS;

fn read(path: &Path) -> Result<Vec<u8>, MapError> {
    use std::io::Read;
    let io = |e: std::io::Error| err(path, 0, 0, MapErrorKind::Io(e.to_string()));
    let mut bytes = Vec::new();
    std::fs::File::open(path).map_err(io)?.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        let message = format!("the file is over {} MiB, more than any map can take", MAX_FILE_BYTES >> 20);
        return Err(err(path, 0, 0, MapErrorKind::Io(message)));
    }
    Ok(bytes)
}

/// Loads a MovingAI `.map` file.
pub fn load_movingai(path: &Path) -> Result<Map, MapError> {
    parse_movingai(&read(path)?, path)
}

/// Loads a plain ASCII grid with the [`TerrainCosts::ascii`] legend.
pub fn load_ascii(path: &Path) -> Result<Map, MapError> {
    parse_ascii(&read(path)?, path, &TerrainCosts::ascii())
}

/// Parses the bytes of a MovingAI `.map` file; `file` names it in errors.
///
/// The header (`type`, `height`, `width`, in any order) ends at the line `map`; then come exactly
/// `height` rows of `width` characters. Blank lines after the last row are allowed.
pub fn parse_movingai(bytes: &[u8], file: &Path) -> Result<Map, MapError> {
    let text = as_text(bytes, file)?;
    if text.trim().is_empty() {
        return Err(err(file, 0, 0, MapErrorKind::Empty));
    }
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate();
    let (mut width, mut height): (Option<u64>, Option<u64>) = (None, None);
    let mut seen_type = false;
    let mut header_end = None;
    for (i, line) in lines.by_ref() {
        let lineno = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let mut words = trimmed.split_whitespace();
        let key = words.next().unwrap_or_default();
        let value = words.next();
        match key.to_ascii_lowercase().as_str() {
            "map" => {
                header_end = Some(lineno);
                break;
            }
            "type" => {
                if std::mem::replace(&mut seen_type, true) {
                    return Err(err(file, lineno, 1, MapErrorKind::DuplicateHeader("type")));
                }
                if !value.is_some_and(|v| v.eq_ignore_ascii_case("octile")) {
                    let col = value.and_then(|v| line.find(v)).map_or(line.len() + 1, |c| c + 1);
                    return Err(err(file, lineno, col, MapErrorKind::UnsupportedType(value.unwrap_or("").to_owned())));
                }
            }
            k @ ("height" | "width") => {
                let name: &'static str = if k == "height" { "height" } else { "width" };
                let n = value.and_then(|v| v.parse::<u64>().ok()).filter(|&n| n > 0).ok_or_else(|| {
                    let col = line.find(value.unwrap_or(key)).map_or(1, |c| c + 1);
                    err(file, lineno, col, MapErrorKind::BadNumber { key: name, found: value.unwrap_or("").to_owned() })
                })?;
                let slot = if name == "height" { &mut height } else { &mut width };
                if slot.replace(n).is_some() {
                    return Err(err(file, lineno, 1, MapErrorKind::DuplicateHeader(name)));
                }
            }
            _ => {
                let shown: String = trimmed.chars().take(40).collect();
                return Err(err(file, lineno, 1, MapErrorKind::UnknownHeader(shown)));
            }
        }
    }
    let Some(map_line) = header_end else {
        return Err(err(file, 0, 0, MapErrorKind::MissingHeader("map")));
    };
    let missing = |h| err(file, map_line, 1, MapErrorKind::MissingHeader(h));
    // `type` may be missing: shipped files such as Dragon Age's lak503d.map omit it, and octile
    // is the only grid type the format has.
    let height = height.ok_or_else(|| missing("height"))?;
    let width = width.ok_or_else(|| missing("width"))?;
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(err(file, map_line, 0, MapErrorKind::TooLarge { width, height }));
    }
    let (w, h) = (width as usize, height as usize);
    let costs = TerrainCosts::movingai();
    let mut tiles = Vec::with_capacity(w * h);
    let mut cost = Vec::with_capacity(w * h);
    let mut rows = 0;
    for (i, line) in lines {
        let lineno = i + 1;
        if rows == h {
            if !line.trim().is_empty() {
                return Err(err(file, lineno, 1, MapErrorKind::TrailingRows));
            }
            continue;
        }
        let n = line.chars().count();
        if n != w {
            if line.is_empty() && i + 1 == text.split('\n').count() {
                break; // the final newline, not a row
            }
            return Err(err(file, lineno, n.min(w) + 1, MapErrorKind::RowLength { expected: w, found: n }));
        }
        for (col, ch) in line.chars().enumerate() {
            if !ch.is_ascii() {
                return Err(err(file, lineno, col + 1, MapErrorKind::UnknownTile(ch)));
            }
            let b = ch as u8;
            tiles.push(b);
            cost.push(costs.get(b).flatten().unwrap_or(f32::INFINITY));
        }
        rows += 1;
    }
    if rows < h {
        return Err(err(file, 0, 0, MapErrorKind::Truncated { expected: h, found: rows }));
    }
    Ok(Map::from_parts(width as u32, height as u32, tiles, cost))
}

/// Parses a plain ASCII grid: every non-empty line is a row, all rows as long as the first; each
/// character is looked up in `legend`.
pub fn parse_ascii(bytes: &[u8], file: &Path, legend: &TerrainCosts) -> Result<Map, MapError> {
    let text = as_text(bytes, file)?;
    let rows: Vec<(usize, &str)> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let Some(&(_, first)) = rows.first() else {
        return Err(err(file, 0, 0, MapErrorKind::Empty));
    };
    let w = first.chars().count();
    if (w as u64).saturating_mul(rows.len() as u64) > MAX_CELLS {
        return Err(err(file, 0, 0, MapErrorKind::TooLarge { width: w as u64, height: rows.len() as u64 }));
    }
    let mut tiles = Vec::with_capacity(w * rows.len());
    let mut cost = Vec::with_capacity(w * rows.len());
    for &(i, line) in &rows {
        let n = line.chars().count();
        if n != w {
            return Err(err(file, i + 1, n.min(w) + 1, MapErrorKind::Ragged { expected: w, found: n }));
        }
        for (col, ch) in line.chars().enumerate() {
            let known = ch.is_ascii().then_some(ch as u8).and_then(|b| legend.get(b).map(|c| (b, c)));
            let Some((b, c)) = known else {
                return Err(err(file, i + 1, col + 1, MapErrorKind::UnknownTile(ch)));
            };
            tiles.push(b);
            cost.push(c.unwrap_or(f32::INFINITY));
        }
    }
    Ok(Map::from_parts(w as u32, rows.len() as u32, tiles, cost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::IVec2;

    fn movingai(text: &str) -> Result<Map, MapError> {
        parse_movingai(text.as_bytes(), Path::new("t.map"))
    }

    #[test]
    fn reads_a_header_in_any_order() {
        let m = movingai("width 3\ntype octile\nheight 2\nmap\n.@.\nGTS\n").unwrap();
        assert_eq!(movingai("width 3\nheight 2\nmap\n.@.\nGTS\n").unwrap(), m, "`type` may be left out");
        assert_eq!((m.width(), m.height()), (3, 2));
        assert_eq!(m.passable_count(), 4);
        assert!(!m.passable(IVec2::new(1, 1)));
        assert!(m.passable(IVec2::new(2, 1)));
    }

    #[test]
    fn accepts_crlf_and_trailing_blank_lines() {
        let m = movingai("type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n..\r\n\r\n").unwrap();
        assert_eq!(m.passable_count(), 2);
    }

    #[test]
    fn every_malformation_is_an_error_at_its_place() {
        let cases: &[(&str, usize, usize, &str)] = &[
            ("", 0, 0, "empty"),
            ("type octile\nheight 2\nwidth 2\nmap\n..\n", 0, 0, "truncated"),
            ("type octile\nheight 1\nwidth 2\nmap\n...\n", 5, 3, "row has 3 cells"),
            ("type octile\nheight 1\nwidth 2\nmap\n..\n..\n", 6, 1, "more rows"),
            ("type octile\nheight x\nwidth 2\nmap\n..\n", 2, 8, "positive whole number"),
            ("type octile\nheight 0\nwidth 2\nmap\n", 2, 8, "positive whole number"),
            ("type octile\nwidth 2\nmap\n..\n", 3, 1, "no `height`"),
            ("type hex\nheight 1\nwidth 2\nmap\n..\n", 1, 6, "only `octile`"),
            ("type octile\nheight 1\nwidth 2\n", 0, 0, "no `map`"),
            ("colour blue\n", 1, 1, "unknown header"),
            ("type octile\nheight 1\nheight 1\n", 3, 1, "given twice"),
            ("type octile\nheight 100000\nwidth 100000\nmap\n", 4, 0, "larger than"),
            ("type octile\nheight 1\nwidth 2\nmap\n.\u{e9}\n", 5, 2, "unknown tile"),
        ];
        for &(text, line, col, needle) in cases {
            let e = movingai(text).expect_err(text);
            assert_eq!((e.line, e.column), (line, col), "{text:?} → {e}");
            assert!(e.to_string().contains(needle), "{text:?} → {e}");
            assert!(e.to_string().starts_with("t.map"), "{e}");
        }
    }

    #[test]
    fn binary_input_is_refused_with_its_position() {
        let e = parse_movingai(b"type octile\nhei\x00ght", Path::new("b.map")).unwrap_err();
        assert_eq!((e.kind.clone(), e.line, e.column), (MapErrorKind::Binary, 2, 4));
        let e = parse_movingai(&[0xff, 0xfe, 0x00, 0x41], Path::new("b.map")).unwrap_err();
        assert_eq!(e.kind, MapErrorKind::Binary);
    }

    #[test]
    fn ascii_grids_use_the_legend() {
        let m = parse_ascii(b"..#\n\"~3\n", Path::new("a.txt"), &TerrainCosts::ascii()).unwrap();
        assert_eq!(m.costs(), &[1.0, 1.0, f32::INFINITY, 3.0, 5.0, 3.0]);
        let e = parse_ascii(b"..#\n.q.\n", Path::new("a.txt"), &TerrainCosts::ascii()).unwrap_err();
        assert_eq!((e.line, e.column, e.kind), (2, 2, MapErrorKind::UnknownTile('q')));
        let e = parse_ascii(b"..#\n..\n", Path::new("a.txt"), &TerrainCosts::ascii()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(
            parse_ascii(b"\n\n", Path::new("a.txt"), &TerrainCosts::ascii()).unwrap_err().kind,
            MapErrorKind::Empty
        );
    }

    #[test]
    fn a_custom_legend_can_open_and_close_tiles() {
        let mut legend = TerrainCosts::ascii();
        legend.set('q', Some(2.0)).set('.', None);
        let m = parse_ascii(b"q.", Path::new("a.txt"), &legend).unwrap();
        assert_eq!(m.costs(), &[2.0, f32::INFINITY]);
    }
}
