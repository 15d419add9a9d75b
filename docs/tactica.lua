---@meta tactica
-- The Tactica script API for Lua, generated from the host-function table by `tactica docs`;
-- do not edit. Add this file's folder to lua-language-server's `workspace.library`.

---A named value of the `weapon` family.
---@alias tactica.weapon
---| "Dagger"
---| "Bow"
---| "Sword"
---| "BattleAxe"
---| "Staff"
---| "Club"
---| "Spear"
---| "Crossbow"
---| "Unarmed"
---| string

---A named value of the `kind` family.
---@alias tactica.kind
---| "Giant"
---| "Troll"
---| "Human"
---| "FriendlyWizard"
---| "Wizard"
---| "Elf"
---| "Dwarf"
---| "Goblin"
---| "Ghost"
---| "Soldier"
---| string

---A named value of the `item` family.
---@alias tactica.item
---| "RedAmulet"
---| "BlueAmulet"
---| "Key"
---| "Torch"
---| "Gold"
---| "Map"
---| string

---A named value of the `challenge` family.
---@alias tactica.challenge
---| "EASY"
---| "MODERATE"
---| "DIFFICULT"
---| "DEADLY"
---| string

---A named value of the `time` family.
---@alias tactica.time
---| "kDay"
---| "kNight"
---| "kDawn"
---| "kDusk"
---| string

---A named value of the `state` family.
---@alias tactica.state
---| "kPatrol"
---| "kRoam"
---| "kEvade"
---| "kAttack"
---| "kHide"
---| "kChase"
---| "kForage"
---| "kGoHome"
---| "kThirsty"
---| "kDead"
---| "kGuard"
---| "kFlee"
---| string

---A named value of the `place` family.
---@alias tactica.place
---| "kDock"
---| "kBoat"
---| "xDoorway"
---| string

---A named value of the `trap` family.
---@alias tactica.trap
---| "kPoisonTrap"
---| "kExpositionTrap"
---| "kSpikeTrap"
---| "kFireTrap"
---| "kAlarmTrap"
---| "kBreachCharge"
---| string

---A named value of the `sound` family.
---@alias tactica.sound
---| "kCreakingDoorSnd"
---| "kSeagullSnd"
---| "kWavesSnd"
---| "kCricketsSnd"
---| "kBirdsSnd"
---| "kAlarmSnd"
---| "kBreachSnd"
---| string

---A named value of the `belief` family.
---@alias tactica.belief
---| "Yes"
---| "No"
---| "Maybe"
---| "Unknown"
---| string

---A named value of the `structure` family.
---@alias tactica.structure
---| "kBarracks"
---| "kBlacksmith"
---| "kStable"
---| "kTemple"
---| "kWoodWall"
---| "kStoneWall"
---| "kTower"
---| "kFarm"
---| string

---A named value of the `status` family.
---@alias tactica.status
---| "success"
---| "failure"
---| "running"
---| string

---A world global (`GetGlobal`, `SetGlobal`); any other name works too.
---@alias tactica.global
---| "LEVEL"
---| "PlayerArmed"
---| "PlayerChallenge"
---| "GameTime"
---| "player"
---| "playerHas"
---| "Creature"
---| "creature.state"
---| "PlayerText"
---| string

---A signal the scenario's scripts use; any other name works too.
---@alias tactica.signal
---| string

---Where a signal goes.
---@alias tactica.scope
---| "squad"
---| "team"
---| "world"
---| string

---An attribute of the schema.
---@alias tactica.attribute
---| "CREATURE"
---| "INTELLIGENCE"
---| "SPEED"
---| "STRENGTH"
---| "COURAGE"
---| "MAGIC"
---| "HEALTH"
---| "ARMOR"
---| string

---This instance's own state: plain data kept across calls and hot reloads.
---@type table<string, any>
state = {}

---Called when the character spawns (attribute scripts set their values here).
---(A handler: define it in your script; the runtime calls it.)
function on_spawn() end

---Called on the character's think ticks (`think_every` in the scenario): behaviour decides here.
---(A handler: define it in your script; the runtime calls it.)
function on_think() end

---Called every tick, for world-level scripts (events, traps, ambience).
---(A handler: define it in your script; the runtime calls it.)
function on_tick() end

---Called when the player comes into range and sight, once per approach.
---(A handler: define it in your script; the runtime calls it.)
function on_encounter() end

---Called when the player types `text` nearby; `Ask(keyword)` reads it.
---(A handler: define it in your script; the runtime calls it.)
---@param text string
function on_hear(text) end

---Called once after the file was edited during play, with the state the old code left; return or edit it to migrate.
---(A handler: define it in your script; the runtime calls it.)
---@param state table<string, any>
function on_reload(state) end

---Called once at spawn: actions queue in order (a coroutine in Lua; queries wait for the actions before them).
---(A handler: define it in your script; the runtime calls it.)
function sequence() end

---Says a line now (`Say("I am Merlin.");`). The same line is not repeated by the same speaker within the say cooldown.
---@param text string
function Say(text) end

---Says a line now (`Say("I am Merlin.");`). The same line is not repeated by the same speaker within the say cooldown.
---@param text string
function say(text) end

---Runs away from the player (`DoFlee();`). Asked again while fleeing, the flight goes on.
function DoFlee() end

---Runs away from the player (`DoFlee();`). Asked again while fleeing, the flight goes on.
function do_flee() end

---Closes in on the player to attack (`DoAttack();`).
function DoAttack() end

---Closes in on the player to attack (`DoAttack();`).
function do_attack() end

---One step of a movement pattern, one cell relative to the previous step (`move(0,1);`).
---@param dx integer
---@param dy integer
function move(dx, dy) end

---Walks to a named place or region (`MoveTo(xDoorway);`).
---Walks to a cell (`MoveTo(4, 2);`).
---@param place tactica.place
---@overload fun(x: integer, y: integer)
function MoveTo(place) end

---Walks to a named place or region (`MoveTo(xDoorway);`).
---Walks to a cell (`MoveTo(4, 2);`).
---@param place tactica.place
---@overload fun(x: integer, y: integer)
function move_to(place) end

---Fires a trap or event (`Trigger(kPoisonTrap);`).
---@param trap tactica.trap
function Trigger(trap) end

---Fires a trap or event (`Trigger(kPoisonTrap);`).
---@param trap tactica.trap
function trigger(trap) end

---Plays a sound (`PlaySound(kSeagullSnd);`).
---@param sound tactica.sound
function PlaySound(sound) end

---Plays a sound (`PlaySound(kSeagullSnd);`).
---@param sound tactica.sound
function play_sound(sound) end

---Whether the player stands in a named region or on a named place's cell (`PlayerLocation(kDock)`).
---Whether the player stands on cell (x, y) (`PlayerLocation(120,76)`).
---@param place tactica.place
---@return boolean
---@overload fun(x: integer, y: integer): boolean
function PlayerLocation(place) end

---Whether the player stands in a named region or on a named place's cell (`PlayerLocation(kDock)`).
---Whether the player stands on cell (x, y) (`PlayerLocation(120,76)`).
---@param place tactica.place
---@return boolean
---@overload fun(x: integer, y: integer): boolean
function player_location(place) end

---Whether the player's typed text contains the keyword, ignoring case (`Ask("name")`); false outside a `hear` event.
---@param keyword string
---@return boolean
function Ask(keyword) end

---Whether the player's typed text contains the keyword, ignoring case (`Ask("name")`); false outside a `hear` event.
---@param keyword string
---@return boolean
function ask(keyword) end

---Does nothing for a number of ticks (`Sleep(10);`).
---@param ticks integer
function Sleep(ticks) end

---Does nothing for a number of ticks (`Sleep(10);`).
---@param ticks integer
function sleep(ticks) end

---Sends a signal in the current scope: in a `.tac` sequence, that run of it (two squads running one sequence stay apart); elsewhere the character's squad, else its team (`signal ready;` in `.tac`). A scope keeps up to 4,096 different signals; a new one past that is an error.
---Sends a signal to `"squad"` (the current scope, as `Signal(id)`), the whole `"team"` or the whole `"world"` (`signal team ready;` in `.tac`).
---@param id tactica.signal
---@overload fun(id: tactica.signal, scope: tactica.scope)
function Signal(id) end

---Sends a signal in the current scope: in a `.tac` sequence, that run of it (two squads running one sequence stay apart); elsewhere the character's squad, else its team (`signal ready;` in `.tac`). A scope keeps up to 4,096 different signals; a new one past that is an error.
---Sends a signal to `"squad"` (the current scope, as `Signal(id)`), the whole `"team"` or the whole `"world"` (`signal team ready;` in `.tac`).
---@param id tactica.signal
---@overload fun(id: tactica.signal, scope: tactica.scope)
function signal(id) end

---Waits until a signal is sent in the current scope; one sent earlier releases at once (`wait ready;`).
---Waits for a signal of `"squad"`, `"team"` or `"world"` scope (`wait world dawn;` in `.tac`).
---@param id tactica.signal
---@overload fun(id: tactica.signal, scope: tactica.scope)
function Wait(id) end

---Waits until a signal is sent in the current scope; one sent earlier releases at once (`wait ready;`).
---Waits for a signal of `"squad"`, `"team"` or `"world"` scope (`wait world dawn;` in `.tac`).
---@param id tactica.signal
---@overload fun(id: tactica.signal, scope: tactica.scope)
function wait(id) end

---Orders a structure built: fires the trigger `build <structure>` (`Build(kBarracks);`).
---@param structure tactica.structure
function Build(structure) end

---Orders a structure built: fires the trigger `build <structure>` (`Build(kBarracks);`).
---@param structure tactica.structure
function build(structure) end

---A whole number in 0..n from the world's generator (`Random(6)`); 0 when n ≤ 0.
---@param n integer
---@return integer
function Random(n) end

---A whole number in 0..n from the world's generator (`Random(6)`); 0 when n ≤ 0.
---@param n integer
---@return integer
function random(n) end

---The distance to the player in map units; a large number when there is no player.
---@return number
function DistanceToPlayer() end

---The distance to the player in map units; a large number when there is no player.
---@return number
function distance_to_player() end

---The scripted entity's handle (`local me = Me()`).
---@return any
function Me() end

---The scripted entity's handle (`local me = Me()`).
---@return any
function me() end

---The handle of the entity with this scenario name, or nil (`FindEntity("troll")`).
---@param name string
---@return any
function FindEntity(name) end

---The handle of the entity with this scenario name, or nil (`FindEntity("troll")`).
---@param name string
---@return any
function find_entity(name) end

---The player's handle, or nil when there is no player.
---@return any
function Player() end

---The player's handle, or nil when there is no player.
---@return any
function player() end

---The nearest other entity of a kind, or nil (`Nearest("troll")`); ties go to the first in key order.
---@param kind string
---@return any
function Nearest(kind) end

---The nearest other entity of a kind, or nil (`Nearest("troll")`); ties go to the first in key order.
---@param kind string
---@return any
function nearest(kind) end

---An entity's scenario name.
---@param entity any
---@return string
function NameOf(entity) end

---An entity's scenario name.
---@param entity any
---@return string
function name_of(entity) end

---An entity's kind (`troll`, `wizard` …).
---@param entity any
---@return string
function KindOf(entity) end

---An entity's kind (`troll`, `wizard` …).
---@param entity any
---@return string
function kind_of(entity) end

---An entity's position in map units, a vec2 with fields `x` and `y`.
---@param entity any
---@return any
function PositionOf(entity) end

---An entity's position in map units, a vec2 with fields `x` and `y`.
---@param entity any
---@return any
function position_of(entity) end

---The straight-line distance between two entities in map units (`Distance(Me(), Player())`).
---@param a any
---@param b any
---@return number
function Distance(a, b) end

---The straight-line distance between two entities in map units (`Distance(Me(), Player())`).
---@param a any
---@param b any
---@return number
function distance(a, b) end

---Whether nothing blocks the straight line between two entities' cells.
---@param a any
---@param b any
---@return boolean
function LineOfSight(a, b) end

---Whether nothing blocks the straight line between two entities' cells.
---@param a any
---@param b any
---@return boolean
function line_of_sight(a, b) end

---One of an entity's attributes, or nil (`AttributeOf(Me(), "HEALTH")`).
---@param entity any
---@param name tactica.attribute
---@return any
function AttributeOf(entity, name) end

---One of an entity's attributes, or nil (`AttributeOf(Me(), "HEALTH")`).
---@param entity any
---@param name tactica.attribute
---@return any
function attribute_of(entity, name) end

---A world global, or nil (`GetGlobal("GameTime")`).
---@param name tactica.global
---@return any
function GetGlobal(name) end

---A world global, or nil (`GetGlobal("GameTime")`).
---@param name tactica.global
---@return any
function get_global(name) end

---Sets a world global after every script of the tick has run (`SetGlobal("alarm", true)`). The world holds up to 4,096 globals; a new one past that is an error.
---@param name tactica.global
---@param value any
function SetGlobal(name, value) end

---Sets a world global after every script of the tick has run (`SetGlobal("alarm", true)`). The world holds up to 4,096 globals; a new one past that is an error.
---@param name tactica.global
---@param value any
function set_global(name, value) end

---Whether the scripted entity has nothing queued. In a Lua `sequence` coroutine it waits for the queued actions to finish first.
---@return boolean
function IsIdle() end

---Whether the scripted entity has nothing queued. In a Lua `sequence` coroutine it waits for the queued actions to finish first.
---@return boolean
function is_idle() end

---Walks through a list of cells in order (`FollowPath({{1, 2}, {4, 2}})`).
---@param points any
function FollowPath(points) end

---Walks through a list of cells in order (`FollowPath({{1, 2}, {4, 2}})`).
---@param points any
function follow_path(points) end

---Records a `note` event in the trace (`Note("mood", "angry")`).
---@param name string
---@param value any
function Note(name, value) end

---Records a `note` event in the trace (`Note("mood", "angry")`).
---@param name string
---@param value any
function note(name, value) end

---Moves the scripted entity's state machine to a state, as a `.tac` `machine` transition does: sets the `state` attribute and records a `state` event from the state the entity was in when the tick began (`ChangeState("Guard", "kChase")`). Changing to the current state does nothing.
---@param machine string
---@param state string
function ChangeState(machine, state) end

---Moves the scripted entity's state machine to a state, as a `.tac` `machine` transition does: sets the `state` attribute and records a `state` event from the state the entity was in when the tick began (`ChangeState("Guard", "kChase")`). Changing to the current state does nothing.
---@param machine string
---@param state string
function change_state(machine, state) end

---Sets one input of a model for this character (`ModelInput("threat", "distance", 25)`); the table-less forms of the decision functions read these.
---@param model string
---@param name string
---@param value any
function ModelInput(model, name, value) end

---Sets one input of a model for this character (`ModelInput("threat", "distance", 25)`); the table-less forms of the decision functions read these.
---@param model string
---@param name string
---@param value any
function model_input(model, name, value) end

---Forgets the inputs set with `ModelInput` for a model.
---@param model string
function ModelClear(model) end

---Forgets the inputs set with `ModelInput` for a model.
---@param model string
function model_clear(model) end

---Steps this character's instance of a state machine with the `ModelInput` facts; returns the state it is in after the step (`FsmStep("guard")`).
---Steps the state machine with a table of facts (`FsmStep("guard", {sees_player = true})`); returns the state after the step.
---@param model string
---@return string
---@overload fun(model: string, facts: any): string
function FsmStep(model) end

---Steps this character's instance of a state machine with the `ModelInput` facts; returns the state it is in after the step (`FsmStep("guard")`).
---Steps the state machine with a table of facts (`FsmStep("guard", {sees_player = true})`); returns the state after the step.
---@param model string
---@return string
---@overload fun(model: string, facts: any): string
function fsm_step(model) end

---The state this character is in (the machine's initial state before the first step).
---@param model string
---@return string
function FsmState(model) end

---The state this character is in (the machine's initial state before the first step).
---@param model string
---@return string
function fsm_state(model) end

---The hooks the last step ran, in order, as `kind:state:name` strings (`enter:alert:sound_alarm`).
---@param model string
---@return any
function FsmHooks(model) end

---The hooks the last step ran, in order, as `kind:state:name` strings (`enter:alert:sound_alarm`).
---@param model string
---@return any
function fsm_hooks(model) end

---Evaluates a fuzzy rule base on the `ModelInput` values; the output defuzzified by weighted average, or nil when no rule fired.
---Evaluates a fuzzy rule base on a table of inputs (`FuzzyEval("threat", "threat", {distance = 25, size = 8})`).
---@param model string
---@param output string
---@return any
---@overload fun(model: string, output: string, inputs: any): any
function FuzzyEval(model, output) end

---Evaluates a fuzzy rule base on the `ModelInput` values; the output defuzzified by weighted average, or nil when no rule fired.
---Evaluates a fuzzy rule base on a table of inputs (`FuzzyEval("threat", "threat", {distance = 25, size = 8})`).
---@param model string
---@param output string
---@return any
---@overload fun(model: string, output: string, inputs: any): any
function fuzzy_eval(model, output) end

---Like `FuzzyEval`, defuzzified by the centroid of the clipped output sets instead.
---@param model string
---@param output string
---@return any
function FuzzyCentroid(model, output) end

---Like `FuzzyEval`, defuzzified by the centroid of the clipped output sets instead.
---@param model string
---@param output string
---@return any
function fuzzy_centroid(model, output) end

---The degree of one output set on the `ModelInput` values (`FuzzyDegree("threat", "threat", "low")`).
---@param model string
---@param output string
---@param set string
---@return number
function FuzzyDegree(model, output, set) end

---The degree of one output set on the `ModelInput` values (`FuzzyDegree("threat", "threat", "low")`).
---@param model string
---@param output string
---@param set string
---@return number
function fuzzy_degree(model, output, set) end

---Sets a fact in this character's working memory of a rule base (`RulesAssert("tech", "Temple", "Yes")`).
---@param model string
---@param fact string
---@param value any
function RulesAssert(model, fact, value) end

---Sets a fact in this character's working memory of a rule base (`RulesAssert("tech", "Temple", "Yes")`).
---@param model string
---@param fact string
---@param value any
function rules_assert(model, fact, value) end

---Forward-chains the working memory to quiescence; returns the names of the rules that fired. A rule does not fire twice on the same facts, across calls too.
---@param model string
---@return any
function RulesRun(model) end

---Forward-chains the working memory to quiescence; returns the names of the rules that fired. A rule does not fire twice on the same facts, across calls too.
---@param model string
---@return any
function rules_run(model) end

---A fact of the working memory.
---@param model string
---@param fact string
---@return any
function RulesFact(model, fact) end

---A fact of the working memory.
---@param model string
---@param fact string
---@return any
function rules_fact(model, fact) end

---Backward-chains: whether `fact == value` follows from the working memory through the rules.
---@param model string
---@param fact string
---@param value any
---@return boolean
function RulesProve(model, fact, value) end

---Backward-chains: whether `fact == value` follows from the working memory through the rules.
---@param model string
---@param fact string
---@param value any
---@return boolean
function rules_prove(model, fact, value) end

---P(node = state | evidence) with the `ModelInput` evidence (node → state) (`BayesQuery("locker", "Trapped", "true")`).
---P(node = state | evidence) with a table of evidence (`{Locked = "true"}`).
---@param model string
---@param node string
---@param state string
---@return number
---@overload fun(model: string, node: string, state: string, evidence: any): number
function BayesQuery(model, node, state) end

---P(node = state | evidence) with the `ModelInput` evidence (node → state) (`BayesQuery("locker", "Trapped", "true")`).
---P(node = state | evidence) with a table of evidence (`{Locked = "true"}`).
---@param model string
---@param node string
---@param state string
---@return number
---@overload fun(model: string, node: string, state: string, evidence: any): number
function bayes_query(model, node, state) end

---Runs a GAIA brain once with this character as `me` (its `ModelInput` values as its data, the other entities as actors); returns the option chosen at the top level, or nil.
---Runs a GAIA brain on a situation table: `{me = {name, position, data}, actors = {...}, globals, time}`, or just a table of data for `me`.
---@param model string
---@return any
---@overload fun(model: string, situation: any): any
function UtilityChoose(model) end

---Runs a GAIA brain once with this character as `me` (its `ModelInput` values as its data, the other entities as actors); returns the option chosen at the top level, or nil.
---Runs a GAIA brain on a situation table: `{me = {name, position, data}, actors = {...}, globals, time}`, or just a table of data for `me`.
---@param model string
---@return any
---@overload fun(model: string, situation: any): any
function utility_choose(model) end

---Like `UtilityChoose`, returning the whole decision: `{path = {...}, commands = {{name, target, position, args}}}`.
---@param model string
---@param situation any
---@return any
function UtilityDecide(model, situation) end

---Like `UtilityChoose`, returning the whole decision: `{path = {...}, commands = {{name, target, position, args}}}`.
---@param model string
---@param situation any
---@return any
function utility_decide(model, situation) end

---Runs a neural network on the `ModelInput` values (missing inputs are 0); returns the name of the strongest output.
---Runs a neural network on a table of named inputs; returns the name of the strongest output.
---@param model string
---@return string
---@overload fun(model: string, inputs: any): string
function NnRun(model) end

---Runs a neural network on the `ModelInput` values (missing inputs are 0); returns the name of the strongest output.
---Runs a neural network on a table of named inputs; returns the name of the strongest output.
---@param model string
---@return string
---@overload fun(model: string, inputs: any): string
function nn_run(model) end

---One output's activation for the `ModelInput` values.
---@param model string
---@param output string
---@return number
function NnOutput(model, output) end

---One output's activation for the `ModelInput` values.
---@param model string
---@param output string
---@return number
function nn_output(model, output) end

---The genes of one individual of a genetic model's current generation (slots from 0), a list of numbers: one response per situation (`GeneticGenome("raiders", 2)`).
---@param model string
---@param slot integer
---@return any
function GeneticGenome(model, slot) end

---The genes of one individual of a genetic model's current generation (slots from 0), a list of numbers: one response per situation (`GeneticGenome("raiders", 2)`).
---@param model string
---@param slot integer
---@return any
function genetic_genome(model, slot) end

---Adds a round's tallies to an individual: damage it dealt and damage it took; its fitness is dealt ÷ taken (taken at least 1).
---@param model string
---@param slot integer
---@param done number
---@param received number
function GeneticScore(model, slot, done, received) end

---Adds a round's tallies to an individual: damage it dealt and damage it took; its fitness is dealt ÷ taken (taken at least 1).
---@param model string
---@param slot integer
---@param done number
---@param received number
function genetic_score(model, slot, done, received) end

---Ends the round: ranks the population by fitness, replaces the weaker half by crossovers of the stronger half with mutation, clears the tallies, and notes the generation and the best fitness in the trace. Takes effect after every script of the tick has run.
---@param model string
function GeneticEvolve(model) end

---Ends the round: ranks the population by fitness, replaces the weaker half by crossovers of the stronger half with mutation, clears the tallies, and notes the generation and the best fitness in the trace. Takes effect after every script of the tick has run.
---@param model string
function genetic_evolve(model) end

---How many generations a genetic model has bred (0 for the first, random one).
---@param model string
---@return integer
function GeneticGeneration(model) end

---How many generations a genetic model has bred (0 for the first, random one).
---@param model string
---@return integer
function genetic_generation(model) end

---The tactic an adaptive model picks for a context: the one with the best mean success there (untried ones count 0.5, ties to the earlier), before any history the model's default (or a random one), and with the model's exploration chance a random one (`AdaptiveChoose("duel", "cornered")`).
---@param model string
---@param context string
---@return string
function AdaptiveChoose(model, context) end

---The tactic an adaptive model picks for a context: the one with the best mean success there (untried ones count 0.5, ties to the earlier), before any history the model's default (or a random one), and with the model's exploration chance a random one (`AdaptiveChoose("duel", "cornered")`).
---@param model string
---@param context string
---@return string
function adaptive_choose(model, context) end

---Records how a tactic went in a context, success 0–1; later choices for that context learn from it. The history is the world's, shared by every character using the model, and survives reloads.
---@param model string
---@param context string
---@param tactic string
---@param success number
function AdaptiveRecord(model, context, tactic, success) end

---Records how a tactic went in a context, success 0–1; later choices for that context learn from it. The history is the world's, shared by every character using the model, and survives reloads.
---@param model string
---@param context string
---@param tactic string
---@param success number
function adaptive_record(model, context, tactic, success) end

---A tactic's mean success in a context so far, or nil before it was tried there.
---@param model string
---@param context string
---@param tactic string
---@return any
function AdaptiveRate(model, context, tactic) end

---A tactic's mean success in a context so far, or nil before it was tried there.
---@param model string
---@param context string
---@param tactic string
---@return any
function adaptive_rate(model, context, tactic) end

---The time of day in hours, 0 to 24: globals `DayStartHour` (default 0) plus the elapsed seconds over `SecondsPerHour` (default 3600).
---@return number
function HourOfDay() end

---The time of day in hours, 0 to 24: globals `DayStartHour` (default 0) plus the elapsed seconds over `SecondsPerHour` (default 3600).
---@return number
function hour_of_day() end

---The first task of the schedule's block at this hour, or nil (`ScheduleTask("day", HourOfDay())`).
---@param model string
---@param hour number
---@return any
function ScheduleTask(model, hour) end

---The first task of the schedule's block at this hour, or nil (`ScheduleTask("day", HourOfDay())`).
---@param model string
---@param hour number
---@return any
function schedule_task(model, hour) end

---The one-shot tasks whose hour lies in (from, to], each drawn with its probability from the world's generator.
---@param model string
---@param from number
---@param to number
---@return any
function ScheduleDue(model, from, to) end

---The one-shot tasks whose hour lies in (from, to], each drawn with its probability from the world's generator.
---@param model string
---@param from number
---@param to number
---@return any
function schedule_due(model, from, to) end

---Drives this character's open-loop action queue: starts `script` from the action library if another one was asked for, and when the character is idle issues its next step (move, wait, say, emit). A step that cannot be done (unknown or closed place — global `closed:<place>`) fails: the queue is flushed and the script's fallback runs. Returns the script running.
---@param model string
---@param script string
---@return any
function QueueRun(model, script) end

---Drives this character's open-loop action queue: starts `script` from the action library if another one was asked for, and when the character is idle issues its next step (move, wait, say, emit). A step that cannot be done (unknown or closed place — global `closed:<place>`) fails: the queue is flushed and the script's fallback runs. Returns the script running.
---@param model string
---@param script string
---@return any
function queue_run(model, script) end

---Fails the running step: flushes the queue and starts the script's fallback; returns the fallback's name or nil.
---@param model string
---@return any
function QueueFail(model) end

---Fails the running step: flushes the queue and starts the script's fallback; returns the fallback's name or nil.
---@param model string
---@return any
function queue_fail(model) end

---The action script this character is running, or nil.
---@param model string
---@return any
function QueueCurrent(model) end

---The action script this character is running, or nil.
---@param model string
---@return any
function queue_current(model) end

---The shortest plan of actions from the true propositions `state` to the `goal` literals (lists, or comma-separated text; `~p` is a negative literal); nil when none exists.
---@param model string
---@param goal any
---@param state any
---@return any
function Plan(model, goal, state) end

---The shortest plan of actions from the true propositions `state` to the `goal` literals (lists, or comma-separated text; `~p` is a negative literal); nil when none exists.
---@param model string
---@param goal any
---@param state any
---@return any
function plan(model, goal, state) end

---The first action of `Plan`, or nil (already there, or no plan).
---@param model string
---@param goal any
---@param state any
---@return any
function PlanNext(model, goal, state) end

---The first action of `Plan`, or nil (already there, or no plan).
---@param model string
---@param goal any
---@param state any
---@return any
function plan_next(model, goal, state) end

---Explores by following walls with the left hand, one cell per `1/speed` seconds: it usually enters every room of a map of small rooms, and circles in the open (`TraceWalls()`).
function TraceWalls() end

---Explores by following walls with the left hand, one cell per `1/speed` seconds: it usually enters every room of a map of small rooms, and circles in the open (`TraceWalls()`).
function trace_walls() end

---Heads for an entity a cell at a time along the book's line; when a wall blocks it, it follows the obstacle's edge until it sees the target again; stops on catching it (`TraceToward(Player())`).
---@param target any
function TraceToward(target) end

---Heads for an entity a cell at a time along the book's line; when a wall blocks it, it follows the obstacle's edge until it sees the target again; stops on catching it (`TraceToward(Player())`).
---@param target any
function trace_toward(target) end

---Follows the breadcrumbs an entity drops from now on (one per cell it enters, the last 15 kept): onto the newest crumb within a step, else a random step; stops on catching it (`FollowTrail(Player())`).
---@param target any
function FollowTrail(target) end

---Follows the breadcrumbs an entity drops from now on (one per cell it enters, the last 15 kept): onto the newest crumb within a step, else a random step; stops on catching it (`FollowTrail(Player())`).
---@param target any
function follow_trail(target) end

---Moves toward an entity under the book's Lennard-Jones potentials: drawn by the chase law, pushed off walls by the avoidance law; it closes to about two body lengths and keeps that distance (`PotentialChase(Player())`).
---@param target any
function PotentialChase(target) end

---Moves toward an entity under the book's Lennard-Jones potentials: drawn by the chase law, pushed off walls by the avoidance law; it closes to about two body lengths and keeps that distance (`PotentialChase(Player())`).
---@param target any
function potential_chase(target) end

---Chases an entity tile by tile along the book's Bresenham line, one cell per `1/speed` seconds, rebuilding the line when the target moves; a wall on the line stops it; stops on catching (`TileChase(Player())`).
---@param target any
function TileChase(target) end

---Chases an entity tile by tile along the book's Bresenham line, one cell per `1/speed` seconds, rebuilding the line when the target moves; a wall on the line stops it; stops on catching (`TileChase(Player())`).
---@param target any
function tile_chase(target) end

---Steers toward an entity along the line of sight until it is caught (within 0.5), then stops (`Chase(Player())`).
---@param target any
function Chase(target) end

---Steers toward an entity along the line of sight until it is caught (within 0.5), then stops (`Chase(Player())`).
---@param target any
function chase(target) end

---Steers away from an entity along the line of sight, sliding along walls (`Evade(Nearest("wolf"))`).
---@param target any
function Evade(target) end

---Steers away from an entity along the line of sight, sliding along walls (`Evade(Nearest("wolf"))`).
---@param target any
function evade(target) end

---Steers for the point where a moving entity will be (closing velocity), or chases it when it is behind; stops on catching it.
---@param target any
function Intercept(target) end

---Steers for the point where a moving entity will be (closing velocity), or chases it when it is behind; stops on catching it.
---@param target any
function intercept(target) end

---Flocks with the scenario's named flock: cohesion, alignment, separation, wall feelers (`JoinFlock("birds")`).
---@param flock string
function JoinFlock(flock) end

---Flocks with the scenario's named flock: cohesion, alignment, separation, wall feelers (`JoinFlock("birds")`).
---@param flock string
function join_flock(flock) end

---Takes slot `slot` (0-based) in the formation the captain leads; later members move back one (`FormUp(FindEntity("sarge"), 0)`).
---@param captain any
---@param slot integer
function FormUp(captain, slot) end

---Takes slot `slot` (0-based) in the formation the captain leads; later members move back one (`FormUp(FindEntity("sarge"), 0)`).
---@param captain any
---@param slot integer
function form_up(captain, slot) end

---Flies a movement pattern over and over: `patrol`, `zigzag` or one of the scenario's (`RunPattern("patrol")`).
---@param pattern string
function RunPattern(pattern) end

---Flies a movement pattern over and over: `patrol`, `zigzag` or one of the scenario's (`RunPattern("patrol")`).
---@param pattern string
function run_pattern(pattern) end

---Walks one of the scenario's tile routes (`[steering.tile_routes]`) from the cell the scripted entity stands in, a cell per `1/speed` seconds along the book's lines between its corners: a route whose last corner is its first loops, any other ends; a wall on the next cell holds it there (`RunTileRoute("round")`).
---@param route string
function RunTileRoute(route) end

---Walks one of the scenario's tile routes (`[steering.tile_routes]`) from the cell the scripted entity stands in, a cell per `1/speed` seconds along the book's lines between its corners: a route whose last corner is its first loops, any other ends; a wall on the next cell holds it there (`RunTileRoute("round")`).
---@param route string
function run_tile_route(route) end

---Wanders one of the scenario's pattern grids (`[steering.tile_grids]`), the book's 0/1 pattern matrix: a cell per `1/speed` seconds to a marked neighbour other than the cell just left, chosen by the world's seeded generator; at a dead end it turns back (`WanderTileGrid("lanes")`).
---@param grid string
function WanderTileGrid(grid) end

---Wanders one of the scenario's pattern grids (`[steering.tile_grids]`), the book's 0/1 pattern matrix: a cell per `1/speed` seconds to a marked neighbour other than the cell just left, chosen by the world's seeded generator; at a dead end it turns back (`WanderTileGrid("lanes")`).
---@param grid string
function wander_tile_grid(grid) end

---Runs one of the scenario's control-data arrays on tiles (`[steering.tile_steps]`) over and over from the scripted entity's cell and heading: `forward` walks that many cells, a cell per `1/speed` seconds, `turn_right`/`turn_left` turn in 45° steps (`turn_right` takes `+x` to `−y`) and take the rest of the tick; a wall holds it (`RunTileSteps("square")`).
---@param steps string
function RunTileSteps(steps) end

---Runs one of the scenario's control-data arrays on tiles (`[steering.tile_steps]`) over and over from the scripted entity's cell and heading: `forward` walks that many cells, a cell per `1/speed` seconds, `turn_right`/`turn_left` turn in 45° steps (`turn_right` takes `+x` to `−y`) and take the rest of the tick; a wall holds it (`RunTileSteps("square")`).
---@param steps string
function run_tile_steps(steps) end

---Stops steering and leaves any flock or formation (a captain hands command to its first member).
function StopSteering() end

---Stops steering and leaves any flock or formation (a captain hands command to its first member).
function stop_steering() end

---What an entity steers by: `chase`, `evade`, `intercept`, `flock`, `formation`, `pattern`, `potential`, `tile_chase`, `trace_walls`, `trace_toward`, `follow_trail`, or "" when it does not steer.
---@param entity any
---@return string
function SteeringOf(entity) end

---What an entity steers by: `chase`, `evade`, `intercept`, `flock`, `formation`, `pattern`, `potential`, `tile_chase`, `trace_walls`, `trace_toward`, `follow_trail`, or "" when it does not steer.
---@param entity any
---@return string
function steering_of(entity) end

---A team's summed influence at a point (`InfluenceAt("red", 4, 2)`); the team must be one the `[field]` section lists.
---@param team string
---@param x number
---@param y number
---@return number
function InfluenceAt(team, x, y) end

---A team's summed influence at a point (`InfluenceAt("red", 4, 2)`); the team must be one the `[field]` section lists.
---@param team string
---@param x number
---@param y number
---@return number
function influence_at(team, x, y) end

---A team's influence at a node of the waypoint graph (`[navigation.graph]`) by name (`GraphInfluenceAt("red", "bridge")`): every member of the `[field]` teams stands at the node its routes start from and projects its influence (attributes `influence`, `influence_radius`, `influence_falloff`) along the edges it can walk now, distance measured along them.
---@param team string
---@param node string
---@return number
function GraphInfluenceAt(team, node) end

---A team's influence at a node of the waypoint graph (`[navigation.graph]`) by name (`GraphInfluenceAt("red", "bridge")`): every member of the `[field]` teams stands at the node its routes start from and projects its influence (attributes `influence`, `influence_radius`, `influence_falloff`) along the edges it can walk now, distance measured along them.
---@param team string
---@param node string
---@return number
function graph_influence_at(team, node) end

---Any kept layer's value at a point (`LayerAt("tension", 4, 2)`; names as `tactica render --layer list` prints them).
---@param layer string
---@param x number
---@param y number
---@return number
function LayerAt(layer, x, y) end

---Any kept layer's value at a point (`LayerAt("tension", 4, 2)`; names as `tactica render --layer list` prints them).
---@param layer string
---@param x number
---@param y number
---@return number
function layer_at(layer, x, y) end

---Personal radar: every other entity within `range` cells, walls or not, nearest first (ties in key order), as a list of handles (`RadarContacts(12)`).
---@param range number
---@return any
function RadarContacts(range) end

---Personal radar: every other entity within `range` cells, walls or not, nearest first (ties in key order), as a list of handles (`RadarContacts(12)`).
---@param range number
---@return any
function radar_contacts(range) end

---Team radar: the entities of other teams within `range` cells that some member of the scripted entity's team can see now (the team's shared list of contacts), nearest first.
---@param range number
---@return any
function TeamRadar(range) end

---Team radar: the entities of other teams within `range` cells that some member of the scripted entity's team can see now (the team's shared list of contacts), nearest first.
---@param range number
---@return any
function team_radar(range) end

---Touch: the other entities whose bodies overlap the scripted entity's (centres less than one cell apart), nearest first.
---@return any
function Touching() end

---Touch: the other entities whose bodies overlap the scripted entity's (centres less than one cell apart), nearest first.
---@return any
function touching() end

---The team whose territory a point lies in — the map flooded from every team member's influence, walls stopping it — or nil where no team reaches (needs `territory` in the `[field]` layers).
---@param x number
---@param y number
---@return any
function TerritoryAt(x, y) end

---The team whose territory a point lies in — the map flooded from every team member's influence, walls stopping it — or nil where no team reaches (needs `territory` in the `[field]` layers).
---@param x number
---@param y number
---@return any
function territory_at(x, y) end

---The open cell with the highest value of a layer within `radius` cells of a point that the scripted entity can walk to, as a vec2 of cell coordinates, or nil (`BestCell("cover", me.x, me.y, 6)`); ties go to the first in row-major order.
---@param layer string
---@param x number
---@param y number
---@param radius number
---@return any
function BestCell(layer, x, y, radius) end

---The open cell with the highest value of a layer within `radius` cells of a point that the scripted entity can walk to, as a vec2 of cell coordinates, or nil (`BestCell("cover", me.x, me.y, 6)`); ties go to the first in row-major order.
---@param layer string
---@param x number
---@param y number
---@param radius number
---@return any
function best_cell(layer, x, y, radius) end

---The open cell with the highest value of a layer inside a named region that the scripted entity can walk to, or nil (`BestCellIn("security.blue", "yard")`).
---@param layer string
---@param region string
---@return any
function BestCellIn(layer, region) end

---The open cell with the highest value of a layer inside a named region that the scripted entity can walk to, or nil (`BestCellIn("security.blue", "yard")`).
---@param layer string
---@param region string
---@return any
function best_cell_in(layer, region) end

---The share of simulated attacks the walls block at a point, 0–1 (needs `cover` in the layers).
---@param x number
---@param y number
---@return number
function CoverAt(x, y) end

---The share of simulated attacks the walls block at a point, 0–1 (needs `cover` in the layers).
---@param x number
---@param y number
---@return number
function cover_at(x, y) end

---The share of the scripted entity's enemies that can see a point, 0–1 (needs `exposure` in the layers).
---@param x number
---@param y number
---@return number
function ExposureAt(x, y) end

---The share of the scripted entity's enemies that can see a point, 0–1 (needs `exposure` in the layers).
---@param x number
---@param y number
---@return number
function exposure_at(x, y) end

---Whether the scripted entity sees another: within its vision range and cone around its heading, with a clear line of sight (`[field.vision]`, attributes `vision_range` and `vision_angle`).
---@param target any
---@return boolean
function CanSee(target) end

---Whether the scripted entity sees another: within its vision range and cone around its heading, with a clear line of sight (`[field.vision]`, attributes `vision_range` and `vision_angle`).
---@param target any
---@return boolean
function can_see(target) end

---Whether the scripted entity sees a point (same rules as `CanSee`).
---@param x number
---@param y number
---@return boolean
function IsVisible(x, y) end

---Whether the scripted entity sees a point (same rules as `CanSee`).
---@param x number
---@param y number
---@return boolean
function is_visible(x, y) end

---The sounds of the last tick the scripted entity heard above its threshold, loudest first: a list of maps with `name`, `source` (the maker's name), `x`, `y` and `level` (dB as it arrived, after distance and walls).
---@return any
function HeardSounds() end

---The sounds of the last tick the scripted entity heard above its threshold, loudest first: a list of maps with `name`, `source` (the maker's name), `x`, `y` and `level` (dB as it arrived, after distance and walls).
---@return any
function heard_sounds() end

---The strongest scent the scripted entity smells where it stands, or nil: a map with `source`, `x`, `y` (the mark's cell), `strength` and `age` (ticks).
---@return any
function ScentAt() end

---The strongest scent the scripted entity smells where it stands, or nil: a map with `source`, `x`, `y` (the mark's cell), `strength` and `age` (ticks).
---@return any
function scent_at() end

---Teaches the frag map a kill: after forgetting (× `frag_decay`), +1 where the attacker stands and −1 where the victim does, at the end of the tick.
---@param attacker any
---@param victim any
function RecordFrag(attacker, victim) end

---Teaches the frag map a kill: after forgetting (× `frag_decay`), +1 where the attacker stands and −1 where the victim does, at the end of the tick.
---@param attacker any
---@param victim any
function record_frag(attacker, victim) end

---Tells the resource map how much is at a cell now (replaces what was known there).
---@param x number
---@param y number
---@param amount number
function ReportResource(x, y, amount) end

---Tells the resource map how much is at a cell now (replaces what was known there).
---@param x number
---@param y number
---@param amount number
function report_resource(x, y, amount) end

---Tells the conflict map of a fight at a cell: how many enemies and their destruction potential.
---@param x number
---@param y number
---@param enemies integer
---@param strength number
function ReportConflict(x, y, enemies, strength) end

---Tells the conflict map of a fight at a cell: how many enemies and their destruction potential.
---@param x number
---@param y number
---@param enemies integer
---@param strength number
function report_conflict(x, y, enemies, strength) end

---The names of every layer the scenario keeps, sorted.
---@return any
function FieldLayers() end

---The names of every layer the scenario keeps, sorted.
---@return any
function field_layers() end

---Runs a tactical position query for the scripted entity and returns the chosen point (a vec2 in map units), or nil when every option failed (the failure is noted in the trace and the query's `on_failure` runs). `query` is the name of a query the scenario's `[queries]` files declare, or the query itself in the reference's table form: one option `{Generation = {...}, Conditions = {...}, Weights = {...}}` or a list of options (`docs/tps.md`).
---`FindPosition` with options: `target` (an entity or a point; default the blackboard's `target`, else the player), `referencePoint` and `leader` (entities or points), `reserve = true` (the point becomes the asker's: other agents' queries reject it until `ReleasePosition()` or the asker's next reserved point). When the scenario sets a per-tick query budget (`[queries] budget`) and this tick's is spent, the call returns a handle (a number) instead: ask `PositionStatus(handle)` and `PositionResult(handle)` in later ticks, or wait for the `position_ready` note.
---@param query any
---@return any
---@overload fun(query: any, options: any): any
function FindPosition(query) end

---Runs a tactical position query for the scripted entity and returns the chosen point (a vec2 in map units), or nil when every option failed (the failure is noted in the trace and the query's `on_failure` runs). `query` is the name of a query the scenario's `[queries]` files declare, or the query itself in the reference's table form: one option `{Generation = {...}, Conditions = {...}, Weights = {...}}` or a list of options (`docs/tps.md`).
---`FindPosition` with options: `target` (an entity or a point; default the blackboard's `target`, else the player), `referencePoint` and `leader` (entities or points), `reserve = true` (the point becomes the asker's: other agents' queries reject it until `ReleasePosition()` or the asker's next reserved point). When the scenario sets a per-tick query budget (`[queries] budget`) and this tick's is spent, the call returns a handle (a number) instead: ask `PositionStatus(handle)` and `PositionResult(handle)` in later ticks, or wait for the `position_ready` note.
---@param query any
---@return any
---@overload fun(query: any, options: any): any
function find_position(query) end

---What became of a query `FindPosition` deferred: `"pending"`, `"found"`, `"failed"`, or `"unknown"` (no such handle, or answered more than 600 ticks ago).
---@param handle integer
---@return string
function PositionStatus(handle) end

---What became of a query `FindPosition` deferred: `"pending"`, `"found"`, `"failed"`, or `"unknown"` (no such handle, or answered more than 600 ticks ago).
---@param handle integer
---@return string
function position_status(handle) end

---The point a deferred `FindPosition` found (a vec2), or nil while it is pending or when it failed.
---@param handle integer
---@return any
function PositionResult(handle) end

---The point a deferred `FindPosition` found (a vec2), or nil while it is pending or when it failed.
---@param handle integer
---@return any
function position_result(handle) end

---The point the scripted entity holds (from `FindPosition` with `reserve = true`), or nil.
---@return any
function ReservedPosition() end

---The point the scripted entity holds (from `FindPosition` with `reserve = true`), or nil.
---@return any
function reserved_position() end

---Gives up the point the scripted entity holds, so other agents' queries may pick it.
function ReleasePosition() end

---Gives up the point the scripted entity holds, so other agents' queries may pick it.
function release_position() end

---Opens a door the scenario declares (`OpenDoor("gate")`): its cells become open ground and everyone moving plans again.
---@param door string
function OpenDoor(door) end

---Opens a door the scenario declares (`OpenDoor("gate")`): its cells become open ground and everyone moving plans again.
---@param door string
function open_door(door) end

---Closes a door (`CloseDoor("gate")`): its cells are blocked and everyone moving plans again.
---@param door string
function CloseDoor(door) end

---Closes a door (`CloseDoor("gate")`): its cells are blocked and everyone moving plans again.
---@param door string
function close_door(door) end

---Blocks a cell or opens it as plain ground (`SetBlocked(4, 2, true)` — a wall falls or rises).
---@param x integer
---@param y integer
---@param blocked boolean
function SetBlocked(x, y, blocked) end

---Blocks a cell or opens it as plain ground (`SetBlocked(4, 2, true)` — a wall falls or rises).
---@param x integer
---@param y integer
---@param blocked boolean
function set_blocked(x, y, blocked) end

---Whether the scripted entity could walk to a cell on the map as it is now (no search: the map's connected areas).
---@param x integer
---@param y integer
---@return boolean
function Reachable(x, y) end

---Whether the scripted entity could walk to a cell on the map as it is now (no search: the map's connected areas).
---@param x integer
---@param y integer
---@return boolean
function reachable(x, y) end

---The cost of the shortest path from the scripted entity's cell to a cell (straight steps 1, diagonal √2, times terrain costs), or nil when it cannot get there. Fails when the search would expand more than 200,000 cells.
---@param x integer
---@param y integer
---@return any
function PathDistance(x, y) end

---The cost of the shortest path from the scripted entity's cell to a cell (straight steps 1, diagonal √2, times terrain costs), or nil when it cannot get there. Fails when the search would expand more than 200,000 cells.
---@param x integer
---@param y integer
---@return any
function path_distance(x, y) end

---The shortest path from the scripted entity's cell to a cell, as a list of cells (vec2s, its own cell first), or nil when it cannot get there; same bound as `PathDistance`. `FollowPath(FindPath(x, y))` walks it.
---@param x integer
---@param y integer
---@return any
function FindPath(x, y) end

---The shortest path from the scripted entity's cell to a cell, as a list of cells (vec2s, its own cell first), or nil when it cannot get there; same bound as `PathDistance`. `FollowPath(FindPath(x, y))` walks it.
---@param x integer
---@param y integer
---@return any
function find_path(x, y) end

---What the scripted entity's move is doing: `idle` (no move), `searching` (waiting for the navigation service's per-tick budget), `walking`, or `unreachable` (its goal cannot be reached on the map as it is).
---@return string
function PathStatus() end

---What the scripted entity's move is doing: `idle` (no move), `searching` (waiting for the navigation service's per-tick budget), `walking`, or `unreachable` (its goal cannot be reached on the map as it is).
---@return string
function path_status() end

---Stops the scripted entity's move and drops its search and everything queued after it.
function CancelPath() end

---Stops the scripted entity's move and drops its search and everything queued after it.
function cancel_path() end

---The tactical waypoints within `radius` of a point, nearest first (ties in database order): a list of tables with `x`, `y` (the cell's centre) and the values `cover`, `shadow`, `sniping`, `exposure`, `visibility` (0–1).
---@param x number
---@param y number
---@param radius number
---@return any
function Waypoints(x, y, radius) end

---The tactical waypoints within `radius` of a point, nearest first (ties in database order): a list of tables with `x`, `y` (the cell's centre) and the values `cover`, `shadow`, `sniping`, `exposure`, `visibility` (0–1).
---@param x number
---@param y number
---@param radius number
---@return any
function waypoints(x, y, radius) end

---The waypoint within `radius` of a point with the highest value (`cover`, `shadow`, `sniping`, `exposure` or `visibility`) that the scripted entity can walk to, as a vec2 (the cell's centre), or nil (`BestWaypoint("sniping", me.x, me.y, 20)`).
---@param value string
---@param x number
---@param y number
---@param radius number
---@return any
function BestWaypoint(value, x, y, radius) end

---The waypoint within `radius` of a point with the highest value (`cover`, `shadow`, `sniping`, `exposure` or `visibility`) that the scripted entity can walk to, as a vec2 (the cell's centre), or nil (`BestWaypoint("sniping", me.x, me.y, 20)`).
---@param value string
---@param x number
---@param y number
---@param radius number
---@return any
function best_waypoint(value, x, y, radius) end

---A key of the scripted character's blackboard, which its behaviour tree, its scripts and its models share, or nil (`GetBlackboard("noise")`). In a tree's leaf, the tree's own writes of this tick are read back.
---@param key string
---@return any
function GetBlackboard(key) end

---A key of the scripted character's blackboard, which its behaviour tree, its scripts and its models share, or nil (`GetBlackboard("noise")`). In a tree's leaf, the tree's own writes of this tick are read back.
---@param key string
---@return any
function get_blackboard(key) end

---Sets a key of the scripted character's blackboard after every script of the tick has run (`SetBlackboard("noise", true)`); a tree's conditions on the key are read again. A blackboard holds up to 1,024 keys; a new one past that is an error.
---@param key string
---@param value any
function SetBlackboard(key, value) end

---Sets a key of the scripted character's blackboard after every script of the tick has run (`SetBlackboard("noise", true)`); a tree's conditions on the key are read again. A blackboard holds up to 1,024 keys; a new one past that is an error.
---@param key string
---@param value any
function set_blackboard(key, value) end

---Builds a behaviour tree from its text (the `.bt` language, `docs/trees.md`) and registers it under the tree's name, which it returns (`BuildTree("tree Idle { wait(10); }")`). Its script leaves are functions of the script that built it, and of the files its `leaves` line names. A mistake is an error naming the line, column and code.
---@param text string
---@return string
function BuildTree(text) end

---Builds a behaviour tree from its text (the `.bt` language, `docs/trees.md`) and registers it under the tree's name, which it returns (`BuildTree("tree Idle { wait(10); }")`). Its script leaves are functions of the script that built it, and of the files its `leaves` line names. A mistake is an error naming the line, column and code.
---@param text string
---@return string
function build_tree(text) end

---Runs a behaviour tree — one the scenario declares in `[models]` or one `BuildTree` built — on the scripted character from the next tick; a tree it runs already is halted cleanly first (`RunTree("guard")`).
---@param tree string
function RunTree(tree) end

---Runs a behaviour tree — one the scenario declares in `[models]` or one `BuildTree` built — on the scripted character from the next tick; a tree it runs already is halted cleanly first (`RunTree("guard")`).
---@param tree string
function run_tree(tree) end

---Stops the scripted character's behaviour tree: what runs is halted cleanly at the next tick.
function StopTree() end

---Stops the scripted character's behaviour tree: what runs is halted cleanly at the next tick.
function stop_tree() end

---What the scripted character's tree returned on its last tick — `running`, `success` or `failure` — or nil when it runs no tree.
---@return any
function TreeStatus() end

---What the scripted character's tree returned on its last tick — `running`, `success` or `failure` — or nil when it runs no tree.
---@return any
function tree_status() end

---The nodes of the scripted character's tree that are running now, as the tree file writes them (`{"fallback", "sequence", "move_to(post_a)"}`); empty without a tree.
---@return any
function TreeRunning() end

---The nodes of the scripted character's tree that are running now, as the tree file writes them (`{"fallback", "sequence", "move_to(post_a)"}`); empty without a tree.
---@return any
function tree_running() end

