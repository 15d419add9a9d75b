-- Hands the world a megabyte note, a hundred thousand times.
function on_think()
  local s = string.rep("xxxxxxxxxxxxxxxx", 4096)
  for i = 1, 100000 do Note("n", s) end
end
