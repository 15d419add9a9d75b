If (GameTime < 5) Say("early");
