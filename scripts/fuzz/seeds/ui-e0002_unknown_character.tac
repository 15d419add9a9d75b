If (LEVEL < 5) @ Say("low level");
