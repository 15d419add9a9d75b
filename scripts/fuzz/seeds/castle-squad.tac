// Two soldiers breach the throne-room door: the pointman stacks up at the door and waits for the
// cover's "go"; the cover waits until the pointman is ready (reference 000 §6.4.3). The roles go
// to the soldiers of the sergeant's team tagged `pointman` and `cover`.
sequence Breach {
  role pointman {
    MoveTo(11, 4);
    signal ready;
    wait go;
    Trigger(kBreachCharge);
    MoveTo(8, 4);
  }
  role cover {
    MoveTo(11, 5);
    wait ready;
    Say("Breach!");
    signal go;
    MoveTo(10, 4);
    MoveTo(8, 5);
  }
}

once on think start Breach;
