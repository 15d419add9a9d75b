-- coroutine.resume catches errors like pcall does.
function on_think()
  while true do
    coroutine.resume(coroutine.create(function() while true do end end))
  end
end
