//! The test-file grammar and its checks on small files: every kind of statement parses to what
//! it says, and every mistake gets its code, its span and a did-you-mean where one helps.

use super::*;
use crate::Code;

fn harbour() -> Names {
    let names = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    Names {
        entities: names(&["fisherman", "guard", "lookout", "runner", "watch-12"]),
        places: names(&["kDock", "kTavern", "kWarehouseDoor", "kGate"]),
        regions: names(&["tavern", "warehouse", "trapdoor"]),
        globals: names(&["GameTime", "PlayerArmed"]),
        event_kinds: names(&["say", "arrive", "blocked", "enter", "signal", "script_error", "state", "trigger"]),
        ticks: 200,
    }
}

fn parsed(src: &str) -> TestFile {
    let (file, diagnostics) = parse(src);
    assert_eq!(diagnostics, [], "{src}");
    file.unwrap()
}

fn codes(src: &str) -> Vec<(Code, String)> {
    let (file, mut diagnostics) = parse(src);
    if let Some(file) = file {
        diagnostics.extend(check(&file, &harbour()));
    }
    diagnostics.into_iter().map(|d| (d.code, src[d.span.clone()].to_owned())).collect()
}

#[test]
fn every_statement_reads_as_it_says() {
    let src = r#"
        scenario "scenario.toml";
        // the smugglers' night
        test "the smugglers get in" {
            seed 7; ticks 180;
            set GameTime = kDay; set guard.SPEED = -2; remove fisherman;
            start runner at (3, 4);
            expect runner reaches warehouse by 150;
            expect lookout says "Lock's open. Go!" by 60;
            expect anyone says matching "qu(ie)t" between 10 and 90;
            expect at most 0 blocked of runner;
            expect exactly 1 signal "breach" after 5;
            expect 1 to 3 say of guard;
            expect signal "breach" of lookout before enter "warehouse" of runner;
            expect (GameTime == kNight and not PlayerArmed) at 130;
            expect runner keeps 2 cells from guard;
            expect "watch-12" stays within 3.5 of lookout by 40;
            expect trace matches "golden/harbour.jsonl";
            never script_error;
            never (guard.x < 3) by 100;
            always (guard.health > 0 or guard.health == 0);
            eventually arrive of runner by 120;
            eventually (GameTime == kNight);
        }
    "#;
    let file = parsed(src);
    assert_eq!(file.scenario.as_ref().unwrap().text, "scenario.toml");
    let t = &file.tests[0];
    assert_eq!((t.name.text.as_str(), t.seed(), t.ticks()), ("the smugglers get in", Some(7), Some(180)));
    assert_eq!(t.settings.len(), 6);
    assert!(
        matches!(&t.settings[3], Setting::Set { target, value: Literal::Int(-2), .. } if target.text == "guard.SPEED")
    );
    assert!(matches!(&t.settings[5], Setting::Start { at: Target::Cell([3, 4], _), .. }));
    let kinds: Vec<&Expect> = t.expectations.iter().map(|e| &e.kind).collect();
    assert_eq!(kinds.len(), 16);
    assert!(
        matches!(kinds[0], Expect::Reaches { entity, target: Target::Named(n), by: Some(TickAt { tick: 150, .. }) }
        if entity.text == "runner" && n.text == "warehouse")
    );
    assert!(matches!(kinds[1], Expect::Says { speaker: Some(s), line: LineMatch::Exact(l), window }
        if s.text == "lookout" && l.text == "Lock's open. Go!" && window.to.unwrap().tick == 60));
    assert!(matches!(kinds[2], Expect::Says { speaker: None, line: LineMatch::Pattern(p), window }
        if p.text == "qu(ie)t" && window.contains(10) && window.contains(90) && !window.contains(91) && !window.contains(9)));
    assert!(matches!(kinds[3], Expect::Count { min: None, max: Some(0), event, .. }
        if event.kind.text == "blocked" && event.entity.as_ref().unwrap().text == "runner"));
    assert!(matches!(kinds[4], Expect::Count { min: Some(1), max: Some(1), event, window }
        if event.text.as_ref().unwrap().text == "breach" && window.from.unwrap().tick == 5 && window.to.is_none()));
    assert!(matches!(kinds[5], Expect::Count { min: Some(1), max: Some(3), .. }));
    assert!(
        matches!(kinds[6], Expect::Order { first, then } if first.kind.text == "signal" && then.kind.text == "enter")
    );
    assert!(matches!(kinds[7], Expect::At { tick: TickAt { tick: 130, .. }, .. }));
    assert!(matches!(kinds[8], Expect::Distance { bound: Bound::AtLeast, cells, .. } if *cells == 2.0));
    assert!(
        matches!(kinds[9], Expect::Distance { a, bound: Bound::AtMost, cells, .. } if a.text == "watch-12" && *cells == 3.5)
    );
    assert!(matches!(kinds[10], Expect::Golden { of: GoldenKind::Trace, file } if file.text == "golden/harbour.jsonl"));
    assert!(matches!(kinds[11], Expect::Never { subject: Subject::Event(p), .. } if p.kind.text == "script_error"));
    assert!(matches!(kinds[12], Expect::Never { subject: Subject::Condition(_), .. }));
    assert!(matches!(kinds[13], Expect::Always { .. }));
    assert!(matches!(kinds[14], Expect::Eventually { subject: Subject::Event(_), by: Some(_) }));
    assert!(matches!(kinds[15], Expect::Eventually { subject: Subject::Condition(_), by: None }));
    let Expect::At { condition, .. } = kinds[7] else { unreachable!() };
    assert_eq!(condition.condition().unwrap().facts(), ["GameTime", "PlayerArmed"]);
    assert_eq!(&src[t.expectations[0].span.clone()], "expect runner reaches warehouse by 150;");
    assert_eq!(check(&file, &harbour()), [], "every name is the scenario's");
}

#[test]
fn every_mistake_is_reported_once_with_its_place() {
    let src = "test \"a\" {\n  expect runer reaches kDok by 250;\n  never blockd;\n  expect (GameTme == 1) at 3;\n}\n";
    assert_eq!(
        codes(src),
        [
            (Code::UnknownEntity, "runer".to_owned()),
            (Code::UnknownTarget, "kDok".to_owned()),
            (Code::TickOutOfRun, "250".to_owned()),
            (Code::UnknownEventKind, "blockd".to_owned()),
            (Code::UndeclaredGlobal, "GameTme".to_owned()),
        ]
    );
    let (file, _) = parse(src);
    let hints: Vec<Option<String>> = check(&file.unwrap(), &harbour()).into_iter().map(|d| d.hint).collect();
    assert_eq!(hints[0].as_deref(), Some("did you mean `runner`?"));
    assert_eq!(hints[1].as_deref(), Some("did you mean `kDock`?"));
    assert_eq!(hints[3].as_deref(), Some("did you mean `blocked`?"));
    assert_eq!(hints[4].as_deref(), Some("did you mean `GameTime`?"));
}

#[test]
fn a_misspelt_word_is_named_and_the_rest_is_still_read() {
    let src = "test \"a\" {\n  expect runner reachs warehouse;\n  nevr blocked;\n  never script_eror;\n}\n";
    let (file, diagnostics) = parse(src);
    let found: Vec<(Code, &str, &str)> =
        diagnostics.iter().map(|d| (d.code, &src[d.span.clone()], d.label.as_str())).collect();
    assert_eq!(
        found,
        [(Code::Syntax, "reachs", "did you mean `reaches`?"), (Code::Syntax, "nevr", "did you mean `never`?")]
    );
    let file = file.unwrap();
    assert_eq!(file.tests[0].expectations.len(), 1, "the statement after the mistakes still parsed");
    assert_eq!(codes(src).last().unwrap(), &(Code::UnknownEventKind, "script_eror".to_owned()));
}

#[test]
fn conditions_read_facts_only() {
    let src = "test \"a\" { always (Distance(guard, runner) > 2); }";
    let (_, diagnostics) = parse(src);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].code, Code::NotACondition);
    assert!(diagnostics[0].hint.as_deref().unwrap().contains("`guard.health`"), "{:?}", diagnostics[0].hint);
}

#[test]
fn settings_tests_and_windows_are_held_to_their_rules() {
    let src = "scenario \"a.toml\";\nscenario \"b.toml\";\ntest \"t\" { seed 1; seed 2; ticks 0; never blocked; }\n\
               test \"t\" { remove guard; expect guard reaches kDock; }\ntest \"u\" { ticks 5; }\n\
               test \"v\" { expect 3 to 1 say; never blocked between 9 and 2; expect anyone says matching \"(a\"; }\n";
    let found: Vec<Code> = codes(src).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        found,
        [
            Code::TestSetting,   // the second scenario
            Code::TestSetting,   // seed twice
            Code::TestSetting,   // ticks 0
            Code::DuplicateTest, // "t" again
            Code::UnknownEntity, // guard is removed
            Code::EmptyTest,     // "u"
            Code::TestSetting,   // 3 to 1
            Code::TickOutOfRun,  // 9 and 2
            Code::BadPattern,
        ]
    );
}

#[test]
fn a_crowd_member_is_named_in_quotes() {
    assert_eq!(
        codes("test \"a\" { expect \"watch-12\" reaches (1, 2); expect \"watch-13\" reaches (1, 2); }").len(),
        1
    );
}

proptest::proptest! {
    /// Any text at all: parse and check return, never panic, and every span lies in the text.
    #[test]
    fn any_text_parses_without_panicking(src in "(test|expect|never|always|\"[a-z]*\"|\\(|\\)|[a-z]+|[0-9]+|;|\\{|\\}|\\.| |\n|by|between|and|at|least|most|of|before|reaches|says|keeps|from){0,40}") {
        let (file, mut diagnostics) = parse(&src);
        if let Some(file) = &file {
            diagnostics.extend(check(file, &harbour()));
        }
        for d in diagnostics {
            proptest::prop_assert!(d.span.end <= src.len() && d.span.start <= d.span.end, "{d:?}");
        }
    }
}
