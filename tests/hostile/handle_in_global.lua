-- Tries to leak an entity handle into the world globals.
function on_think()
  SetGlobal("leak", Me())
end
