sequence Nothing { }
