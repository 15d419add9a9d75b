STRENGTH = "very strong";
