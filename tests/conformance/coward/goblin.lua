-- A fleeing coward reading PlayerChallenge.
function on_spawn()
  state.fleeing = false
end

function on_think()
  if GetGlobal("PlayerChallenge") == "DIFFICULT" then
    -- Flee first: a request replaces the queue, so a line said before it would be dropped.
    DoFlee()
    if not state.fleeing then Say("Eek!") end
    state.fleeing = true
  else
    if state.fleeing then Say("Phew.") end
    state.fleeing = false
  end
end
