// A patrol pattern (reference 002b §4.4): three cells east, two south, three west, two north.
// Asked for on every think tick, the running lap continues; a new one starts when it is done.
rules Rounds {
  fact Laps = 0;
}

if (IsIdle())
  begin
    Laps = Laps + 1;
    Note("lap", Laps);
  end
repeat 3 move(1, 0);
repeat 2 move(0, 1);
repeat 3 move(-1, 0);
repeat 2 move(0, -1);
