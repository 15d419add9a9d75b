If (PlayerChallenge ==DIFFICULT)
    BEGIN
    DoFlee();
END
ELSE
BEGIN
    DoAttack();
END
