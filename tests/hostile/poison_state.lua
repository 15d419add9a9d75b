-- Replaces its state table with a number.
function on_think()
  state = 5
end
