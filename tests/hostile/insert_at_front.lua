-- Each insert at the front moves every element: quadratic work in few instructions.
function on_think()
  local t = {}
  for i = 1, 1000000 do table.insert(t, 1, i) end
end
