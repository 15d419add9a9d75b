If (PlayerArmed) Then
    Say("Nice sword");
End
