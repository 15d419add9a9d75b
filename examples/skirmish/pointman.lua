-- The pointman stacks up at the barricade, tells the squad he is ready and waits for the cover's
-- "go"; only then does he tear the barricade down (the gap at (10, 5) opens at this step, not
-- when the sequence starts) and go through.
function sequence()
  MoveTo("kStack")
  Say("Ready.")
  Signal("ready")
  Wait("go")
  SetBlocked(10, 5, false)
  MoveTo("kBeyond")
  Say("Through!")
end
