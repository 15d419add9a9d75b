//! The parser: tokens to a [`Program`], with chumsky. It recovers from errors — a broken
//! statement is skipped to its `;`, a broken parenthesis to its `)`, a run of stray closers
//! (`}`, `END`, `;`) where an item should start is one broken item — so every error of a file is
//! reported in one go, and the tree still holds everything that did parse.
//!
//! Every recovery consumes what it skips, once: no position is parsed again for each error
//! before it, so a file of errors parses in time proportional to its length. Only the first
//! [`KEPT_WHOLE`] recovered errors are kept whole (chumsky's error holds every token it
//! expected, over a kilobyte); later ones keep only their place, since no more than
//! [`MAX_DIAGNOSTICS`](crate::limits::MAX_DIAGNOSTICS) are ever listed.
//!
//! The grammar accepts every script of reference 002b §4 as printed (§4.9 lists its syntax):
//! conditions in `( )`, `{ }` or bare; bodies as `BEGIN … END`, `begin … end`, `{ … }` or one
//! statement; `END` closing both blocks and classic `CREATURE=…;` records.

use chumsky::input::ValueInput;
use chumsky::inspector::RollbackState;
use chumsky::prelude::*;

use crate::ast::*;
use crate::lexer::{Token, unquote};

/// The parser's error type.
pub(crate) type ParseError<'t, 's> = Rich<'t, Token<'s>, SimpleSpan>;
pub(crate) type Extra<'t, 's> = extra::Full<ParseError<'t, 's>, Recovered, ()>;

/// The parser's state: how many errors it has recovered from and kept. It is rolled back with
/// the input when a branch that recovered is abandoned (its errors are dropped with it), so it
/// counts exactly the errors the parse will return.
pub(crate) type Recovered = RollbackState<usize>;

/// How many recovered errors are kept whole: enough that the first
/// [`MAX_DIAGNOSTICS`](crate::limits::MAX_DIAGNOSTICS) by position are whole after the front end
/// drops those that follow from an earlier one.
pub(crate) const KEPT_WHOLE: usize = 4 * crate::limits::MAX_DIAGNOSTICS;

/// Whether `e` is an error recovered past [`KEPT_WHOLE`]: only its place was kept.
pub(crate) fn is_unlisted(e: &ParseError<'_, '_>) -> bool {
    matches!(e.reason(), chumsky::error::RichReason::Custom(m) if m.is_empty())
}

/// `primary`, recovering with `fallback` where it fails: the error is kept whole while fewer
/// than [`KEPT_WHOLE`] are, else as its place alone (an empty custom message allocates nothing).
fn recovering<'t, 's: 't, I, O>(
    primary: impl Parser<'t, I, O, Extra<'t, 's>> + Clone,
    fallback: impl Parser<'t, I, O, Extra<'t, 's>> + Clone,
) -> impl Parser<'t, I, O, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    primary
        .map_err_with_state(
            |e: ParseError<'t, 's>, _, kept: &mut Recovered| {
                if **kept >= KEPT_WHOLE { Rich::custom(*e.span(), String::new()) } else { e }
            },
        )
        .recover_with(via_parser(fallback.map_with(|out, e| {
            **e.state() += 1;
            out
        })))
}

fn range(s: SimpleSpan) -> std::ops::Range<usize> {
    s.into_range()
}

/// A contextual keyword: an identifier spelled `word` in any case.
pub(crate) fn kw<'t, 's: 't, I>(word: &'static str) -> impl Parser<'t, I, (), Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    any()
        .filter(move |t: &Token<'s>| matches!(t, Token::Ident(s) if s.eq_ignore_ascii_case(word)))
        .ignored()
        .labelled(word)
}

pub(crate) fn ident<'t, 's: 't, I>() -> impl Parser<'t, I, Name, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Ident(s) => s }
        .map_with(|s: &str, e| Name { text: s.to_owned(), span: range(e.span()) })
        .labelled("a name")
}

/// A possibly dotted name: `creature.state`.
pub(crate) fn dotted<'t, 's: 't, I>() -> impl Parser<'t, I, Name, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    ident().separated_by(just(Token::Dot)).at_least(1).collect::<Vec<Name>>().map_with(|parts, e| Name {
        text: parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("."),
        span: range(e.span()),
    })
}

pub(crate) fn semi<'t, 's: 't, I>() -> impl Parser<'t, I, (), Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    just(Token::Semi).ignored().labelled("`;`")
}

/// Expressions, loosest first: `or`, `and`, `not`, comparisons (not chained), `+ -`, `* / %`,
/// unary `-`, atoms.
pub(crate) fn expr<'t, 's: 't, I>() -> impl Parser<'t, I, Expr, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    recursive(|expr| {
        let literal = select! {
            Token::Int(n) => ExprKind::Int(n),
            Token::Float(x) => ExprKind::Float(x),
            Token::Str(s) => ExprKind::Str(unquote(s)),
            Token::True => ExprKind::Bool(true),
            Token::False => ExprKind::Bool(false),
        }
        .map_with(|kind, e| Expr { kind, span: range(e.span()) });

        let args = expr
            .clone()
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<Expr>>()
            .delimited_by(just(Token::LParen), just(Token::RParen));

        let prove = kw("prove")
            .ignore_then(
                dotted()
                    .then_ignore(just(Token::Eq))
                    .then(expr.clone())
                    .delimited_by(just(Token::LParen), just(Token::RParen)),
            )
            .map_with(|(fact, value), e| Expr {
                kind: ExprKind::Prove { fact, value: Box::new(value) },
                span: range(e.span()),
            });

        let name_or_call = dotted().then(args.or_not()).map_with(|(name, args), e| Expr {
            kind: match args {
                Some(args) => ExprKind::Call { name, args },
                None => ExprKind::Name(name),
            },
            span: range(e.span()),
        });

        let paren = expr.clone().delimited_by(just(Token::LParen), just(Token::RParen));

        let atom = recovering(
            choice((literal, prove, name_or_call, paren)),
            nested_delimiters(
                Token::LParen,
                Token::RParen,
                [(Token::LBracket, Token::RBracket), (Token::LBrace, Token::RBrace)],
                |span| Expr { kind: ExprKind::Error, span: range(span) },
            ),
        )
        .labelled("an expression")
        .boxed();

        let neg = just(Token::Minus).map_with(|_, e| range(e.span())).repeated().foldr_with(atom, |op_span, rhs, e| {
            let _ = op_span;
            Expr { kind: ExprKind::Unary { op: UnOp::Neg, expr: Box::new(rhs) }, span: range(e.span()) }
        });

        let bin = |lhs: Expr, (op, rhs): (BinOp, Expr), span: SimpleSpan| Expr {
            kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) },
            span: range(span),
        };

        let product_op = choice((
            just(Token::Star).to(BinOp::Mul),
            just(Token::Slash).to(BinOp::Div),
            just(Token::Percent).to(BinOp::Rem),
        ));
        let product = neg.clone().foldl_with(product_op.then(neg).repeated(), move |a, b, e| bin(a, b, e.span()));

        let sum_op = choice((just(Token::Plus).to(BinOp::Add), just(Token::Minus).to(BinOp::Sub)));
        let sum = product.clone().foldl_with(sum_op.then(product).repeated(), move |a, b, e| bin(a, b, e.span()));

        let cmp_op = choice((
            just(Token::Eq).to(BinOp::Eq),
            just(Token::Ne).to(BinOp::Ne),
            just(Token::Le).to(BinOp::Le),
            just(Token::Ge).to(BinOp::Ge),
            just(Token::Lt).to(BinOp::Lt),
            just(Token::Gt).to(BinOp::Gt),
        ));
        let compare = sum.clone().then(cmp_op.then(sum).or_not()).map_with(move |(a, rest), e| match rest {
            Some(b) => bin(a, b, e.span()),
            None => a,
        });

        let not = just(Token::Not).repeated().foldr_with(compare, |_, rhs, e| Expr {
            kind: ExprKind::Unary { op: UnOp::Not, expr: Box::new(rhs) },
            span: range(e.span()),
        });

        let and = not
            .clone()
            .foldl_with(just(Token::And).to(BinOp::And).then(not).repeated(), move |a, b, e| bin(a, b, e.span()));
        and.clone()
            .foldl_with(just(Token::Or).to(BinOp::Or).then(and).repeated(), move |a, b, e| bin(a, b, e.span()))
            .boxed()
    })
}

/// Statements; `body` is a block or a single statement.
pub(crate) fn stmt<'t, 's: 't, I>() -> impl Parser<'t, I, Stmt, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    recursive(|stmt| {
        let block = block_of(stmt.clone());
        let body = block.clone().or(stmt.clone().map(|s| vec![s]));
        let cond = expr().delimited_by(just(Token::LBrace), just(Token::RBrace)).or(expr());

        let if_ = just(Token::If)
            .ignore_then(cond.clone())
            .then(body.clone())
            .then(just(Token::Else).ignore_then(body.clone()).or_not())
            .map(|((cond, then), otherwise)| StmtKind::If { cond, then, otherwise });
        let while_ = just(Token::While)
            .ignore_then(cond.clone())
            .then(body.clone())
            .map(|(cond, body)| StmtKind::While { cond, body });
        let repeat = just(Token::Repeat)
            .ignore_then(expr())
            .then(body.clone())
            .map(|(count, body)| StmtKind::Repeat { count, body });
        let let_ = just(Token::Let)
            .ignore_then(ident())
            .then_ignore(just(Token::Assign))
            .then(expr())
            .then_ignore(semi())
            .map(|(name, value)| StmtKind::Let { name, value });
        let say_one_of = kw("say")
            .then(kw("one"))
            .then(kw("of"))
            .ignore_then(
                expr()
                    .separated_by(just(Token::Comma))
                    .allow_trailing()
                    .collect::<Vec<Expr>>()
                    .delimited_by(just(Token::LBracket), just(Token::RBracket)),
            )
            .then_ignore(semi())
            .map(StmtKind::SayOneOf);
        // `signal ready;` (the sequence run), `signal team ready;`, `signal world ready;`.
        let scoped = choice((
            kw("team").ignore_then(ident()).map(|id| (SignalScope::Team, id)),
            kw("world").ignore_then(ident()).map(|id| (SignalScope::World, id)),
            ident().map(|id| (SignalScope::Squad, id)),
        ));
        let signal =
            kw("signal").ignore_then(scoped.clone()).then_ignore(semi()).map(|(s, id)| StmtKind::Signal(s, id));
        let wait = kw("wait").ignore_then(scoped).then_ignore(semi()).map(|(s, id)| StmtKind::Wait(s, id));
        let start = kw("start").ignore_then(ident()).then_ignore(semi()).map(StmtKind::Start);
        let return_ = kw("return").ignore_then(expr()).then_ignore(semi()).map(StmtKind::Return);
        let assign = dotted()
            .then_ignore(just(Token::Assign))
            .then(expr())
            .then_ignore(semi())
            .map(|(target, value)| StmtKind::Assign { target, value });
        let expr_stmt = expr().then_ignore(semi()).map(StmtKind::Expr);

        // A broken statement runs to its `;`, or up to the `}`/`END` closing its block, or to the
        // end of the file, so the rest is still parsed and checked (a file's later mistakes are
        // reported too). It always skips at least one token, so repetition makes progress.
        recovering(
            choice((if_, while_, repeat, let_, say_one_of, signal, wait, start, return_, assign, expr_stmt))
                .map_with(|kind, e| Stmt { kind, span: range(e.span()) }),
            none_of([Token::End, Token::RBrace, Token::Semi])
                .repeated()
                .at_least(1)
                .then(just(Token::Semi).or_not())
                .map(|_| Stmt { kind: StmtKind::Error, span: 0..0 }),
        )
        .labelled("a statement")
        .boxed()
    })
}

/// `BEGIN stmts END`, `begin stmts end` or `{ stmts }`.
fn block_of<'t, 's: 't, I>(
    stmt: impl Parser<'t, I, Stmt, Extra<'t, 's>> + Clone,
) -> impl Parser<'t, I, Vec<Stmt>, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let stmts = stmt.repeated().collect::<Vec<Stmt>>();
    choice((
        stmts.clone().delimited_by(just(Token::Begin), just(Token::End)),
        recovering(
            stmts.delimited_by(just(Token::LBrace), just(Token::RBrace)),
            nested_delimiters(
                Token::LBrace,
                Token::RBrace,
                [(Token::LParen, Token::RParen), (Token::LBracket, Token::RBracket)],
                |_| Vec::new(),
            ),
        ),
    ))
    .labelled("a block")
}

enum StateMember {
    Entry(Vec<Stmt>),
    Tick(Vec<Stmt>),
    Exit(Vec<Stmt>),
    Go(Transition),
}

enum RulesMember {
    Strategy(Name),
    Fact(Fact),
    Rule(Rule),
}

enum MachineMember {
    Initial(Name),
    State(State),
}

/// A whole file.
pub(crate) fn program<'t, 's: 't, I>() -> impl Parser<'t, I, Program, Extra<'t, 's>>
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let stmt = stmt();
    let block = block_of(stmt.clone());
    let body = block.clone().or(stmt.clone().map(|s| vec![s]));
    let cond = expr().delimited_by(just(Token::LBrace), just(Token::RBrace)).or(expr());

    let record = select! { Token::Ident(s) if s.eq_ignore_ascii_case("creature") => s }
        .map_with(|s: &str, e| Name { text: s.to_owned(), span: range(e.span()) })
        .then_ignore(just(Token::Assign))
        .then(expr())
        .then_ignore(semi())
        .then(stmt.clone().repeated().collect::<Vec<Stmt>>())
        .then_ignore(just(Token::End))
        .then_ignore(semi().or_not())
        .map(|((header, creature), body)| ItemKind::Record { header, creature, body });

    let creature =
        kw("creature").ignore_then(ident()).then(block.clone()).map(|(kind, body)| ItemKind::Creature { kind, body });

    let place = choice((
        expr()
            .then_ignore(just(Token::Comma))
            .then(expr())
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map(|(x, y)| PlaceRef::Cell(x, y)),
        ident().map(PlaceRef::Named),
        // `on enter "kHall"`: a place's name may be quoted, as scripts pass it to calls.
        select! { Token::Str(raw) => raw }
            .map_with(|raw: &str, e| PlaceRef::Named(Name { text: crate::lexer::unquote(raw), span: range(e.span()) })),
    ));
    let event = choice((kw("enter").ignore_then(place).map(Event::Enter), ident().map(Event::Named)));
    let handler = just(Token::Once)
        .or_not()
        .then(choice((
            just(Token::On).ignore_then(event),
            just(Token::When).ignore_then(cond.clone()).map(Event::When),
        )))
        .then(body.clone())
        .map(|((once, event), body)| ItemKind::Handler { once: once.is_some(), event, body });

    let transition = just(Token::When)
        .ignore_then(expr())
        .or_not()
        .then_ignore(just(Token::Arrow))
        .then(ident())
        .then_ignore(semi())
        .map_with(|(cond, target), e| StateMember::Go(Transition { cond, target, span: range(e.span()) }));
    let state_member = choice((
        kw("entry").ignore_then(block.clone()).map(StateMember::Entry),
        kw("tick").ignore_then(block.clone()).map(StateMember::Tick),
        kw("exit").ignore_then(block.clone()).map(StateMember::Exit),
        transition,
    ));
    let state = kw("state")
        .ignore_then(ident())
        .then(state_member.repeated().collect::<Vec<_>>().delimited_by(just(Token::LBrace), just(Token::RBrace)))
        .map(|(name, members)| {
            let mut s = State { name, entry: vec![], tick: vec![], exit: vec![], transitions: vec![] };
            for m in members {
                match m {
                    StateMember::Entry(b) => s.entry.extend(b),
                    StateMember::Tick(b) => s.tick.extend(b),
                    StateMember::Exit(b) => s.exit.extend(b),
                    StateMember::Go(t) => s.transitions.push(t),
                }
            }
            s
        });
    let machine = kw("machine")
        .ignore_then(ident())
        .then(
            choice((
                kw("initial").ignore_then(ident()).then_ignore(semi()).map(MachineMember::Initial),
                state.map(MachineMember::State),
            ))
            .repeated()
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LBrace), just(Token::RBrace)),
        )
        .map(|(name, members)| {
            let mut m = Machine { name, initial: None, states: vec![] };
            for member in members {
                match member {
                    MachineMember::Initial(n) => m.initial = Some(n),
                    MachineMember::State(s) => m.states.push(s),
                }
            }
            ItemKind::Machine(m)
        });

    let weight = kw("weight").ignore_then(
        just(Token::Minus)
            .or_not()
            .then(select! { Token::Int(n) => n })
            .map_with(|(neg, n), e| (if neg.is_some() { -n } else { n }, range(e.span()))),
    );
    let rule = kw("rule")
        .ignore_then(ident())
        .or_not()
        .then(weight.or_not())
        .then_ignore(just(Token::When))
        .then(expr())
        .then_ignore(just(Token::Then))
        .then(body.clone())
        .map_with(|(((name, weight), cond), then), e| {
            RulesMember::Rule(Rule { name, weight, cond, then, span: range(e.span()) })
        });
    let rules_member = choice((
        kw("strategy").ignore_then(ident()).then_ignore(semi()).map(RulesMember::Strategy),
        kw("fact")
            .ignore_then(ident())
            .then_ignore(just(Token::Assign))
            .then(expr())
            .then_ignore(semi())
            .map(|(name, init)| RulesMember::Fact(Fact { name, init })),
        rule,
    ));
    let rules = kw("rules")
        .ignore_then(ident())
        .then(rules_member.repeated().collect::<Vec<_>>().delimited_by(just(Token::LBrace), just(Token::RBrace)))
        .map(|(name, members)| {
            let mut r = Rules { name, strategy: None, facts: vec![], rules: vec![] };
            for m in members {
                match m {
                    RulesMember::Strategy(s) => r.strategy = Some(s),
                    RulesMember::Fact(f) => r.facts.push(f),
                    RulesMember::Rule(rule) => r.rules.push(rule),
                }
            }
            ItemKind::Rules(r)
        });

    let role = kw("role").ignore_then(ident()).then(block.clone()).map(|(name, body)| Role { name, body });
    let sequence = kw("sequence")
        .ignore_then(ident())
        .then(role.repeated().collect::<Vec<_>>().delimited_by(just(Token::LBrace), just(Token::RBrace)))
        .map(|(name, roles)| ItemKind::Sequence(Sequence { name, roles }));

    let kind_decl = kw("kind").ignore_then(ident()).then_ignore(semi()).map(ItemKind::Kind);
    let leaf = kw("leaf").ignore_then(ident()).then(block.clone()).map(|(name, body)| ItemKind::Leaf { name, body });
    // A statement that does not parse recovers as a statement, so an item fails only where no
    // statement can start: at a `}`, `END` or `;` with nothing open. The run of them is one
    // broken item, so the items around it are still checked; it is skipped once, not searched
    // again from each of its tokens (that made a file of `}` take time in its length squared).
    let item = recovering(
        choice((kind_decl, record, creature, handler, machine, rules, sequence, leaf, stmt.map(ItemKind::Stmt)))
            .map_with(|kind, e| Item { kind, span: range(e.span()) }),
        one_of([Token::RBrace, Token::End, Token::Semi]).repeated().at_least(1).ignored().or(any().ignored()).map_with(
            |(), e| Item {
                kind: ItemKind::Stmt(Stmt { kind: StmtKind::Error, span: range(e.span()) }),
                span: range(e.span()),
            },
        ),
    );

    item.repeated().collect::<Vec<Item>>().then_ignore(end()).map(|items| Program { items })
}
