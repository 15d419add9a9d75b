// A guard state machine: patrol until the player comes near, chase while near, go home when the
// player is gone, patrol again once home. The machine records each change of state.
machine Guard {
  initial kPatrol;
  state kPatrol {
    tick { move(0, -1); move(0, 1); }
    when DistanceToPlayer() < 6 -> kChase;
  }
  state kChase {
    tick { DoAttack(); }
    when DistanceToPlayer() > 7 -> kGoHome;
  }
  state kGoHome {
    tick { MoveTo(1, 4); }
    when IsIdle() -> kPatrol;
  }
}
