machine Nothing { }
