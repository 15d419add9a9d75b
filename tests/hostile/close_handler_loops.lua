-- A to-be-closed variable whose __close never returns, closed by the budget's error.
function on_think()
  local guard <close> = setmetatable({}, { __close = function() while true do end end })
  while true do end
end
