//! Discrete Bayesian networks: priors and conditional probability tables, exact inference by
//! enumeration (the naive peer) and by variable elimination, what-if clamping, and tables
//! learned from counters.
//!
//! Tables are rows of probabilities, one row per combination of parent states, the first parent
//! varying slowest and each variable's first state first — so Table 13-1's order TT, TF, FT, FF
//! is written as is.

use serde::{Deserialize, Serialize};

use super::factor::Factor;
use crate::decide::{DecideError, error::from_toml};
use crate::value::{Table, Value};

/// A network as written in a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkSpec {
    /// The nodes, each after its parents.
    pub nodes: Vec<NodeSpec>,
}

/// One node (random variable).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// Its name.
    pub name: String,
    /// Its values: mutually exclusive and exhaustive. Defaults to `["true", "false"]`.
    #[serde(default = "two_states")]
    pub states: Vec<String>,
    /// Its parents, each defined earlier.
    #[serde(default)]
    pub parents: Vec<String>,
    /// Probability rows (one per parent combination, each summing to 1).
    #[serde(default)]
    pub table: Vec<Vec<f64>>,
    /// Or frequency rows, normalised on load (an empty row becomes uniform).
    #[serde(default)]
    pub counts: Vec<Vec<f64>>,
}

fn two_states() -> Vec<String> {
    vec!["true".into(), "false".into()]
}

/// An index into a network's nodes.
pub type NodeId = usize;

/// Observed or assumed values: (node, state index).
pub type Evidence = [(NodeId, usize)];

/// A compiled network.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    pub(super) nodes: Vec<Node>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Node {
    pub(super) name: String,
    pub(super) states: Vec<String>,
    pub(super) parents: Vec<NodeId>,
    /// Row-major: row (parent combination) × state.
    pub(super) cpt: Vec<f64>,
}

/// Frequency counters for every table of a network: per node, rows × states.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counters {
    /// Per node, the counts row-major like the tables.
    pub counts: Vec<Vec<u64>>,
}

impl Network {
    /// Parses and compiles a TOML network.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        Self::new(&from_toml::<NetworkSpec>(text)?)
    }

    /// Compiles a network, checking table shapes and sums.
    pub fn new(spec: &NetworkSpec) -> Result<Self, DecideError> {
        let mut nodes: Vec<Node> = Vec::new();
        for n in &spec.nodes {
            if nodes.iter().any(|m| m.name == n.name) {
                return Err(DecideError::Duplicate { kind: "node", name: n.name.clone() });
            }
            if n.states.len() < 2 {
                return Err(DecideError::invalid(format!("node `{}`", n.name), "needs at least two states"));
            }
            let parents = n
                .parents
                .iter()
                .map(|p| nodes.iter().position(|m| m.name == *p).ok_or_else(|| DecideError::unknown("parent node", p)))
                .collect::<Result<Vec<_>, _>>()?;
            let k = n.states.len();
            let what = || format!("table of node `{}`", n.name);
            // Many parents make a table larger than any file could hold: refused, not overflowed.
            let rows = parents
                .iter()
                .try_fold(1usize, |rows, &p| rows.checked_mul(nodes[p].states.len()))
                .ok_or_else(|| DecideError::invalid(what(), "has more rows than a table can hold: too many parents"))?;
            let source = if n.counts.is_empty() { &n.table } else { &n.counts };
            if source.len() != rows || source.iter().any(|r| r.len() != k) {
                return Err(DecideError::invalid(what(), format!("needs {rows} rows of {k} entries")));
            }
            let mut cpt = Vec::with_capacity(rows * k);
            for row in source {
                if row.iter().any(|p| !p.is_finite() || *p < 0.0) {
                    return Err(DecideError::invalid(what(), "entries must be finite and non-negative"));
                }
                let sum: f64 = row.iter().sum();
                if n.counts.is_empty() {
                    if (sum - 1.0).abs() > 1e-6 {
                        return Err(DecideError::invalid(what(), format!("a row sums to {sum}, not 1")));
                    }
                    cpt.extend_from_slice(row);
                } else if sum > 0.0 {
                    cpt.extend(row.iter().map(|c| c / sum));
                } else {
                    cpt.extend(std::iter::repeat_n(1.0 / k as f64, k));
                }
            }
            nodes.push(Node { name: n.name.clone(), states: n.states.clone(), parents, cpt });
        }
        Ok(Network { nodes })
    }

    /// A node's id.
    pub fn node(&self, name: &str) -> Result<NodeId, DecideError> {
        self.nodes.iter().position(|n| n.name == name).ok_or_else(|| DecideError::unknown("node", name))
    }

    /// A state's index within a node.
    pub fn state(&self, node: NodeId, name: &str) -> Result<usize, DecideError> {
        self.nodes
            .get(node)
            .and_then(|n| n.states.iter().position(|s| s == name))
            .ok_or_else(|| DecideError::unknown("state", name))
    }

    /// `(node, state)` by names.
    pub fn observe(&self, node: &str, state: &str) -> Result<(NodeId, usize), DecideError> {
        let n = self.node(node)?;
        Ok((n, self.state(n, state)?))
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn check(&self, evidence: &Evidence) -> Result<(), DecideError> {
        for &(n, s) in evidence {
            let node = self.nodes.get(n).ok_or_else(|| DecideError::unknown("node", n.to_string()))?;
            if s >= node.states.len() {
                return Err(DecideError::unknown("state", s.to_string()));
            }
        }
        Ok(())
    }

    /// The probability of a full assignment (one state per node).
    fn joint(&self, states: &[usize]) -> f64 {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let row = n.parents.iter().fold(0, |r, &p| r * self.nodes[p].states.len() + states[p]);
                n.cpt[row * n.states.len() + states[i]]
            })
            .product()
    }

    /// `P(vars = each combination, evidence)` by summing the full joint over every assignment —
    /// exponential in the number of nodes; the naive peer of [`Network::joint_table`].
    pub fn joint_table_enumeration(&self, vars: &[NodeId], evidence: &Evidence) -> Result<Vec<f64>, DecideError> {
        self.check(evidence)?;
        self.check(&vars.iter().map(|&v| (v, 0)).collect::<Vec<_>>())?;
        let cards: Vec<usize> = self.nodes.iter().map(|n| n.states.len()).collect();
        let out_len: usize = vars.iter().map(|&v| cards[v]).product();
        let mut out = vec![0.0; out_len];
        let mut states = vec![0usize; self.nodes.len()];
        for &(n, s) in evidence {
            states[n] = s;
        }
        let free: Vec<usize> = (0..self.nodes.len()).filter(|i| !evidence.iter().any(|e| e.0 == *i)).collect();
        loop {
            let idx = vars.iter().fold(0, |r, &v| r * cards[v] + states[v]);
            out[idx] += self.joint(&states);
            // Mixed-radix increment over the free variables.
            let mut k = free.len();
            loop {
                if k == 0 {
                    return Ok(out);
                }
                k -= 1;
                states[free[k]] += 1;
                if states[free[k]] < cards[free[k]] {
                    break;
                }
                states[free[k]] = 0;
            }
        }
    }

    /// `P(vars = each combination, evidence)` by variable elimination: the unnormalised joint of
    /// Table 13-7. Entries are in the order of `vars`, the first varying slowest.
    pub fn joint_table(&self, vars: &[NodeId], evidence: &Evidence) -> Result<Vec<f64>, DecideError> {
        self.check(evidence)?;
        self.check(&vars.iter().map(|&v| (v, 0)).collect::<Vec<_>>())?;
        let mut factors: Vec<Factor> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let mut vs = n.parents.clone();
                vs.push(i);
                Factor::from_table(&vs, &vs.iter().map(|&v| self.nodes[v].states.len()).collect::<Vec<_>>(), &n.cpt)
                    .restrict(evidence)
            })
            .collect();
        // Eliminate every variable that is neither queried nor observed, cheapest first.
        let mut hidden: Vec<usize> =
            (0..self.nodes.len()).filter(|v| !vars.contains(v) && !evidence.iter().any(|e| e.0 == *v)).collect();
        while !hidden.is_empty() {
            let (pos, &var) = hidden
                .iter()
                .enumerate()
                .min_by_key(|(_, v)| factors.iter().filter(|f| f.has(**v)).map(Factor::len).sum::<usize>())
                .unwrap_or((0, &hidden[0]));
            hidden.swap_remove(pos);
            let (with, without): (Vec<Factor>, Vec<Factor>) = factors.into_iter().partition(|f| f.has(var));
            factors = without;
            if let Some(product) = with.into_iter().reduce(|a, b| a.multiply(&b)) {
                factors.push(product.sum_out(var));
            }
        }
        let product = factors.into_iter().reduce(|a, b| a.multiply(&b)).unwrap_or_else(Factor::unit);
        Ok(product.values_in_order(vars, &vars.iter().map(|&v| self.nodes[v].states.len()).collect::<Vec<_>>()))
    }

    /// `P(node | evidence)`, one probability per state; uniform when the evidence is impossible.
    pub fn posterior(&self, node: NodeId, evidence: &Evidence) -> Result<Vec<f64>, DecideError> {
        Ok(normalise(self.joint_table(&[node], evidence)?))
    }

    /// The naive peer of [`Network::posterior`].
    pub fn posterior_enumeration(&self, node: NodeId, evidence: &Evidence) -> Result<Vec<f64>, DecideError> {
        Ok(normalise(self.joint_table_enumeration(&[node], evidence)?))
    }

    /// The probability of the evidence itself, `P(e)`.
    pub fn probability(&self, evidence: &Evidence) -> Result<f64, DecideError> {
        Ok(self.joint_table(&[], evidence)?.iter().sum())
    }

    /// What-if: a copy in which `node` is assumed to follow `distribution` whatever its parents
    /// (Table 13-9 clamps P(A) to 1.0). The distribution must have one entry per state and sum to 1.
    pub fn clamped(&self, node: NodeId, distribution: &[f64]) -> Result<Network, DecideError> {
        let n = self.nodes.get(node).ok_or_else(|| DecideError::unknown("node", node.to_string()))?;
        let sum: f64 = distribution.iter().sum();
        if distribution.len() != n.states.len() || (sum - 1.0).abs() > 1e-6 || distribution.iter().any(|p| *p < 0.0) {
            return Err(DecideError::invalid(
                format!("what-if on `{}`", n.name),
                "needs one probability per state summing to 1",
            ));
        }
        let mut copy = self.clone();
        let rows = n.cpt.len() / n.states.len();
        copy.nodes[node].cpt = (0..rows).flat_map(|_| distribution.iter().copied()).collect();
        Ok(copy)
    }

    /// Zeroed counters shaped like the tables.
    pub fn counters(&self) -> Counters {
        Counters { counts: self.nodes.iter().map(|n| vec![0; n.cpt.len()]).collect() }
    }

    /// Counts one complete observation (a state for every node) — one locker opened.
    pub fn count(&self, counters: &mut Counters, states: &[usize]) -> Result<(), DecideError> {
        if states.len() != self.nodes.len() || states.iter().zip(&self.nodes).any(|(s, n)| *s >= n.states.len()) {
            return Err(DecideError::invalid("observation", "needs one valid state per node"));
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let row = n.parents.iter().fold(0, |r, &p| r * self.nodes[p].states.len() + states[p]);
            if let Some(c) = counters.counts.get_mut(i).and_then(|c| c.get_mut(row * n.states.len() + states[i])) {
                *c += 1;
            }
        }
        Ok(())
    }

    /// Re-estimates every table row from counters (frequencies stored, probabilities computed
    /// on demand, L6649); rows with no observations keep their current values.
    pub fn learn(&mut self, counters: &Counters) {
        for (n, counts) in self.nodes.iter_mut().zip(&counters.counts) {
            let k = n.states.len();
            for (row, c) in n.cpt.chunks_mut(k).zip(counts.chunks(k)) {
                let total: u64 = c.iter().sum();
                if total > 0 {
                    for (p, x) in row.iter_mut().zip(c) {
                        *p = *x as f64 / total as f64;
                    }
                }
            }
        }
    }

    /// A query with plain values, for script hosts: `node` names the variable, `evidence` maps
    /// node names to state names. Returns `{state = probability}`.
    pub fn query_value(&self, node: &str, evidence: &Table) -> Result<Value, DecideError> {
        let q = self.node(node)?;
        let ev = evidence
            .iter()
            .map(|(n, s)| {
                let s = s.as_str().map(str::to_owned).unwrap_or_else(|| s.to_string());
                self.observe(n, &s)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let post = self.posterior(q, &ev)?;
        Ok(Value::Map(self.nodes[q].states.iter().cloned().zip(post.into_iter().map(Value::Float)).collect()))
    }
}

/// Divides by the sum; uniform when the sum is 0 (impossible evidence never yields NaN).
pub fn normalise(mut v: Vec<f64>) -> Vec<f64> {
    let s: f64 = v.iter().sum();
    let n = v.len().max(1) as f64;
    for x in &mut v {
        *x = if s > 0.0 { *x / s } else { 1.0 / n };
    }
    v
}
