//! The world's named decision models: what a scenario's `[models]` section loaded, shared by every
//! script that drives them.
//!
//! Models are immutable definitions behind an `Arc` (cloning a world is cheap, and a reload swaps
//! one entry); the per-entity state a model needs (an FSM's current state, a rule base's working
//! memory, an action queue) lives with the script instance, so a reload keeps it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::DecideError;
use super::adaptive::AdaptiveSpec;
use super::bayes::Network;
use super::bt::TreeDef;
use super::crowd::{Planner, Schedule, ScriptLibrary};
use super::fsm::StateMachine;
use super::fuzzy::FuzzySystem;
use super::learn::{GeneticSpec, NamedNetwork};
use super::rules::RuleSet;
use super::utility::Brain;

/// The kinds of model a scenario can declare, by the key it uses (`guard = { fsm = "guard.toml" }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ModelKind {
    /// [`StateMachine`].
    Fsm,
    /// [`FuzzySystem`].
    Fuzzy,
    /// [`RuleSet`].
    Rules,
    /// [`Network`].
    Bayes,
    /// [`Brain`] (GAIA).
    Utility,
    /// [`NamedNetwork`].
    Nn,
    /// [`Schedule`] (TOML, or the book's notation in a `.sched` file).
    Schedule,
    /// [`ScriptLibrary`]: the scripts an open-loop action queue expands.
    Actions,
    /// [`Planner`].
    Planner,
    /// [`GeneticSpec`]: a population evolved between rounds.
    Genetic,
    /// [`AdaptiveSpec`]: tactics chosen by what has worked in each context.
    Adaptive,
    /// [`TreeDef`]: a behaviour tree (a `.bt` file).
    Tree,
}

impl ModelKind {
    /// Every kind, in the order docs list them.
    pub const ALL: [ModelKind; 12] = [
        ModelKind::Fsm,
        ModelKind::Fuzzy,
        ModelKind::Rules,
        ModelKind::Bayes,
        ModelKind::Utility,
        ModelKind::Nn,
        ModelKind::Schedule,
        ModelKind::Actions,
        ModelKind::Planner,
        ModelKind::Genetic,
        ModelKind::Adaptive,
        ModelKind::Tree,
    ];

    /// The key a scenario uses for this kind.
    pub fn key(self) -> &'static str {
        match self {
            ModelKind::Fsm => "fsm",
            ModelKind::Fuzzy => "fuzzy",
            ModelKind::Rules => "rules",
            ModelKind::Bayes => "bayes",
            ModelKind::Utility => "utility",
            ModelKind::Nn => "nn",
            ModelKind::Schedule => "schedule",
            ModelKind::Actions => "actions",
            ModelKind::Planner => "planner",
            ModelKind::Genetic => "genetic",
            ModelKind::Adaptive => "adaptive",
            ModelKind::Tree => "tree",
        }
    }

    /// The kind a key names.
    pub fn from_key(key: &str) -> Option<ModelKind> {
        ModelKind::ALL.into_iter().find(|k| k.key() == key)
    }
}

/// One loaded model.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant, reason = "one value per declared model, kept behind an Arc")]
pub enum Model {
    /// A state machine.
    Fsm(StateMachine),
    /// A fuzzy rule base.
    Fuzzy(FuzzySystem),
    /// A rule base.
    Rules(RuleSet),
    /// A Bayesian network.
    Bayes(Network),
    /// A GAIA brain.
    Utility(Brain),
    /// A trained neural network.
    Nn(NamedNetwork),
    /// A daily schedule.
    Schedule(Schedule),
    /// An action-script library.
    Actions(ScriptLibrary),
    /// A propositional planner.
    Planner(Planner),
    /// A genetic algorithm's genome and population parameters.
    Genetic(GeneticSpec),
    /// Adaptive tactics.
    Adaptive(AdaptiveSpec),
    /// A behaviour tree.
    Tree(std::sync::Arc<TreeDef>),
}

impl Model {
    /// Parses a model of `kind` from its data file's text. A schedule whose text does not start
    /// like TOML (`name "…"`) is read in the book's own notation. A tree is read alone, without
    /// its leaf files: every name that is not a built-in leaf is taken for a script function (a
    /// host that has the files checks them with [`super::bt::build`] and a [`super::bt::Catalog`]).
    pub fn parse(kind: ModelKind, text: &str) -> Result<Model, DecideError> {
        Ok(match kind {
            ModelKind::Fsm => Model::Fsm(StateMachine::from_toml(text)?),
            ModelKind::Fuzzy => Model::Fuzzy(FuzzySystem::from_toml(text)?),
            ModelKind::Rules => Model::Rules(RuleSet::from_toml(text)?),
            ModelKind::Bayes => Model::Bayes(Network::from_toml(text)?),
            ModelKind::Utility => Model::Utility(Brain::from_toml(text)?),
            ModelKind::Nn => Model::Nn(NamedNetwork::from_toml(text)?),
            ModelKind::Schedule if is_book_notation(text) => Model::Schedule(Schedule::from_script(text)?),
            ModelKind::Schedule => Model::Schedule(Schedule::from_toml(text)?),
            ModelKind::Actions => Model::Actions(ScriptLibrary::from_toml(text)?),
            ModelKind::Planner => Model::Planner(Planner::from_toml(text)?),
            ModelKind::Genetic => Model::Genetic(GeneticSpec::from_toml(text)?),
            ModelKind::Adaptive => Model::Adaptive(AdaptiveSpec::from_toml(text)?),
            ModelKind::Tree => {
                let (def, diagnostics) = super::bt::parse(text, &super::bt::Catalog::default());
                match def {
                    Some(def) => Model::Tree(std::sync::Arc::new(def)),
                    None => {
                        let errors: Vec<_> = diagnostics.into_iter().filter(|d| d.is_error()).collect();
                        return Err(super::expr::text_error(text, &errors));
                    }
                }
            }
        })
    }

    /// Its kind.
    pub fn kind(&self) -> ModelKind {
        match self {
            Model::Fsm(_) => ModelKind::Fsm,
            Model::Fuzzy(_) => ModelKind::Fuzzy,
            Model::Rules(_) => ModelKind::Rules,
            Model::Bayes(_) => ModelKind::Bayes,
            Model::Utility(_) => ModelKind::Utility,
            Model::Nn(_) => ModelKind::Nn,
            Model::Schedule(_) => ModelKind::Schedule,
            Model::Actions(_) => ModelKind::Actions,
            Model::Planner(_) => ModelKind::Planner,
            Model::Genetic(_) => ModelKind::Genetic,
            Model::Adaptive(_) => ModelKind::Adaptive,
            Model::Tree(_) => ModelKind::Tree,
        }
    }
}

/// Whether a schedule is written in the book's notation: its first word is `name` followed by a
/// quoted string, which is not valid TOML.
fn is_book_notation(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    first.starts_with("name \"") || first.starts_with("name\t\"")
}

/// A registered model and the data file it came from (for reload).
#[derive(Debug, Clone)]
pub struct Entry {
    /// The model.
    pub model: Arc<Model>,
    /// Where it came from, as the loader spelled it (empty for models added in code).
    pub source: String,
}

/// The world's models by name (a `BTreeMap`, so listings are in name order).
#[derive(Debug, Clone, Default)]
pub struct Models {
    entries: BTreeMap<String, Entry>,
}

impl Models {
    /// Registers (or replaces) a model.
    pub fn insert(&mut self, name: impl Into<String>, model: Model, source: impl Into<String>) {
        self.entries.insert(name.into(), Entry { model: Arc::new(model), source: source.into() });
    }

    /// A model by name.
    pub fn get(&self, name: &str) -> Option<&Model> {
        self.entries.get(name).map(|e| &*e.model)
    }

    /// Model names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Entries, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries.iter().map(|(n, e)| (n.as_str(), e))
    }

    /// How many models there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Re-parses every model that came from `source` from its new `text`. All or nothing: on an
    /// error nothing changes (the old definitions keep running). Returns the names replaced.
    pub fn reload(&mut self, source: &str, text: &str) -> Result<Vec<String>, DecideError> {
        let mut fresh = Vec::new();
        for (name, e) in &self.entries {
            if e.source == source {
                fresh.push((name.clone(), Model::parse(e.model.kind(), text)?));
            }
        }
        let names = fresh.iter().map(|(n, _)| n.clone()).collect();
        for (name, model) in fresh {
            self.insert(name, model, source);
        }
        Ok(names)
    }

    /// A behaviour tree by model name, shared.
    pub fn tree(&self, name: &str) -> Option<&std::sync::Arc<TreeDef>> {
        match self.entries.get(name).map(|e| &*e.model) {
            Some(Model::Tree(def)) => Some(def),
            _ => None,
        }
    }

    /// The models that came from `source`, by name.
    pub fn names_from(&self, source: &str) -> Vec<String> {
        self.entries.iter().filter(|(_, e)| e.source == source).map(|(n, _)| n.clone()).collect()
    }

    /// Whether any model came from `source`.
    pub fn has_source(&self, source: &str) -> bool {
        self.entries.values().any(|e| e.source == source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::fsm::STEALTH_GUARD;

    #[test]
    fn kinds_round_trip_their_keys() {
        for k in ModelKind::ALL {
            assert_eq!(ModelKind::from_key(k.key()), Some(k));
        }
        assert_eq!(ModelKind::from_key("fms"), None);
    }

    #[test]
    fn reload_swaps_all_or_nothing() {
        let mut models = Models::default();
        models.insert("guard", Model::parse(ModelKind::Fsm, STEALTH_GUARD).unwrap(), "guard.toml");
        assert!(models.has_source("guard.toml"));
        let err = models.reload("guard.toml", "initial = 3").unwrap_err();
        assert!(matches!(err, DecideError::Parse { line: 1, .. }), "{err:?}");
        let Some(Model::Fsm(m)) = models.get("guard") else { panic!("kept") };
        assert!(m.state("alert").is_some());
        let small = "initial = \"a\"\n[[states]]\nname = \"a\"\n";
        assert_eq!(models.reload("guard.toml", small).unwrap(), ["guard"]);
        let Some(Model::Fsm(m)) = models.get("guard") else { panic!("swapped") };
        assert!(m.state("alert").is_none() && m.state("a").is_some());
    }

    #[test]
    fn schedules_load_in_both_notations() {
        let book = Model::parse(ModelKind::Schedule, crate::decide::crowd::OFFICE_SCHEDULE).unwrap();
        let Model::Schedule(s) = book else { panic!("a schedule") };
        assert_eq!(s.block_at(9.0).unwrap().tasks, ["go-work-at-workstation"]);
        let toml = "name = \"s\"\n[[blocks]]\nfrom = 8\nto = 20\ntasks = [\"work\"]\n";
        let Model::Schedule(s) = Model::parse(ModelKind::Schedule, toml).unwrap() else { panic!() };
        assert_eq!(s.block_at(21.0), None);
    }
}
