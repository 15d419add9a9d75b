If (PlayerArmed == Daggr) Say("What a cute little knife.");
