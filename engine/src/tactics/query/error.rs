//! Load-time diagnostics: a wrong query is rejected with a message that says what and where.

use std::fmt;

use tactica_syntax::{Code, Diagnostic, offset_of};

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
    /// Text the front end could not read (its code is the front end's: E0001 …).
    #[error("{message} ({label}){}", hint.as_ref().map(|h| format!("; {h}")).unwrap_or_default())]
    Syntax {
        /// The front end's code.
        code: Code,
        /// What is wrong.
        message: String,
        /// What to say at the place.
        label: String,
        /// How to fix it, when the front end can tell.
        hint: Option<String>,
    },
    /// A block that is not `option { … }` or `on_failure { … }`, or a second `on_failure`.
    #[error("{0}")]
    Shape(String),
    /// A key given twice in one block.
    #[error("`{key}` is given twice")]
    Duplicate {
        /// The key.
        key: String,
    },
}

impl QueryErrorKind {
    /// Its stable diagnostic code, which `tactica explain` knows.
    pub fn code(&self) -> Code {
        match self {
            QueryErrorKind::Syntax { code, .. } => *code,
            QueryErrorKind::UnknownKeyword { .. } | QueryErrorKind::UnknownSection { .. } => Code::UnknownQueryWord,
            QueryErrorKind::WrongSection { .. }
            | QueryErrorKind::MissingObject { .. }
            | QueryErrorKind::UnexpectedObject { .. }
            | QueryErrorKind::BadValue { .. }
            | QueryErrorKind::Duplicate { .. } => Code::QueryValue,
            QueryErrorKind::NoGeneration { .. } | QueryErrorKind::NoOptions | QueryErrorKind::Shape(_) => {
                Code::QueryShape
            }
        }
    }
}

fn did_you_mean(s: &Option<String>) -> String {
    s.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default()
}

/// One diagnostic.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{location}: [{}] {kind}", kind.code())]
pub struct QueryError {
    /// What is wrong.
    pub kind: QueryErrorKind,
    /// Where.
    pub location: Location,
}

impl QueryError {
    /// The error as a front-end diagnostic over `src`, the file it was found in, so it renders
    /// with ariadne like every other mistake in designer text. `None` when the error is about a
    /// Lua table or Rhai map rather than a place in a file.
    pub fn diagnostic(&self, src: &str) -> Option<Diagnostic> {
        let Location::File { line, column, .. } = &self.location else { return None };
        let start = offset_of(src, *line, *column);
        let word = src[start..].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(src.len() - start);
        let span = start..(start + word.max(1)).min(src.len().max(start));
        Some(match &self.kind {
            QueryErrorKind::Syntax { code, message, label, hint } => {
                let d = Diagnostic::new(*code, span, message.clone(), label.clone());
                match hint {
                    Some(h) => d.with_hint(h.clone()),
                    None => d,
                }
            }
            other => Diagnostic::new(other.code(), span, other.to_string(), "here"),
        })
    }
}

/// All the diagnostics of one load; a query with any of them is not loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct QueryErrors(pub Vec<QueryError>);
