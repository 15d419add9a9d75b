# kind: behaviour
# given: PlayerChallenge = DIFFICULT
If (PlayerChallenge == DIFFICULT)
    BEGIN
        DoFlee();
    END
ELSE
    BEGIN
        DoAttack();
    END
# expect-action: move_to
