sequence S {
  role a { MoveTo(1, 1); if (GameTime == kNight) Say("n"); signal team go; }
  role b { wait world go; }
}
once on spawn start S;
