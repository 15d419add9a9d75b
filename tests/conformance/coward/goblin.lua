-- A fleeing coward reading PlayerChallenge.
function on_spawn()
  state.fleeing = false
end

function on_think()
  if GetGlobal("PlayerChallenge") == "DIFFICULT" then
    if not state.fleeing then Say("Eek!") end
    state.fleeing = true
    DoFlee()
  else
    if state.fleeing then Say("Phew.") end
    state.fleeing = false
  end
end
