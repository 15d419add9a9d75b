rules Tech { fact Cavalry = Unknown; }
If (prove(Cavlry == Yes)) Say("cavalry");
