-- Passes a table that contains itself.
function on_think()
  local t = {}
  t.me = t
  Note("cycle", t)
end
