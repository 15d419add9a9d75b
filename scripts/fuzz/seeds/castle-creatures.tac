// Attribute scripts per creature type: each block applies to the entities of its kind, at spawn
// and again whenever this file is saved.
creature Troll {
  intelligence = 20;
  strength = 75;
  speed = 50;
}

creature Giant {
  If {LEVEL < 5}
    BEGIN
      strength = 150;
    END
  ELSE
    BEGIN
      strength = 200;
    END
  intelligence = 10;
}

creature FriendlyWizard {
  intelligence = 200;
  magic = 180;
}
