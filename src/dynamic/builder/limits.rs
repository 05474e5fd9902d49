//! The limits the inline appends of `eventheader-dynamic.h` check: how far
//! a field may take each buffer's length without the library. One
//! comparison per buffer then stands for four checks: the capacity, the
//! event size limit, no latched error and the normal fields mode.
//!
//! The library sets them again whenever it has changed the builder (the
//! [`Edit`] guard every export that changes a builder takes, and the
//! constructors, copies and moves): each at most its buffer's capacity,
//! together within [`EVENT_SIZE_LIMIT`] (with the extension header), and
//! both 0 (so that every append comes to the library) while an error is
//! latched or the fields mode is not [`Parts::Both`].

use core::ops::{Deref, DerefMut};

use super::{Builder, Parts, EVENT_SIZE_LIMIT, EXT_HEADER};

/// Metadata (with its extension header) + payload bytes an event may have.
const TOTAL: usize = EVENT_SIZE_LIMIT + EXT_HEADER;

impl Builder {
    /// Sets the inline appends' limits from the builder's state. Out of
    /// line: every export that changes a builder calls it, and a copy in
    /// each would grow the library more than the call costs.
    #[inline(never)]
    pub(super) fn refresh_limits(&mut self) {
        let (meta_cap, data_cap) = (self.meta.capacity(), self.data.capacity());
        if (self.error != 0) | (self.parts != Parts::Both) {
            self.meta_limit = 0;
            self.data_limit = 0;
        } else if meta_cap.wrapping_add(data_cap) <= TOTAL {
            // Each capacity is at most isize::MAX bytes: the sum cannot wrap.
            self.meta_limit = meta_cap;
            self.data_limit = data_cap;
        } else {
            self.share_room(meta_cap, data_cap);
        }
    }

    /// The limits of buffers that grew large: they share the room the event
    /// has left, the metadata half of it, the payload the rest. An append
    /// past a limit that still fits the event goes to the library, which
    /// appends it and shares the room again.
    #[cold]
    #[inline(never)]
    fn share_room(&mut self, meta_cap: usize, data_cap: usize) {
        let used = self.meta.len().saturating_add(self.data.len());
        let half = TOTAL.saturating_sub(used) / 2;
        let meta = meta_cap
            .min(self.meta.len().saturating_add(half))
            .min(TOTAL);
        self.meta_limit = meta;
        self.data_limit = data_cap.min(TOTAL - meta);
    }
}

/// A builder being changed by an export: its limits are set again when the
/// change is done (dropped), before the caller's inline code appends again.
pub struct Edit<'a>(&'a mut Builder);

impl<'a> Edit<'a> {
    #[inline]
    pub fn new(builder: &'a mut Builder) -> Self {
        Edit(builder)
    }
}

impl Deref for Edit<'_> {
    type Target = Builder;

    #[inline]
    fn deref(&self) -> &Builder {
        self.0
    }
}

impl DerefMut for Edit<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Builder {
        self.0
    }
}

impl Drop for Edit<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.refresh_limits();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamic::builder::Name;

    /// Limits within the capacities and, together, within the event size
    /// limit; or both 0.
    fn check(b: &Builder) -> (usize, usize) {
        let (meta, data) = (b.meta_limit, b.data_limit);
        let (meta_cap, data_cap) = b.capacities();
        assert!(meta <= meta_cap && data <= data_cap, "{meta} {data}");
        assert!(meta + data <= TOTAL, "{meta} + {data}");
        (meta, data)
    }

    fn edited(b: &mut Builder, change: impl FnOnce(&mut Builder)) -> (usize, usize) {
        change(&mut Edit::new(b));
        check(b)
    }

    #[test]
    fn limits_are_the_capacities_of_a_builder_that_may_append() {
        let mut b = Builder::new(100, 200).unwrap();
        // Never reset: the error EINVAL keeps every append in the library.
        assert_eq!(check(&b), (0, 0));
        let (meta_cap, data_cap) = b.capacities();
        let limits = edited(&mut b, |b| {
            b.reset(Name::new(b"E").unwrap(), 0);
        });
        assert_eq!(limits, (meta_cap, data_cap));
    }

    #[test]
    fn an_error_or_another_mode_closes_the_limits() {
        let mut b = Builder::new(100, 200).unwrap();
        edited(&mut b, |b| {
            b.reset(Name::new(b"E").unwrap(), 0);
        });
        assert_eq!(
            edited(&mut b, |b| {
                b.set_parts(Parts::PayloadOnly);
            }),
            (0, 0)
        );
        assert_ne!(
            edited(&mut b, |b| {
                b.set_parts(Parts::Both);
            }),
            (0, 0)
        );
        assert_eq!(
            edited(&mut b, |b| {
                b.fail(libc::ENOMEM);
            }),
            (0, 0)
        );
    }

    #[test]
    fn large_buffers_share_the_size_limit() {
        let mut b = Builder::new(TOTAL, TOTAL).unwrap();
        edited(&mut b, |b| {
            b.reset(Name::new(b"E").unwrap(), 0);
        });
        let (meta, data) = check(&b);
        assert_eq!(meta + data, TOTAL);
        // Each buffer may take half of the room left.
        let meta_len = EXT_HEADER + 2;
        assert_eq!(meta, meta_len + (TOTAL - meta_len) / 2);
        let (meta, data) = edited(&mut b, |b| {
            b.raw_add_data(&[0; 1001]);
        });
        assert_eq!(meta, meta_len + (TOTAL - meta_len - 1001) / 2);
        assert_eq!(data, TOTAL - meta);
    }

    #[test]
    fn a_moved_builder_has_no_limits() {
        let mut from = Builder::new(100, 100).unwrap();
        edited(&mut from, |b| {
            b.reset(Name::new(b"E").unwrap(), 0);
        });
        let mut to = Builder::new(0, 0).unwrap();
        to.take_from(&mut from);
        assert_eq!(check(&from), (0, 0));
        assert_ne!(check(&to), (0, 0));
    }
}
