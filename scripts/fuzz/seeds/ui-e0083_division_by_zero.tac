If (LEVEL / 0 > 1) Say("never");
