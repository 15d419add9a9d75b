-- Tries to read a file.
function on_think()
  local f = io.open("/etc/passwd")
end
