If (PlayerArmed ==Dagger)
    Say("What a cute little knife.");

    // " 好可爱的小刀 "
If (PlayerArmed ==Bow)
    Say("Drop the bow now and I'll let you live.");

    // 放下弓就让你活
If (PlayerArmed ==Sword)
    Say("That sword will fit nicely in my collection.");

    // 那把剑刚好让我当收藏品
If (PlayerArmed ==BattleAxe)
    Say("You're too weak to wield that battle axe.");
    // 你没力气挥动那把战斧
