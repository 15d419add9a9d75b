// The watchman's round: along the hall to its far end, then the call the thief listens for.
sequence Round {
  role watch {
    MoveTo(kHallEnd);
    Say("All clear.");
    signal world clear;
  }
}

once on spawn start Round;
