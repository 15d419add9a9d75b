//! A query library: compiled queries by name, reloaded while running (001:L53, L58).
//!
//! A reload compiles first and swaps only when everything compiled, so a file with a mistake leaves
//! the old queries in use. Running evaluations hold their own `Arc<Query>` and finish with the
//! version they started with.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::compile::compile_value;
use super::error::QueryErrors;
use super::spec::{Query, QueryConfig};
use super::text::parse_queries;
use crate::value::Value;

/// Compiled queries by name.
#[derive(Debug, Clone, Default)]
pub struct QueryLibrary {
    config: QueryConfig,
    queries: BTreeMap<String, Arc<Query>>,
}

impl QueryLibrary {
    /// An empty library compiling with `config`.
    pub fn new(config: QueryConfig) -> Self {
        QueryLibrary { config, queries: BTreeMap::new() }
    }

    /// A query by name.
    pub fn get(&self, name: &str) -> Option<Arc<Query>> {
        self.queries.get(name).cloned()
    }

    /// The names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.queries.keys().map(String::as_str)
    }

    /// Loads (or reloads) every query of a block-syntax file; on any error nothing changes.
    /// Returns the names loaded.
    pub fn load_text(&mut self, file: &str, src: &str) -> Result<Vec<String>, QueryErrors> {
        let queries = parse_queries(file, src, self.config)?;
        Ok(queries
            .into_iter()
            .map(|q| {
                let name = q.name.clone();
                self.queries.insert(name.clone(), Arc::new(q));
                name
            })
            .collect())
    }

    /// Loads (or reloads) one query from a `Value` map (a Lua table or Rhai map); on error the old
    /// version stays.
    pub fn load_value(&mut self, name: &str, value: &Value) -> Result<Arc<Query>, QueryErrors> {
        let q = Arc::new(compile_value(name, value, self.config)?);
        self.queries.insert(name.to_owned(), Arc::clone(&q));
        Ok(q)
    }
}
