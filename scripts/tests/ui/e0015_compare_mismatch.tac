If (PlayerArmed == Human) Say("?");
