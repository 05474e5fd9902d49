//! The distinct pointers of a caller's array of event or tracepoint
//! definition pointers (`eventheader_open_provider_with_events`,
//! `tracepoint_open_provider_with_tracepoints`), highest address first.
//!
//! The caller's array is only read: it may be in read-only memory (a
//! `const` array, or a linker section the loader made read-only after
//! relocation, as a non-PIE link or RELRO does). An array already in order
//! (either way) and without duplicates is used as it is; any other is copied
//! and the copy sorted: on the stack up to [`STACK_POINTERS`] entries, else
//! in memory from `malloc`, freed when the walk is done.
//!
//! Every function is `#[inline]`: each caller's instance is then compiled
//! into the caller's own module, so the static library's member of
//! `tracepoint_open_provider_with_tracepoints` (`tracepoint.o`) carries the
//! definitions' walk and no other member does (`cmake/split-archive.cmake`).

use core::ffi::c_int;
use core::mem::size_of;
use core::ptr;

/// Arrays up to this many pointers are sorted in a copy on the stack.
pub const STACK_POINTERS: usize = 64;

/// The distinct non-NULL pointers of a caller's array, highest address
/// first (see the module's comment). Frees its copy, if any, when dropped.
pub struct UniquePointers<'a, T> {
    items: &'a [*const T],
    view: View,
    stack: [*const T; STACK_POINTERS],
    /// The `malloc`ed copy of [`View::Heap`], else NULL.
    heap: *mut *const T,
}

/// Where the distinct pointers are.
#[derive(Clone, Copy)]
enum View {
    /// `items[..n]`: distinct and descending; only NULLs follow.
    Descending(usize),
    /// `items[start..]`: distinct and ascending; only NULLs precede.
    Ascending(usize),
    /// `stack[..n]`, descending.
    Stack(usize),
    /// `heap[..n]`, descending.
    Heap(usize),
}

impl<'a, T> UniquePointers<'a, T> {
    /// Reads `items` (never writes it); Err(ENOMEM) if it needed a copy
    /// larger than the stack's and `malloc` failed.
    #[inline]
    pub fn new(items: &'a [*const T]) -> Result<Self, c_int> {
        let mut this = UniquePointers {
            items,
            view: View::Descending(0),
            stack: [ptr::null(); STACK_POINTERS],
            heap: ptr::null_mut(),
        };
        if let Some(n) = descending_len(items) {
            this.view = View::Descending(n);
        } else if let Some(start) = ascending_start(items) {
            this.view = View::Ascending(start);
        } else if let Some(stack) = this.stack.get_mut(..items.len()) {
            for (slot, &item) in stack.iter_mut().zip(items) {
                *slot = item;
            }
            this.view = View::Stack(sort_unique_pointers(stack));
        } else {
            let bytes = items
                .len()
                .checked_mul(size_of::<*const T>())
                .ok_or(libc::ENOMEM)?;
            // SAFETY: malloc has no preconditions.
            let heap = unsafe { libc::malloc(bytes) }.cast::<*const T>();
            if heap.is_null() {
                return Err(libc::ENOMEM);
            }
            this.heap = heap;
            // SAFETY: `heap` is a fresh block of `items.len()` pointers
            // (malloc's alignment suits a pointer), apart from `items`, and
            // only this value uses it.
            let copy = unsafe {
                ptr::copy_nonoverlapping(items.as_ptr(), heap, items.len());
                core::slice::from_raw_parts_mut(heap, items.len())
            };
            this.view = View::Heap(sort_unique_pointers(copy));
        }
        Ok(this)
    }

    /// The number of distinct non-NULL pointers.
    #[inline]
    pub fn count(&self) -> usize {
        match self.view {
            View::Descending(n) | View::Stack(n) | View::Heap(n) => n,
            View::Ascending(start) => self.items.len().saturating_sub(start),
        }
    }

    /// The `i`th distinct non-NULL pointer, highest address first; None
    /// from [`Self::count`] on. (An index, not a callback: the caller's loop
    /// stays in the caller's module, which keeps the static library's
    /// members apart, see `cmake/split-archive.cmake`.)
    #[inline]
    pub fn get(&self, i: usize) -> Option<*const T> {
        if i >= self.count() {
            return None;
        }
        match self.view {
            View::Descending(_) => self.items.get(i).copied(),
            View::Ascending(_) => self
                .items
                .len()
                .checked_sub(i + 1)
                .and_then(|j| self.items.get(j).copied()),
            View::Stack(_) => self.stack.get(i).copied(),
            // SAFETY: `heap` holds `items.len()` >= n > i initialized
            // pointers (`new`), freed only by `drop`.
            View::Heap(_) => Some(unsafe { *self.heap.add(i) }),
        }
    }
}

impl<T> Drop for UniquePointers<'_, T> {
    #[inline]
    fn drop(&mut self) {
        if !self.heap.is_null() {
            // SAFETY: `heap` is this value's own malloc'ed block.
            unsafe { libc::free(self.heap.cast()) };
        }
    }
}

/// `Some(n)` if `items` is `n` distinct non-NULL pointers in descending
/// order followed by NULLs only.
#[inline]
fn descending_len<T>(items: &[*const T]) -> Option<usize> {
    let n = items.iter().take_while(|p| !p.is_null()).count();
    let front = items.get(..n)?;
    let strictly = front.iter().zip(front.iter().skip(1)).all(|(a, b)| a > b);
    (strictly && items.iter().skip(n).all(|p| p.is_null())).then_some(n)
}

/// `Some(start)` if `items` is NULLs only up to `start`, then distinct
/// pointers in ascending order (NULL is the lowest address: none follows).
#[inline]
fn ascending_start<T>(items: &[*const T]) -> Option<usize> {
    let start = items.iter().take_while(|p| p.is_null()).count();
    let back = items.get(start..)?;
    back.iter()
        .zip(back.iter().skip(1))
        .all(|(a, b)| a < b)
        .then_some(start)
}

/// Sorts a caller's array of pointers in place, removes duplicates, and moves
/// NULLs to the end. Returns the number of distinct non-NULL pointers, which
/// now occupy the front of the array. Does not allocate.
#[inline]
pub fn sort_unique_pointers<T>(items: &mut [*const T]) -> usize {
    // Descending order puts NULL (the lowest address) last.
    sort_descending(items);
    let mut kept = 0;
    for i in 0..items.len() {
        let Some(&item) = items.get(i) else {
            break;
        };
        if item.is_null() {
            break;
        }
        if kept == 0 || items.get(kept - 1) != Some(&item) {
            if let Some(slot) = items.get_mut(kept) {
                *slot = item;
            }
            kept += 1;
        }
    }
    for slot in items.iter_mut().skip(kept) {
        *slot = ptr::null();
    }
    kept
}

/// Sorts by address, highest first: a linear pass when the array is
/// already in order either way (arrays of definitions from a linker section
/// usually are), else heapsort (no allocation, no recursion). Every access
/// is checked with `get`, so no bounds-check panic can be compiled in.
#[inline]
fn sort_descending<T>(items: &mut [*const T]) {
    let pairs = || items.iter().zip(items.iter().skip(1));
    if pairs().all(|(a, b)| a >= b) {
        return;
    }
    if pairs().all(|(a, b)| a <= b) {
        items.reverse();
        return;
    }
    // A min-heap, whose minimum goes to the end each round.
    for start in (0..items.len() / 2).rev() {
        sift_down(items, start);
    }
    for end in (1..items.len()).rev() {
        swap(items, 0, end);
        if let Some(heap) = items.get_mut(..end) {
            sift_down(heap, 0);
        }
    }
}

/// Moves `heap[node]` down until neither child is smaller.
#[inline]
fn sift_down<T>(heap: &mut [*const T], mut node: usize) {
    loop {
        let left = node.wrapping_mul(2).wrapping_add(1);
        let Some(&left_value) = heap.get(left) else {
            return;
        };
        let (child, child_value) = match heap.get(left.wrapping_add(1)) {
            Some(&right_value) if right_value < left_value => (left + 1, right_value),
            _ => (left, left_value),
        };
        let Some(&value) = heap.get(node) else {
            return;
        };
        if value <= child_value {
            return;
        }
        swap(heap, node, child);
        node = child;
    }
}

/// Swaps two elements; out-of-range indexes leave the slice alone.
#[inline]
fn swap<T: Copy>(items: &mut [T], a: usize, b: usize) {
    if let (Some(&x), Some(&y)) = (items.get(a), items.get(b)) {
        if let Some(slot) = items.get_mut(a) {
            *slot = y;
        }
        if let Some(slot) = items.get_mut(b) {
            *slot = x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// What [`UniquePointers`] hands out, in order.
    fn walk(items: &[*const u8]) -> Vec<*const u8> {
        let unique = UniquePointers::new(items).expect("no allocation failure");
        let out: Vec<_> = (0..unique.count())
            .map(|i| unique.get(i).unwrap())
            .collect();
        assert_eq!(unique.get(unique.count()), None);
        out
    }

    #[test]
    fn unique_pointers_read_every_order_without_writing() {
        // Every shape (in order either way, with duplicates, scrambled,
        // with NULLs) and size (the stack copy and the malloc'ed one),
        // against the standard library's sort; the input is compared
        // after the walk, so a write to it would show.
        let base = 0x1000usize;
        let mut seed = 7u32;
        for len in [0, 1, 2, 3, STACK_POINTERS, STACK_POINTERS + 1, 1000] {
            let ascending: Vec<*const u8> =
                (1..=len).map(|i| (base + 8 * i) as *const u8).collect();
            let descending: Vec<_> = ascending.iter().rev().copied().collect();
            let mut with_nulls = descending.clone();
            with_nulls.extend([ptr::null(), ptr::null()]);
            let mut nulls_first = vec![ptr::null(); 2];
            nulls_first.extend(ascending.iter().copied());
            let scrambled: Vec<_> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    match (seed >> 8) % 5 {
                        0 => ptr::null(),
                        r => {
                            (base + 8 * ((seed as usize >> 12) % (len + 1)) + r as usize)
                                as *const u8
                        }
                    }
                })
                .collect();
            for input in [ascending, descending, with_nulls, nulls_first, scrambled] {
                let before = input.clone();
                let got = walk(&input);
                assert_eq!(input, before, "len {len}: the input was written");
                let mut want: Vec<_> = input.iter().copied().filter(|p| !p.is_null()).collect();
                want.sort_by(|a, b| b.cmp(a));
                want.dedup();
                assert_eq!(got, want, "len {len}");
            }
        }
    }

    #[test]
    fn sort_unique_moves_nulls_last_and_drops_duplicates() {
        let a = 1u8;
        let b = 2u8;
        let c = 3u8;
        let (pa, pb, pc) = (&a as *const u8, &b as *const u8, &c as *const u8);
        let mut items = [pb, ptr::null(), pa, pb, pc, ptr::null(), pa, pa];
        let n = sort_unique_pointers(&mut items);
        assert_eq!(n, 3);
        let mut front = items[..3].to_vec();
        front.sort();
        let mut expected = vec![pa, pb, pc];
        expected.sort();
        assert_eq!(front, expected);
        assert!(items[3..].iter().all(|p| p.is_null()));
    }

    #[test]
    fn sort_descending_matches_a_reference_sort() {
        // Ascending, descending, and scrambled arrays of addresses (with
        // duplicates), against the standard library's sort.
        let base = 0x1000usize;
        let mut seed = 12345u32;
        for len in [0, 1, 2, 3, 7, 64, 1000] {
            let ascending: std::vec::Vec<*const u8> =
                (0..len).map(|i| (base + 8 * i) as *const u8).collect();
            let descending: std::vec::Vec<_> = ascending.iter().rev().copied().collect();
            let scrambled: std::vec::Vec<_> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (base + 8 * (seed as usize >> 8) % (len + 1)) as *const u8
                })
                .collect();
            for input in [ascending, descending, scrambled] {
                let mut ours = input.clone();
                sort_descending(&mut ours);
                let mut expected = input;
                expected.sort_by(|a, b| b.cmp(a));
                assert_eq!(ours, expected, "len {len}");
            }
        }
    }

    #[test]
    fn sort_unique_handles_empty_and_all_null() {
        let mut empty: [*const u8; 0] = [];
        assert_eq!(sort_unique_pointers(&mut empty), 0);
        let mut nulls = [ptr::null::<u8>(); 4];
        assert_eq!(sort_unique_pointers(&mut nulls), 0);
    }
}
