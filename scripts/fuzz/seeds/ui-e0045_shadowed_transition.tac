machine Guard {
  state Patrol { -> Alert; when PlayerArmed -> Patrol; }
  state Alert { -> Patrol; }
}
