-- Tries to compile code at run time.
function on_think()
  local f = load("return 1")
end
