//! Load-time diagnostics: a wrong query is rejected with a message that says what and where.

use std::fmt;

/// Where a diagnostic points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A position in a text file (1-based line and column).
    File {
        /// The file's name as given to the parser.
        file: String,
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        column: u32,
    },
    /// The key path inside a `Value` map (`Options[1].Conditions.min_distance_from_puppet`).
    KeyPath(String),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File { file, line, column } => write!(f, "{file}:{line}:{column}"),
            Location::KeyPath(p) if p.is_empty() => f.write_str("<query>"),
            Location::KeyPath(p) => f.write_str(p),
        }
    }
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryErrorKind {
    /// A word that is no criterion, object or glue word.
    #[error("unknown keyword `{word}` in `{key}`{}", did_you_mean(.suggestion))]
    UnknownKeyword {
        /// The whole key.
        key: String,
        /// The unknown word.
        word: String,
        /// The closest known word.
        suggestion: Option<String>,
    },
    /// A section name that is not Generation, Conditions or Weights (or an unknown top-level key).
    #[error("unknown section `{name}`{}", did_you_mean(.suggestion))]
    UnknownSection {
        /// The name.
        name: String,
        /// The closest known name.
        suggestion: Option<String>,
    },
    /// A keyword used in a section its type tag does not allow.
    #[error("`{key}` cannot be used in {section}: {why}")]
    WrongSection {
        /// The key.
        key: String,
        /// The section it was found in.
        section: &'static str,
        /// Where it belongs instead.
        why: String,
    },
    /// A criterion that needs an object was given none.
    #[error("`{key}` needs {what} (for example `{example}`)")]
    MissingObject {
        /// The key.
        key: String,
        /// "an object" or "a centre object".
        what: &'static str,
        /// A corrected key.
        example: String,
    },
    /// An object where the criterion takes none, or a second object.
    #[error("`{key}`: {why}")]
    UnexpectedObject {
        /// The key.
        key: String,
        /// Why.
        why: String,
    },
    /// A value of the wrong type.
    #[error("`{key}` expects {expected}, found {found}")]
    BadValue {
        /// The key.
        key: String,
        /// What was expected.
        expected: &'static str,
        /// What was found (type and value).
        found: String,
    },
    /// An option with no Generation entries.
    #[error("option {option} has no Generation: every option must say where its points come from")]
    NoGeneration {
        /// The option's number, from 1.
        option: usize,
    },
    /// A query with no options.
    #[error("the query has no options")]
    NoOptions,
    /// Text that is not the block syntax.
    #[error("syntax error: {0}")]
    Syntax(String),
}

fn did_you_mean(s: &Option<String>) -> String {
    s.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default()
}

/// One diagnostic.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct QueryError {
    /// What is wrong.
    pub kind: QueryErrorKind,
    /// Where.
    pub location: Location,
}

/// All the diagnostics of one load; a query with any of them is not loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct QueryErrors(pub Vec<QueryError>);
