// A trap room: fires once each time the player enters the vault, not on every tick inside.
rules Vault {
  fact Fired = 0;
}

when (PlayerLocation("vault")) {
  Fired = Fired + 1;
  Trigger(kPoisonTrap);
  PlaySound(kCreakingDoorSnd);
  if (Fired > 1)
    Say("Again?");
}
