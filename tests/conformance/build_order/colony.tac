// A rule-based build order (reference 002c §1.3): on each think tick the rules chain forward; a
// rule does not fire twice on the same facts, so each structure is built once, in priority order.
rules Colony {
  strategy first;
  fact Farm = No;
  fact Barracks = No;
  fact Blacksmith = No;
  fact Stable = No;
  rule farm when GetGlobal("gold") >= 100 and Farm == No then
    begin Build(kFarm); Farm = Yes; Note("built", "farm"); end
  rule barracks when GetGlobal("gold") >= 150 and Farm == Yes and Barracks == No then
    begin Build(kBarracks); Barracks = Yes; Note("built", "barracks"); end
  rule blacksmith when GetGlobal("gold") >= 300 and Barracks == Yes and Blacksmith == No then
    begin Build(kBlacksmith); Blacksmith = Yes; Note("built", "blacksmith"); end
  rule stable when GetGlobal("gold") >= 500 and Barracks == Yes and Blacksmith == Yes and Stable == No then
    begin Build(kStable); Stable = Yes; Note("built", "stable"); end
}
