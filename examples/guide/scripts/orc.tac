// A new creature: what every Orc is like. Runs when an Orc spawns (and again when saved).
creature Orc {
  intelligence = 60;
  strength = 120;
  speed = 64;
}
