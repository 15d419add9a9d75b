-- Loops when the file is loaded, behind pcall.
while true do
  pcall(function() while true do end end)
end
function on_think() end
