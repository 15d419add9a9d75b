//! Maps derived from per-team influence: control, security, balance, tension, vulnerability and
//! the frontier (000 §6.2.2 "applications").
//!
//! The chapter fixes control and security; tension and vulnerability are the usual companions
//! (tension = how much of everyone's influence meets here, vulnerability = tension not matched by
//! a clear winner), and the frontier is the border between the controlled areas of Fig 6.10.

use glam::IVec2;

use super::error::FieldError;
use super::layer::Layer;

/// Who controls each cell and by how much.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    /// The controlling team per cell (row-major); `None` where nobody has influence or the top two
    /// teams tie.
    pub owner: Vec<Option<usize>>,
    /// Degree of control: the winner's influence minus the second side's (L597). Zero where
    /// `owner` is `None`.
    pub degree: Layer,
}

impl Control {
    /// The controlling team of `cell`.
    pub fn owner_at(&self, cell: IVec2) -> Option<usize> {
        self.degree.index(cell).and_then(|i| self.owner[i])
    }
}

fn check(layers: &[Layer]) -> Result<(u32, u32), FieldError> {
    let Some(first) = layers.first() else { return Ok((0, 0)) };
    let shape = (first.width(), first.height());
    match layers.iter().find(|l| !l.same_shape(first)) {
        Some(l) => Err(FieldError::ShapeMismatch { expected: shape, got: (l.width(), l.height()) }),
        None => Ok(shape),
    }
}

/// Control per cell: the team with the highest influence wins, by the margin over the second
/// (a lone team's margin is over zero). Influence at or below zero controls nothing.
pub fn control(layers: &[Layer]) -> Result<Control, FieldError> {
    let (w, h) = check(layers)?;
    let mut owner = vec![None; w as usize * h as usize];
    let mut degree = Layer::new(w, h);
    for (i, o) in owner.iter_mut().enumerate() {
        let (mut top, mut second, mut who) = (0.0f32, 0.0f32, None);
        for (t, l) in layers.iter().enumerate() {
            let v = l.values()[i];
            if v > top {
                (second, top, who) = (top, v, Some(t));
            } else if v > second {
                second = v;
            }
        }
        if top > second {
            *o = who;
            degree.values_mut()[i] = top - second;
        }
    }
    Ok(Control { owner, degree })
}

/// Security of `team`: its degree of control where it controls the cell, zero elsewhere (so a cell
/// held by the other side is never "secure", as the radar-site example requires).
pub fn security(control: &Control, team: usize) -> Layer {
    let mut out = control.degree.clone();
    for (v, o) in out.values_mut().iter_mut().zip(&control.owner) {
        if *o != Some(team) {
            *v = 0.0;
        }
    }
    out
}

/// Balance for `team`: its influence minus the strongest other team's (positive = ours).
pub fn balance(layers: &[Layer], team: usize) -> Result<Layer, FieldError> {
    let (w, h) = check(layers)?;
    let own = layers.get(team).ok_or(FieldError::NoSuchTeam { team, teams: layers.len() })?;
    let mut out = Layer::new(w, h);
    for (i, v) in out.values_mut().iter_mut().enumerate() {
        let enemy =
            layers.iter().enumerate().filter(|&(t, _)| t != team).map(|(_, l)| l.values()[i]).fold(0.0, f32::max);
        *v = own.values()[i] - enemy;
    }
    Ok(out)
}

/// Tension: the sum of every team's influence (where forces meet, and how strongly).
pub fn tension(layers: &[Layer]) -> Result<Layer, FieldError> {
    let (w, h) = check(layers)?;
    let mut out = Layer::new(w, h);
    for l in layers {
        out.add_weighted(l, 1.0);
    }
    Ok(out)
}

/// Vulnerability for `team`: tension minus the absolute balance. High where a lot of influence
/// meets and neither side clearly wins: the "weakest areas" where the sides differ little (L622).
pub fn vulnerability(layers: &[Layer], team: usize) -> Result<Layer, FieldError> {
    let mut out = tension(layers)?;
    let b = balance(layers, team)?;
    out.values_mut().iter_mut().zip(b.values()).for_each(|(t, b)| *t -= b.abs());
    Ok(out)
}

/// The frontier: 1 on every controlled cell with a 4-neighbour controlled by another team, 0
/// elsewhere — the front line between the controlled areas.
pub fn frontier(control: &Control) -> Layer {
    let (w, h) = (control.degree.width(), control.degree.height());
    let mut out = Layer::new(w, h);
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            let c = IVec2::new(x, y);
            let Some(me) = control.owner_at(c) else { continue };
            let border = [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y]
                .iter()
                .any(|&d| control.owner_at(c + d).is_some_and(|o| o != me));
            if border {
                out.set(c, 1.0);
            }
        }
    }
    out
}

/// Frontier cells held by `team`, weakest first (lowest degree of control, then row-major): the
/// chapter's "attack enemy territory" heuristic reads the first of these for the enemy team.
pub fn weakest_frontier(control: &Control, team: usize) -> Vec<(IVec2, f32)> {
    let f = frontier(control);
    let mut cells: Vec<(usize, f32)> = f
        .values()
        .iter()
        .enumerate()
        .filter(|&(i, &v)| v > 0.0 && control.owner[i] == Some(team))
        .map(|(i, _)| (i, control.degree.values()[i]))
        .collect();
    cells.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    cells.into_iter().map(|(i, d)| (f.cell_at(i), d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: &[f32]) -> Layer {
        Layer::from_rows(&[v]).unwrap()
    }

    #[test]
    fn control_security_frontier_on_a_line() {
        let black = row(&[5.0, 4.0, 3.0, 2.0, 1.0, 0.0]);
        let white = row(&[0.0, 1.0, 2.0, 3.0, 4.0, 0.0]);
        let layers = [black, white];
        let c = control(&layers).unwrap();
        assert_eq!(c.owner, [Some(0), Some(0), Some(0), Some(1), Some(1), None]);
        assert_eq!(c.degree.values(), &[5.0, 3.0, 1.0, 1.0, 3.0, 0.0]);
        assert_eq!(security(&c, 1).values(), &[0.0, 0.0, 0.0, 1.0, 3.0, 0.0]);
        assert_eq!(frontier(&c).values(), &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
        assert_eq!(weakest_frontier(&c, 1), [(IVec2::new(3, 0), 1.0)]);
        assert_eq!(tension(&layers).unwrap().values(), &[5.0, 5.0, 5.0, 5.0, 5.0, 0.0]);
        assert_eq!(balance(&layers, 0).unwrap().values(), &[5.0, 3.0, 1.0, -1.0, -3.0, 0.0]);
        assert_eq!(vulnerability(&layers, 0).unwrap().values(), &[0.0, 2.0, 4.0, 4.0, 2.0, 0.0]);
    }

    #[test]
    fn ties_and_three_teams() {
        let layers = [row(&[2.0, 1.0]), row(&[2.0, 3.0]), row(&[0.0, 2.5])];
        let c = control(&layers).unwrap();
        assert_eq!(c.owner, [None, Some(1)], "a tie controls nothing");
        assert_eq!(c.degree.values(), &[0.0, 0.5]);
        assert_eq!(balance(&layers, 2).unwrap().values(), &[-2.0, -0.5]);
        assert!(matches!(balance(&layers, 3), Err(FieldError::NoSuchTeam { .. })));
        assert!(matches!(control(&[row(&[1.0]), row(&[1.0, 2.0])]), Err(FieldError::ShapeMismatch { .. })));
    }
}
