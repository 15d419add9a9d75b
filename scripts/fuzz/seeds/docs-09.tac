# kind: events
# given: GameTime = kNight
on enter (1, 1) Trigger(kPoisonTrap);
when (GameTime == kNight) { PlaySound(kCricketsSnd); }
once on tick { PlaySound(kAlarmSnd); }
# expect-trigger: kPoisonTrap
# expect-sound: kCricketsSnd
# expect-sound: kAlarmSnd
