-- A goblin that taunts the player on sight and flees once the player looks dangerous.
---@type string[]
local taunts = { "Shiny boots! Mine soon.", "Go home, tall one." }

function on_spawn()
  state.fled = false
end

function on_encounter()
  Say(taunts[Random(#taunts) + 1])
end

function on_think()
  if GetGlobal("PlayerChallenge") == "DIFFICULT" then
    if not state.fled then Say("Run away!") end
    DoFlee()
    state.fled = true
  end
end
