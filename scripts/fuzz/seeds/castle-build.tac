// The steward's rule system chooses what to build (reference 002c §1.3): the highest weight wins,
// and a rule does not fire again on the same facts.
rules Builder {
  strategy weight;
  fact Gold = 250;
  fact Barracks = No;
  fact Walls = No;
  rule barracks weight 2 when Gold >= 100 and Barracks == No then
    begin Build(kBarracks); Barracks = Yes; Gold = Gold - 100; end
  rule walls weight 1 when Gold >= 100 and Walls == No then
    begin Build(kStoneWall); Walls = Yes; Gold = Gold - 100; end
  rule watchtower when GameTime == kNight and Walls == Yes then Build(kTower);
}
