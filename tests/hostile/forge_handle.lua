-- Passes a table shaped like a handle where an entity is expected.
function on_think()
  Say(NameOf({ idx = 1, version = 1 }))
end
