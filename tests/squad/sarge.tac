// The sergeant's role in .tac: waits for the Lua cover's "ready", calls "go", waits for the Rhai medic.
sequence Breach {
  role point { wait ready; signal go; wait patched; Say("Moving."); }
}
once on spawn start Breach;
