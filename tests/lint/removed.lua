-- The sandbox has no `os` (nor `io`): this would fail when it runs.
function on_think()
  if os.time() % 2 == 0 then
    Say("Tick.")
  end
end
