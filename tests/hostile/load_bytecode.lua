-- Tries to dump a function to bytecode and load it back.
function on_think()
  local code = string.dump(function() return 1 end)
  load(code)()
end
