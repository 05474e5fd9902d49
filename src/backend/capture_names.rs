//! The tracepoint names of the capture backend, interned: a name's index is
//! the "write index" its tracepoints get, and each capture record carries
//! the name. Names are added under the library lock and read by the write
//! path without it; they last until the library is unloaded ([`release`];
//! at process exit they are left to the kernel, like kernel registrations).
//!
//! Memory comes from libc's malloc: each name is one block
//! `[length: u8][name bytes][NUL]`, published in a table of lazily
//! allocated segments; an open-addressing hash index (under the lock) finds
//! a name that is already interned.

use core::ffi::c_int;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, Ordering};

use crate::lock::{Guard, Locked};

const SEGMENT_BITS: u32 = 10;
const SEGMENT_LEN: usize = 1 << SEGMENT_BITS;
const SEGMENTS: usize = 1024;
/// How many names can be interned.
pub const CAPACITY: usize = SEGMENTS * SEGMENT_LEN;

type Segment = [AtomicPtr<u8>; SEGMENT_LEN];

/// The name blocks by index; a segment and an entry, once stored, never
/// change.
static TABLE: [AtomicPtr<Segment>; SEGMENTS] = [const { AtomicPtr::new(null_mut()) }; SEGMENTS];

/// The interned name (with its NUL) of capture write index `index`.
#[inline]
pub fn get(index: c_int) -> Option<&'static [u8]> {
    let index = usize::try_from(index).ok()?;
    let segment = TABLE.get(index >> SEGMENT_BITS)?.load(Ordering::Acquire);
    // SAFETY: a non-NULL segment pointer was published (Release) after its
    // calloc'd, zeroed memory was complete, and segments are never freed.
    let segment = unsafe { segment.as_ref() }?;
    let block = segment[index & (SEGMENT_LEN - 1)].load(Ordering::Acquire);
    if block.is_null() {
        return None;
    }
    // SAFETY: a published block starts with its length byte, written before
    // the block was published (Release), and is never freed.
    let len = usize::from(unsafe { *block });
    // SAFETY: the name follows the length byte in the same block.
    let name = unsafe { block.add(1) };
    // SAFETY: the block holds the length byte, `len` name bytes and a NUL.
    Some(unsafe { core::slice::from_raw_parts(name, len + 1) })
}

/// Interns `name` (1 to 255 bytes, no NUL) and returns its index: the same
/// index for the same name. ENOSPC when CAPACITY names exist, ENOMEM when
/// malloc fails, E2BIG/EINVAL for a name out of range.
pub fn intern(guard: &mut Guard, name: &[u8]) -> Result<c_int, c_int> {
    let Ok(len) = u8::try_from(name.len()) else {
        return Err(libc::E2BIG);
    };
    if len == 0 {
        return Err(libc::EINVAL);
    }
    let hash = fnv1a(name);
    let index = INDEX.get(guard);
    if let Some(found) = index.find(name, hash) {
        return Ok(found);
    }
    let next = index.count;
    if next >= CAPACITY {
        return Err(libc::ENOSPC);
    }
    index.reserve_one()?;
    publish(next, name, len)?;
    index.insert(hash, next);
    // CAPACITY < c_int::MAX.
    Ok(next as c_int)
}

/// Stores a block for `name` at index `next` (its segment allocated first if
/// need be).
fn publish(next: usize, name: &[u8], len: u8) -> Result<(), c_int> {
    let slot = TABLE.get(next >> SEGMENT_BITS).ok_or(libc::ENOSPC)?;
    let mut segment = slot.load(Ordering::Acquire);
    if segment.is_null() {
        // SAFETY: calloc has no preconditions; zeroed memory is a valid
        // array of NULL AtomicPtrs.
        segment = unsafe { libc::calloc(1, core::mem::size_of::<Segment>()) }.cast();
        if segment.is_null() {
            return Err(libc::ENOMEM);
        }
        slot.store(segment, Ordering::Release);
    }
    // SAFETY: malloc has no preconditions.
    let block: *mut u8 = unsafe { libc::malloc(name.len() + 2) }.cast();
    if block.is_null() {
        return Err(libc::ENOMEM);
    }
    // SAFETY: the block is ours, name.len() + 2 writable bytes.
    let bytes = unsafe { core::slice::from_raw_parts_mut(block, name.len() + 2) };
    if let Some((first, rest)) = bytes.split_first_mut() {
        *first = len;
        if let Some((last, text)) = rest.split_last_mut() {
            *last = 0;
            crate::bytes::copy(text, name);
        }
    }
    // SAFETY: non-NULL, published above, never freed.
    let segment = unsafe { &*segment };
    segment[next & (SEGMENT_LEN - 1)].store(block, Ordering::Release);
    Ok(())
}

/// Frees every name block, segment and the hash index (the library is
/// being unloaded: nothing can write any more).
pub fn release(guard: &mut Guard) {
    for slot in &TABLE {
        let segment = slot.swap(null_mut(), Ordering::AcqRel);
        // SAFETY: a non-NULL segment was calloc'd by `publish`; it is no
        // longer published, so this is the only reference to it.
        let Some(entries) = (unsafe { segment.as_ref() }) else {
            continue;
        };
        for entry in entries {
            let block = entry.swap(null_mut(), Ordering::AcqRel);
            // SAFETY: a non-NULL block was malloc'd by `publish` and is no
            // longer published (free(NULL) is a no-op).
            unsafe { libc::free(block.cast()) };
        }
        // SAFETY: as above, freed once.
        unsafe { libc::free(segment.cast()) };
    }
    let index = core::mem::replace(
        INDEX.get(guard),
        NameIndex {
            slots: null_mut(),
            capacity: 0,
            count: 0,
        },
    );
    // SAFETY: the slots were malloc'd by `reserve_one` (or are NULL) and
    // nothing refers to them any more.
    unsafe { libc::free(index.slots.cast()) };
}

/// FNV-1a: a short, fast hash for short strings.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Open addressing over name indexes: each slot holds index + 1, or 0 when
/// empty. Capacity is 0 or a power of two, at most half full.
struct NameIndex {
    slots: *mut u32,
    capacity: usize,
    count: usize,
}

// SAFETY: the slots are a malloc'd array owned by this index, which is only
// reached under the library lock.
unsafe impl Send for NameIndex {}

static INDEX: Locked<NameIndex> = Locked::new(NameIndex {
    slots: null_mut(),
    capacity: 0,
    count: 0,
});

impl NameIndex {
    fn slots(&mut self) -> &mut [u32] {
        if self.slots.is_null() {
            return &mut [];
        }
        // SAFETY: `slots` is a malloc'd array of `capacity` u32 owned by
        // self, borrowed mutably here.
        unsafe { core::slice::from_raw_parts_mut(self.slots, self.capacity) }
    }

    /// The index of `name`, if interned.
    fn find(&mut self, name: &[u8], hash: u64) -> Option<c_int> {
        let slots = self.slots();
        let mask = slots.len().wrapping_sub(1);
        let mut at = hash as usize;
        for _ in 0..slots.len() {
            at &= mask;
            let index = slots.get(at).copied()?.checked_sub(1)?;
            let index = c_int::try_from(index).ok()?;
            if get(index)
                .and_then(|n| n.split_last())
                .map(|(_, text)| text)
                == Some(name)
            {
                return Some(index);
            }
            at = at.wrapping_add(1);
        }
        None
    }

    /// Puts `index` in the first free slot from `hash` on (there is one:
    /// the index is at most half full).
    fn insert(&mut self, hash: u64, index: usize) {
        let slots = self.slots();
        let mask = slots.len().wrapping_sub(1);
        let mut at = hash as usize;
        for _ in 0..slots.len() {
            at &= mask;
            if let Some(slot) = slots.get_mut(at) {
                if *slot == 0 {
                    // index < CAPACITY < u32::MAX.
                    *slot = index as u32 + 1;
                    break;
                }
            }
            at = at.wrapping_add(1);
        }
        self.count += 1;
    }

    /// Makes room for one more name: doubles the slots (re-inserting every
    /// name) when the index would be more than half full.
    fn reserve_one(&mut self) -> Result<(), c_int> {
        if (self.count + 1) * 2 <= self.capacity {
            return Ok(());
        }
        let capacity = (self.capacity * 2).max(64);
        // SAFETY: calloc has no preconditions; zeroed u32s are empty slots.
        let slots: *mut u32 = unsafe { libc::calloc(capacity, 4) }.cast();
        if slots.is_null() {
            return Err(libc::ENOMEM);
        }
        let old = core::mem::replace(
            self,
            NameIndex {
                slots,
                capacity,
                count: 0,
            },
        );
        for index in 0..old.count {
            if let Some((_, text)) = get(index as c_int).and_then(|n| n.split_last()) {
                self.insert(fnv1a(text), index);
            }
        }
        // SAFETY: the old slots were malloc'd (or are NULL) and nothing
        // refers to them any more.
        unsafe { libc::free(old.slots.cast()) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::lock;
    use std::format;

    #[test]
    fn names_are_interned_once_and_survive_growth() {
        let mut guard = lock();
        let mut first = std::vec::Vec::new();
        for i in 0..300 {
            let name = format!("InternTest_{i}");
            let index = intern(&mut guard, name.as_bytes()).unwrap();
            assert_eq!(get(index).unwrap(), format!("{name}\0").as_bytes());
            first.push(index);
        }
        for (i, &index) in first.iter().enumerate() {
            let name = format!("InternTest_{i}");
            assert_eq!(intern(&mut guard, name.as_bytes()), Ok(index));
        }
        assert_eq!(intern(&mut guard, b""), Err(libc::EINVAL));
        assert_eq!(intern(&mut guard, &[b'x'; 256]), Err(libc::E2BIG));
        assert!(intern(&mut guard, &[b'x'; 255]).is_ok());
        assert_eq!(get(-1), None);
        assert_eq!(get(c_int::MAX), None);
    }
}
