// A two-role breach (reference 000 §6.4.3): the point man walks to the door and signals; the
// cover man waits for the signal, then goes in. The roles go to the soldiers of the starter's
// team tagged `point` and `cover`, so each squad runs its own breach.
sequence Breach {
  role point {
    MoveTo(4, 1);
    Say("At the door.");
    signal breach;
  }
  role cover {
    wait breach;
    MoveTo(7, 1);
    Say("Clear!");
  }
}

once on spawn start Breach;
