//! Factors for variable elimination: a table over a sorted set of discrete variables.

use super::network::NodeId;

/// A non-negative function of some variables, stored row-major over `vars` (ascending ids, the
/// first varying slowest).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Factor {
    vars: Vec<NodeId>,
    cards: Vec<usize>,
    values: Vec<f64>,
}

impl Factor {
    /// The factor of no variables, equal to 1.
    pub(super) fn unit() -> Factor {
        Factor { vars: Vec::new(), cards: Vec::new(), values: vec![1.0] }
    }

    /// A factor from a table over `vars` in the given (not necessarily sorted) order.
    pub(super) fn from_table(vars: &[NodeId], cards: &[usize], table: &[f64]) -> Factor {
        let mut order: Vec<usize> = (0..vars.len()).collect();
        order.sort_by_key(|&i| vars[i]);
        let svars: Vec<NodeId> = order.iter().map(|&i| vars[i]).collect();
        let scards: Vec<usize> = order.iter().map(|&i| cards[i]).collect();
        let mut f = Factor { vars: svars, cards: scards, values: vec![0.0; table.len()] };
        let mut idx = vec![0usize; vars.len()];
        for &v in table {
            let target = order.iter().fold(0, |r, &i| r * cards[i] + idx[i]);
            f.values[target] = v;
            increment(&mut idx, cards);
        }
        f
    }

    /// Whether the factor mentions `var`.
    pub(super) fn has(&self, var: NodeId) -> bool {
        self.vars.binary_search(&var).is_ok()
    }

    /// How many entries it has.
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    /// Fixes observed variables, dropping them.
    pub(super) fn restrict(self, evidence: &[(NodeId, usize)]) -> Factor {
        let mut f = self;
        for &(var, state) in evidence {
            let Ok(pos) = f.vars.binary_search(&var) else { continue };
            let stride: usize = f.cards[pos + 1..].iter().product();
            let card = f.cards[pos];
            let values = (0..f.values.len() / card)
                .map(|i| f.values[(i / stride) * stride * card + state * stride + i % stride])
                .collect();
            f.vars.remove(pos);
            f.cards.remove(pos);
            f.values = values;
        }
        f
    }

    /// The pointwise product over the union of variables.
    pub(super) fn multiply(&self, other: &Factor) -> Factor {
        let mut vars = self.vars.clone();
        vars.extend(other.vars.iter().filter(|v| !self.vars.contains(v)));
        vars.sort_unstable();
        let cards: Vec<usize> = vars.iter().map(|v| self.card(*v).or_else(|| other.card(*v)).unwrap_or(1)).collect();
        let len: usize = cards.iter().product();
        let mut values = Vec::with_capacity(len);
        let mut idx = vec![0usize; vars.len()];
        let sa = self.strides_in(&vars);
        let sb = other.strides_in(&vars);
        for _ in 0..len {
            let a: usize = idx.iter().zip(&sa).map(|(i, s)| i * s).sum();
            let b: usize = idx.iter().zip(&sb).map(|(i, s)| i * s).sum();
            values.push(self.values[a] * other.values[b]);
            increment(&mut idx, &cards);
        }
        Factor { vars, cards, values }
    }

    /// Sums `var` out.
    pub(super) fn sum_out(&self, var: NodeId) -> Factor {
        let Ok(pos) = self.vars.binary_search(&var) else { return self.clone() };
        let stride: usize = self.cards[pos + 1..].iter().product();
        let card = self.cards[pos];
        let mut values = vec![0.0; self.values.len() / card];
        for (i, v) in self.values.iter().enumerate() {
            let outer = i / (stride * card);
            values[outer * stride + i % stride] += v;
        }
        let mut vars = self.vars.clone();
        let mut cards = self.cards.clone();
        vars.remove(pos);
        cards.remove(pos);
        Factor { vars, cards, values }
    }

    fn card(&self, var: NodeId) -> Option<usize> {
        self.vars.binary_search(&var).ok().map(|p| self.cards[p])
    }

    /// This factor's stride for each of `vars` (0 for variables it does not mention).
    fn strides_in(&self, vars: &[NodeId]) -> Vec<usize> {
        vars.iter()
            .map(|v| match self.vars.binary_search(v) {
                Ok(p) => self.cards[p + 1..].iter().product(),
                Err(_) => 0,
            })
            .collect()
    }

    /// The values laid out over `order` (which must be this factor's variables, any order).
    pub(super) fn values_in_order(&self, order: &[NodeId], cards: &[usize]) -> Vec<f64> {
        let len: usize = cards.iter().product();
        let strides = self.strides_in(order);
        let mut idx = vec![0usize; order.len()];
        let mut out = Vec::with_capacity(len);
        for _ in 0..len {
            out.push(self.values[idx.iter().zip(&strides).map(|(i, s)| i * s).sum::<usize>()]);
            increment(&mut idx, cards);
        }
        out
    }
}

/// Mixed-radix increment, last digit fastest.
fn increment(idx: &mut [usize], cards: &[usize]) {
    for k in (0..idx.len()).rev() {
        idx[k] += 1;
        if idx[k] < cards[k] {
            return;
        }
        idx[k] = 0;
    }
}
