-- Doubles a string until it is huge.
function on_think()
  local s = "x"
  for i = 1, 40 do s = s .. s end
end
