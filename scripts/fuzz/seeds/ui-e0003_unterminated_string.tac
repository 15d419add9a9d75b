Say("I see you found the Red Amulet.
Bring it to the stone temple);
