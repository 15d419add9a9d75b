-- The cover (Lua): ready after a short sleep, then waits for the sergeant's "go".
function sequence()
  Sleep(2)
  Signal("ready")
  Wait("go")
  Say("Covering.")
end
