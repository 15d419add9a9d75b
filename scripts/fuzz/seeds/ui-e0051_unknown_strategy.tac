rules Build {
  strategy wieght;
  fact Gold = 0;
  rule barracks when Gold >= 100 then Build(kBarracks);
}
