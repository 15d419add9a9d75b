-- The error handler never returns either.
function on_think()
  while true do
    xpcall(function() while true do end end, function() while true do end end)
  end
end
