//! Decision maps for a strategic commander: resource, offense and conflict maps, coarse grids
//! over the level updated from events its units report (001_003 §2.10, L498-538).

use std::collections::BTreeMap;

use glam::IVec2;

use super::layer::Layer;

/// What an offense-map entry marks (L508).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Objective {
    /// An enemy base.
    EnemyBase,
    /// A map objective to destroy.
    Destroy,
    /// A map objective to protect.
    Protect,
    /// A map objective to attack.
    Attack,
    /// The commander's own main base.
    OwnBase,
    /// One of the commander's own key units (a hero).
    OwnHero,
}

/// What the fighting was against (L516).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConflictKind {
    /// Enemy units.
    Units,
    /// Enemy buildings.
    Buildings,
}

/// What the enemy met could attack (L518).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// Ground only.
    Ground,
    /// Air only.
    Air,
    /// Both.
    Both,
}

/// Something a unit reports to its commander. Cells are game-map cells; the maps bucket them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DecisionEvent {
    /// A scout saw `amount` of resources at `cell` (replaces what was known there).
    ResourceSeen {
        /// Where.
        cell: IVec2,
        /// How much is there now.
        amount: f32,
    },
    /// An objective was found or its value changed.
    ObjectiveSeen {
        /// Where.
        cell: IVec2,
        /// What it is.
        objective: Objective,
        /// How much it matters.
        value: f32,
    },
    /// An objective is gone (destroyed, moved away).
    ObjectiveGone {
        /// Where it was.
        cell: IVec2,
        /// What it was.
        objective: Objective,
    },
    /// Soldiers fought the enemy here (L514-520).
    Conflict {
        /// Where.
        cell: IVec2,
        /// Against units or buildings.
        kind: ConflictKind,
        /// What the enemy could hit.
        capability: Capability,
        /// How many enemies were met.
        enemies: u32,
        /// The area's destruction potential.
        strength: f32,
    },
}

/// Everything the conflict map knows about one area.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ConflictCell {
    /// How many fights were reported here.
    pub fights: u32,
    /// The largest number of enemies met in one fight.
    pub enemies: u32,
    /// Accumulated destruction potential (fades with [`DecisionMaps::fade_conflict`]).
    pub strength: f32,
    /// Enemy units were fought here.
    pub units: bool,
    /// Enemy buildings were fought here.
    pub buildings: bool,
    /// The enemy here attacks ground.
    pub anti_ground: bool,
    /// The enemy here attacks air.
    pub anti_air: bool,
}

/// One commander's resource, offense and conflict maps over areas of `area × area` game cells.
#[derive(Debug, Clone, PartialEq)]
pub struct DecisionMaps {
    area: u32,
    resources: Layer,
    deposits: BTreeMap<(i32, i32), f32>,
    objectives: BTreeMap<(i32, i32, Objective), f32>,
    conflict: Vec<ConflictCell>,
    heat: Layer,
}

impl DecisionMaps {
    /// Maps for a `width × height` game map, bucketed into areas `area` cells wide (at least 1).
    pub fn new(width: u32, height: u32, area: u32) -> Self {
        let area = area.max(1);
        let (w, h) = (width.div_ceil(area), height.div_ceil(area));
        DecisionMaps {
            area,
            resources: Layer::new(w, h),
            deposits: BTreeMap::new(),
            objectives: BTreeMap::new(),
            conflict: vec![ConflictCell::default(); w as usize * h as usize],
            heat: Layer::new(w, h),
        }
    }

    /// The area a game cell falls in.
    pub fn area_of(&self, cell: IVec2) -> IVec2 {
        cell.div_euclid(IVec2::splat(self.area as i32))
    }

    /// The game cell at the centre of an area.
    pub fn centre_of(&self, area: IVec2) -> IVec2 {
        area * self.area as i32 + IVec2::splat(self.area as i32 / 2)
    }

    /// Applies one report; reports off the map are ignored.
    pub fn apply(&mut self, event: &DecisionEvent) {
        match *event {
            DecisionEvent::ResourceSeen { cell, amount } if amount.is_finite() => {
                // Several deposits can share an area: keep the per-cell amounts apart.
                let a = self.area_of(cell);
                if !self.resources.contains(a) {
                    return;
                }
                let old = self.deposits.insert((cell.x, cell.y), amount.max(0.0)).unwrap_or(0.0);
                self.resources.add(a, amount.max(0.0) - old);
            }
            DecisionEvent::ObjectiveSeen { cell, objective, value } if value.is_finite() => {
                self.objectives.insert((cell.x, cell.y, objective), value);
            }
            DecisionEvent::ObjectiveGone { cell, objective } => {
                self.objectives.remove(&(cell.x, cell.y, objective));
            }
            DecisionEvent::Conflict { cell, kind, capability, enemies, strength } if strength.is_finite() => {
                let a = self.area_of(cell);
                let Some(i) = self.heat.index(a) else { return };
                let c = &mut self.conflict[i];
                c.fights += 1;
                c.enemies = c.enemies.max(enemies);
                c.strength += strength.max(0.0);
                c.units |= kind == ConflictKind::Units;
                c.buildings |= kind == ConflictKind::Buildings;
                c.anti_ground |= capability != Capability::Air;
                c.anti_air |= capability != Capability::Ground;
                self.heat.values_mut()[i] = c.strength;
            }
            _ => {}
        }
    }
}

impl DecisionMaps {
    /// Resources known per area.
    pub fn resources(&self) -> &Layer {
        &self.resources
    }

    /// Conflict strength per area: the heat map (darker red = more conflict, L532).
    pub fn conflict_heat(&self) -> &Layer {
        &self.heat
    }

    /// What the conflict map knows about an area.
    pub fn conflict_at(&self, area: IVec2) -> Option<&ConflictCell> {
        self.heat.index(area).map(|i| &self.conflict[i])
    }

    /// Known objectives, in cell then kind order.
    pub fn objectives(&self) -> impl Iterator<Item = (IVec2, Objective, f32)> + '_ {
        self.objectives.iter().map(|(&(x, y, o), &v)| (IVec2::new(x, y), o, v))
    }

    /// The offense map: per area, the summed value of the objectives in it.
    pub fn offense(&self) -> Layer {
        let mut out = Layer::new(self.resources.width(), self.resources.height());
        for (cell, _, v) in self.objectives() {
            out.add(self.area_of(cell), v);
        }
        out
    }

    /// All resources known (scarce → spend units carefully; abundant → aggressive, L504).
    pub fn resource_total(&self) -> f64 {
        self.resources.total()
    }

    /// Fades the conflict map (old fights matter less): multiplies every strength by `factor`.
    pub fn fade_conflict(&mut self, factor: f32) {
        let f = if factor.is_finite() { factor.clamp(0.0, 1.0) } else { 1.0 };
        for (c, h) in self.conflict.iter_mut().zip(self.heat.values_mut()) {
            c.strength *= f;
            *h = c.strength;
        }
    }

    /// Where to expand from `home` (a game cell): the area whose resources per unit of distance
    /// from home are largest. Used with the enemy's base it predicts the enemy's expansion (L502).
    pub fn best_expansion(&self, home: IVec2) -> Option<IVec2> {
        let here = self.area_of(home);
        let mut best: Option<(f32, IVec2)> = None;
        for (i, &amount) in self.resources.values().iter().enumerate() {
            let a = self.resources.cell_at(i);
            if amount <= 0.0 {
                continue;
            }
            let score = amount / (1.0 + (a - here).as_vec2().length());
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, a));
            }
        }
        best.map(|(_, a)| a)
    }

    /// Resource areas likely to be contested: their distances to the two bases differ by at most
    /// `margin` areas (resources "in the middle", L502), nearest-to-both first.
    pub fn contested_resources(&self, home: IVec2, enemy: IVec2, margin: f32) -> Vec<IVec2> {
        let (h, e) = (self.area_of(home), self.area_of(enemy));
        let mut out: Vec<(f32, usize)> = self
            .resources
            .values()
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v > 0.0)
            .filter_map(|(i, _)| {
                let a = self.resources.cell_at(i).as_vec2();
                let (dh, de) = (a.distance(h.as_vec2()), a.distance(e.as_vec2()));
                ((dh - de).abs() <= margin).then_some((dh + de, i))
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        out.into_iter().map(|(_, i)| self.resources.cell_at(i)).collect()
    }

    /// Whether any fight was reported within `radius` areas of the area holding `cell`: were the
    /// defences round an objective engaged, or bypassed (L526)?
    pub fn fighting_near(&self, cell: IVec2, radius: i32) -> bool {
        let a = self.area_of(cell);
        (-radius..=radius)
            .flat_map(|dy| (-radius..=radius).map(move |dx| IVec2::new(dx, dy)))
            .any(|d| self.conflict_at(a + d).is_some_and(|c| c.fights > 0))
    }

    /// The areas round `target` (within `radius`), weakest first by conflict strength met there:
    /// where to breach its defences (L508, L528).
    pub fn weak_points(&self, target: IVec2, radius: i32) -> Vec<(IVec2, f32)> {
        let t = self.area_of(target);
        let mut out: Vec<(IVec2, f32)> = (-radius..=radius)
            .flat_map(|dy| (-radius..=radius).map(move |dx| IVec2::new(dx, dy)))
            .map(|d| t + d)
            .filter(|&a| a != t && self.heat.contains(a))
            .map(|a| (a, self.heat.at(a)))
            .collect();
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then((a.0.y, a.0.x).cmp(&(b.0.y, b.0.x))));
        out
    }

    /// How many units of `unit_strength` it takes to overcome the strength met in an area (units
    /// are balanced, so strength divides, L530).
    pub fn units_needed(&self, area: IVec2, unit_strength: f32) -> u32 {
        let s = self.heat.at(area);
        if unit_strength <= 0.0 || !unit_strength.is_finite() || s <= 0.0 {
            return 0;
        }
        (s / unit_strength).ceil().min(u32::MAX as f32) as u32
    }

    /// A per-area path cost that grows with conflict: `1 + weight × heat`, so a route that avoids
    /// or minimises conflict is the cheapest (L528).
    pub fn conflict_cost(&self, weight: f32) -> Layer {
        let mut out = self.heat.clone();
        out.map_in_place(|h| 1.0 + weight * h);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: i32, y: i32) -> IVec2 {
        IVec2::new(x, y)
    }

    #[test]
    fn resources_bucket_replace_and_pick_expansions() {
        let mut m = DecisionMaps::new(40, 20, 10);
        assert_eq!(m.resources().width(), 4);
        m.apply(&DecisionEvent::ResourceSeen { cell: v(12, 3), amount: 100.0 });
        m.apply(&DecisionEvent::ResourceSeen { cell: v(15, 8), amount: 50.0 });
        m.apply(&DecisionEvent::ResourceSeen { cell: v(12, 3), amount: 80.0 }); // harvested a bit
        m.apply(&DecisionEvent::ResourceSeen { cell: v(35, 15), amount: 400.0 });
        m.apply(&DecisionEvent::ResourceSeen { cell: v(99, 99), amount: 1.0 }); // off the map
        assert_eq!(m.resources().at(v(1, 0)), 130.0);
        assert_eq!(m.resource_total(), 530.0);
        // From (0,0): area (1,0) scores 130/2 = 65, area (3,1) 400/(1+√10) ≈ 96.
        assert_eq!(m.best_expansion(v(0, 0)), Some(v(3, 1)));
        // From (39,0) area (3,0): (3,1) scores 400/2 = 200.
        assert_eq!(m.best_expansion(v(39, 0)), Some(v(3, 1)));
        // Bases in areas (0,0) and (3,0): area (1,0) is 1 vs 2 away, (3,1) is √10 vs 1.
        assert_eq!(m.contested_resources(v(0, 0), v(39, 0), 1.0), vec![v(1, 0)]);
    }

    #[test]
    fn offense_map_from_objectives() {
        let mut m = DecisionMaps::new(20, 20, 10);
        m.apply(&DecisionEvent::ObjectiveSeen { cell: v(15, 15), objective: Objective::EnemyBase, value: 10.0 });
        m.apply(&DecisionEvent::ObjectiveSeen { cell: v(12, 14), objective: Objective::Destroy, value: 3.0 });
        m.apply(&DecisionEvent::ObjectiveSeen { cell: v(2, 2), objective: Objective::OwnBase, value: 8.0 });
        assert_eq!(m.offense().values(), &[8.0, 0.0, 0.0, 13.0]);
        m.apply(&DecisionEvent::ObjectiveGone { cell: v(12, 14), objective: Objective::Destroy });
        assert_eq!(m.offense().at(v(1, 1)), 10.0);
        assert_eq!(m.objectives().count(), 2);
    }

    #[test]
    fn conflict_map_records_fights_and_finds_weak_points() {
        let mut m = DecisionMaps::new(30, 30, 10);
        let fight = |cell, strength, capability| DecisionEvent::Conflict {
            cell,
            kind: ConflictKind::Units,
            capability,
            enemies: 4,
            strength,
        };
        m.apply(&fight(v(5, 15), 12.0, Capability::Ground));
        m.apply(&fight(v(6, 16), 6.0, Capability::Air));
        m.apply(&fight(v(15, 5), 3.0, Capability::Both));
        m.apply(&DecisionEvent::Conflict {
            cell: v(25, 15),
            kind: ConflictKind::Buildings,
            capability: Capability::Ground,
            enemies: 9,
            strength: 1.0,
        });
        let c = m.conflict_at(v(0, 1)).unwrap();
        assert_eq!((c.fights, c.enemies, c.strength), (2, 4, 18.0));
        assert!(c.units && !c.buildings && c.anti_ground && c.anti_air);
        assert_eq!(m.units_needed(v(0, 1), 5.0), 4);
        assert_eq!(m.units_needed(v(1, 1), 5.0), 0);
        // Round the centre area, the quiet areas come first, then the east (1.0), north (3.0)
        // and west (18.0) approaches.
        let weak = m.weak_points(v(15, 15), 1);
        assert_eq!(weak.len(), 8);
        assert!(weak[..5].iter().all(|&(_, s)| s == 0.0));
        assert_eq!(&weak[5..], &[(v(2, 1), 1.0), (v(1, 0), 3.0), (v(0, 1), 18.0)]);
        assert!(m.fighting_near(v(15, 15), 1));
        assert!(!m.fighting_near(v(25, 25), 0));
        assert_eq!(m.conflict_cost(0.5).at(v(0, 1)), 10.0);
        m.fade_conflict(0.5);
        assert_eq!(m.conflict_heat().at(v(0, 1)), 9.0);
    }
}
