# kind: behaviour
rules Builder {
  strategy weight;
  fact Gold = 150;
  fact Barracks = No;
  rule barracks weight 2 when Gold >= 100 and Barracks == No then begin Build(kBarracks); Barracks = Yes; end
  rule farm when Gold >= 50 then Build(kFarm);
}
# expect-trigger: build kBarracks
# expect-trigger: build kFarm
