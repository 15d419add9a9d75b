-- A taunting troll: a random taunt on every encounter, a growl when the player is close.
---@type string[]
local taunts = { "You smell like elf.", "Come closer, snack.", "My club is hungry." }

function on_spawn()
  state.encounters = 0
end

function on_encounter()
  state.encounters = state.encounters + 1
  Say(taunts[Random(3) + 1])
  if state.encounters == 2 then
    PlaySound("kCreakingDoorSnd")
  end
end

function on_think()
  if DistanceToPlayer() < 1.5 then
    Say("Grrr.")
  end
end
