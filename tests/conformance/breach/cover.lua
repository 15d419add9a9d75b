-- Cover man: wait for the signal, go in, report.
function sequence()
  Wait("breach")
  MoveTo(7, 1)
  Say("Clear!")
end
