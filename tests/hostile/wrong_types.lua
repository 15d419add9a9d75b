-- Passes a table where a string is expected.
function on_think()
  Say({ "not", "text" })
end
