If (PlayerArmed == TRUE)
    DoFlee()
DoAttack();
