machine Guard {
  initial Patrol;
  state Patrol { when PlayerArmed -> Alert; }
  state Alert { -> Patrol; }
  state Sleep { -> Patrol; }
}
