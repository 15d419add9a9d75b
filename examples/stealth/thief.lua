-- The thief waits in the garden for the watchman's "all clear", then picks the cellar door:
-- the door opens at this step of the sequence, when the call comes, not when the sequence starts.
function sequence()
  Wait("clear", "world")
  Say("Now.")
  OpenDoor("cellar")
  MoveTo("kVault")
  SetGlobal("Loot", 1)
  Say("Nobody saw a thing.")
end
