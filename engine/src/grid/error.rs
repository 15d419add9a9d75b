//! Why a map could not be loaded.

use std::fmt;
use std::path::PathBuf;

/// A map file that could not be loaded: which file, where, and what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct MapError {
    /// The file (or the name given to text parsed from memory).
    pub file: PathBuf,
    /// 1-based line; 0 when the problem is the file as a whole.
    pub line: usize,
    /// 1-based column; 0 when the problem is a whole line.
    pub column: usize,
    /// What was wrong.
    pub kind: MapErrorKind,
}

/// The ways a map file can be wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapErrorKind {
    /// The file could not be read.
    Io(String),
    /// The bytes are not text (not UTF-8, or control characters such as NUL).
    Binary,
    /// The file is empty.
    Empty,
    /// A header line that is not `type`, `height`, `width` or `map`.
    UnknownHeader(String),
    /// A header value that is not a positive whole number.
    BadNumber {
        /// The header key.
        key: &'static str,
        /// What stood there.
        found: String,
    },
    /// A `type` other than `octile`.
    UnsupportedType(String),
    /// A required header line is missing.
    MissingHeader(&'static str),
    /// The same header appears twice.
    DuplicateHeader(&'static str),
    /// The dimensions exceed [`super::MAX_CELLS`].
    TooLarge {
        /// Declared width.
        width: u64,
        /// Declared height.
        height: u64,
    },
    /// A row is shorter or longer than the declared width.
    RowLength {
        /// Declared width.
        expected: usize,
        /// Actual length.
        found: usize,
    },
    /// Fewer rows than the declared height: the file is truncated.
    Truncated {
        /// Declared height.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// More non-blank lines after the last row.
    TrailingRows,
    /// A tile character the legend does not know.
    UnknownTile(char),
    /// An ASCII grid with rows of different lengths.
    Ragged {
        /// Length of the first row.
        expected: usize,
        /// Length of this row.
        found: usize,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": {}", self.kind)
    }
}

impl fmt::Display for MapErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MapErrorKind as K;
        match self {
            K::Io(e) => write!(f, "cannot read the map: {e}"),
            K::Binary => write!(
                f,
                "this is not a text map file (binary or control characters); hint: a MovingAI map starts with `type octile`"
            ),
            K::Empty => write!(
                f,
                "the map file is empty; hint: a MovingAI map starts with `type octile`, `height H`, `width W`, `map`"
            ),
            K::UnknownHeader(h) => {
                write!(f, "unknown header line `{h}`; hint: expected `type`, `height`, `width` or `map`")
            }
            K::BadNumber { key, found } => write!(f, "`{key}` must be a positive whole number, found `{found}`"),
            K::UnsupportedType(t) => {
                write!(f, "map type `{t}` is not supported; hint: only `octile` grids exist in the MovingAI format")
            }
            K::MissingHeader(h) => write!(
                f,
                "the header has no `{h}` line; hint: a MovingAI header is `type octile`, `height H`, `width W`, then `map`"
            ),
            K::DuplicateHeader(h) => write!(f, "`{h}` is given twice in the header"),
            K::TooLarge { width, height } => {
                write!(f, "a {width}×{height} map is larger than the {} cells a map may have", super::MAX_CELLS)
            }
            K::RowLength { expected, found } => {
                write!(f, "this row has {found} cells but the header says the width is {expected}")
            }
            K::Truncated { expected, found } => {
                write!(f, "the file ends after {found} rows but the header says the height is {expected}: truncated?")
            }
            K::TrailingRows => write!(f, "more rows after the last one the header's height allows"),
            K::UnknownTile(c) => write!(
                f,
                "unknown tile {c:?}; hint: use `.` for floor, `#` or `@` for walls, `1`-`9` for terrain costs"
            ),
            K::Ragged { expected, found } => {
                write!(f, "this row has {found} cells but the first row has {expected}; every row must be as long")
            }
        }
    }
}
