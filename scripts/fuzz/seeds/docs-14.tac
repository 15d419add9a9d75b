# kind: behaviour
# given: PlayerArmed = Sword
machine Guard {
  initial kPatrol;
  state kPatrol { entry { Say("On patrol."); } when PlayerArmed == TRUE -> kAttack; }
  state kAttack { tick { DoAttack(); } when PlayerArmed == FALSE -> kPatrol; }
}
# expect-say: On patrol.
