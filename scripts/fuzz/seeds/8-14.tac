If (Ask("what") and Ask("name"))
    begin
        Say("I am Merlin.");
    end
