-- Never returns.
function on_think()
  local n = 0
  while true do
    n = n + 1
  end
end
