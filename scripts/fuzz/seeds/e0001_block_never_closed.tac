if (PlayerArmed) {
    Say("Drop it");
