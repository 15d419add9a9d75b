-- Tries to load a native module.
function on_think()
  local socket = require("socket")
end
