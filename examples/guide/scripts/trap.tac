// A trap: the pressure plate declared as `kPlate` in the scenario fires once per visit.
kind events;
on enter kPlate {
  Trigger(kPoisonTrap);
  PlaySound(kAlarmSnd);
}
