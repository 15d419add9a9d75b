-- One argument too many: `MoveTo` takes a place, or x and y.
function on_think()
  MoveTo(1, 2, 3)
end
