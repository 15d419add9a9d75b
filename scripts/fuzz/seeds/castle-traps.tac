// World-level events: every tick, each firing once when its condition becomes true.
on enter (8, 9) Trigger(kPoisonTrap);

if (PlayerLocation(xDoorway))
    PlaySound(kCreakingDoorSnd);

when (GameTime == kNight) PlaySound(kCricketsSnd);
