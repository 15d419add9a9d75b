-- Every fourth tick, the point nearest by path to the decoy, named as the query's target.
function on_think()
  state.n = (state.n or 0) + 1
  if state.n % 4 == 1 then
    local p = FindPosition("flank", {target = FindEntity("decoy")})
    if p then Note("flank", p) end
  end
end
