//! Positions: LSP counts lines from 0 and columns in UTF-16 code units; the front end counts byte
//! offsets. [`LineIndex`] converts between them, and finds the word under the cursor.

use lsp_types::{Position, Range};

/// The start of every line of a text, for converting byte offsets and LSP positions.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`'s lines (split at `\n`; a `\r` before it belongs to the line's end).
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The LSP position of byte offset `at` (clamped to the text, and back to a char boundary).
    pub fn position(&self, text: &str, at: usize) -> Position {
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= at) - 1;
        let character = text[self.starts[line]..at].encode_utf16().count();
        Position::new(to_u32(line), to_u32(character))
    }

    /// The LSP range of the byte range `span`.
    pub fn range(&self, text: &str, span: &std::ops::Range<usize>) -> Range {
        Range::new(self.position(text, span.start), self.position(text, span.end.max(span.start)))
    }

    /// The byte offset of an LSP position; a position past a line's end is the line's end, one past
    /// the last line the text's end, and one inside a surrogate pair the character's start.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else { return text.len() };
        let end = self.starts.get(pos.line as usize + 1).map_or(text.len(), |&e| e - 1);
        let line = text[start..end].strip_suffix('\r').unwrap_or(&text[start..end]);
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            let next = units + c.len_utf16() as u32;
            if next > pos.character {
                return start + i;
            }
            units = next;
        }
        start + line.len()
    }

    /// The LSP position of 1-based `line` and `column` counted in characters (how script
    /// errors and [`tactica_script::diagnostics::line_col`] count); 0 means unknown and is the
    /// line's or the text's start.
    pub fn position_of_line_col(&self, text: &str, line: u32, column: u32) -> Position {
        let Some(&start) = self.starts.get(line.saturating_sub(1) as usize) else {
            return self.position(text, text.len());
        };
        let rest = &text[start..];
        let line_text = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let at = line_text.char_indices().nth(column.saturating_sub(1) as usize).map_or(line_text.len(), |(i, _)| i);
        self.position(text, start + at)
    }

    /// The whole of 1-based `line`, as an LSP range (what a script error without a column marks).
    pub fn line_range(&self, text: &str, line: u32) -> Range {
        let start = self.starts.get(line.saturating_sub(1) as usize).copied().unwrap_or(text.len());
        let rest = &text[start..];
        let end = start + rest.find('\n').unwrap_or(rest.len());
        let end = if text[..end].ends_with('\r') { end - 1 } else { end };
        Range::new(self.position(text, start), self.position(text, end))
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Whether `c` may be part of a name: a script name, or a dotted global like `creature.state`.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The name at byte offset `at` (the cursor may stand just after it), with its byte range.
pub fn word_at(text: &str, at: usize) -> Option<(&str, std::ops::Range<usize>)> {
    let at = at.min(text.len());
    if !text.is_char_boundary(at) {
        return None;
    }
    let start = text[..at].char_indices().rev().take_while(|&(_, c)| is_name_char(c)).last().map_or(at, |(i, _)| i);
    let end = at + text[at..].find(|c: char| !is_name_char(c)).unwrap_or(text.len() - at);
    let word = &text[start..end];
    (!word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit())).then_some((word, start..end))
}

/// The part of the name before byte offset `at` (what completion filters by).
pub fn prefix_at(text: &str, at: usize) -> &str {
    let at = at.min(text.len());
    if !text.is_char_boundary(at) {
        return "";
    }
    let start = text[..at].char_indices().rev().take_while(|&(_, c)| is_name_char(c)).last().map_or(at, |(i, _)| i);
    &text[start..at]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        // `é` is one UTF-16 unit and two bytes; `😀` is two units and four bytes.
        let text = "a\nSay(\"é😀\"); Sya(1);\r\nend";
        let idx = LineIndex::new(text);
        let at = text.find("Sya").unwrap();
        assert_eq!(idx.position(text, at), Position::new(1, 12));
        assert_eq!(idx.offset(text, Position::new(1, 12)), at);
        assert_eq!(idx.offset(text, Position::new(1, 99)), text.find("\r\n").unwrap());
        assert_eq!(idx.offset(text, Position::new(9, 0)), text.len());
        // Inside the surrogate pair: the emoji's start.
        let emoji = text.find('😀').unwrap();
        assert_eq!(idx.offset(text, Position::new(1, 7)), emoji);
        assert_eq!(idx.position_of_line_col(text, 2, 12), Position::new(1, 12));
        assert_eq!(idx.line_range(text, 2), Range::new(Position::new(1, 0), Position::new(1, 19)));
        assert_eq!(idx.position(text, text.len()), Position::new(2, 3));
    }

    #[test]
    fn words_under_the_cursor() {
        let text = "MoveTo(kDock); é";
        assert_eq!(word_at(text, 2).map(|w| w.0), Some("MoveTo"));
        assert_eq!(word_at(text, 6).map(|w| w.0), Some("MoveTo"));
        assert_eq!(word_at(text, 9).map(|w| w.0), Some("kDock"));
        assert_eq!(word_at(text, 14), None);
        assert_eq!(prefix_at(text, 9), "kD");
        assert_eq!(word_at(text, text.len()), None);
    }
}
