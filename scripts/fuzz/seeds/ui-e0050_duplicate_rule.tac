rules Build {
  fact Gold = 0;
  rule barracks when Gold >= 100 then Build(kBarracks);
  rule barracks when Gold >= 200 then Build(kStable);
}
