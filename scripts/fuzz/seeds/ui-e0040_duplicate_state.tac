machine Guard {
  state Patrol { when PlayerArmed -> Alert; }
  state Alert { -> Patrol; }
  state Patrol { }
}
