-- Passes a function into the host.
function on_think()
  Note("f", function() end)
end
