If (PlayerArmed==TRUE)
    BEGIN
        DoFlee();
    END
ELSE
    BEGIN
        DoAttack();
    END
