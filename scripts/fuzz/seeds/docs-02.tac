# kind: attributes
# given: LEVEL = 6
CREATURE=1;
If {LEVEL<5}
  BEGIN
    INTELLIGENCE=20;
    STRENGTH=75;
    SPEED=50;
  END
ELSE
  BEGIN
    INTELLIGENCE=40;
    STRENGTH=110;
    SPEED=130;
  END
END
# expect-attr: INTELLIGENCE = 40
# expect-attr: SPEED = 130
