If (PlayerArmd == Dagger) Say("What a cute little knife.");
