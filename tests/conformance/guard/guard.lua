-- A guard state machine: patrol → chase → home → patrol.
function on_spawn()
  state.mode = "patrol"
end

local function change_to(mode)
  Note("state", state.mode .. " -> " .. mode)
  state.mode = mode
end

function on_think()
  local d = DistanceToPlayer()
  if state.mode == "patrol" then
    if d < 6 then change_to("chase") else move(0, -1) move(0, 1) end
  elseif state.mode == "chase" then
    if d > 7 then change_to("home") else DoAttack() end
  elseif state.mode == "home" then
    MoveTo(1, 4)
    local here = PositionOf(Me())
    if math.floor(here.x) == 1 and math.floor(here.y) == 4 then change_to("patrol") end
  end
end
