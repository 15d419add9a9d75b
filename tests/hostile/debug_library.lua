-- Tries to reach the debug library to read host upvalues.
function on_think()
  local name, value = debug.getupvalue(Say, 1)
end
