//! The zero-byte test of a NUL-terminated string's characters before the
//! write points a vector at them: up to 32 bytes inline, as the first and
//! the last word of their size class (the same bit trick as the builder's
//! copies in `cursor.rs`, here without a copy), longer ones by `memchr`.

use core::mem::size_of;

use crate::dynamic::cursor::Word;
use crate::dynamic::layers_below::find_nul;

/// Whether `bytes` hold a zero byte.
#[inline(always)]
pub fn has_zero(bytes: &[u8]) -> bool {
    let (src, len) = (bytes.as_ptr(), bytes.len());
    if len > 32 {
        return find_nul(bytes).is_some();
    }
    // Each arm's words are within the `len` bytes of the slice.
    if len < 4 {
        bytes.contains(&0)
    } else if len < 8 {
        // SAFETY: as above.
        unsafe { head_tail_zero::<u32>(src, len) }
    } else if len <= 16 {
        // SAFETY: as above.
        unsafe { head_tail_zero::<u64>(src, len) }
    } else {
        // SAFETY: as above.
        unsafe { zero_17_to_32(src, len) }
    }
}

/// Whether the first or the last W-sized word of `bytes` bytes at `src`
/// holds a zero byte.
///
/// # Safety
/// `bytes` readable at `src`; size_of::<W>() <= bytes <= 2 * size_of::<W>().
#[inline(always)]
unsafe fn head_tail_zero<W: Word>(src: *const u8, bytes: usize) -> bool {
    let tail_src = src.wrapping_add(bytes.wrapping_sub(size_of::<W>()));
    // SAFETY: the first word is within the bytes.
    let head = unsafe { src.cast::<W>().read_unaligned() };
    // SAFETY: the last word ends at `bytes` (at least one word).
    let tail = unsafe { tail_src.cast::<W>().read_unaligned() };
    head.has_zero_byte() || tail.has_zero_byte()
}

/// Whether 17 to 32 bytes at `src` hold a zero byte, as the first and the
/// last 16 (on x86_64 in SSE2 registers: the smaller byte of the two at
/// each place compared with zero).
///
/// # Safety
/// `bytes` (17 to 32) readable at `src`.
#[inline(always)]
unsafe fn zero_17_to_32(src: *const u8, bytes: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
            _mm_setzero_si128,
        };
        let tail_src = src.wrapping_add(bytes.wrapping_sub(16));
        // SAFETY: the first 16 bytes are within `bytes` (any alignment).
        let head = unsafe { _mm_loadu_si128(src.cast::<__m128i>()) };
        // SAFETY: the last 16 bytes end at `bytes` (at least 17).
        let tail = unsafe { _mm_loadu_si128(tail_src.cast::<__m128i>()) };
        // SAFETY: SSE2 is enabled on every x86_64 target.
        let min = unsafe { _mm_min_epu8(head, tail) };
        // SAFETY: as above.
        let zero = unsafe { _mm_setzero_si128() };
        // SAFETY: as above.
        let zeros = unsafe { _mm_cmpeq_epi8(min, zero) };
        // SAFETY: as above.
        unsafe { _mm_movemask_epi8(zeros) != 0 }
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: the caller's guarantee, for 16-byte words.
    unsafe {
        head_tail_zero::<u128>(src, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_tests_of_every_length_and_place() {
        for len in 0..=80 {
            for zero_at in (0..len).map(Some).chain([None]) {
                for fill in [1u8, 0x80, 0xff] {
                    let mut bytes = vec![fill; len];
                    if let Some(at) = zero_at {
                        bytes[at] = 0;
                    }
                    assert_eq!(
                        has_zero(&bytes),
                        zero_at.is_some(),
                        "{len} {zero_at:?} {fill}"
                    );
                }
            }
        }
    }
}
