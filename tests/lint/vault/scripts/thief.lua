-- The thief walks to the vault; its name is misspelt in the string.
function on_think()
  MoveTo("kVualt")
end
