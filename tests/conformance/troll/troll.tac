// A taunting troll (reference 002b Example 8-9): a random taunt on every encounter, drawn with
// the world's generator; a creaking door on the second one; a growl when the player is close.
rules Mood {
  fact Encounters = 0;
}

on encounter {
  Encounters = Encounters + 1;
  say one of ["You smell like elf.", "Come closer, snack.", "My club is hungry."];
  if (Encounters == 2)
    PlaySound(kCreakingDoorSnd);
}

on think {
  if (DistanceToPlayer() < 1.5)
    Say("Grrr.");
}
