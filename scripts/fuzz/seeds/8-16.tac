if (PlayerLocation(120,76))
    Trigger(kExpositionTrap);

if (PlayerLocation(56,16))
    Trigger(kPoisonTrap);
