-- Catches the budget's error once and carries on as if nothing happened.
function on_think()
  pcall(function() while true do end end)
  Say("I got away with it.")
end
