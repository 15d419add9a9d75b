-- Every other tick, takes the best post it can hold and walks there.
function on_think()
  state.n = (state.n or 0) + 1
  if state.n % 2 == 1 then
    local p = FindPosition("post", {reserve = true})
    if p then MoveTo(math.floor(p.x), math.floor(p.y)) end
  end
end
