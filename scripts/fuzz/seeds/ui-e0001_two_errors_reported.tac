Say("one")
Say("two";
DoFlee();
move(0,);
