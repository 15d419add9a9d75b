# kind: dialogue
# given: PlayerArmed = Dagger
If (PlayerArmed == Dagger)
    say one of ["What a cute little knife.", "Is that a toothpick?"];
If (PlayerArmed == Bow)
    Say("Drop the bow now and I'll let you live.");
# expect-said-count: 1
