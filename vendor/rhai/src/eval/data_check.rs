//! Data size checks during evaluation.
#![cfg(not(feature = "unchecked"))]

use super::GlobalRuntimeState;
use crate::types::dynamic::Union;
use crate::{Dynamic, Engine, Position, RhaiResultOf, ERR};
use std::borrow::Borrow;
#[cfg(feature = "no_std")]
use std::prelude::v1::*;

/// Calculate the sizes of an array and everything in it.
///
/// Sizes returned are `(` [`Array`][crate::Array], [`Map`][crate::Map] and [`String`] `)`.
///
/// TACTICA: walked with a stack on the heap, not one recursive call per level of nesting (a value
/// nested a hundred thousand levels deep overflowed the thread's stack).
///
/// # Panics
///
/// Panics if any interior data is shared (should never happen).
#[cfg(not(feature = "no_index"))]
#[inline]
pub fn calc_array_sizes(array: &crate::Array) -> (usize, usize, usize) {
    let mut sizes = (0, 0, 0);
    let mut pending: Vec<&Dynamic> = Vec::new();
    add_array(array, &mut sizes, &mut pending);
    walk(&mut sizes, &mut pending);
    sizes
}
/// Calculate the sizes of a map and everything in it (see [`calc_array_sizes`]).
///
/// Sizes returned are `(` [`Array`][crate::Array], [`Map`][crate::Map] and [`String`] `)`.
///
/// # Panics
///
/// Panics if any interior data is shared (should never happen).
#[cfg(not(feature = "no_object"))]
#[inline]
pub fn calc_map_sizes(map: &crate::Map) -> (usize, usize, usize) {
    let mut sizes = (0, 0, 0);
    let mut pending: Vec<&Dynamic> = Vec::new();
    add_map(map, &mut sizes, &mut pending);
    walk(&mut sizes, &mut pending);
    sizes
}

/// TACTICA: counts an array's elements and queues them.
#[cfg(not(feature = "no_index"))]
fn add_array<'a>(array: &'a crate::Array, sizes: &mut (usize, usize, usize), pending: &mut Vec<&'a Dynamic>) {
    sizes.0 += array.len();
    pending.extend(array.iter());
}

/// TACTICA: counts a map's entries and queues its values.
#[cfg(not(feature = "no_object"))]
fn add_map<'a>(map: &'a crate::Map, sizes: &mut (usize, usize, usize), pending: &mut Vec<&'a Dynamic>) {
    sizes.1 += map.len();
    pending.extend(map.values());
}

/// TACTICA: adds the sizes of everything queued (and of what it holds).
fn walk<'a>(sizes: &mut (usize, usize, usize), pending: &mut Vec<&'a Dynamic>) {
    while let Some(value) = pending.pop() {
        match value.0 {
            #[cfg(not(feature = "no_index"))]
            Union::Array(ref a, ..) => add_array(a, sizes, pending),
            #[cfg(not(feature = "no_index"))]
            Union::Blob(ref a, ..) => sizes.0 += 1 + a.len(),
            #[cfg(not(feature = "no_object"))]
            Union::Map(ref m, ..) => add_map(m, sizes, pending),
            Union::Str(ref s, ..) => sizes.2 += s.len(),
            #[cfg(not(feature = "no_closure"))]
            Union::Shared(..) => {
                unreachable!("shared values discovered within data")
            }
            _ => (),
        }
    }
}

/// Recursively calculate the sizes of a value.
///
/// Sizes returned are `(` [`Array`][crate::Array], [`Map`][crate::Map] and [`String`] `)`.
///
/// # Panics
///
/// Panics if any interior data is shared (should never happen).
#[inline]
pub fn calc_data_sizes(value: &Dynamic, _top: bool) -> (usize, usize, usize) {
    match value.0 {
        #[cfg(not(feature = "no_index"))]
        Union::Array(ref arr, ..) => calc_array_sizes(arr),
        #[cfg(not(feature = "no_index"))]
        Union::Blob(ref blob, ..) => (blob.len(), 0, 0),
        #[cfg(not(feature = "no_object"))]
        Union::Map(ref map, ..) => calc_map_sizes(map),
        Union::Str(ref s, ..) => (0, 0, s.len()),
        #[cfg(not(feature = "no_closure"))]
        Union::Shared(..) if _top => calc_data_sizes(&value.read_lock::<Dynamic>().unwrap(), true),
        #[cfg(not(feature = "no_closure"))]
        Union::Shared(..) => {
            unreachable!("shared values discovered within data: {}", value)
        }
        _ => (0, 0, 0),
    }
}

/// TACTICA: the sizes of a value itself, not of what it holds: an array's length, a map's number
/// of entries, a string's bytes.
fn shallow_sizes(value: &Dynamic) -> (usize, usize, usize) {
    match value.0 {
        #[cfg(not(feature = "no_index"))]
        Union::Array(ref arr, ..) => (arr.len(), 0, 0),
        #[cfg(not(feature = "no_index"))]
        Union::Blob(ref blob, ..) => (blob.len(), 0, 0),
        #[cfg(not(feature = "no_object"))]
        Union::Map(ref map, ..) => (0, map.len(), 0),
        Union::Str(ref s, ..) => (0, 0, s.len()),
        #[cfg(not(feature = "no_closure"))]
        Union::Shared(..) => match value.read_lock::<Dynamic>() {
            Some(inner) => shallow_sizes(&inner),
            None => (0, 0, 0),
        },
        _ => (0, 0, 0),
    }
}

impl Engine {
    /// Raise an error if any data size exceeds limit.
    ///
    /// [`Position`] in [`EvalAltResult`][crate::EvalAltResult] is always [`NONE`][Position::NONE]
    /// and should be set afterwards.
    #[cfg(not(feature = "unchecked"))]
    pub(crate) fn throw_on_size(&self, (_arr, _map, s): (usize, usize, usize)) -> RhaiResultOf<()> {
        if self.limits.string_len.map_or(false, |max| s > max.get()) {
            return Err(
                ERR::ErrorDataTooLarge("Length of string".to_string(), Position::NONE).into(),
            );
        }

        #[cfg(not(feature = "no_index"))]
        if self.limits.array_size.map_or(false, |max| _arr > max.get()) {
            return Err(
                ERR::ErrorDataTooLarge("Size of array/BLOB".to_string(), Position::NONE).into(),
            );
        }

        #[cfg(not(feature = "no_object"))]
        if self.limits.map_size.map_or(false, |max| _map > max.get()) {
            return Err(
                ERR::ErrorDataTooLarge("Size of object map".to_string(), Position::NONE).into(),
            );
        }

        Ok(())
    }

    /// Check whether the size of a [`Dynamic`] is within limits.
    #[cfg(not(feature = "unchecked"))]
    #[inline]
    pub(crate) fn check_data_size<T: Borrow<Dynamic>>(
        &self,
        value: T,
        pos: Position,
    ) -> RhaiResultOf<T> {
        // If no data size limits, just return
        if !self.has_data_size_limit() {
            return Ok(value);
        }

        // TACTICA: by the value's own size only, when the embedder asks (`Limits::shallow_sizes`)
        let sizes = if self.limits.shallow_sizes {
            shallow_sizes(value.borrow())
        } else {
            calc_data_sizes(value.borrow(), true)
        };

        self.throw_on_size(sizes)
            .map_err(|err| err.fill_position(pos))?;

        Ok(value)
    }

    /// Raise an error if the size of a [`Dynamic`] is out of limits (if any).
    ///
    /// Not available under `unchecked`.
    #[cfg(not(feature = "unchecked"))]
    #[inline(always)]
    pub fn ensure_data_size_within_limits(&self, value: &Dynamic) -> RhaiResultOf<()> {
        self.check_data_size(value, Position::NONE).map(|_| ())
    }

    /// Check if the number of operations stay within limit.
    #[inline(always)]
    pub(crate) fn track_operation(
        &self,
        global: &mut GlobalRuntimeState,
        pos: Position,
    ) -> RhaiResultOf<()> {
        let mut num_ops = None;

        let mut num_operations = || {
            *num_ops.get_or_insert_with(|| {
                // Increment operations count
                #[cfg(atomic_ops_count)]
                return global
                    .num_operations
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
                    + 1;

                #[cfg(not(atomic_ops_count))]
                {
                    global.num_operations += 1;
                    return global.num_operations;
                }
            })
        };

        // Guard against too many operations
        #[cfg(not(feature = "unchecked"))]
        if self.max_operations() > 0 && num_operations() > self.max_operations() {
            return Err(ERR::ErrorTooManyOperations(pos).into());
        }

        if let Some(progress) = self.progress.as_ref() {
            return progress(num_operations())
                .map(|token| Err(ERR::ErrorTerminated(token, pos).into()))
                .unwrap_or(Ok(()));
        }

        Ok(())
    }
}
