-- Calls an overloaded function with no matching arity.
function on_think()
  MoveTo(1, 2, 3)
end
