//! The tech-tree rules of chapter 11 (Ex. 11-2 … 11-4) as a rule base.

/// The tech tree in TOML: the Priest rule of Ex. 11-3 followed by Ex. 11-4 in the book's order.
/// Facts are Yes, No, Maybe or Unknown (the default). Ex. 11-5 (`Blacksmith == Yes → Cavalry =
/// Yes`), which the book uses only to illustrate backward chaining, is [`CAVALRY_RULE`].
pub const TECH_TREE: &str = r#"
default = "Unknown"
strategy = "first"

[[rules]]
name = "priest"
when = "Priest == Yes"
then = { Temple = "Yes", Barracks = "Yes", Woodcutter = "Yes", Stonemason = "Yes" }

[[rules]]
name = "woodcutter_maybe"
when = "Peasants == Yes and Woodcutter == Unknown"
then = { Woodcutter = "Maybe" }

[[rules]]
name = "stonemason_maybe"
when = "Peasants == Yes and Stonemason == Unknown"
then = { Stonemason = "Maybe" }

[[rules]]
name = "barracks_maybe"
when = "Woodcutter == Yes and Barracks == Unknown"
then = { Barracks = "Maybe" }

[[rules]]
name = "temple_maybe"
when = "Woodcutter == Yes and Stonemason == Yes and Temple == Unknown"
then = { Temple = "Maybe" }

[[rules]]
name = "blacksmith_maybe"
when = "Barracks == Yes and Blacksmith == Unknown"
then = { Blacksmith = "Maybe" }

[[rules]]
name = "archer_maybe"
when = "Fletcher == Yes and FootSoldier == Yes and Archer == Unknown"
then = { Archer = "Maybe" }

[[rules]]
name = "woodwalls_maybe"
when = "Woodcutter == Yes and WoodWalls == Unknown"
then = { WoodWalls = "Maybe" }

[[rules]]
name = "stonewalls_maybe"
when = "Stonemason == Yes and StoneWalls == Unknown"
then = { StoneWalls = "Maybe" }

[[rules]]
name = "crossbowman_maybe"
when = "Archer == Yes and Crossbowman == Unknown"
then = { Crossbowman = "Maybe" }

[[rules]]
name = "longbowman_maybe"
when = "Archer == Maybe and Longbowman == Unknown"
then = { Longbowman = "Maybe" }

[[rules]]
name = "longbowman"
when = "Longbowman == Yes"
then = { Archer = "Yes", Fletcher = "Yes", FootSoldier = "Yes", Barracks = "Yes", Woodcutter = "Yes" }

[[rules]]
name = "cavalry"
when = "Cavalry == Yes"
then = { Blacksmith = "Yes", FootSoldier = "Yes", Barracks = "Yes", Woodcutter = "Yes" }

[[rules]]
name = "stonewalls"
when = "StoneWalls == Yes"
then = { Stonemason = "Yes" }
"#;

/// Ex. 11-5, appended to [`TECH_TREE`] for the backward-chaining example.
pub const CAVALRY_RULE: &str = r#"
[[rules]]
name = "blacksmith_cavalry"
when = "Blacksmith == Yes"
then = { Cavalry = "Yes" }
"#;
