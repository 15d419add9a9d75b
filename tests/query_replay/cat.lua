-- Takes the decoy as its target (on the blackboard: from the next tick on) and, every tick, the
-- point nearest to it by path.
function on_think()
  if GetBlackboard("target") == nil then SetBlackboard("target", FindEntity("decoy")) end
  local p = FindPosition("flank")
  if p then Note("flank", p) end
end
