-- The goblin walks to the well. `kWell` is written bare, as `.tac` writes a place.
function on_think()
  MoveTo(kWell)
end
