//! Byte-slice operations the library needs, written so that no build of it
//! calls Rust's precompiled `core` for them.
//!
//! `core`'s `copy_from_slice`, `contains` and `CStr::from_bytes_until_nul`
//! are out-of-line functions of the precompiled `core` (with a panic path
//! for the length mismatch of `copy_from_slice`). The LTO build of the
//! shared library inlines and prunes them, but the static library is built
//! module by module, without LTO (an archive member per layer: see
//! `cmake/split-archive.cmake`), and its objects may reference nothing of
//! `core`. These are the same operations over `ptr::copy_nonoverlapping`
//! and the C library's `memchr`.

use core::ffi::{c_void, CStr};

/// Copies `src` into `dst`, which has the same length (a shorter or longer
/// `dst` gets nothing: callers size it first).
#[inline(always)]
pub fn copy(dst: &mut [u8], src: &[u8]) {
    if dst.len() == src.len() {
        // SAFETY: both are valid for `src.len()` bytes and, one borrowed
        // mutably and the other not, do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr(), src.len()) }
    }
}

/// The index of the first NUL of `bytes`.
#[inline]
pub fn find_nul(bytes: &[u8]) -> Option<usize> {
    // SAFETY: memchr reads at most `bytes.len()` bytes of `bytes`.
    let at = unsafe { libc::memchr(bytes.as_ptr().cast::<c_void>(), 0, bytes.len()) };
    if at.is_null() {
        None
    } else {
        Some((at as usize).wrapping_sub(bytes.as_ptr() as usize))
    }
}

/// Whether `bytes` has a NUL.
#[inline]
pub fn has_nul(bytes: &[u8]) -> bool {
    find_nul(bytes).is_some()
}

/// `bytes` up to and without its first NUL, as a C string; the empty
/// string if it has none.
#[inline]
pub fn c_str_until_nul(bytes: &[u8]) -> &CStr {
    match find_nul(bytes).and_then(|nul| bytes.get(..=nul)) {
        // SAFETY: the slice ends at its first NUL, its only one.
        Some(with_nul) => unsafe { CStr::from_bytes_with_nul_unchecked(with_nul) },
        None => c"",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_needs_equal_lengths() {
        let mut dst = [0u8; 3];
        copy(&mut dst, b"abc");
        assert_eq!(&dst, b"abc");
        copy(&mut dst, b"xy");
        assert_eq!(&dst, b"abc");
        copy(&mut dst[..0], b"");
    }

    #[test]
    fn nul_search() {
        assert_eq!(find_nul(b""), None);
        assert_eq!(find_nul(b"abc"), None);
        assert_eq!(find_nul(b"\0"), Some(0));
        assert_eq!(find_nul(b"ab\0c\0"), Some(2));
        assert!(has_nul(b"x\0"));
        assert!(!has_nul(b"x"));
        assert_eq!(c_str_until_nul(b"ab\0c\0"), c"ab");
        assert_eq!(c_str_until_nul(b"\0"), c"");
        assert_eq!(c_str_until_nul(b"abc"), c"");
        assert_eq!(c_str_until_nul(b""), c"");
    }
}
