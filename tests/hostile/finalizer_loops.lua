-- A finalizer would run when the collector decides, outside any call's budget.
function on_think()
  setmetatable({}, { __gc = function() while true do end end })
end
