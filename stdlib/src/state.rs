//! [`StateMut`]: an instance's state table lent to one script call.
//!
//! A failed call must leave the instance's state as it found it. Copying the table before every
//! call did that, but most calls never write it (a Lua or Rhai script whose `state` did not
//! change is not written back; host functions write it only to remember a said line, a print
//! count or a decision), so the copy was paid ten thousand times a tick for nothing. The lent
//! table is copied on its first write instead, into a slot the host owns and puts back if the
//! call fails.

use std::ops::{Deref, DerefMut};

use tactica_engine::value::Table;

/// An instance's state table, lent to one call. Reads go straight to the table; the first write
/// (any `&mut` use, through [`DerefMut`]) first copies the table into the host's `before` slot,
/// when the host gave one, so that a failed call can be undone.
pub struct StateMut<'a> {
    table: &'a mut Table,
    before: Option<&'a mut Option<Table>>,
}

impl<'a> StateMut<'a> {
    /// `table`, with its state before the call's first write kept in `before` (which must start
    /// `None`; it is left `None` when the call wrote nothing).
    pub fn journaled(table: &'a mut Table, before: &'a mut Option<Table>) -> Self {
        StateMut { table, before: Some(before) }
    }

    /// The same table and slot, for a shorter borrow (a context built from a call).
    pub fn reborrow(&mut self) -> StateMut<'_> {
        StateMut { table: &mut *self.table, before: self.before.as_deref_mut() }
    }
}

/// A table lent without a slot: nothing keeps its earlier state (tests, tools, and code that
/// runs its own undo).
impl<'a> From<&'a mut Table> for StateMut<'a> {
    fn from(table: &'a mut Table) -> Self {
        StateMut { table, before: None }
    }
}

impl Deref for StateMut<'_> {
    type Target = Table;

    fn deref(&self) -> &Table {
        self.table
    }
}

impl DerefMut for StateMut<'_> {
    fn deref_mut(&mut self) -> &mut Table {
        if let Some(before) = self.before.as_deref_mut()
            && before.is_none()
        {
            *before = Some(self.table.clone());
        }
        self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactica_engine::value::Value;

    fn table() -> Table {
        Table::from([("count".to_owned(), Value::Int(1))])
    }

    #[test]
    fn reads_keep_no_copy_and_the_first_write_keeps_the_state_before_it() {
        let (mut t, mut before) = (table(), None);
        let mut s = StateMut::journaled(&mut t, &mut before);
        assert_eq!(s.get("count"), Some(&Value::Int(1)));
        assert_eq!(s.len(), 1);
        {
            let mut inner = s.reborrow();
            assert!(inner.contains_key("count"));
            inner.insert("count".to_owned(), Value::Int(2));
            inner.insert("more".to_owned(), Value::Int(3));
        }
        s.remove("more");
        assert_eq!(t.get("count"), Some(&Value::Int(2)));
        assert!(!t.contains_key("more"));
        // The copy is of the table before the first write, not before the last.
        assert_eq!(before, Some(table()));
    }

    #[test]
    fn a_call_that_only_reads_leaves_the_slot_empty() {
        let (mut t, mut before) = (table(), None);
        let s = StateMut::journaled(&mut t, &mut before);
        assert!(s.iter().all(|(k, _)| k == "count"));
        assert_eq!(before, None);
    }

    #[test]
    fn a_table_lent_without_a_slot_is_written_in_place() {
        let mut t = table();
        let mut s = StateMut::from(&mut t);
        s.clear();
        assert!(t.is_empty());
    }
}
