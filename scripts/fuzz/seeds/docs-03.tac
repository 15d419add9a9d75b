# kind: attributes
creature Troll {
  intelligence = 20;
  strength = 75;
  speed = 50;
}
creature Giant { strength = 200; }
# expect-attr: STRENGTH = 75
