If Ask("What is your name?")
begin
Say("I am Merlin.");
end
