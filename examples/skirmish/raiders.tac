// Every raider: strong, quick on his feet, not clever.
creature raider {
  strength = 90;
  speed = 96;
  intelligence = 40;
}
