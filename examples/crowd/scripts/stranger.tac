// The player, a stranger in town: walks the streets at random, far and wide.
kind behaviour;
if (IsIdle()) move(Random(61) - 30, Random(61) - 30);
