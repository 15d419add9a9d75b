# kind: dialogue
# hear: Hello, what is your name?
If (Ask("what") and Ask("name"))
    begin
        Say("I am Merlin.");
    end
# expect-say: I am Merlin.
