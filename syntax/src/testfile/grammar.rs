//! The test files' grammar (chumsky over the shared lexer's tokens). A statement that does not
//! parse is skipped to its `;` and a test block to its `}`, so every mistake of a file is
//! reported in one go.

use chumsky::input::ValueInput;
use chumsky::prelude::*;

use super::{
    Bound, Cond, EventPattern, Expect, Expectation, GoldenKind, KEYWORDS, LineMatch, Literal, Setting, Subject, Target,
    Test, TestFile, Text, TickAt, Window,
};
use crate::ast::Name;
use crate::diagnostics::Diagnostic;
use crate::lexer::{Span, Token, unquote};
use crate::parser::{Extra, dotted, expr, ident, kw, semi};
use crate::tac::front_with;

fn range(s: SimpleSpan) -> Span {
    s.into_range()
}

/// One statement of a test block.
enum Stmt {
    Setting(Setting),
    Expect(Expectation),
    Error,
}

/// One item of the file.
enum Item {
    Scenario(Text),
    Test(Test),
    Error,
}

pub(super) fn parse(src: &str) -> (Option<TestFile>, Vec<Diagnostic>) {
    let (tree, mut diagnostics) = front_with(src, KEYWORDS, false, |tokens, eoi| {
        file().parse(tokens.map(eoi, |(t, s)| (t, s))).into_output_errors()
    });
    // A condition that parsed as an expression but reads more than facts (a call, arithmetic).
    if let Some(file) = &tree {
        for test in &file.tests {
            for e in &test.expectations {
                for cond in conditions(&e.kind) {
                    if let Err(d) = cond.condition() {
                        diagnostics.push(d);
                    }
                }
            }
        }
        diagnostics.sort_by_key(|d| d.span.start);
    }
    (tree, diagnostics)
}

/// The conditions an expectation holds.
pub(super) fn conditions(e: &Expect) -> Vec<&Cond> {
    match e {
        Expect::At { condition, .. } | Expect::Always { condition, .. } => vec![condition],
        Expect::Never { subject: Subject::Condition(c), .. }
        | Expect::Eventually { subject: Subject::Condition(c), .. } => {
            vec![c]
        }
        _ => Vec::new(),
    }
}

fn string<'t, 's: 't, I>() -> impl Parser<'t, I, Text, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Str(raw) => raw }
        .map_with(|raw: &str, e| Text { text: unquote(raw), span: range(e.span()) })
        .labelled("a string")
}

/// An entity: a name, or a quoted name for one that is not a word (`"watch-12"`).
fn who<'t, 's: 't, I>() -> impl Parser<'t, I, Name, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    choice((ident(), string().map(|t| Name { text: t.text, span: t.span }))).labelled("an entity")
}

fn count<'t, 's: 't, I>() -> impl Parser<'t, I, u64, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    // The lexer reads digits only, so a number is never negative.
    select! { Token::Int(n) => n.unsigned_abs() }.labelled("a whole number")
}

fn tick<'t, 's: 't, I>() -> impl Parser<'t, I, TickAt, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Int(n) => n.unsigned_abs() }
        .map_with(|tick, e| {
            let s: SimpleSpan = e.span();
            TickAt { tick, span: (s.start, s.end) }
        })
        .labelled("a tick")
}

fn number<'t, 's: 't, I>() -> impl Parser<'t, I, f64, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    #[expect(clippy::cast_precision_loss, reason = "a distance in cells is far below 2^52")]
    let n = select! { Token::Int(n) => n as f64, Token::Float(x) => x };
    n.labelled("a number")
}

fn target<'t, 's: 't, I>() -> impl Parser<'t, I, Target, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let coordinate = just(Token::Minus)
        .or_not()
        .then(select! { Token::Int(n) => n })
        .map(|(minus, n)| i32::try_from(if minus.is_some() { -n } else { n }).unwrap_or(i32::MAX));
    let cell = coordinate
        .clone()
        .then_ignore(just(Token::Comma))
        .then(coordinate)
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .map_with(|(x, y), e| Target::Cell([x, y], range(e.span())));
    choice((cell, ident().map(Target::Named))).labelled("a cell `(x, y)`, a place or a region")
}

/// `by T`, `between A and B`, `after A`, or nothing (every tick).
fn window<'t, 's: 't, I>() -> impl Parser<'t, I, Window, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    choice((
        kw("by").ignore_then(tick()).map(|t| Window { from: None, to: Some(t) }),
        kw("between")
            .ignore_then(tick())
            .then_ignore(just(Token::And))
            .then(tick())
            .map(|(a, b)| Window { from: Some(a), to: Some(b) }),
        kw("after").ignore_then(tick()).map(|t| Window { from: Some(t), to: None }),
    ))
    .or_not()
    .map(Option::unwrap_or_default)
}

/// `KIND ["text"] [of ENTITY]`.
fn pattern<'t, 's: 't, I>() -> impl Parser<'t, I, EventPattern, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    ident()
        .labelled("an event kind")
        .then(string().or_not())
        .then(kw("of").ignore_then(who()).or_not())
        .map_with(|((kind, text), entity), e| EventPattern { kind, text, entity, span: range(e.span()) })
}

fn cond<'t, 's: 't, I>() -> impl Parser<'t, I, Cond, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    expr()
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .map_with(|expr, e| Cond { expr, span: range(e.span()) })
        .labelled("a condition in brackets")
}

fn subject<'t, 's: 't, I>() -> impl Parser<'t, I, Subject, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    choice((cond().map(Subject::Condition), pattern().map(Subject::Event)))
}

/// What follows `expect`.
fn expectation<'t, 's: 't, I>() -> impl Parser<'t, I, Expect, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let reaches = who()
        .then_ignore(kw("reaches"))
        .then(target())
        .then(kw("by").ignore_then(tick()).or_not())
        .map(|((entity, target), by)| Expect::Reaches { entity, target, by });
    let line = choice((kw("matching").ignore_then(string()).map(LineMatch::Pattern), string().map(LineMatch::Exact)));
    let says = who().then_ignore(kw("says")).then(line).then(window()).map(|((speaker, line), window)| {
        let speaker = (!speaker.text.eq_ignore_ascii_case("anyone")).then_some(speaker);
        Expect::Says { speaker, line, window }
    });
    let distance = who()
        .then(choice((
            kw("keeps")
                .ignore_then(number())
                .then_ignore(kw("cells").or_not())
                .then_ignore(kw("from"))
                .map(|n| (Bound::AtLeast, n)),
            kw("stays")
                .ignore_then(kw("within"))
                .ignore_then(number())
                .then_ignore(kw("cells").or_not())
                .then_ignore(kw("of"))
                .map(|n| (Bound::AtMost, n)),
        )))
        .then(who())
        .then(window())
        .map(|(((a, (bound, cells)), b), window)| Expect::Distance { a, b, bound, cells, window });
    let golden = choice((kw("trace").to(GoldenKind::Trace), kw("narration").to(GoldenKind::Narration)))
        .then_ignore(kw("matches"))
        .then(string())
        .map(|(of, file)| Expect::Golden { of, file });
    let bounds = choice((
        kw("at").ignore_then(kw("least")).ignore_then(count()).map(|n| (Some(n), None)),
        kw("at").ignore_then(kw("most")).ignore_then(count()).map(|n| (None, Some(n))),
        kw("exactly").ignore_then(count()).map(|n| (Some(n), Some(n))),
        count().then_ignore(kw("to")).then(count()).map(|(a, b)| (Some(a), Some(b))),
    ));
    let counted = bounds.then(pattern()).then(window()).map(|(((min, max), event), window)| Expect::Count {
        min,
        max,
        event,
        window,
    });
    let at = cond().then_ignore(kw("at")).then(tick()).map(|(condition, tick)| Expect::At { condition, tick });
    let order = pattern().then_ignore(kw("before")).then(pattern()).map(|(first, then)| Expect::Order { first, then });
    // `expect trigger "kTrap" by 60;`: at least one such event.
    let happens =
        pattern().then(window()).map(|(event, window)| Expect::Count { min: Some(1), max: None, event, window });
    choice((golden, reaches, says, distance, counted, at, order, happens)).labelled("an expectation")
}

fn literal<'t, 's: 't, I>() -> impl Parser<'t, I, Literal, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let signed = just(Token::Minus)
        .or_not()
        .then(select! { Token::Int(n) => Literal::Int(n), Token::Float(x) => Literal::Float(x) })
        .map(|(minus, v)| match (minus.is_some(), v) {
            (true, Literal::Int(n)) => Literal::Int(-n),
            (true, Literal::Float(x)) => Literal::Float(-x),
            (_, v) => v,
        });
    choice((
        signed,
        select! {
            Token::Str(s) => Literal::Str(unquote(s)),
            Token::True => Literal::Bool(true),
            Token::False => Literal::Bool(false),
            Token::Ident(s) => Literal::Str(s.to_owned()),
        },
    ))
    .labelled("a value")
}

fn statement<'t, 's: 't, I>() -> impl Parser<'t, I, Stmt, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let setting = choice((
        kw("seed").ignore_then(count()).map_with(|n, e| Setting::Seed(n, range(e.span()))),
        kw("ticks").ignore_then(count()).map_with(|n, e| Setting::Ticks(n, range(e.span()))),
        kw("set")
            .ignore_then(dotted())
            .then_ignore(just(Token::Assign))
            .then(literal())
            .map_with(|(target, value), e| Setting::Set { target, value, span: range(e.span()) }),
        kw("start")
            .ignore_then(who())
            .then_ignore(kw("at"))
            .then(target())
            .map_with(|(entity, at), e| Setting::Start { entity, at, span: range(e.span()) }),
        kw("remove").ignore_then(who()).map_with(|entity, e| Setting::Remove { entity, span: range(e.span()) }),
    ))
    .then_ignore(semi())
    .map(Stmt::Setting);
    let expect = choice((
        kw("expect").ignore_then(expectation()),
        kw("never").ignore_then(subject()).then(window()).map(|(subject, window)| Expect::Never { subject, window }),
        kw("always").ignore_then(cond()).then(window()).map(|(condition, window)| Expect::Always { condition, window }),
        kw("eventually")
            .ignore_then(subject())
            .then(kw("by").ignore_then(tick()).or_not())
            .map(|(subject, by)| Expect::Eventually { subject, by }),
    ))
    .then_ignore(semi())
    .map_with(|kind, e| Stmt::Expect(Expectation { kind, span: range(e.span()) }));
    choice((setting, expect))
        .labelled("a setting or an expectation")
        // A broken statement runs to its `;` or to the `}` closing the test, so the statements
        // after it are still read. It always skips a token, so repetition makes progress.
        .recover_with(via_parser(
            none_of([Token::RBrace, Token::Semi])
                .repeated()
                .at_least(1)
                .then(just(Token::Semi).or_not())
                .map(|_| Stmt::Error),
        ))
        .boxed()
}

fn file<'t, 's: 't, I>() -> impl Parser<'t, I, TestFile, Extra<'t, 's>>
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let body = statement().repeated().collect::<Vec<Stmt>>().delimited_by(just(Token::LBrace), just(Token::RBrace));
    let test = kw("test").ignore_then(string()).then(body).map_with(|(name, stmts), e| {
        let mut test = Test { name, settings: Vec::new(), expectations: Vec::new(), span: range(e.span()) };
        for s in stmts {
            match s {
                Stmt::Setting(s) => test.settings.push(s),
                Stmt::Expect(x) => test.expectations.push(x),
                Stmt::Error => {}
            }
        }
        Item::Test(test)
    });
    let scenario = kw("scenario").ignore_then(string()).then_ignore(semi()).map(Item::Scenario);
    let item = choice((scenario, test))
        .labelled("`scenario \"…\";` or `test \"…\" { … }`")
        .recover_with(skip_then_retry_until(any().ignored(), end()))
        .recover_with(via_parser(any().map(|_| Item::Error)));
    item.repeated().collect::<Vec<Item>>().then_ignore(end()).map(|items| {
        let mut file = TestFile::default();
        for item in items {
            match item {
                // A second header is the checker's to report; the first one counts.
                Item::Scenario(s) => {
                    if file.scenario.is_none() {
                        file.scenario = Some(s);
                    } else {
                        file.more_scenarios.push(s);
                    }
                }
                Item::Test(t) => file.tests.push(t),
                Item::Error => {}
            }
        }
        file
    })
}
