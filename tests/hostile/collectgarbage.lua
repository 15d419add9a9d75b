-- Tries to stop the collector.
function on_think()
  collectgarbage("stop")
end
