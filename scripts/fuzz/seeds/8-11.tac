If (Creature==FriendlyWizard)
  begin
    if (playerHas==RedAmulet)
      Say("I see you found the Red Amulet.
        Bring it to the stone temple
        and you will be rewarded.");
      // 你找到了红色护身符,把它拿到石庙,你将得到奖赏
    end
