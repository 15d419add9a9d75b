rules Build {
  fact Gold = 0;
  fact gold = 10;
}
