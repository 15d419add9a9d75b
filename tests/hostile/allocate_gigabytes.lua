-- Asks for two gigabytes at once.
function on_think()
  local s = string.rep("x", 1 << 31)
end
