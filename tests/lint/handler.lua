-- A misspelt handler: no event is called `thinck`, so this never runs.
function on_thinck()
  Say("Halt!")
end
