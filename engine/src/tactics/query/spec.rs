//! The compiled form of a query: keywords resolved to enums, values checked, limits fixed. The
//! evaluator reads only this, so no script runs while a query is evaluated (001:L37).

use super::keyword::{CostClass, Criterion, GeneratorKind, ObjectKind, OutputKind};
use crate::value::Value;

/// Settings fixed when a query is compiled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueryConfig {
    /// The largest useful distance: distance weights clamp to it and normalise within it (001:L107).
    pub max_range: f32,
    /// Half the view angle, in degrees, that `cameraCenter` measures against.
    pub half_fov_degrees: f32,
}

impl Default for QueryConfig {
    fn default() -> Self {
        QueryConfig { max_range: 30.0, half_fov_degrees: 45.0 }
    }
}

/// A compiled query: options tried in order, the first that yields a point wins (001:L39).
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// Its name in the library.
    pub name: String,
    /// The options, preferred first.
    pub options: Vec<QueryOption>,
    /// What to do when every option fails (001:L71).
    pub on_failure: FailureAction,
    /// Settings it was compiled with.
    pub config: QueryConfig,
}

/// One option: where points come from, which are valid, how they score.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryOption {
    /// Generators; the candidates are their union.
    pub generators: Vec<GeneratorSpec>,
    /// Conditions and weights in evaluation order: cheap conditions, cheap weights, then expensive
    /// tests (conditions first, then weights by falling magnitude).
    pub tests: Vec<Test>,
}

impl QueryOption {
    /// The index of the first expensive test (tests before it run on every candidate).
    pub fn first_expensive(&self) -> usize {
        self.tests.iter().position(|t| t.cost == CostClass::Expensive).unwrap_or(self.tests.len())
    }
}

/// A generation entry.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratorSpec {
    /// The key as written.
    pub key: String,
    /// The method.
    pub kind: GeneratorKind,
    /// The object to hide from (hidespots).
    pub from: Option<ObjectKind>,
    /// The centre.
    pub around: Option<ObjectKind>,
    /// Radius (or half-width of a grid) in map units.
    pub radius: f32,
    /// Spacing between generated points; 0 means the method's default.
    pub spacing: f32,
    /// The entity kind or region name.
    pub name: Option<String>,
}

/// How a test is used.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
    /// A boolean condition: the criterion must equal this.
    Require(bool),
    /// `min_`: the raw value must be at least this.
    Min(f64),
    /// `max_`: the raw value must be at most this.
    Max(f64),
    /// A weight: the normalised value times this multiplier is added to the score.
    Weight(f64),
}

impl Role {
    /// Whether this is a condition.
    pub fn is_condition(self) -> bool {
        !matches!(self, Role::Weight(_))
    }
}

/// A condition or a weight.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// The key as written (diagnostics and debug records name tests by it).
    pub key: String,
    /// The criterion.
    pub criterion: Criterion,
    /// Its object.
    pub object: Option<ObjectKind>,
    /// Its name parameter (an influence layer).
    pub param: Option<String>,
    /// Condition or weight.
    pub role: Role,
    /// Float or bool.
    pub output: OutputKind,
    /// Cost class.
    pub cost: CostClass,
}

/// What a failed query does besides reporting failure to the caller.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FailureAction {
    /// A signal to send: (scope, id).
    pub signal: Option<(String, String)>,
    /// A blackboard key to set on the asking entity, and its value.
    pub blackboard: Option<(String, Value)>,
}
