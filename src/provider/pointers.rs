//! The distinct pointers of a caller's array of event or tracepoint
//! definition pointers (`eventheader_open_provider_with_events`,
//! `tracepoint_open_provider_with_tracepoints`), in the array's order.
//!
//! The caller's array is only read: it may be in read-only memory (a
//! `const` array, or a linker section the loader made read-only after
//! relocation, as a non-PIE link or RELRO does). Nothing is copied or
//! allocated either: an entry counts when it is not NULL and no earlier
//! entry is the same pointer. An array whose non-NULL entries are in
//! strictly increasing or strictly decreasing address order (as a linker
//! section's usually are) has no repeats, and is walked in one pass; any
//! other is compared with what precedes each entry (quadratic, once per
//! open: an array of 1,000 entries in no order is half a million
//! comparisons).
//!
//! Every function is `#[inline]`: each caller's instance is then compiled
//! into the caller's own module, so the static library's member of
//! `tracepoint_open_provider_with_tracepoints` (`tracepoint.o`) carries the
//! definitions' walk and no other member does (`cmake/split-archive.cmake`).

/// The first occurrences of the non-NULL pointers of a caller's array (see
/// the module's comment).
pub struct UniquePointers<'a, T> {
    items: &'a [*const T],
    /// The non-NULL entries are strictly monotonic: none repeats.
    monotonic: bool,
}

impl<'a, T> UniquePointers<'a, T> {
    /// Reads `items` (never writes it).
    #[inline]
    pub fn new(items: &'a [*const T]) -> Self {
        UniquePointers {
            items,
            monotonic: strictly_monotonic(items),
        }
    }

    /// The number of entries, NULLs and repeats included.
    #[inline]
    pub fn entries(&self) -> usize {
        self.items.len()
    }

    /// The `i`th entry, unless it is NULL or an earlier entry is the same
    /// pointer. (An index, not a callback: the caller's loop stays in the
    /// caller's module, which keeps the static library's members apart, see
    /// `cmake/split-archive.cmake`.)
    #[inline]
    pub fn first_at(&self, i: usize) -> Option<*const T> {
        let item = *self.items.get(i)?;
        if item.is_null() {
            return None;
        }
        if !self.monotonic && self.items.get(..i)?.contains(&item) {
            return None;
        }
        Some(item)
    }
}

/// Whether the non-NULL entries of `items` are in strictly increasing or
/// strictly decreasing order.
#[inline]
fn strictly_monotonic<T>(items: &[*const T]) -> bool {
    let mut present = items.iter().filter(|p| !p.is_null());
    let Some(mut last) = present.next() else {
        return true;
    };
    // 0: no direction yet; 1: increasing; 2: decreasing.
    let mut direction = 0u8;
    for p in present {
        let step = if p > last {
            1
        } else if p < last {
            2
        } else {
            return false;
        };
        if direction == 0 {
            direction = step;
        } else if direction != step {
            return false;
        }
        last = p;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(items: &[*const u8]) -> Vec<*const u8> {
        let unique = UniquePointers::new(items);
        (0..unique.entries())
            .filter_map(|i| unique.first_at(i))
            .collect()
    }

    fn p(n: usize) -> *const u8 {
        n as *const u8
    }

    /// The first occurrence of each non-NULL pointer, in order, as a
    /// straightforward (allocating) implementation finds it.
    fn expected(items: &[*const u8]) -> Vec<*const u8> {
        let mut seen = Vec::new();
        for &item in items {
            if !item.is_null() && !seen.contains(&item) {
                seen.push(item);
            }
        }
        seen
    }

    #[test]
    fn ordered_arrays_are_walked_as_they_are() {
        let null = core::ptr::null();
        for items in [
            vec![p(3), p(2), p(1)],
            vec![p(1), p(2), p(3)],
            vec![null, p(1), null, p(2), p(3), null],
            vec![p(9), null, p(5), p(1)],
            vec![],
            vec![null, null],
            vec![p(7)],
        ] {
            assert!(strictly_monotonic(&items), "{items:?}");
            assert_eq!(walk(&items), expected(&items), "{items:?}");
        }
    }

    #[test]
    fn repeats_and_nulls_are_skipped_in_any_order() {
        let null = core::ptr::null();
        for items in [
            vec![p(2), p(1), null, p(3), p(2)],
            vec![p(1), p(1)],
            vec![p(1), p(3), p(2)],
            vec![p(3), p(1), p(2), p(3), p(1), null],
        ] {
            assert!(!strictly_monotonic(&items), "{items:?}");
            assert_eq!(walk(&items), expected(&items), "{items:?}");
        }
    }

    #[test]
    fn matches_a_straightforward_walk_on_random_arrays() {
        // A small linear congruential generator: deterministic, no crate.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % bound
        };
        for len in [0, 1, 2, 3, 64, 65, 1000] {
            for _ in 0..20 {
                let items: Vec<*const u8> = (0..len)
                    .map(|_| p(next(len as u64 / 2 + 2) as usize))
                    .collect();
                assert_eq!(walk(&items), expected(&items), "{items:?}");
            }
        }
    }
}
