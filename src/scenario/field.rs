//! The `[field]` section: which tactical layers and senses a scenario's world keeps.
//!
//! ```toml
//! [field]
//! teams = ["blue", "red"]              # one influence layer each: influence.blue, influence.red
//! layers = ["control", "frontier", "cover", "exposure", "frag"]
//! strength = 4.0                       # entities without an `influence` attribute
//! radius = 8.0                         # … without `influence_radius`
//! falloff = "linear"                   # … without `influence_falloff`
//!
//! [field.hearing]
//! threshold = 20.0
//! levels = { gunshot = 110.0 }
//! ```
//!
//! Every key is optional except `teams`; `docs/scenario.md` lists them all.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use tactica_engine::field::{
    AutomatonRule, AutomatonSpec, Boundary, CoverParams, Falloff, FieldSpec, FilterSpec, Kernel, LayerKind, Metric,
    Threshold,
};
use tactica_engine::sense::{Hearing, PerceptionSpec, Smell, SoundLevels, VisionCone};
use tactica_engine::world::World;
use toml::Spanned;

use super::budget::Budget;
use super::cost;
use super::error::{ScenarioError, SourcePos};
use super::load::with_suggestion;

/// The `[field]` section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSection {
    /// Teams with an influence layer, in layer order.
    pub teams: Vec<Spanned<String>>,
    /// Layers kept besides influence (see [`LayerKind::ALL`] for the names).
    #[serde(default)]
    pub layers: Vec<Spanned<String>>,
    /// `euclidean`, `manhattan` or `chebyshev`.
    #[serde(default)]
    pub metric: Option<Spanned<String>>,
    /// Default influence strength.
    #[serde(default)]
    pub strength: Option<Spanned<f32>>,
    /// Default influence radius in cells.
    #[serde(default)]
    pub radius: Option<Spanned<f32>>,
    /// Default falloff: `linear`, `inverse`, `constant`, `exponential(RATE)`.
    #[serde(default)]
    pub falloff: Option<Spanned<String>>,
    /// How far sight reaches for `visibility` and `exposure`.
    #[serde(default)]
    pub sight_range: Option<Spanned<f32>>,
    /// Rays per cell for `visibility`.
    #[serde(default)]
    pub visibility_rays: Option<u32>,
    /// The frag map's forgetting factor, 0–1.
    #[serde(default)]
    pub frag_decay: Option<Spanned<f32>>,
    /// Side of a decision-map area in cells.
    #[serde(default)]
    pub decision_area: Option<Spanned<u32>>,
    /// The cover estimate.
    #[serde(default)]
    pub cover: Option<Spanned<CoverSection>>,
    /// Everyone's sight.
    #[serde(default)]
    pub vision: Option<Spanned<VisionSection>>,
    /// Everyone's hearing and the sounds' levels.
    #[serde(default)]
    pub hearing: Option<Spanned<HearingSection>>,
    /// Scent trails and noses.
    #[serde(default)]
    pub scent: Option<Spanned<ScentSection>>,
    /// Layers filtered from others (`[[field.filter]]`).
    #[serde(default)]
    pub filter: Vec<Spanned<FilterSection>>,
    /// Layers grown by cellular automata (`[[field.automaton]]`).
    #[serde(default)]
    pub automaton: Vec<Spanned<AutomatonSection>>,
}

/// `[[field.filter]]`: a layer convolved from another.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilterSection {
    /// The new layer's name.
    pub name: Spanned<String>,
    /// The layer it reads.
    pub from: Spanned<String>,
    /// `gaussian`, `box`, `sharpen` or `edge`.
    pub kernel: Spanned<String>,
    /// Half the kernel's side for `gaussian` and `box` (default 1: 3 × 3).
    pub half: Option<usize>,
    /// `renormalize` (default), `clamp`, `keep`, or a number read beyond the edge.
    pub boundary: Option<Spanned<toml::Value>>,
    /// Times the filter runs (default 1).
    pub passes: Option<usize>,
}

/// `[[field.automaton]]`: a layer grown from another's categories.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AutomatonSection {
    /// The new layer's name.
    pub name: Spanned<String>,
    /// The layer it reads.
    pub from: Spanned<String>,
    /// Ascending thresholds: a value's category is how many it reaches.
    pub thresholds: Spanned<Vec<f32>>,
    /// `life`, `safe_area`, `proportion` or `count`.
    pub rule: Spanned<String>,
    /// The category the rule grows (default 1).
    pub category: Option<u8>,
    /// For `proportion`: the share of neighbours needed.
    pub share: Option<f32>,
    /// For `count`: the neighbours needed.
    pub count: Option<usize>,
    /// Generations per recomputation (default 1).
    pub steps: Option<usize>,
    /// The value each category stands for (default: its number).
    #[serde(default)]
    pub values: Vec<f32>,
}

/// `[field.cover]`: the ray sampling of 000 §6.1.3.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoverSection {
    /// Distance of the simulated attackers.
    pub radius: Option<f32>,
    /// Random jitter of each attacker (below `radius · sin(360° / directions)`).
    pub jitter: Option<f32>,
    /// Attack angles.
    pub directions: Option<u32>,
    /// Samples per angle.
    pub repeats: Option<u32>,
    /// How far (× radius) an attacker may walk to count as in the same room.
    pub room_reach: Option<f32>,
    /// Seed of the estimate's own random generator.
    pub seed: Option<u64>,
}

/// `[field.vision]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisionSection {
    /// How far everyone sees, in cells.
    pub range: Option<f32>,
    /// The full field of view in degrees.
    pub angle: Option<f32>,
}

/// `[field.hearing]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HearingSection {
    /// The quietest level (dB) anyone notices.
    pub threshold: Option<f32>,
    /// dB lost per wall cell.
    pub wall_damping: Option<f32>,
    /// Sounds farther than this are not heard.
    pub range: Option<f32>,
    /// Level of sounds `levels` does not name (default 50).
    pub default_level: Option<f32>,
    /// Level (dB at one cell) per sound name, added to the typical ones.
    #[serde(default)]
    pub levels: BTreeMap<String, f32>,
}

/// `[field.scent]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScentSection {
    /// How strongly entities without a `scent` attribute smell (0: not at all).
    pub intensity: Option<f32>,
    /// Share of strength a mark keeps per tick, 0–1.
    pub fade: Option<f32>,
    /// Multiplies every scent a nose meets.
    pub sensitivity: Option<f32>,
    /// The weakest scent noticed.
    pub threshold: Option<f32>,
    /// Share of scent that passes each wall cell, 0–1.
    pub wall_pass: Option<f32>,
}

/// Turns the section into the declaration of `world`'s tactical maps, checking every name and
/// number. The maps themselves are made once the work they ask for is charged ([`charge`]).
pub(super) fn build(text: &str, file: &Path, section: &FieldSection) -> Result<FieldSpec, ScenarioError> {
    let err =
        |span: std::ops::Range<usize>, msg: String| ScenarioError::new(file, SourcePos::of(text, span.start), msg);
    let mut spec = FieldSpec::default();
    for t in &section.teams {
        if spec.teams.contains(t.get_ref()) {
            return Err(err(t.span(), format!("team `{}` is listed twice", t.get_ref())));
        }
        spec.teams.push(t.get_ref().clone());
    }
    for l in &section.layers {
        let kind = LayerKind::parse(l.get_ref()).ok_or_else(|| {
            let names: Vec<&str> = LayerKind::ALL.iter().map(|(n, _)| *n).collect();
            with_suggestion(err(l.span(), format!("there is no layer kind `{}`", l.get_ref())), l.get_ref(), &names)
        })?;
        spec.layers.insert(kind);
    }
    if let Some(m) = &section.metric {
        spec.metric = match m.get_ref().as_str() {
            "euclidean" => Metric::Euclidean,
            "manhattan" => Metric::Manhattan,
            "chebyshev" => Metric::Chebyshev,
            other => {
                let e = err(m.span(), format!("there is no metric `{other}`"));
                return Err(with_suggestion(e, other, &["euclidean", "manhattan", "chebyshev"]));
            }
        };
    }
    if let Some(f) = &section.falloff {
        spec.falloff = Falloff::parse(f.get_ref()).ok_or_else(|| {
            let e = err(f.span(), format!("there is no falloff `{}`", f.get_ref()));
            with_suggestion(e, f.get_ref(), &["linear", "inverse", "constant", "exponential"])
                .hint("one of linear, inverse, constant, exponential(RATE) with RATE ≥ 0")
        })?;
    }
    let number = |v: &Option<Spanned<f32>>, key: &str, lo: f32, hi: f32, default: f32| match v {
        None => Ok(default),
        Some(s) if s.get_ref().is_finite() && (lo..=hi).contains(s.get_ref()) => Ok(*s.get_ref()),
        Some(s) => Err(err(s.span(), format!("`{key}` must be between {lo} and {hi}, not {}", s.get_ref()))),
    };
    spec.strength = number(&section.strength, "strength", -1e6, 1e6, spec.strength)?;
    spec.radius = number(&section.radius, "radius", 0.0, 1e4, spec.radius)?;
    spec.sight_range = number(&section.sight_range, "sight_range", 0.0, 1e4, spec.sight_range)?;
    spec.frag_decay = number(&section.frag_decay, "frag_decay", 0.0, 1.0, spec.frag_decay)?;
    spec.visibility_rays = section.visibility_rays.unwrap_or(spec.visibility_rays).clamp(1, 360);
    if let Some(a) = &section.decision_area {
        if *a.get_ref() == 0 {
            return Err(err(a.span(), "`decision_area` must be at least 1".into()));
        }
        spec.decision_area = *a.get_ref();
    }
    // The sub-tables: every number must be finite and in range; reported at the table.
    let check = |span: std::ops::Range<usize>, key: &str, v: Option<f32>, lo: f32, hi: f32, d: f32| match v {
        None => Ok(d),
        Some(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(x),
        Some(x) => Err(err(span, format!("`{key}` must be between {lo} and {hi}, not {x}"))),
    };
    if let Some(c) = &section.cover {
        let (s, d) = (c.get_ref(), CoverParams::default());
        spec.cover = CoverParams {
            radius: check(c.span(), "cover.radius", s.radius, 0.0, 1e3, d.radius)?,
            jitter: check(c.span(), "cover.jitter", s.jitter, 0.0, 1e3, d.jitter)?,
            directions: s.directions.unwrap_or(d.directions).min(1024),
            repeats: s.repeats.unwrap_or(d.repeats).min(1024),
            room_reach: check(c.span(), "cover.room_reach", s.room_reach, 0.0, 100.0, d.room_reach)?,
        };
        spec.cover_seed = s.seed.unwrap_or(0);
        spec.cover.validate().map_err(|_| {
            err(
                c.span(),
                "cover needs directions ≥ 2, radius > 0 and jitter below radius · sin(360° / directions)".into(),
            )
        })?;
    }
    let mut senses = PerceptionSpec::default();
    if let Some(v) = &section.vision {
        let d = senses.vision;
        let range = check(v.span(), "vision.range", v.get_ref().range, 0.0, 1e4, d.range)?;
        let angle = check(v.span(), "vision.angle", v.get_ref().angle, 0.0, 360.0, d.half_angle.to_degrees() * 2.0)?;
        senses.vision = VisionCone::new(range, angle);
    }
    if let Some(h) = &section.hearing {
        let (s, d) = (h.get_ref(), senses.hearing);
        senses.hearing = Hearing {
            threshold: check(h.span(), "hearing.threshold", s.threshold, -1e3, 1e3, d.threshold)?,
            wall_damping: check(h.span(), "hearing.wall_damping", s.wall_damping, 0.0, 1e3, d.wall_damping)?,
            range: check(h.span(), "hearing.range", s.range, 0.0, 1e5, d.range)?,
        };
        if let Some(l) = s.default_level {
            senses.default_level = Some(check(h.span(), "hearing.default_level", Some(l), -1e3, 1e3, 0.0)?);
        }
        let mut levels = SoundLevels::typical();
        for (name, &l) in &s.levels {
            levels.set(name.clone(), check(h.span(), &format!("hearing.levels.{name}"), Some(l), -1e3, 1e3, 0.0)?);
        }
        senses.levels = levels;
    }
    if let Some(sc) = &section.scent {
        let (s, d) = (sc.get_ref(), senses.smell);
        senses.scent = check(sc.span(), "scent.intensity", s.intensity, 0.0, 1e3, senses.scent)?;
        senses.scent_fade = check(sc.span(), "scent.fade", s.fade, 0.0, 1.0, senses.scent_fade)?;
        senses.smell = Smell {
            sensitivity: check(sc.span(), "scent.sensitivity", s.sensitivity, 0.0, 1e6, d.sensitivity)?,
            threshold: check(sc.span(), "scent.threshold", s.threshold, 0.0, 1e6, d.threshold)?,
            wall_pass: check(sc.span(), "scent.wall_pass", s.wall_pass, 0.0, 1.0, d.wall_pass)?,
        };
    }
    spec.perception = senses;
    declared_layers(&mut spec, section, &err)?;
    Ok(spec)
}

/// The names of the per-cell layers `spec` keeps (decision layers are per area and cannot be
/// filtered cell by cell).
fn kept_layers(spec: &FieldSpec) -> Vec<String> {
    let mut names: Vec<String> = spec.teams.iter().map(|t| format!("influence.{t}")).collect();
    for kind in &spec.layers {
        let per_team = |p: &str| spec.teams.iter().map(|t| format!("{p}.{t}")).collect::<Vec<_>>();
        match kind {
            LayerKind::Control => names.push("control".into()),
            LayerKind::Security => names.extend(per_team("security")),
            LayerKind::Balance => names.extend(per_team("balance")),
            LayerKind::Vulnerability => names.extend(per_team("vulnerability")),
            LayerKind::Exposure => names.extend(per_team("exposure")),
            LayerKind::Decision => {}
            other => {
                if let Some((n, _)) = LayerKind::ALL.iter().find(|(_, k)| k == other) {
                    names.push((*n).to_owned());
                }
            }
        }
    }
    names
}

/// Checks `[[field.filter]]` and `[[field.automaton]]` and adds them to `spec`.
fn declared_layers(
    spec: &mut FieldSpec,
    section: &FieldSection,
    err: &impl Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<(), ScenarioError> {
    let mut names = kept_layers(spec);
    let check_names = |names: &Vec<String>, name: &Spanned<String>, from: &Spanned<String>| {
        if names.contains(name.get_ref()) || name.get_ref().is_empty() {
            return Err(err(name.span(), format!("a layer named `{}` exists already", name.get_ref())));
        }
        if !names.contains(from.get_ref()) {
            let known: Vec<&str> = names.iter().map(String::as_str).collect();
            let e = err(from.span(), format!("no per-cell layer is named `{}`", from.get_ref()));
            return Err(with_suggestion(e, from.get_ref(), &known));
        }
        Ok(())
    };
    for f in &section.filter {
        let f = f.get_ref();
        check_names(&names, &f.name, &f.from)?;
        let half = f.half.unwrap_or(1).clamp(1, 8);
        let kernel = match f.kernel.get_ref().as_str() {
            "gaussian" => Kernel::gaussian(half),
            "box" => Kernel::box_blur(half),
            "sharpen" => Kernel::sharpen(1.0, 0.25).map_err(|e| err(f.kernel.span(), e.to_string()))?,
            "edge" => Kernel::edge_detect(),
            other => {
                let e = err(f.kernel.span(), format!("there is no kernel `{other}`"));
                return Err(with_suggestion(e, other, &["gaussian", "box", "sharpen", "edge"]));
            }
        };
        let boundary = match f.boundary.as_ref().map(|b| (b, b.get_ref())) {
            None => Boundary::Renormalize,
            Some((_, toml::Value::String(s))) if s == "renormalize" => Boundary::Renormalize,
            Some((_, toml::Value::String(s))) if s == "clamp" => Boundary::Clamp,
            Some((_, toml::Value::String(s))) if s == "keep" => Boundary::Keep,
            Some((_, toml::Value::Float(v))) if v.is_finite() => Boundary::Constant(*v as f32),
            Some((_, toml::Value::Integer(v))) => Boundary::Constant(*v as f32),
            Some((b, _)) => {
                return Err(err(b.span(), "`boundary` is `renormalize`, `clamp`, `keep` or a number".into()));
            }
        };
        let passes = f.passes.unwrap_or(1).clamp(1, 64);
        spec.filters.push(FilterSpec {
            name: f.name.get_ref().clone(),
            from: f.from.get_ref().clone(),
            kernel,
            boundary,
            passes,
        });
        names.push(f.name.get_ref().clone());
    }
    for a in &section.automaton {
        let a = a.get_ref();
        check_names(&names, &a.name, &a.from)?;
        let t = a.thresholds.get_ref();
        if t.is_empty() || t.iter().any(|v| !v.is_finite()) || t.windows(2).any(|w| w[0] > w[1]) || t.len() > 254 {
            return Err(err(a.thresholds.span(), "`thresholds` must be finite numbers in ascending order".into()));
        }
        let category = a.category.unwrap_or(1);
        let rule = match a.rule.get_ref().as_str() {
            "life" => AutomatonRule::Life,
            "safe_area" => AutomatonRule::Threshold(Threshold::safe_area(category, 0)),
            "proportion" => {
                let share = a
                    .share
                    .filter(|s| *s > 0.0 && *s <= 1.0)
                    .ok_or_else(|| err(a.rule.span(), "the `proportion` rule needs `share`, in (0, 1]".into()))?;
                AutomatonRule::Threshold(Threshold::proportion(category, share, None))
            }
            "count" => {
                let count = a
                    .count
                    .filter(|c| (1..=8).contains(c))
                    .ok_or_else(|| err(a.rule.span(), "the `count` rule needs `count`, 1 to 8 neighbours".into()))?;
                AutomatonRule::Threshold(Threshold::count(category, count))
            }
            other => {
                let e = err(a.rule.span(), format!("there is no automaton rule `{other}`"));
                return Err(with_suggestion(e, other, &["life", "safe_area", "proportion", "count"]));
            }
        };
        if a.values.iter().any(|v| !v.is_finite()) {
            return Err(err(a.rule.span(), "`values` must be finite numbers".into()));
        }
        spec.automata.push(AutomatonSpec {
            name: a.name.get_ref().clone(),
            from: a.from.get_ref().clone(),
            thresholds: t.clone(),
            rule,
            steps: a.steps.unwrap_or(1).min(1000),
            values: a.values.clone(),
        });
        names.push(a.name.get_ref().clone());
    }
    Ok(())
}

/// Charges what the first update of `spec`'s layers on `world` costs (it runs at load, so tick
/// 0 reads them): the influence every declared team's characters project, the derived, terrain
/// and exposure layers kept, and each filter and automaton. Each part is charged at the key
/// that asks for it.
pub(super) fn charge(
    section: &FieldSection,
    spec: &FieldSpec,
    world: &World,
    budget: &mut Budget<'_>,
    text: &str,
    file: &Path,
) -> Result<(), ScenarioError> {
    let map = world.map();
    let open = cost::open_cells(map);
    let teams_span = section.teams.first().map_or(0..0, Spanned::span);
    let at = |span: std::ops::Range<usize>| move || (file.to_path_buf(), SourcePos::of(text, span.start));
    let layer_span = |kind: LayerKind| {
        section
            .layers
            .iter()
            .find(|l| LayerKind::parse(l.get_ref()) == Some(kind))
            .map_or(teams_span.clone(), Spanned::span)
    };
    // Every layer kept is a whole-map array, written at least once.
    let kept = kept_layers(spec).len() as u64 + 3;
    budget.charge(
        cost::layers(map, kept),
        "[field] layers",
        &format!("{kept} layers over the map"),
        at(teams_span.clone()),
    )?;
    // Influence: each declared team's character writes a square of its radius.
    let members: Vec<&tactica_engine::world::Entity> =
        world.entities().map(|(_, e)| e).filter(|e| spec.teams.contains(&e.team)).collect();
    let own = |e: &&tactica_engine::world::Entity| e.attribute("influence_radius").as_f64().map(|r| r as f32);
    let (with_own, plain): (Vec<_>, Vec<_>) = members.iter().partition(|e| own(e).is_some());
    let units = (plain.len() as u64).saturating_mul(cost::influence_source(map, spec.radius));
    let what = format!("influence of {} characters over a radius of {} cells", plain.len(), spec.radius);
    let radius_span = section.radius.as_ref().map_or(teams_span.clone(), Spanned::span);
    budget.charge(units, "radius", &what, at(radius_span))?;
    if !with_own.is_empty() {
        let units =
            with_own.iter().fold(0u64, |sum, e| sum.saturating_add(cost::influence_source(map, own(e).unwrap_or(0.0))));
        let what = format!("influence of {} characters over their own `influence_radius`", with_own.len());
        budget.charge(units, "influence_radius", &what, at(teams_span.clone()))?;
    }
    if spec.layers.contains(&LayerKind::Cover) {
        let p = &spec.cover;
        let span = section.cover.as_ref().map_or_else(|| layer_span(LayerKind::Cover), Spanned::span);
        let what = format!(
            "cover: {} directions × {} repeats of rays of {} cells from each of {open} open cells",
            p.directions, p.repeats, p.radius
        );
        budget.charge(cost::cover_layer(map, open, p), "[field.cover]", &what, at(span))?;
    }
    if spec.layers.contains(&LayerKind::Visibility) {
        let units = cost::visibility_layer(map, open, spec.visibility_rays, spec.sight_range);
        let what = format!(
            "visibility: {} rays of {} cells from each of {open} open cells",
            spec.visibility_rays, spec.sight_range
        );
        budget.charge(units, "visibility_rays", &what, at(layer_span(LayerKind::Visibility)))?;
    }
    if spec.layers.contains(&LayerKind::Exposure) {
        // Each team is observed by the members of the others.
        let mut per_team: BTreeMap<&str, u64> = BTreeMap::new();
        for e in &members {
            *per_team.entry(e.team.as_str()).or_default() += 1;
        }
        let units = spec.teams.iter().fold(0u64, |sum, team| {
            let observers = members.len() as u64 - per_team.get(team.as_str()).copied().unwrap_or(0);
            sum.saturating_add(cost::exposure_layer(map, open, observers, spec.sight_range))
        });
        let what = format!(
            "exposure: every open cell against every enemy within {} cells, for {} teams",
            spec.sight_range,
            spec.teams.len()
        );
        budget.charge(units, "sight_range", &what, at(layer_span(LayerKind::Exposure)))?;
    }
    if spec.layers.contains(&LayerKind::Territory) {
        let what = format!("the territory flood from {} characters", members.len());
        budget.charge(
            cost::territory(map, members.len() as u64),
            "territory",
            &what,
            at(layer_span(LayerKind::Territory)),
        )?;
    }
    for (f, written) in spec.filters.iter().zip(&section.filter) {
        let what =
            format!("filter `{}`: {} passes of a {}×{} kernel", f.name, f.passes, f.kernel.side(), f.kernel.side());
        let units = cost::filter(map, f.kernel.side(), f.passes);
        budget.charge(units, &format!("[[field.filter]] {}", f.name), &what, at(written.span()))?;
    }
    for (a, written) in spec.automata.iter().zip(&section.automaton) {
        let what = format!("automaton `{}`: {} generations over the map", a.name, a.steps);
        let units = cost::automaton(map, a.thresholds.len(), a.steps);
        budget.charge(units, &format!("[[field.automaton]] {}", a.name), &what, at(written.span()))?;
    }
    Ok(())
}
