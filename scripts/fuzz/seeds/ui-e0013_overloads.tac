If (PlayerLocation(1, 2, 3)) Trigger(kPoisonTrap);
