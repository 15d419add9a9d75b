kind dialogue;
on encounter {
    Say("Hello there);
    Say("Bye");
}
