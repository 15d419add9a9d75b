-- The deer grazes until the wolf comes within 10 cells, then flees from it (steering: evade).
function on_think()
  local wolf = FindEntity("wolf")
  if wolf ~= nil and Distance(Me(), wolf) < 10 and SteeringOf(Me()) ~= "evade" then
    Evade(wolf)
    Note("fleeing", true)
  end
end
