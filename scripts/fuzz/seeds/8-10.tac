If (Creature==Giant) and (player==Human)
    begin
        if (playerArmed==Staff)
            Say("You will need more than a staff, puny human!");

            // 你需要更多的棍子吧, 小矮人!
        if (playerArmed==Sword)
            Say("Drop your sword and I might not crush you!");

            // 放下你的剑, 否则我就打扁你!
        if (playerArmed==Dagger)
            Say("Your tiny dagger is no match for my club!");
            // 你的小刀抵不上我的棍子
    end
