-- A trap room: edge-triggered on the player entering the vault.
function on_spawn()
  state.inside = false
  state.fired = 0
end

function on_think()
  local inside = PlayerLocation("vault")
  if inside and not state.inside then
    state.fired = state.fired + 1
    Trigger("kPoisonTrap")
    PlaySound("kCreakingDoorSnd")
    if state.fired > 1 then Say("Again?") end
  end
  state.inside = inside
end
