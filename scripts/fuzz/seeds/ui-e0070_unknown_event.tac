on encountr { Say("Halt!"); }
