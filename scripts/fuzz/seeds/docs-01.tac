# kind: dialogue
# given: PlayerArmed = Sword
# given: LEVEL = 7
If (PlayerArmed == TRUE) and not (LEVEL < 5 or LEVEL > 9)
    Say("Armed, and at a fair level.");
# expect-say: Armed, and at a fair level.
