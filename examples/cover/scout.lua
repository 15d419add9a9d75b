-- Under fire, the scout asks for cover once and runs there; it notes where it went.
function on_think()
  if state.spot == nil then
    local spot = FindPosition("take_cover")
    if spot then
      state.spot = spot
      Note("cover", spot)
      MoveTo(math.floor(spot.x), math.floor(spot.y))
    end
  end
end
