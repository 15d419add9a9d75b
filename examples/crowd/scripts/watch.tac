// A watchman of the crowd (examples/crowd), in Tactica Script: what it sees becomes facts, and
// a rule system decides — challenge a stranger it sees near, lead its squad's next leg, wait for
// the leader's signal, or walk on.
kind behaviour;

rules Watch {
  strategy weight;
  fact Near = No;
  fact Idle = No;
  fact Leader = No;
  fact Waiting = No;
  fact Leg = 0;
  // A rule fires once on the same values (refraction): reading Leg makes each leg new.
  rule challenge weight 3 when Near == Yes and Leg >= 0 then Say("Halt! Who goes there?");
  rule lead weight 2 when Idle == Yes and Leader == Yes and Leg >= 0 then
    begin Leg = Leg + 1; Signal("leg" + Leg); move(Random(25) - 12, Random(25) - 12); Idle = No; end
  rule follow weight 1 when Idle == Yes and Leader == No and Waiting == Yes and Leg >= 0 then
    begin Waiting = No; move(Random(25) - 12, Random(25) - 12); Idle = No; end
  rule wait weight 1 when Idle == Yes and Leader == No and Waiting == No and Leg >= 0 then
    begin Leg = Leg + 1; Waiting = Yes; Wait("leg" + Leg); Idle = No; end
}

Near = No;
if (DistanceToPlayer() < 8 and CanSee(Player())) Near = Yes;
Idle = No;
if (IsIdle()) Idle = Yes;
Leader = No;
if (AttributeOf(Me(), "leader") == TRUE) Leader = Yes;
