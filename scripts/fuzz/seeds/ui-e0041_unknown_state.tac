machine Guard {
  state Patrol { when PlayerArmed -> Alrt; }
  state Alert { -> Patrol; }
}
