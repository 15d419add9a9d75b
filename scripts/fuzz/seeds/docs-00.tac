# kind: dialogue
# given: LEVEL = 3
// A condition in braces, a BEGIN/END block, a string over two lines.
If {LEVEL < 5}
  BEGIN
    Say("Welcome,
         traveller.");
  END
# expect-say: Welcome, traveller.
