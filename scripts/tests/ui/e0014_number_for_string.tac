Say(42);
