# kind: events
if (PlayerLocation(1, 1))
    Trigger(kExpositionTrap);
# expect-trigger: kExpositionTrap
