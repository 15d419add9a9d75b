-- Asks for a gigabyte at once.
function on_think()
  local s = string.rep("x", 1 << 30)
end
