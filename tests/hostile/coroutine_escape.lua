-- Hides an endless loop in its own coroutine.
function on_think()
  local co = coroutine.wrap(function()
    while true do end
  end)
  co()
end
