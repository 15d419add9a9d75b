-- Tries to run a shell command.
function on_think()
  os.execute("touch /tmp/tactica-pwned")
end
