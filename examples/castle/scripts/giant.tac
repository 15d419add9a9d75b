// The giant sizes the hero up (reference 002b Example 8-10).
kind dialogue;
If (Creature==Giant) and (player==Human)
    begin
        if (playerArmed==Staff)
            Say("You will need more than a staff, puny human!");
        if (playerArmed==Sword)
            Say("Drop your sword and I might not crush you!");
        if (playerArmed==Dagger)
            Say("Your tiny dagger is no match for my club!");
    end
