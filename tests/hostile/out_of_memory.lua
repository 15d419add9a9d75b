-- Makes coroutines until the state's memory runs out: each costs a few instructions and a
-- kilobyte, so the memory limit comes before the budget; the stop names the line that allocated.
function on_think()
  local cos = {}
  for i = 1, 1000000 do cos[i] = coroutine.create(print) end
end
