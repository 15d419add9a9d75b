sequence Breach {
  role pointman { signal ready; }
  role pointman { wait ready; }
}
