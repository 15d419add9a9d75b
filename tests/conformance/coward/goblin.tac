// A fleeing coward (reference 002b Example 8-6): it reads how tough the engine rates the player.
// Asked to flee on every think tick, the flight goes on; a line is not repeated within the say
// cooldown, so it squeaks once.
on think {
  If (PlayerChallenge == DIFFICULT)
    BEGIN
      Say("Eek!");
      DoFlee();
    END
  ELSE
    BEGIN
      Say("Come and get me!");
      DoAttack();
    END
}
