//! The end of a byte buffer as a loop of appends sees it ([`Cursor`]:
//! the end and the end of the room in registers, no capacity check per
//! append), and the copies it makes: short ones (names, values, short
//! strings) inline as overlapping word moves instead of a `memcpy` call,
//! some of them testing for a zero byte with the words they move.

use core::mem::size_of;
use core::ptr;

use super::layers_below::find_nul;

/// A byte buffer's end (from `Buffer::end`, given back with
/// `Buffer::set_end`): appends within the room the caller checked.
#[derive(Clone, Copy)]
pub struct Cursor {
    start: *mut u8,
    end: *mut u8,
    /// Where the room ends: the storage's end, or before it (clamp_room).
    limit: *mut u8,
}

impl Cursor {
    /// The end of `len` bytes of storage of `cap` bytes at `ptr`.
    #[inline(always)]
    pub(super) fn new(ptr: *mut u8, len: usize, cap: usize) -> Cursor {
        Cursor {
            start: ptr,
            end: ptr.wrapping_add(len),
            limit: ptr.wrapping_add(cap),
        }
    }

    /// Bytes before the end.
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)] // the length of what is before it
    pub fn len(&self) -> usize {
        (self.end as usize).wrapping_sub(self.start as usize)
    }

    /// Bytes of the storage (from the start to the end of the room).
    #[inline(always)]
    pub fn capacity(&self) -> usize {
        (self.limit as usize).wrapping_sub(self.start as usize)
    }

    /// Bytes that can be appended.
    #[inline(always)]
    pub fn room(&self) -> usize {
        (self.limit as usize).wrapping_sub(self.end as usize)
    }

    /// Makes the room at most `room` bytes.
    #[inline(always)]
    pub fn clamp_room(&mut self, room: usize) {
        if room < self.room() {
            self.limit = self.end.wrapping_add(room);
        }
    }

    /// The end's address (written only within the room the appends'
    /// callers checked).
    #[inline(always)]
    fn at(&self) -> *mut u8 {
        self.end
    }

    /// Moves the end `n` bytes on (bytes written within the room).
    #[inline(always)]
    pub fn advance(&mut self, n: usize) {
        self.end = self.end.wrapping_add(n);
    }

    /// Appends `bytes`.
    ///
    /// # Safety
    /// `room()` must be at least `bytes.len()`.
    #[inline(always)]
    pub unsafe fn put(&mut self, bytes: &[u8]) {
        // SAFETY: room for bytes.len() bytes at the end (the caller's
        // guarantee); `bytes` is not the buffer's storage (the buffer is
        // borrowed mutably while its end is out).
        unsafe { copy(bytes.as_ptr(), self.at(), bytes.len()) };
        self.advance(bytes.len());
    }

    /// Appends a value of 1, 2, 4, 8 or 16 bytes as one or two fixed-size
    /// moves (any length up to 16, in fact).
    ///
    /// # Safety
    /// `room()` must be at least `value.len()`.
    #[inline(always)]
    pub unsafe fn put_value(&mut self, value: &[u8]) {
        let (src, len) = (value.as_ptr(), value.len());
        // Each arm moves the first and the last word of the value, which
        // are all of it (the same word for 1, 2, 4 and 8 bytes): room for
        // `len` bytes at the end (the caller's guarantee), `len` readable at
        // `src`.
        let dst = self.at();
        if len == 8 {
            // SAFETY: as above.
            unsafe { copy_head_tail::<u64>(src, dst, 8, false) };
        } else if len == 4 {
            // SAFETY: as above.
            unsafe { copy_head_tail::<u32>(src, dst, 4, false) };
        } else if len >= 8 {
            // SAFETY: as above.
            unsafe { copy_head_tail::<u64>(src, dst, len, false) };
        } else if len >= 4 {
            // SAFETY: as above.
            unsafe { copy_head_tail::<u32>(src, dst, len, false) };
        } else if len >= 2 {
            // SAFETY: as above.
            unsafe { copy_head_tail::<u16>(src, dst, len, false) };
        } else if len == 1 {
            // SAFETY: as above.
            unsafe { copy_1_to_3(src, dst, 1) };
        }
        self.advance(len);
    }

    /// Appends `bytes` unless they hold a zero byte; whether it did.
    ///
    /// # Safety
    /// `room()` must be at least `bytes.len()`.
    #[inline(always)]
    pub unsafe fn put_without_nul(&mut self, bytes: &[u8]) -> bool {
        // SAFETY: as for put.
        let zero = unsafe { copy_testing_zero(bytes.as_ptr(), self.at(), bytes.len()) };
        if !zero {
            self.advance(bytes.len());
        }
        !zero
    }

    /// Appends the bytes of `chars` before its first zero byte (all of them
    /// if none), then a zero byte.
    ///
    /// # Safety
    /// `room()` must be at least `chars.len() + 1`.
    #[inline(always)]
    pub unsafe fn put_zstring(&mut self, chars: &[u8]) {
        // All of `chars` fits: copy them, and if one is zero end there (the
        // bytes after it are past the end, not part of the buffer).
        // SAFETY: as for put.
        let zero = unsafe { copy_testing_zero(chars.as_ptr(), self.at(), chars.len()) };
        let len = if zero {
            find_nul(chars).unwrap_or(chars.len())
        } else {
            chars.len()
        };
        self.advance(len);
        // SAFETY: room for the zero byte after them (the caller's guarantee).
        unsafe { self.put_block([0], 1) };
    }

    /// Appends the first `len` (at most N) bytes of `block`, stored whole.
    ///
    /// # Safety
    /// `room()` must be at least N.
    #[inline(always)]
    pub unsafe fn put_block<const N: usize>(&mut self, block: [u8; N], len: usize) {
        // SAFETY: room for N bytes at the end (the caller's guarantee; any
        // alignment).
        unsafe { self.at().cast::<[u8; N]>().write_unaligned(block) };
        self.advance(len.min(N));
    }
}

/// copy_nonoverlapping, with the short copies of names and values (up to 32
/// bytes) done inline as two overlapping loads and stores instead of a
/// memcpy call.
///
/// # Safety
/// As for ptr::copy_nonoverlapping.
#[inline(always)]
pub(super) unsafe fn copy<T: Copy>(src: *const T, dst: *mut T, count: usize) {
    let bytes = count.wrapping_mul(size_of::<T>());
    if size_of::<T>() != 1 || bytes > 32 {
        // SAFETY: the caller's guarantee.
        unsafe { ptr::copy_nonoverlapping(src, dst, count) };
        return;
    }
    // SAFETY: `bytes` (at most 32) readable at `src`, writable at `dst`
    // (the caller's guarantee).
    unsafe { copy_short(src.cast::<u8>(), dst.cast::<u8>(), bytes, false) };
}

/// Copies `bytes` bytes from `src` to `dst` (as copy_nonoverlapping) and
/// tells whether they hold a zero byte: up to 32 bytes tested in the words
/// that move them, longer ones by memchr.
///
/// # Safety
/// As for ptr::copy_nonoverlapping.
#[inline(always)]
unsafe fn copy_testing_zero(src: *const u8, dst: *mut u8, bytes: usize) -> bool {
    if bytes > 32 {
        // SAFETY: the caller's guarantee.
        return unsafe { copy_long_testing_zero(src, dst, bytes) };
    }
    // SAFETY: `bytes` (at most 32) readable at `src`, writable at `dst`.
    unsafe { copy_short(src, dst, bytes, true) }
}

/// copy_testing_zero's longer copies: memchr, then memcpy (out of line: the
/// appends' loops stay small).
///
/// # Safety
/// As for ptr::copy_nonoverlapping.
#[inline(never)]
unsafe fn copy_long_testing_zero(src: *const u8, dst: *mut u8, bytes: usize) -> bool {
    // SAFETY: `bytes` readable at `src` (the caller's guarantee).
    let zero = find_nul(unsafe { core::slice::from_raw_parts(src, bytes) }).is_some();
    // SAFETY: the caller's guarantee.
    unsafe { ptr::copy_nonoverlapping(src, dst, bytes) };
    zero
}

/// Copies up to 32 bytes as the first and the last word of their size
/// class (which overlap unless the length is twice the word size); with
/// `test`, whether they hold a zero byte.
///
/// # Safety
/// `bytes` (at most 32) readable at `src` and writable at `dst`, not
/// overlapping.
#[inline(always)]
unsafe fn copy_short(src: *const u8, dst: *mut u8, bytes: usize, test: bool) -> bool {
    // Shortest first: names are mostly short. Each arm's `bytes` is within
    // its word pair's range (the caller's guarantee for the rest).
    if bytes < 4 {
        // SAFETY: as above.
        bytes != 0 && unsafe { copy_1_to_3(src, dst, bytes) }
    } else if bytes < 8 {
        // SAFETY: as above.
        unsafe { copy_head_tail::<u32>(src, dst, bytes, test) }
    } else if bytes <= 16 {
        // SAFETY: as above.
        unsafe { copy_head_tail::<u64>(src, dst, bytes, test) }
    } else {
        // SAFETY: as above.
        unsafe { copy_17_to_32(src, dst, bytes, test) }
    }
}

/// Copies 17 to 32 bytes as the first and the last 16; with `test`,
/// whether they hold a zero byte. On x86_64 in SSE2 registers (part of its
/// baseline): the zero test is a byte compare and a mask, where the word
/// trick on two 64-bit halves each would take about three times as many
/// instructions.
///
/// # Safety
/// `bytes` (17 to 32) readable at `src` and writable at `dst`, not
/// overlapping.
#[inline(always)]
unsafe fn copy_17_to_32(src: *const u8, dst: *mut u8, bytes: usize, test: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_setzero_si128, _mm_storeu_si128,
        };
        let last = bytes.wrapping_sub(16);
        let (src_tail, dst_tail) = (src.wrapping_add(last), dst.wrapping_add(last));
        // SAFETY: the first 16 bytes are within `bytes` (the caller's
        // guarantee; any alignment).
        let head = unsafe { _mm_loadu_si128(src.cast::<__m128i>()) };
        // SAFETY: the last 16 bytes end at `bytes` (at least 17).
        let tail = unsafe { _mm_loadu_si128(src_tail.cast::<__m128i>()) };
        // SAFETY: as for the source, at `dst`.
        unsafe { _mm_storeu_si128(dst.cast::<__m128i>(), head) };
        // SAFETY: as above.
        unsafe { _mm_storeu_si128(dst_tail.cast::<__m128i>(), tail) };
        if !test {
            return false;
        }
        // SAFETY: SSE2 is enabled on every x86_64 target.
        let zero = unsafe { _mm_setzero_si128() };
        // SAFETY: as above.
        let head_zeros = unsafe { _mm_cmpeq_epi8(head, zero) };
        // SAFETY: as above.
        let tail_zeros = unsafe { _mm_cmpeq_epi8(tail, zero) };
        // SAFETY: as above.
        let zeros = unsafe { _mm_or_si128(head_zeros, tail_zeros) };
        // SAFETY: as above.
        unsafe { _mm_movemask_epi8(zeros) != 0 }
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: the caller's guarantee, for 16-byte words.
    unsafe {
        copy_head_tail::<u128>(src, dst, bytes, test)
    }
}

/// A word the zero-byte test applies to (also the event definitions'
/// zero test of a string's characters, `def/zero.rs`).
pub(in crate::dynamic) trait Word: Copy {
    /// Whether a byte of it is zero (the classic bit trick: exact, since a
    /// borrow only runs through bytes above a zero one).
    fn has_zero_byte(self) -> bool;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            #[inline(always)]
            fn has_zero_byte(self) -> bool {
                const ONES: $t = <$t>::MAX / 0xff;
                const HIGHS: $t = ONES << 7;
                self.wrapping_sub(ONES) & !self & HIGHS != 0
            }
        }
    };
}
word!(u16);
word!(u32);
word!(u64);
word!(u128);

/// Copies `bytes` bytes (from size_of::<W>() to 2 * size_of::<W>()) as the
/// first and the last W-sized word; with `test`, whether one of them holds a
/// zero byte.
///
/// # Safety
/// `bytes` readable at `src` and writable at `dst`, not overlapping;
/// size_of::<W>() <= bytes <= 2 * size_of::<W>().
#[inline(always)]
unsafe fn copy_head_tail<W: Word>(src: *const u8, dst: *mut u8, bytes: usize, test: bool) -> bool {
    let last = bytes.wrapping_sub(size_of::<W>());
    // SAFETY: the first word is within the `bytes` bytes.
    let head = unsafe { src.cast::<W>().read_unaligned() };
    // SAFETY: the last word ends at `bytes`: `last` >= 0 by the contract.
    let tail_src = unsafe { src.add(last) };
    // SAFETY: as above.
    let tail = unsafe { tail_src.cast::<W>().read_unaligned() };
    // SAFETY: as for the source, at `dst`.
    unsafe { dst.cast::<W>().write_unaligned(head) };
    // SAFETY: as above.
    let tail_dst = unsafe { dst.add(last) };
    // SAFETY: as above.
    unsafe { tail_dst.cast::<W>().write_unaligned(tail) };
    test && (head.has_zero_byte() || tail.has_zero_byte())
}

/// Copies 1 to 3 bytes as the first, the middle and the last one (which
/// cover them all); whether one is zero.
///
/// # Safety
/// `bytes` (1 to 3) readable at `src` and writable at `dst`.
#[inline(always)]
unsafe fn copy_1_to_3(src: *const u8, dst: *mut u8, bytes: usize) -> bool {
    let (mid, last) = (bytes / 2, bytes.wrapping_sub(1));
    // Below: `mid` and `last` are below `bytes`, readable at
    // `src` and writable at `dst` (the caller's guarantee).
    let (src_mid, src_last) = (src.wrapping_add(mid), src.wrapping_add(last));
    let (dst_mid, dst_last) = (dst.wrapping_add(mid), dst.wrapping_add(last));
    // SAFETY: as above.
    let a = unsafe { src.read() };
    // SAFETY: as above.
    let b = unsafe { src_mid.read() };
    // SAFETY: as above.
    let c = unsafe { src_last.read() };
    // SAFETY: as above.
    unsafe { dst.write(a) };
    // SAFETY: as above.
    unsafe { dst_mid.write(b) };
    // SAFETY: as above.
    unsafe { dst_last.write(c) };
    a == 0 || b == 0 || c == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_and_zero_tests_of_every_length() {
        let src: Vec<u8> = (1..=80).collect();
        for len in 0..=80 {
            for zero_at in (0..len).map(Some).chain([None]) {
                let mut from = src[..len].to_vec();
                if let Some(at) = zero_at {
                    from[at] = 0;
                }
                let mut to = vec![0xee; len + 1];
                // SAFETY: `len` bytes each, distinct vectors.
                let zero = unsafe { copy_testing_zero(from.as_ptr(), to.as_mut_ptr(), len) };
                assert_eq!(&to[..len], &from[..], "length {len}");
                assert_eq!(to[len], 0xee, "length {len}: nothing past it");
                assert_eq!(zero, zero_at.is_some(), "length {len}, zero at {zero_at:?}");
                let mut plain = vec![0xee; len];
                // SAFETY: as above.
                unsafe { copy(from.as_ptr(), plain.as_mut_ptr(), len) };
                assert_eq!(plain, from);
            }
        }
    }

    #[test]
    fn zero_tests_are_not_fooled_by_high_bytes() {
        for len in 1..=32 {
            for at in 0..len {
                let mut from = vec![0x80u8; len];
                let mut to = vec![0; len];
                // SAFETY: `len` bytes each.
                assert!(!unsafe { copy_testing_zero(from.as_ptr(), to.as_mut_ptr(), len) });
                from[at] = 0;
                // SAFETY: as above.
                assert!(unsafe { copy_testing_zero(from.as_ptr(), to.as_mut_ptr(), len) });
                from[at] = 0x01;
                // SAFETY: as above.
                assert!(!unsafe { copy_testing_zero(from.as_ptr(), to.as_mut_ptr(), len) });
            }
        }
    }

    #[test]
    fn the_portable_16_byte_words_test_as_the_sse2_ones() {
        // What targets other than x86_64 run for 17 to 32 bytes.
        for len in 17..=32 {
            for zero_at in (0..len).map(Some).chain([None]) {
                let mut from: Vec<u8> = (1..=len as u8).collect();
                if let Some(at) = zero_at {
                    from[at] = 0;
                }
                let mut to = vec![0; len];
                // SAFETY: `len` bytes each, distinct vectors.
                let zero =
                    unsafe { copy_head_tail::<u128>(from.as_ptr(), to.as_mut_ptr(), len, true) };
                assert_eq!(to, from);
                assert_eq!(zero, zero_at.is_some(), "length {len}, zero at {zero_at:?}");
            }
        }
    }

    #[test]
    fn zstrings_end_at_their_first_zero() {
        let mut storage = [0xeeu8; 64];
        let mut end = Cursor::new(storage.as_mut_ptr(), 0, storage.len());
        // SAFETY: 64 bytes of room, far more than these take.
        unsafe { end.put_zstring(b"ab\0cd") };
        // SAFETY: as above.
        unsafe { end.put_zstring(b"xyz") };
        // SAFETY: as above.
        unsafe { end.put_zstring(b"") };
        // SAFETY: as above.
        assert!(!unsafe { end.put_without_nul(b"n\0") });
        // SAFETY: as above.
        assert!(unsafe { end.put_without_nul(b"name") });
        assert_eq!(end.len(), 3 + 4 + 1 + 4);
        assert_eq!(&storage[..12], b"ab\0xyz\0\0name");
    }
}
