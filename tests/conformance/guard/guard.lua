-- A guard state machine by hand: patrol until the player comes near, chase while near, go home
-- when the player is gone, patrol again once home. As in a `.tac` machine, the transitions are
-- checked first, then the current state's tick runs; ChangeState records each change the same way.
local transitions = {
  kPatrol = function() if DistanceToPlayer() < 6 then return "kChase" end end,
  kChase = function() if DistanceToPlayer() > 7 then return "kGoHome" end end,
  kGoHome = function() if IsIdle() then return "kPatrol" end end,
}

local ticks = {
  kPatrol = function() move(0, -1) move(0, 1) end,
  kChase = function() DoAttack() end,
  kGoHome = function() MoveTo(1, 4) end,
}

function on_think()
  local now = state.mode and (transitions[state.mode]() or state.mode) or "kPatrol"
  if now ~= state.mode then
    ChangeState("Guard", now)
    state.mode = now
  end
  ticks[now]()
end
