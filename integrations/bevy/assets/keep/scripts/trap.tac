// A pressure plate: the trap fires once each time the hero steps on it.
kind events;
if (PlayerLocation(kPlate)) Trigger(kFireTrap);
