if (Foo > 1) { Say("a"); }
Sya("b");
if (PlayerArmed { Say("c"); }
