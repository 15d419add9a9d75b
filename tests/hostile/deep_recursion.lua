-- Recurses without end (not a tail call).
local function dive(n)
  return 1 + dive(n + 1)
end
function on_think()
  dive(1)
end
