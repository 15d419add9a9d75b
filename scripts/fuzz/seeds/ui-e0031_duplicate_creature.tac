creature Troll { SPEED = 50; }
creature troll { SPEED = 60; }
