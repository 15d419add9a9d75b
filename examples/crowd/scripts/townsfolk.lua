-- A townsperson of the crowd (examples/crowd), in Lua. Each think: a stranger it sees near gets
-- a taunt; an idle townsperson walks on. Squads keep step: the leader signals each leg before
-- it sets off, the others wait for that leg's signal before they do.
---@type string[]
local TAUNTS = { "Move along, stranger.", "Mind your purse.", "We want no trouble here." }

-- A cell within 12 of here, if it can be walked to (else the next think tries again).
local function wander()
  local at = PositionOf(Me())
  local x, y = math.floor(at.x) + Random(25) - 12, math.floor(at.y) + Random(25) - 12
  if Reachable(x, y) then MoveTo(x, y) end
end

function on_think()
  if DistanceToPlayer() < 8 and CanSee(Player()) then
    Say(TAUNTS[Random(#TAUNTS) + 1])
  end
  if not IsIdle() then return end
  local leg = (state.leg or 0) + 1
  if AttributeOf(Me(), "leader") then
    state.leg = leg
    Signal("leg" .. leg)
    wander()
  elseif state.waiting then
    state.waiting = false
    wander()
  else
    state.leg = leg
    state.waiting = true
    Wait("leg" .. leg)
  end
end
