//! The native block syntax for queries in `.tac` files (documented in `docs/tps.md`):
//!
//! ```text
//! -- take cover from the target, nearest first; fall back to any grid point that hides us
//! query take_cover {
//!     option {
//!         Generation { hidespots_from_target_around_puppet = 15 }
//!         Conditions { min_distance_from_puppet = 5, canReachBefore_the_target = true }
//!         Weights    { distance_from_puppet = -1.0 }
//!     }
//!     option {
//!         Generation { grid_around_puppet = 10 }
//!         Conditions { visible_from_target = false }
//!     }
//!     on_failure { signal = "no_cover", scope = "squad", blackboard = "noCover" }
//! }
//! ```
//!
//! The text is read by the designers' one front end ([`tactica_syntax::blocks`]): the same
//! lexer, comments (`--`, `//`, `#`) and syntax diagnostics as `.tac`. This module gives the
//! blocks their meaning — `option` blocks become the query's options, `on_failure` its failure
//! action — and builds the same [`Value`] map a Lua table gives, compiled by the same code, so
//! every mistake carries the file, line and column.

use std::collections::BTreeMap;

use tactica_syntax::blocks::{self, Block, Entry};
use tactica_syntax::line_col;

use super::compile::compile_located;
use super::error::{Location, QueryError, QueryErrorKind, QueryErrors};
use super::spec::{Query, QueryConfig};
use crate::value::Value;

/// Parses and compiles every query in `src`. `file` names the source in diagnostics.
pub fn parse_queries(file: &str, src: &str, config: QueryConfig) -> Result<Vec<Query>, QueryErrors> {
    let at = |offset: usize| {
        let (line, column) = line_col(src, offset);
        Location::File { file: file.to_owned(), line, column }
    };
    let parsed = blocks::parse(src).map_err(|diagnostics| {
        QueryErrors(
            diagnostics
                .into_iter()
                .map(|d| QueryError {
                    location: at(d.span.start),
                    kind: QueryErrorKind::Syntax { code: d.code, message: d.message, label: d.label, hint: d.hint },
                })
                .collect(),
        )
    })?;
    let mut queries = Vec::new();
    let mut errors = Vec::new();
    for block in &parsed {
        let (value, spans) = match query_value(block) {
            Ok(v) => v,
            Err((kind, offset)) => {
                errors.push(QueryError { kind, location: at(offset) });
                continue;
            }
        };
        let locate = |path: &str| at(spans.get(path).copied().unwrap_or(block.name.span.start));
        match compile_located(&block.name.text, &value, config, &locate) {
            Ok(q) => queries.push(q),
            Err(QueryErrors(e)) => errors.extend(e),
        }
    }
    if errors.is_empty() { Ok(queries) } else { Err(QueryErrors(errors)) }
}

/// Where each key path (`Options[0].Generation.grid_around_puppet`) is written.
type Spans = BTreeMap<String, usize>;

/// A query block as the map a Lua table gives, with where each of its key paths is written.
fn query_value(block: &Block) -> Result<(Value, Spans), (QueryErrorKind, usize)> {
    let mut spans = Spans::from([(String::new(), block.name.span.start)]);
    let mut options = Vec::new();
    let mut top = BTreeMap::new();
    for entry in &block.entries {
        let (word, offset) = (entry.key.text.as_str(), entry.key.span.start);
        let path = match word {
            "option" => format!("Options[{}]", options.len()),
            "on_failure" | "OnFailure" => "OnFailure".to_owned(),
            other => {
                return Err((
                    QueryErrorKind::Shape(format!(
                        "expected `option {{ … }}` or `on_failure {{ … }}`, found `{other}`"
                    )),
                    offset,
                ));
            }
        };
        let blocks::Value::Block(items, _) = &entry.value else {
            return Err((QueryErrorKind::Shape(format!("`{word}` takes a block: `{word} {{ … }}`")), offset));
        };
        spans.insert(path.clone(), offset);
        let value = map(items, &path, &mut spans)?;
        if word == "option" {
            options.push(value);
        } else if top.insert("OnFailure".to_owned(), value).is_some() {
            return Err((QueryErrorKind::Shape("a query has one `on_failure` block at most".to_owned()), offset));
        }
    }
    top.insert("Options".to_owned(), Value::List(options));
    Ok((Value::Map(top), spans))
}

fn map(items: &[Entry], path: &str, spans: &mut Spans) -> Result<Value, (QueryErrorKind, usize)> {
    let mut out = BTreeMap::new();
    for Entry { key, value } in items {
        let kpath = format!("{path}.{}", key.text);
        spans.insert(kpath.clone(), key.span.start);
        let v = match value {
            blocks::Value::Int(n) => Value::Int(*n),
            blocks::Value::Float(x) => Value::Float(*x),
            blocks::Value::Str(s) | blocks::Value::Symbol(s) => Value::Str(s.clone()),
            blocks::Value::Bool(b) => Value::Bool(*b),
            blocks::Value::Block(inner, _) => map(inner, &kpath, spans)?,
        };
        if out.insert(key.text.clone(), v).is_some() {
            return Err((QueryErrorKind::Duplicate { key: key.text.clone() }, key.span.start));
        }
    }
    Ok(Value::Map(out))
}
