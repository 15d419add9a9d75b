-- A misspelt call: `Sya` for `Say`.
function on_encounter()
  Sya("hi")
end
