// Merlin answers what the hero types (reference 002b Examples 8-11 and 8-14).
kind dialogue;
If (Creature==FriendlyWizard)
  begin
    if (playerHas==RedAmulet)
      Say("I see you found the Red Amulet.
        Bring it to the stone temple
        and you will be rewarded.");
  end

on hear {
  if (Ask("what") and Ask("name"))
    Say("I am Merlin.");
  else if (Ask("amulet"))
    Say("The Red Amulet lies beyond the throne-room door.");
  else
    say one of ["Speak up, traveller.", "Hmm?"];
}
