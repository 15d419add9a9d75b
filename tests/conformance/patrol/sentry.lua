-- A patrol pattern: three cells east, two south, three west, two north.
function on_spawn()
  state.laps = 0
end

function on_think()
  if IsIdle() then
    state.laps = state.laps + 1
    Note("lap", state.laps)
  end
  for _ = 1, 3 do move(1, 0) end
  for _ = 1, 2 do move(0, 1) end
  for _ = 1, 3 do move(-1, 0) end
  for _ = 1, 2 do move(0, -1) end
end
