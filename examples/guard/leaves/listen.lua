-- The guard's ears, a service of its tree (`service listen() every 5`): it turns what the game
-- reports — globals the timeline sets — into the blackboard keys the tree's guards watch.
function listen()
  local heard = GetGlobal("noise_id") or 0
  if heard > (GetBlackboard("heard_id") or 0) then
    SetBlackboard("heard_id", heard)
    SetBlackboard("noise", true)
    SetBlackboard("noise_x", GetGlobal("noise_x"))
    SetBlackboard("noise_y", GetGlobal("noise_y"))
  end
  local shots = GetGlobal("shots") or 0
  if shots > (GetBlackboard("shots_seen") or 0) then
    SetBlackboard("shots_seen", shots)
    SetBlackboard("shot", true)
  end
end
