creature Troll {
  intelligence = 300;
  speed = -5;
}
