-- A goblin that greets the hero when it sees them, and says so once more when the hero leaves.
function on_encounter()
  say("Shiny boots! Mine soon.")
  state.met = true
end

function on_think()
  if state.met and distance_to_player() > 6 and not state.waved then
    say("Come back, tall one!")
    state.waved = true
  end
end
