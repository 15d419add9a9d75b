-- table.concat copies every byte of every piece.
function on_think()
  local piece = string.rep("xxxxxxxxxx", 5000)
  local t = { piece, piece, piece, piece, piece, piece, piece, piece }
  for i = 1, 20 do local s = table.concat(t) end
end
