-- One library call that backtracks for minutes: the VM sees a single instruction.
function on_think()
  local s = string.rep("a", 2000)
  Say(tostring(string.find(s, ".-.-.-.-.-b")))
end
