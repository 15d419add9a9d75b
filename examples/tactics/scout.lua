-- The blue scout keeps to cover: every few ticks it walks to the best-covered open cell within
-- four cells that red influence does not dominate, and reports what it hears.
function on_think()
  local here = PositionOf(Me())
  local spot = BestCell("cover", here.x, here.y, 4)
  if spot and InfluenceAt("red", spot.x, spot.y) <= InfluenceAt("blue", spot.x, spot.y) then
    MoveTo(spot.x, spot.y)
  end
  for _, s in ipairs(HeardSounds()) do
    Note("heard", s.name .. " from " .. s.source)
  end
end
