//! A fixed-capacity, NUL-terminated byte string on the stack or in a static:
//! tracepoint names, registration commands and file paths, built without
//! allocation.

use core::ffi::CStr;

/// Up to `N - 1` bytes and a NUL. Pushing more than fits fails and leaves
/// the text as it was.
pub struct CStrBuf<const N: usize> {
    /// Always holds a NUL at `len`.
    bytes: [u8; N],
    len: usize,
}

/// The text did not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

impl<const N: usize> Default for CStrBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> CStrBuf<N> {
    pub const fn new() -> Self {
        const { assert!(N > 0) };
        CStrBuf {
            bytes: [0; N],
            len: 0,
        }
    }

    /// Empties the text.
    pub fn clear(&mut self) {
        self.len = 0;
        if let Some(b) = self.bytes.first_mut() {
            *b = 0;
        }
    }

    /// Appends `more`.
    pub fn push(&mut self, more: &[u8]) -> Result<(), Full> {
        let end = self.len.checked_add(more.len()).ok_or(Full)?;
        // `end < N` keeps room for the NUL.
        if end >= N {
            return Err(Full);
        }
        let Some(dst) = self.bytes.get_mut(self.len..end) else {
            return Err(Full);
        };
        crate::bytes::copy(dst, more);
        self.len = end;
        if let Some(nul) = self.bytes.get_mut(end) {
            *nul = 0;
        }
        Ok(())
    }

    /// Appends one byte.
    pub fn push_byte(&mut self, byte: u8) -> Result<(), Full> {
        self.push(&[byte])
    }

    /// The number of bytes, without the NUL.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The text, without the NUL.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }

    /// The text as a C string (up to its first NUL, if a pushed byte was one).
    pub fn as_c_str(&self) -> &CStr {
        let with_nul = self.bytes.get(..=self.len).unwrap_or_default();
        crate::bytes::c_str_until_nul(with_nul)
    }
}
