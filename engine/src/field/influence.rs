//! Influence maps on grids: sources with a strength, a falloff and a radius, one layer per team,
//! updated incrementally when a source moves (000 §6.2.2).

use glam::IVec2;

use super::error::{FieldError, finite};
use super::falloff::{Falloff, Metric};
use super::layer::Layer;

/// One unit or base that projects influence: its team, where it stands and how far its strength
/// reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Source {
    /// The team (layer index) it adds to.
    pub team: usize,
    /// The cell it stands in.
    pub cell: IVec2,
    /// Its intrinsic military influence `I₀`, designer-set (a scout can have low combat power but
    /// high influence).
    pub strength: f32,
    /// Beyond this distance it has no influence.
    pub radius: f32,
    /// How its influence fades inside the radius.
    pub falloff: Falloff,
    /// An optional arc `(heading, half_angle)` in radians (heading counter-clockwise from +x, as
    /// [`crate::world::Entity::heading`]): only cells within `half_angle` of the heading get
    /// influence — a tank's line of fire, whose cost depends on its position and orientation
    /// (002b §3.8). `None` projects all round.
    pub arc: Option<(f32, f32)>,
}

impl Source {
    /// A source of `team` at `cell` with the given strength, radius and falloff, all round.
    pub fn new(team: usize, cell: IVec2, strength: f32, radius: f32, falloff: Falloff) -> Self {
        Source { team, cell, strength, radius, falloff, arc: None }
    }

    /// The same source projecting only within `half_angle` of `heading` (radians).
    pub fn facing(self, heading: f32, half_angle: f32) -> Self {
        Source { arc: Some((heading, half_angle)), ..self }
    }

    /// Its influence at offset `d` from its cell.
    fn influence_at(&self, metric: Metric, d: IVec2) -> f32 {
        if let Some((heading, half)) = self.arc
            && d != IVec2::ZERO
            && glam::Vec2::from_angle(heading).angle_to(d.as_vec2()).abs() > half + 1e-6
        {
            return 0.0;
        }
        self.falloff.at(self.strength, self.radius, metric.distance(IVec2::ZERO, d))
    }
}

/// A handle to a source in an [`InfluenceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceId(pub u32);

/// A source together with its precomputed stamp: the `(2r+1)²` influence values around it. A stamp
/// does not depend on where the source stands, so moving a source only re-adds it.
#[derive(Debug, Clone)]
struct Stamped {
    source: Source,
    reach: i32,
    stamp: Vec<f32>,
}

/// Per-team influence layers over a `width × height` grid.
///
/// Each team's layer is the **sum** of its sources' influence (L596). Adding, moving, re-weighting
/// or removing a source touches only the cells within its radius: the source's stamp is
/// subtracted at its old cell and added at the new one, `O(r²)` instead of a full rebuild. Float
/// subtraction does not exactly undo addition, so after very many updates call
/// [`InfluenceMap::rebuild`] (cheap compared with the frames it saved) to clear the drift.
#[derive(Debug, Clone)]
pub struct InfluenceMap {
    width: u32,
    height: u32,
    metric: Metric,
    layers: Vec<Layer>,
    sources: Vec<Option<Stamped>>,
}

impl InfluenceMap {
    /// An empty map of `teams` zero layers.
    pub fn new(width: u32, height: u32, teams: usize, metric: Metric) -> Self {
        InfluenceMap { width, height, metric, layers: vec![Layer::new(width, height); teams], sources: Vec::new() }
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of teams (layers).
    pub fn teams(&self) -> usize {
        self.layers.len()
    }

    /// The influence layer of `team`.
    pub fn team(&self, team: usize) -> Result<&Layer, FieldError> {
        self.layers.get(team).ok_or(FieldError::NoSuchTeam { team, teams: self.layers.len() })
    }

    /// All team layers, by team index.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// A source by id.
    pub fn source(&self, id: SourceId) -> Option<&Source> {
        self.sources.get(id.0 as usize)?.as_ref().map(|s| &s.source)
    }

    /// Live sources with their ids, in id order.
    pub fn sources(&self) -> impl Iterator<Item = (SourceId, &Source)> {
        self.sources.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|s| (SourceId(i as u32), &s.source)))
    }

    /// Adds a source and its influence; the id stays valid until the source is removed.
    pub fn add(&mut self, source: Source) -> Result<SourceId, FieldError> {
        let stamped = self.stamped(source)?;
        self.apply(&stamped, 1.0);
        let slot = self.sources.iter().position(Option::is_none).unwrap_or(self.sources.len());
        if slot == self.sources.len() {
            self.sources.push(None);
        }
        self.sources[slot] = Some(stamped);
        Ok(SourceId(slot as u32))
    }

    /// Moves a source to `cell`, updating only the cells around its old and new position.
    pub fn move_to(&mut self, id: SourceId, cell: IVec2) -> Result<(), FieldError> {
        let mut s = self.take(id)?;
        if s.source.cell != cell {
            self.apply(&s, -1.0);
            s.source.cell = cell;
            self.apply(&s, 1.0);
        }
        self.sources[id.0 as usize] = Some(s);
        Ok(())
    }

    /// Replaces a source's parameters (strength, radius, falloff, team, cell) in place.
    pub fn update(&mut self, id: SourceId, source: Source) -> Result<(), FieldError> {
        let old = self.take(id)?;
        match self.stamped(source) {
            Ok(new) => {
                self.apply(&old, -1.0);
                self.apply(&new, 1.0);
                self.sources[id.0 as usize] = Some(new);
                Ok(())
            }
            Err(e) => {
                self.sources[id.0 as usize] = Some(old);
                Err(e)
            }
        }
    }

    /// Removes a source and its influence.
    pub fn remove(&mut self, id: SourceId) -> Result<Source, FieldError> {
        let s = self.take(id)?;
        self.apply(&s, -1.0);
        Ok(s.source)
    }

    /// Recomputes every layer from the sources (clears accumulated float drift).
    pub fn rebuild(&mut self) {
        self.layers.iter_mut().for_each(|l| l.fill(0.0));
        let sources = std::mem::take(&mut self.sources);
        for s in sources.iter().flatten() {
            self.apply(s, 1.0);
        }
        self.sources = sources;
    }

    /// The influence of every team at `cell` added together (zero off the map).
    pub fn total_at(&self, cell: IVec2) -> f32 {
        self.layers.iter().map(|l| l.at(cell)).sum()
    }

    fn take(&mut self, id: SourceId) -> Result<Stamped, FieldError> {
        self.sources.get_mut(id.0 as usize).and_then(Option::take).ok_or(FieldError::NoSuchSource(id.0))
    }

    fn stamped(&self, source: Source) -> Result<Stamped, FieldError> {
        if source.team >= self.layers.len() {
            return Err(FieldError::NoSuchTeam { team: source.team, teams: self.layers.len() });
        }
        finite("strength", source.strength)?;
        finite("radius", source.radius)?;
        if let Some((heading, half)) = source.arc {
            finite("arc heading", heading)?;
            finite("arc half-angle", half)?;
        }
        // Reach in whole cells; a radius larger than the map is clipped to it (it cannot reach
        // further anyway), which also bounds the stamp's memory.
        let cap = self.width.max(self.height) as f32;
        let reach = source.radius.clamp(0.0, cap).floor() as i32;
        let side = (2 * reach + 1) as usize;
        let mut stamp = Vec::with_capacity(side * side);
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                stamp.push(source.influence_at(self.metric, IVec2::new(dx, dy)));
            }
        }
        Ok(Stamped { source, reach, stamp })
    }

    /// Adds `sign ×` the stamp of `s` to its team's layer, clipped to the map.
    fn apply(&mut self, s: &Stamped, sign: f32) {
        let (w, h) = (self.width as i32, self.height as i32);
        let r = s.reach;
        let side = (2 * r + 1) as usize;
        let c = s.source.cell;
        let (x0, x1) = (c.x.saturating_sub(r).max(0), c.x.saturating_add(r).min(w - 1));
        let (y0, y1) = (c.y.saturating_sub(r).max(0), c.y.saturating_add(r).min(h - 1));
        // An empty window also means the source is too far away for the arithmetic below to
        // overflow.
        if x0 > x1 || y0 > y1 {
            return;
        }
        let layer = self.layers[s.source.team].values_mut();
        for y in y0..=y1 {
            let srow = (y - (c.y - r)) as usize * side;
            let stamp = &s.stamp[srow + (x0 - (c.x - r)) as usize..srow + (x1 - (c.x - r)) as usize + 1];
            let row = &mut layer[y as usize * w as usize + x0 as usize..=y as usize * w as usize + x1 as usize];
            row.iter_mut().zip(stamp).for_each(|(v, &k)| *v += sign * k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(width: u32, height: u32, teams: usize, metric: Metric, sources: &[Source]) -> Vec<Layer> {
        let mut out = vec![Layer::new(width, height); teams];
        for s in sources {
            for y in 0..height as i32 {
                for x in 0..width as i32 {
                    let c = IVec2::new(x, y);
                    out[s.team].add(c, s.influence_at(metric, c - s.cell));
                }
            }
        }
        out
    }

    #[test]
    fn a_side_is_the_sum_of_its_units() {
        let mut m = InfluenceMap::new(9, 1, 2, Metric::Manhattan);
        m.add(Source::new(0, IVec2::new(2, 0), 4.0, 4.0, Falloff::Linear)).unwrap();
        m.add(Source::new(0, IVec2::new(6, 0), 2.0, 4.0, Falloff::Linear)).unwrap();
        m.add(Source::new(1, IVec2::new(8, 0), 4.0, 4.0, Falloff::Linear)).unwrap();
        // Exercise 8's setting: linear falloff, Manhattan distance, radius 4.
        assert_eq!(m.team(0).unwrap().values(), &[2.0, 3.0, 4.0, 3.0 + 0.5, 2.0 + 1.0, 1.0 + 1.5, 2.0, 1.5, 1.0]);
        assert_eq!(m.team(1).unwrap().values(), &[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m.total_at(IVec2::new(6, 0)), 4.0);
        assert!(matches!(m.team(2), Err(FieldError::NoSuchTeam { team: 2, teams: 2 })));
    }

    #[test]
    fn moving_a_source_matches_a_full_recompute() {
        let mut m = InfluenceMap::new(20, 12, 2, Metric::Euclidean);
        let mut list = vec![
            Source::new(0, IVec2::new(3, 3), 5.0, 6.0, Falloff::Inverse),
            Source::new(1, IVec2::new(15, 8), 3.0, 4.5, Falloff::Exponential { rate: 0.3 }),
            Source::new(0, IVec2::new(0, 11), 2.0, 3.0, Falloff::Constant),
        ];
        let ids: Vec<_> = list.iter().map(|s| m.add(*s).unwrap()).collect();
        for step in 0..30 {
            let k = step % 3;
            list[k].cell += IVec2::new(if step % 2 == 0 { 1 } else { -2 }, 1 - (step % 3) as i32);
            m.move_to(ids[k], list[k].cell).unwrap();
        }
        let want = naive(20, 12, 2, Metric::Euclidean, &list);
        for (t, l) in want.iter().enumerate() {
            for (a, b) in m.team(t).unwrap().values().iter().zip(l.values()) {
                assert!((a - b).abs() < 1e-4, "team {t}: {a} vs {b}");
            }
        }
        // Update and removal, then a rebuild gives exactly the naive sums again.
        list[1].strength = 7.0;
        m.update(ids[1], list[1]).unwrap();
        assert_eq!(m.remove(ids[2]).unwrap(), list[2]);
        assert!(matches!(m.remove(ids[2]), Err(FieldError::NoSuchSource(2))));
        m.rebuild();
        let want = naive(20, 12, 2, Metric::Euclidean, &list[..2]);
        assert_eq!(m.layers(), &want[..]);
        assert_eq!(m.sources().count(), 2);
    }

    #[test]
    fn a_tank_only_covers_its_line_of_fire() {
        let mut m = InfluenceMap::new(9, 3, 1, Metric::Euclidean);
        let tank = Source::new(0, IVec2::new(4, 1), 4.0, 4.0, Falloff::Linear).facing(0.0, std::f32::consts::FRAC_PI_4);
        let id = m.add(tank).unwrap();
        let l = m.team(0).unwrap();
        assert_eq!(l.row(1), &[0.0, 0.0, 0.0, 0.0, 4.0, 3.0, 2.0, 1.0, 0.0]);
        assert_eq!(l.at(IVec2::new(5, 0)), 4.0 * (1.0 - 2f32.sqrt() / 4.0), "45° is inside the arc");
        assert_eq!(l.at(IVec2::new(4, 0)), 0.0, "90° is not");
        // Turning the tank round moves its line of fire.
        m.update(id, tank.facing(std::f32::consts::PI, std::f32::consts::FRAC_PI_4)).unwrap();
        assert_eq!(m.team(0).unwrap().row(1), &[0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn bad_sources_are_refused_and_change_nothing() {
        let mut m = InfluenceMap::new(4, 4, 1, Metric::Euclidean);
        let ok = m.add(Source::new(0, IVec2::new(1, 1), 1.0, 2.0, Falloff::Linear)).unwrap();
        let before = m.layers().to_vec();
        assert!(matches!(
            m.add(Source::new(3, IVec2::ZERO, 1.0, 1.0, Falloff::Linear)),
            Err(FieldError::NoSuchTeam { .. })
        ));
        assert!(matches!(
            m.update(ok, Source::new(0, IVec2::ZERO, f32::NAN, 1.0, Falloff::Linear)),
            Err(FieldError::NotFinite { .. })
        ));
        assert_eq!(m.layers(), &before[..]);
        // Sources far off the map and with huge radii are clipped, not a panic.
        m.add(Source::new(0, IVec2::new(-1000, 5000), 1.0, 1e9, Falloff::Constant)).unwrap();
        m.move_to(ok, IVec2::new(i32::MAX / 4, 0)).unwrap();
    }
}
