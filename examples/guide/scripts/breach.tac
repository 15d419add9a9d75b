// A squad breach: the sergeant's file holds the whole sequence; `start` gives each role to the
// guard tagged with its name.
kind behaviour;
sequence Breach {
  role point {
    MoveTo(kGate);
    Say("At the gate.");
    signal ready;
    wait go;
    Trigger(kBreachCharge);
  }
  role cover {
    wait ready;
    Say("Go!");
    signal go;
    MoveTo(5, 6);
    if (GameTime == kNight) Say("Quiet, it is dark.");
    else Say("In, in!");
  }
}
once on spawn start Breach;
