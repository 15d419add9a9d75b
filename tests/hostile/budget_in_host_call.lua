-- Spends its budget calling the host in a loop: the error names the script line and the call.
function on_think()
  while true do Random(3) end
end
