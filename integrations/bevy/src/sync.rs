//! The `FixedUpdate` side: linking Bevy entities to characters, the game's positions in, one
//! tick, the events out (with the linked Bevy entity), positions back into `Transform`s. The
//! systems sit in [`TacticaSystems`], so a game orders its own around the tick.

use std::collections::BTreeMap;

use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::transform::components::Transform;
use tactica_engine::world::{EntityId, Event};

use crate::convert::{ToBevy, ToTactica};
use crate::runtime::TacticaRuntime;

/// The plugin's systems in `FixedUpdate`, in this order. A game system that moves a
/// [`GameDriven`] entity, edits the world or reads what the last tick left goes
/// `.before(TacticaSystems::Tick)`; one that reads [`TacticaEvent`]s goes
/// `.after(TacticaSystems::Tick)`; one that reads the `Transform`s the characters moved goes
/// `.after(TacticaSystems::Pull)`. Unordered, Bevy's multithreaded executor may run it on either
/// side of the tick, and the run is no longer the same twice.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TacticaSystems {
    /// Links [`TacticaName`]s, copies the [`GameDriven`] `Transform`s into their characters,
    /// runs one tick and writes its events as [`TacticaEvent`] messages.
    Tick,
    /// Moves every other linked entity's `Transform` to its character.
    Pull,
}

/// Links a Bevy entity to a Tactica character.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TacticaEntity(pub EntityId);

/// Links a Bevy entity to the Tactica character of this name; the plugin resolves it to a
/// [`TacticaEntity`] (for characters a scenario spawns).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct TacticaName(pub String);

/// The game moves this entity itself (the player's avatar): its `Transform` is copied to the
/// character before each tick instead of the other way round.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct GameDriven;

/// One thing that happened in Tactica (said, heard, moved, triggered …), in trace order, with
/// the Bevy entity linked to the character it happened to (`None` for world events and
/// characters no entity is linked to).
#[derive(Message, Debug, Clone)]
pub struct TacticaEvent {
    /// What happened, as the trace has it (the character by name).
    pub event: Event,
    /// The Bevy entity linked to that character.
    pub entity: Option<Entity>,
}

/// Resolves [`TacticaName`]s to [`TacticaEntity`] links.
pub(crate) fn link_names(
    mut commands: Commands,
    runtime: Option<Res<TacticaRuntime>>,
    unlinked: Query<(Entity, &TacticaName), Without<TacticaEntity>>,
) {
    let Some(runtime) = runtime else { return };
    let rt = runtime.lock();
    for (entity, name) in &unlinked {
        if let Some(id) = rt.world().find(&name.0) {
            commands.entity(entity).insert(TacticaEntity(id));
        }
    }
}

/// Copies the `Transform` of [`GameDriven`] entities to their characters.
pub(crate) fn push_game_positions(
    runtime: Option<ResMut<TacticaRuntime>>,
    driven: Query<(&TacticaEntity, &Transform), With<GameDriven>>,
) {
    let Some(mut runtime) = runtime else { return };
    let moves: Vec<(EntityId, Vec2)> =
        driven.iter().map(|(link, t)| (link.0, runtime.to_grid(t.translation.truncate()))).collect();
    let rt = runtime.get_mut();
    for (id, at) in moves {
        if let Some(e) = rt.world_mut().entity_mut(id) {
            e.position = at.to_tactica();
        }
    }
}

/// One Tactica tick; its events come out as messages, each with its character's Bevy entity.
pub(crate) fn tick(
    runtime: Option<ResMut<TacticaRuntime>>,
    linked: Query<(Entity, &TacticaEntity)>,
    mut out: MessageWriter<TacticaEvent>,
) {
    let Some(mut runtime) = runtime else { return };
    let rt = runtime.get_mut();
    rt.tick();
    // Events name their character; the names of the linked ones, looked up once a tick.
    let by_name: BTreeMap<String, Entity> = linked
        .iter()
        .filter_map(|(entity, link)| rt.world().entity(link.0).map(|e| (e.name.clone(), entity)))
        .collect();
    out.write_batch(rt.drain_events().into_iter().map(|event| {
        let entity = event.entity.as_ref().and_then(|name| by_name.get(name).copied());
        TacticaEvent { event, entity }
    }));
}

/// Moves linked entities to their characters' positions (z is kept).
pub(crate) fn pull_positions(
    runtime: Option<Res<TacticaRuntime>>,
    mut linked: Query<(&TacticaEntity, &mut Transform), Without<GameDriven>>,
) {
    let Some(runtime) = runtime else { return };
    let rt = runtime.lock();
    for (link, mut transform) in &mut linked {
        if let Some(e) = rt.world().entity(link.0) {
            let at = runtime.to_world(e.position.to_bevy());
            transform.translation.x = at.x;
            transform.translation.y = at.y;
        }
    }
}
