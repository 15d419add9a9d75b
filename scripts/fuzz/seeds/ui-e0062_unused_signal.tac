sequence Breach {
  role pointman { signal ready; signal done; }
  role cover { wait ready; }
}
