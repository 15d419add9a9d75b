sequence Breach { role pointman { Say("Breaching."); } }
on encounter start Breech;
