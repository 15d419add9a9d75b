-- A fleeing coward (reference 002b Example 8-6) reading PlayerChallenge. Each line comes before
-- the request in the same call, and is still said: a request replaces what the goblin does, not
-- what it was just told to say. The say cooldown keeps it from repeating itself.
function on_think()
  if GetGlobal("PlayerChallenge") == "DIFFICULT" then
    Say("Eek!")
    DoFlee()
  else
    Say("Come and get me!")
    DoAttack()
  end
end
