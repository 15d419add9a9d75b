kind behaviour;
If (DoFlee()) Say("ran");
