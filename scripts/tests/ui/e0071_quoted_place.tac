on enter "kHall" {
    Say("Welcome to the hall");
}
