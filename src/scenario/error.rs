//! Why a scenario could not be loaded.

use std::fmt;
use std::path::PathBuf;

/// A place in a source file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SourcePos {
    /// 1-based line (0 = the whole file).
    pub line: usize,
    /// 1-based column (0 = the whole line).
    pub column: usize,
}

impl SourcePos {
    /// The line and column of byte `offset` in `text`.
    pub fn of(text: &str, offset: usize) -> Self {
        let mut end = offset.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &text[..end];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        SourcePos { line, column }
    }
}

/// A scenario that could not be loaded, with where and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct ScenarioError {
    /// The file at fault (the scenario, or the map or script it names).
    pub file: PathBuf,
    /// Where in it.
    pub pos: SourcePos,
    /// What was wrong.
    pub message: String,
    /// How to fix it, when we can tell.
    pub hint: Option<String>,
}

impl ScenarioError {
    pub(crate) fn new(file: impl Into<PathBuf>, pos: SourcePos, message: impl Into<String>) -> Self {
        ScenarioError { file: file.into(), pos, message: message.into(), hint: None }
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.pos.line > 0 {
            write!(f, ":{}", self.pos.line)?;
            if self.pos.column > 0 {
                write!(f, ":{}", self.pos.column)?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_chars() {
        let t = "ab\ncdé\nf";
        assert_eq!(SourcePos::of(t, 0), SourcePos { line: 1, column: 1 });
        assert_eq!(SourcePos::of(t, 3), SourcePos { line: 2, column: 1 });
        assert_eq!(SourcePos::of(t, 7), SourcePos { line: 2, column: 4 });
        assert_eq!(SourcePos::of(t, 6), SourcePos { line: 2, column: 3 }, "inside a character: that character");
        assert_eq!(SourcePos::of(t, 8), SourcePos { line: 3, column: 1 });
        assert_eq!(SourcePos::of(t, 99), SourcePos { line: 3, column: 2 });
    }
}
