If (GameTime == kNight) Trigger(kCricketsSnd);
