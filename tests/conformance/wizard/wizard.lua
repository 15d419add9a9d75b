-- A keyword-answering wizard.
function on_encounter()
  Say("Greetings, traveller.")
end

function on_hear(text)
  if Ask("name") then
    Say("I am Merlin.")
  elseif Ask("treasure") then
    Say("Seek the dock at night.")
    Note("asked", text)
  else
    Say("Hmm?")
  end
end
