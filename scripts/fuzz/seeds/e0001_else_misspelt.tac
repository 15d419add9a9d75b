if (PlayerArmed) {
    Say("Drop it");
} els {
    Say("Welcome");
}
