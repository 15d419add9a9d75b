-- Tries to run another file.
function on_think()
  dofile("/etc/passwd")
end
