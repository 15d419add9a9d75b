-- A scout that runs a sequence: each action is queued in order, and a query (Distance) waits
-- until the actions queued before it have finished.
function sequence()
  MoveTo(10, 4)
  Say("At the hut.")
  local d = Distance(Me(), FindEntity("shaman"))
  if d < 3 then Say("The shaman is home.") end
end
