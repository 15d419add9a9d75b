If (PlayerArmed == TRUE) DoFlea();
