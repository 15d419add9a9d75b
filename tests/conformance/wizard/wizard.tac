// A keyword-answering wizard (reference 002b Examples 8-11 and 8-14).
on encounter Say("Greetings, traveller.");

on hear {
  if (Ask("name"))
    Say("I am Merlin.");
  else if (Ask("treasure"))
    begin
      Say("Seek the dock at night.");
      Note("asked", PlayerText);
    end
  else
    Say("Hmm?");
}
