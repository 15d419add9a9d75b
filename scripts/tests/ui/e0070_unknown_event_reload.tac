on relaod { Say("Welcome back."); }
