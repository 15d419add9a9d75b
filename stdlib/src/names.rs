//! The named values of the classic scripts (reference 002b §4.9–4.10), by family, and the
//! "did you mean" helper every front-end uses for unknown names.

/// Every standard symbol as `(family, names)`. At run time a symbol is the string of its name.
pub const STANDARD_SYMBOLS: &[(&str, &[&str])] = &[
    ("weapon", &["Dagger", "Bow", "Sword", "BattleAxe", "Staff", "Club", "Spear", "Crossbow", "Unarmed"]),
    // One family for creature types and player races: `Creature == Giant`, `player == Human`.
    ("kind", &["Giant", "Troll", "Human", "FriendlyWizard", "Wizard", "Elf", "Dwarf", "Goblin", "Ghost", "Soldier"]),
    ("item", &["RedAmulet", "BlueAmulet", "Key", "Torch", "Gold", "Map"]),
    ("challenge", &["EASY", "MODERATE", "DIFFICULT", "DEADLY"]),
    ("time", &["kDay", "kNight", "kDawn", "kDusk"]),
    (
        "state",
        &[
            "kPatrol", "kRoam", "kEvade", "kAttack", "kHide", "kChase", "kForage", "kGoHome", "kThirsty", "kDead",
            "kGuard", "kFlee",
        ],
    ),
    ("place", &["kDock", "kBoat", "xDoorway"]),
    ("trap", &["kPoisonTrap", "kExpositionTrap", "kSpikeTrap", "kFireTrap", "kAlarmTrap", "kBreachCharge"]),
    (
        "sound",
        &["kCreakingDoorSnd", "kSeagullSnd", "kWavesSnd", "kCricketsSnd", "kBirdsSnd", "kAlarmSnd", "kBreachSnd"],
    ),
    // The working-memory values of the tech-tree rule system (reference 002c WE-10).
    ("belief", &["Yes", "No", "Maybe", "Unknown"]),
    ("structure", &["kBarracks", "kBlacksmith", "kStable", "kTemple", "kWoodWall", "kStoneWall", "kTower", "kFarm"]),
    // What a behaviour tree's leaf returns (`return success;` in a `.tac` `leaf`).
    ("status", &["success", "failure", "running"]),
];

/// The candidate closest to `name` (case-insensitive edit distance), if it is close enough to be
/// a likely typo: at most a third of the name's length, and at least one edit allowed.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    let len = lower.chars().count();
    let limit = (len / 3).max(1);
    candidates
        .into_iter()
        // Lengths further apart than the limit are further apart in edits too: skipping them
        // keeps a very long name (a mod's megabyte-long word) from costing its length squared
        // for every candidate.
        .filter(|c| c.chars().count().abs_diff(len) <= limit)
        // Damerau: a swapped pair (`Sya` for `Say`) is one edit, as a designer would count it.
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_close_and_case_blind() {
        assert_eq!(suggest("INTELIGENCE", ["INTELLIGENCE", "STRENGTH"]), Some("INTELLIGENCE"));
        assert_eq!(suggest("dagr", ["Dagger", "Bow"]), None, "two edits on four letters is too far");
        assert_eq!(suggest("daggr", ["Dagger", "Bow"]), Some("Dagger"));
        assert_eq!(suggest("zzz", ["Dagger"]), None);
    }

    #[test]
    fn symbol_names_are_unique_across_families() {
        let mut all: Vec<String> =
            STANDARD_SYMBOLS.iter().flat_map(|(_, ns)| ns.iter().map(|n| n.to_ascii_lowercase())).collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
