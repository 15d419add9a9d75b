# kind: dialogue
rules Tech {
  fact Woodcutter = Yes; fact Barracks = Unknown; fact Cavalry = Unknown;
  rule barracks when Woodcutter == Yes then Barracks = Yes;
  rule cavalry when Barracks == Yes then Cavalry = Yes;
}
If prove(Cavalry == Yes) Say("They could have cavalry.");
# expect-say: They could have cavalry.
