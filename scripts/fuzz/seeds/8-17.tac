if (PlayerLocation(xDoorway))
    PlaySound(kCreakingDoorSnd);

if (PlayerLocation(kDock))
    PlaySound (kSeagullSnd);

if (PlayerLocation(kBoat))
    PlaySound (kWavesSnd);

if (GameTime==kNight)
    PlaySound (kCricketsSnd);

if (GameTime !=kDay)
    PlaySound (kBirdsSnd);
