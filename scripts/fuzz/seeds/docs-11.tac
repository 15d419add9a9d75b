# kind: behaviour
sequence Breach {
  role pointman { MoveTo(3, 1); signal ready; wait go; Trigger(kBreachCharge); }
  role cover    { wait ready; Say("Go!"); signal go; }
}
# expect-sequence: Breach
