// A dialogue: what Grukk says when the hero comes close.
kind dialogue;
if (PlayerArmed) Say("Put that away, stranger.");
else Say("You owe me " + Gold + " gold.");
