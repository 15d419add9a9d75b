If (DoFlee()) Say("ran");
