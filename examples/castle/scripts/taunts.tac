// The troll's taunts (reference 002b Example 8-9), run when the hero comes near.
kind dialogue;
If (PlayerArmed == Dagger)
    say one of ["What a cute little knife.", "Is that a toothpick, little one?"];
If (PlayerArmed == Bow)
    Say("Drop the bow now and I'll let you live.");
If (PlayerArmed == Sword)
    Say("That sword will fit nicely in my collection.");
If (PlayerArmed == BattleAxe)
    Say("You're too weak to wield that battle axe.");
