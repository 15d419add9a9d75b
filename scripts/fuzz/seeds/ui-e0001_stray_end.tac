Say("hello");
END
Say("again");
