-- A guard state machine: patrol → chase → home → patrol.
function on_spawn()
  state.mode = "patrol"
end

local function go(mode)
  Note("state", state.mode .. " -> " .. mode)
  state.mode = mode
end

function on_think()
  local d = DistanceToPlayer()
  if state.mode == "patrol" then
    if d < 4 then go("chase") else move(0, -1) move(0, 1) end
  elseif state.mode == "chase" then
    if d > 6 then go("home") else DoAttack() end
  elseif state.mode == "home" then
    MoveTo(8, 4)
    local here = PositionOf(Me())
    if math.floor(here.x) == 8 and math.floor(here.y) == 4 then go("patrol") end
  end
end
