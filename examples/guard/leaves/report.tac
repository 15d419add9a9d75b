// After a search, a leaf of the guard's tree: it says so and notes it in the trace.
leaf report {
  Say("Nothing here. Back to my post.");
  Note("searched", true);
  return success;
}
