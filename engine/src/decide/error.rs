//! The one error type of the decision models.

use thiserror::Error;

/// What went wrong while loading or driving a decision model. Data files report the line and
/// column of the mistake; bad input never panics.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum DecideError {
    /// A data file (TOML) could not be read.
    #[error("{line}:{column}: {message}")]
    Parse {
        /// 1-based line of the mistake (0 when unknown).
        line: usize,
        /// 1-based column of the mistake (0 when unknown).
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// An expression (guard, fuzzy rule, rule condition) could not be parsed.
    #[error(
        "in `{source_text}` at offset {offset}: [{code}] {message}{}",
        hint.as_ref().map(|h| format!("; {h}")).unwrap_or_default()
    )]
    Expression {
        /// The expression text.
        source_text: String,
        /// Byte offset of the mistake.
        offset: usize,
        /// The diagnostic code (`tactica explain` says more).
        code: tactica_syntax::Code,
        /// How to fix it, when the front end can tell.
        hint: Option<String>,
        /// What was wrong.
        message: String,
    },
    /// A name (state, fact, variable, set, node, option …) is not defined.
    #[error("unknown {kind} `{name}`")]
    Unknown {
        /// What kind of thing was looked up.
        kind: &'static str,
        /// The name that was not found.
        name: String,
    },
    /// A name is defined twice.
    #[error("duplicate {kind} `{name}`")]
    Duplicate {
        /// What kind of thing.
        kind: &'static str,
        /// The name.
        name: String,
    },
    /// A model is structurally wrong (a table of the wrong size, a cycle, an empty list …).
    #[error("invalid {what}: {message}")]
    Invalid {
        /// Which part of the model.
        what: String,
        /// What was wrong.
        message: String,
    },
}

impl DecideError {
    /// A [`DecideError::Invalid`].
    pub(crate) fn invalid(what: impl Into<String>, message: impl Into<String>) -> Self {
        DecideError::Invalid { what: what.into(), message: message.into() }
    }

    /// A [`DecideError::Unknown`].
    pub(crate) fn unknown(kind: &'static str, name: impl Into<String>) -> Self {
        DecideError::Unknown { kind, name: name.into() }
    }
}

/// Parses a TOML document into `T`, turning the parser's byte span into a line and column.
pub(crate) fn from_toml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, DecideError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((0, 0), |span| line_column(text, span.start));
        DecideError::Parse { line, column, message: e.message().to_owned() }
    })
}

/// 1-based line and column of a byte offset.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Doc {
        #[allow(dead_code)]
        x: u32,
    }

    #[test]
    fn toml_errors_carry_line_and_column() {
        let err = from_toml::<Doc>("# comment\nx = \"text\"\n").unwrap_err();
        let DecideError::Parse { line, column, .. } = err else { panic!("wrong kind {err:?}") };
        assert_eq!((line, column), (2, 5));
    }
}
