sequence Breach {
  role pointman { MoveTo(3, 1); signal ready; wait go; }
  role cover { wait redy; signal go; }
}
