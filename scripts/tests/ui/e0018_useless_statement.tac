PlayerArmed;
Ask("name");
