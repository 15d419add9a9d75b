// The guard's taunts follow the hero's weapon (the book's Example 8-9 style).
kind dialogue;
If (PlayerArmed == Sword)
    Say("That sword will fit nicely in my collection.");
If (PlayerArmed == Dagger)
    Say("What a cute little knife.");
