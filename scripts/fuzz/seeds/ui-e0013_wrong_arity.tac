move(0, 1, 2);
Say();
