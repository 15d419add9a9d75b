-- A rule-based build order: on each think tick the first rule whose conditions hold and that has
-- not fired yet fires, again and again until none is ready (forward chaining, `first` strategy).
local rules = {
  { name = "farm",       needs = {},                         gold = 100, build = "kFarm" },
  { name = "barracks",   needs = { "farm" },                 gold = 150, build = "kBarracks" },
  { name = "blacksmith", needs = { "barracks" },             gold = 300, build = "kBlacksmith" },
  { name = "stable",     needs = { "barracks", "blacksmith" }, gold = 500, build = "kStable" },
}

function on_spawn()
  state.built = {}
end

local function ready(rule, gold)
  if state.built[rule.name] or gold < rule.gold then return false end
  for _, need in ipairs(rule.needs) do
    if not state.built[need] then return false end
  end
  return true
end

function on_think()
  -- Forward chaining to quiescence: fire the first ready rule, then look again from the top.
  local gold = GetGlobal("gold")
  local fired = true
  while fired do
    fired = false
    for _, rule in ipairs(rules) do
      if ready(rule, gold) then
        Build(rule.build)
        state.built[rule.name] = true
        Note("built", rule.name)
        fired = true
        break
      end
    end
  end
end
