-- Point man: to the door, then the signal.
function sequence()
  MoveTo(4, 1)
  Say("At the door.")
  Signal("breach")
end
