//! The checker's findings: every warning, and the first errors up to the front end's
//! [`MAX_DIAGNOSTICS`] with the rest counted in one [`Code::TooManyErrors`]. Once the list of
//! errors is full the checker stops walking (the script is refused anyway), so a file of a
//! hundred thousand mistakes costs no more than one of a hundred: no "did you mean" is computed,
//! and nothing is kept, for the ones not listed.

use tactica_syntax::limits::{MAX_DIAGNOSTICS, too_many};

use crate::diagnostics::Diagnostic;
use crate::lexer::Span;

pub(crate) struct Findings {
    listed: Vec<Diagnostic>,
    /// Errors the list may still take.
    room: usize,
    /// Errors not listed, and where the first of them stands.
    unlisted: usize,
    first_unlisted: Option<Span>,
    /// Where the walk stopped, once the list was full.
    stopped: Option<Span>,
}

impl Findings {
    /// Findings for a text whose front end already listed `errors` errors.
    pub(crate) fn after(errors: usize) -> Self {
        Findings {
            listed: Vec::new(),
            room: MAX_DIAGNOSTICS.saturating_sub(errors),
            unlisted: 0,
            first_unlisted: None,
            stopped: None,
        }
    }

    /// Whether no more error can be listed: the walk may stop.
    pub(crate) fn full(&self) -> bool {
        self.room == 0
    }

    /// The walk stopped at `span` because the list is full (the first place counts).
    pub(crate) fn stop(&mut self, span: &Span) {
        if self.stopped.is_none() {
            self.stopped = Some(span.clone());
        }
    }

    pub(crate) fn push(&mut self, d: Diagnostic) {
        if !d.is_error() {
            self.listed.push(d);
        } else if self.room > 0 {
            self.room -= 1;
            self.listed.push(d);
        } else {
            self.unlisted += 1;
            if self.first_unlisted.as_ref().is_none_or(|s| d.span.start < s.start) {
                self.first_unlisted = Some(d.span);
            }
        }
    }

    pub(crate) fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        for d in ds {
            self.push(d);
        }
    }

    pub(crate) fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.listed.iter()
    }

    /// The list, with the summary of what was not listed last. A walk that stopped early did so
    /// because a hundred errors were listed, here or by the front end, so the script is refused.
    pub(crate) fn finish(mut self) -> Vec<Diagnostic> {
        match (self.first_unlisted, self.stopped) {
            (Some(span), None) => self.listed.push(too_many(span, Some(self.unlisted))),
            (Some(span), Some(at)) => self.listed.push(too_many(span.start.min(at.start)..span.end, None)),
            (None, Some(at)) if self.listed.iter().any(Diagnostic::is_error) => self.listed.push(too_many(at, None)),
            _ => {}
        }
        self.listed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;

    fn error(at: usize) -> Diagnostic {
        Diagnostic::new(Code::UnknownName, at..at + 1, "x", "y")
    }

    #[test]
    fn errors_past_the_room_are_counted_and_warnings_always_listed() {
        let mut f = Findings::after(MAX_DIAGNOSTICS - 2);
        f.extend([error(5), error(3)]);
        assert!(f.full());
        f.push(error(9));
        f.push(error(7));
        f.push(Diagnostic::new(Code::DuplicateAttribute, 1..2, "w", "w"));
        let out = f.finish();
        let codes: Vec<Code> = out.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::UnknownName, Code::UnknownName, Code::DuplicateAttribute, Code::TooManyErrors]);
        assert_eq!((out[3].span.clone(), out[3].message.as_str()), (7..8, "2 more errors not listed"));
    }

    #[test]
    fn a_walk_that_stopped_says_where() {
        let mut f = Findings::after(MAX_DIAGNOSTICS - 1);
        f.push(error(5));
        f.stop(&(20..25));
        f.stop(&(30..35));
        let out = f.finish();
        assert_eq!(out.len(), 2);
        assert_eq!((out[1].code, out[1].span.clone()), (Code::TooManyErrors, 20..25));
        assert_eq!(out[1].message, format!("checking stopped after {MAX_DIAGNOSTICS} errors"));
        // The front end filled the list: the checker lists nothing and says nothing more.
        let mut f = Findings::after(MAX_DIAGNOSTICS);
        f.stop(&(1..2));
        assert_eq!(f.finish(), []);
    }
}
