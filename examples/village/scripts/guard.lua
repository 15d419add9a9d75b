-- The guard is a state machine (models/guard.fsm.toml): this script only gathers the facts,
-- steps the machine and acts on the state it is in.
function on_think()
  local p = Player()
  local d = math.huge
  if p ~= nil then d = Distance(Me(), p) end
  local sees = p ~= nil and d < 7 and LineOfSight(Me(), p)
  state.searching = state.searching or 0
  local before = FsmState("guard")
  local now = FsmStep("guard", {
    health = 100,
    sees_player = sees,
    in_range = sees and d < 2,
    gave_up = state.searching > 20,
  })
  if now ~= before then Note("guard", before .. " -> " .. now) end
  if now == "search" then state.searching = state.searching + 1 else state.searching = 0 end
  if now == "alert" then
    local at = PositionOf(p)
    MoveTo(math.floor(at.x), math.floor(at.y))
  elseif now == "idle" then
    MoveTo("gate")
  elseif now == "challenge" then
    Say("Halt! Who goes there?")
  end
end
