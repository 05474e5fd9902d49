//! A growable array of plain values on the C heap (`malloc`, `realloc`,
//! `free`): the event builder's metadata and payload buffers and a provider's
//! table of event sets. Growth that fails (or whose size would overflow) is
//! an `ENOMEM` result, never an abort; nothing here can panic. Cleared
//! buffers keep their memory, so a warm builder allocates nothing.
//!
//! A buffer may start in storage it does not own (a builder's storage inside
//! its own allocation, or inside a C++ `ehd::EventBuilder`): it grows out of
//! it into `malloc`ed memory, and only frees what it allocated.

use core::ffi::c_int;
use core::mem::size_of;
use core::ptr::{self, NonNull};

use super::cursor::{copy, Cursor};

/// The fewest bytes a buffer grows to (small events never reallocate).
const MIN_BYTES: usize = 64;

/// A `Vec`-like array of `Copy` values in `malloc`ed (or borrowed) memory.
///
/// `#[repr(C)]`: the builder's two byte buffers are part of the builder
/// layout that `EventHeaderDynamic.h` appends to inline (its
/// `_ehd_builder_buffer`: `ptr`, `len`, `cap`, `owned`).
#[repr(C)]
pub struct Buffer<T: Copy> {
    /// Storage of `cap` values: `malloc`ed when `owned` is 1, else borrowed
    /// (or dangling when `cap` is 0).
    ptr: NonNull<T>,
    len: usize,
    cap: usize,
    /// 1 if `ptr` is this buffer's own `malloc`ed block, else 0.
    owned: u8,
}

impl<T: Copy> Buffer<T> {
    /// Values this type may hold: any `Copy` type that `malloc`'s alignment
    /// (16 on the supported targets) serves and that has a size.
    const FITS: () = assert!(
        size_of::<T>() > 0 && core::mem::align_of::<T>() <= 16,
        "Buffer holds sized values with alignment up to 16"
    );

    /// (offset, size) of the fields `ptr`, `len`, `cap` and `owned`.
    #[doc(hidden)]
    pub const LAYOUT: [(usize, usize); 4] = {
        use core::mem::offset_of;
        [
            (offset_of!(Self, ptr), size_of::<NonNull<T>>()),
            (offset_of!(Self, len), size_of::<usize>()),
            (offset_of!(Self, cap), size_of::<usize>()),
            (offset_of!(Self, owned), 1),
        ]
    };

    /// An empty buffer; allocates nothing.
    pub const fn new() -> Self {
        // Evaluated at compile time for every T used (no run-time check).
        let () = Self::FITS;
        Buffer {
            ptr: NonNull::dangling(),
            len: 0,
            cap: 0,
            owned: 0,
        }
    }

    /// An empty buffer whose first `cap` values live in `storage`, which it
    /// does not own: growing past them moves the values to `malloc`ed
    /// memory, and dropping it leaves `storage` alone.
    ///
    /// # Safety
    /// `storage` must be valid for writes of `cap` values, aligned for `T`,
    /// and outlive the buffer (or its growth out of it); nothing else may
    /// use it meanwhile.
    pub unsafe fn borrowing(storage: NonNull<T>, cap: usize) -> Self {
        let () = Self::FITS;
        Buffer {
            ptr: storage,
            len: 0,
            cap,
            owned: 0,
        }
    }

    /// An empty buffer with room for `capacity` values. ENOMEM if that
    /// cannot be allocated.
    pub fn with_capacity(capacity: usize) -> Result<Self, c_int> {
        let mut buf = Self::new();
        buf.reserve(capacity)?;
        Ok(buf)
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of values the buffer holds without growing.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// The values.
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialized values (dangling but aligned
        // when `len` is 0, which from_raw_parts allows).
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The values, writable.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as for as_slice, and `&mut self` makes the borrow unique.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// Address of the first value (dangling if the capacity is 0).
    pub fn as_ptr(&self) -> *const T {
        self.ptr.as_ptr()
    }

    /// Removes every value; keeps the memory.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Shortens the buffer to `len` values (no effect if it is not longer).
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
        }
    }

    /// Makes room for `additional` more values. ENOMEM if the size overflows
    /// or the memory cannot be had; the buffer is unchanged then.
    #[inline(always)]
    pub fn reserve(&mut self, additional: usize) -> Result<(), c_int> {
        let needed = self.len.checked_add(additional).ok_or(libc::ENOMEM)?;
        if needed <= self.cap {
            return Ok(());
        }
        self.grow(needed)
    }

    /// Reallocates to hold at least `needed` values: at least double the
    /// old capacity and at least MIN_BYTES, so appends cost amortized O(1).
    /// Borrowed storage is copied to the new block and left alone.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, needed: usize) -> Result<(), c_int> {
        let min = MIN_BYTES / size_of::<T>();
        let cap = needed.max(self.cap.saturating_mul(2)).max(min);
        let bytes = cap.checked_mul(size_of::<T>()).ok_or(libc::ENOMEM)?;
        let new = if self.owned != 0 {
            // SAFETY: this buffer's own malloc'ed block; on failure realloc
            // leaves it untouched (and we keep using it).
            unsafe { libc::realloc(self.ptr.as_ptr().cast(), bytes) }
        } else {
            // SAFETY: malloc has no preconditions.
            unsafe { libc::malloc(bytes) }
        };
        let ptr = NonNull::new(new.cast::<T>()).ok_or(libc::ENOMEM)?;
        if self.owned == 0 {
            // SAFETY: `len` values are initialized in the borrowed storage,
            // and the new block (another allocation) has room for `cap` >=
            // `len` of them.
            unsafe { ptr::copy_nonoverlapping(self.ptr.as_ptr(), ptr.as_ptr(), self.len) };
        }
        self.ptr = ptr;
        self.cap = cap;
        self.owned = 1;
        Ok(())
    }

    /// Whether the storage is this buffer's own `malloc`ed block.
    pub fn is_owned(&self) -> bool {
        self.owned != 0
    }

    /// Moves the values and the storage of `other` into this buffer if
    /// `other` owns its storage (this buffer's own block is freed first, and
    /// `other` is left empty, without storage); else copies the values.
    /// ENOMEM if this buffer cannot grow for the copy (it is cleared then).
    pub fn take_from(&mut self, other: &mut Self) -> Result<(), c_int> {
        if other.owned != 0 {
            *self = core::mem::take(other);
            return Ok(());
        }
        self.clear();
        self.extend_from_slice(other.as_slice())
    }

    /// Appends `items`. ENOMEM (nothing appended) if the buffer cannot grow.
    #[inline]
    pub fn extend_from_slice(&mut self, items: &[T]) -> Result<(), c_int> {
        self.reserve(items.len())?;
        // SAFETY: reserve made room for items.len() values after `len`, so
        // the end of the values is in the allocation.
        let end = unsafe { self.ptr.as_ptr().add(self.len) };
        // SAFETY: `end` has room for items.len() values; `items` is another
        // allocation (we hold `&mut self`, so it cannot borrow this buffer).
        unsafe { copy(items.as_ptr(), end, items.len()) };
        // Cannot wrap: reserve checked len + items.len() <= cap.
        self.len = self.len.wrapping_add(items.len());
        Ok(())
    }

    /// Appends one value.
    pub fn push(&mut self, item: T) -> Result<(), c_int> {
        self.extend_from_slice(core::slice::from_ref(&item))
    }

    /// Inserts `item` at `index` (at most `len`), moving the values after it
    /// up by one. EINVAL for an index past the end, ENOMEM if the buffer
    /// cannot grow.
    pub fn insert(&mut self, index: usize, item: T) -> Result<(), c_int> {
        if index > self.len {
            return Err(libc::EINVAL);
        }
        self.reserve(1)?;
        // SAFETY: index <= len and there is room for len + 1 values, so
        // source [index, len) and destination [index + 1, len + 1) are in
        // the allocation; ptr::copy allows the overlap.
        let at = unsafe { self.ptr.as_ptr().add(index) };
        // SAFETY: as above (index + 1 <= len + 1 <= cap).
        let next = unsafe { at.add(1) };
        // SAFETY: as above; ptr::copy allows the overlap.
        unsafe { ptr::copy(at, next, self.len.wrapping_sub(index)) };
        // SAFETY: `at` is in the allocation (index <= len < cap).
        unsafe { at.write(item) };
        self.len = self.len.wrapping_add(1);
        Ok(())
    }

    /// A copy with the same values (and at least the same capacity, so a
    /// copy of a warm builder is warm too). ENOMEM if it cannot be allocated.
    pub fn try_clone(&self) -> Result<Self, c_int> {
        let mut copy = Self::with_capacity(self.cap)?;
        copy.extend_from_slice(self.as_slice())?;
        Ok(copy)
    }
}

impl Buffer<u8> {
    /// Bytes that can be appended without growing.
    #[inline(always)]
    pub fn room(&self) -> usize {
        self.cap.wrapping_sub(self.len)
    }

    /// The end of the bytes, for a loop of appends that keeps the length
    /// and capacity in registers; [`Buffer::set_end`] takes its appends.
    #[inline(always)]
    pub fn end(&mut self) -> Cursor {
        Cursor::new(self.ptr.as_ptr(), self.len, self.cap)
    }

    /// Takes the appends made through `end`.
    ///
    /// # Safety
    /// `end` must come from this buffer's [`Buffer::end`], with no other
    /// change to the buffer since.
    #[inline(always)]
    pub unsafe fn set_end(&mut self, end: Cursor) {
        self.len = end.len();
    }

    /// Appends `bytes`, then the first `tail_len` (at most 8) bytes of
    /// `tail`, with one capacity check; the tail is stored as one 8-byte
    /// block. ENOMEM (nothing appended) if the buffer cannot grow.
    #[inline]
    pub fn extend_padded(
        &mut self,
        bytes: &[u8],
        tail: [u8; 8],
        tail_len: usize,
    ) -> Result<(), c_int> {
        self.reserve(bytes.len().saturating_add(8))?;
        // SAFETY: reserve made room for bytes.len() + 8 bytes after `len`.
        let end = unsafe { self.ptr.as_ptr().add(self.len) };
        // SAFETY: room for bytes.len() bytes at `end`; `bytes` is another
        // allocation (we hold `&mut self`).
        unsafe { copy(bytes.as_ptr(), end, bytes.len()) };
        // SAFETY: 8 more bytes of room after them (any alignment).
        let tail_at = unsafe { end.add(bytes.len()) };
        // SAFETY: as above.
        unsafe { tail_at.cast::<[u8; 8]>().write_unaligned(tail) };
        // Cannot wrap: reserve checked len + bytes.len() + 8 <= cap.
        self.len = self
            .len
            .wrapping_add(bytes.len())
            .wrapping_add(tail_len.min(8));
        Ok(())
    }

    /// Appends `head` (4 bytes), `bytes` and the first `tail_len` (at most
    /// 8) bytes of `tail`, with one capacity check: extend_padded with a
    /// fixed-size prefix.
    #[inline(always)]
    pub fn extend_framed(
        &mut self,
        head: [u8; 4],
        bytes: &[u8],
        tail: [u8; 8],
        tail_len: usize,
    ) -> Result<(), c_int> {
        self.reserve(bytes.len().saturating_add(12))?;
        // SAFETY: reserve made room for 4 + bytes.len() + 8 bytes after `len`.
        let at = unsafe { self.ptr.as_ptr().add(self.len) };
        // SAFETY: as above (any alignment).
        unsafe { at.cast::<[u8; 4]>().write_unaligned(head) };
        self.len = self.len.wrapping_add(4);
        self.extend_padded(bytes, tail, tail_len)
    }

    /// Appends a value of 1, 2, 4, 8 or 16 bytes as one fixed-size store
    /// (other sizes as extend_from_slice). ENOMEM if the buffer cannot grow.
    #[inline(always)]
    pub fn extend_small(&mut self, value: &[u8]) -> Result<(), c_int> {
        match value.len() {
            1 => self.store(<[u8; 1]>::try_from(value)),
            2 => self.store(<[u8; 2]>::try_from(value)),
            4 => self.store(<[u8; 4]>::try_from(value)),
            8 => self.store(<[u8; 8]>::try_from(value)),
            16 => self.store(<[u8; 16]>::try_from(value)),
            _ => self.extend_from_slice(value),
        }
    }

    #[inline(always)]
    fn store<const N: usize, E>(&mut self, value: Result<[u8; N], E>) -> Result<(), c_int> {
        let value = value.map_err(|_| libc::EINVAL)?;
        self.reserve(N)?;
        // SAFETY: reserve made room for N bytes after `len` (any alignment).
        let end = unsafe { self.ptr.as_ptr().add(self.len) };
        // SAFETY: as above.
        unsafe { end.cast::<[u8; N]>().write_unaligned(value) };
        self.len = self.len.wrapping_add(N);
        Ok(())
    }
}

impl<T: Copy> Default for Buffer<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> Drop for Buffer<T> {
    fn drop(&mut self) {
        if self.owned != 0 {
            // SAFETY: `ptr` is our malloc'ed block, freed once, here.
            unsafe { libc::free(self.ptr.as_ptr().cast()) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_keeps_values_and_reuses_memory() {
        let mut b = Buffer::<u8>::new();
        assert_eq!(b.capacity(), 0);
        b.extend_from_slice(b"hello").unwrap();
        assert_eq!(b.as_slice(), b"hello");
        assert_eq!(b.capacity(), MIN_BYTES);
        for i in 0..1000u32 {
            b.push(i as u8).unwrap();
        }
        assert_eq!(b.len(), 1005);
        assert_eq!(b.as_slice()[5..8], [0, 1, 2]);
        let cap = b.capacity();
        let addr = b.as_ptr();
        b.clear();
        assert!(b.is_empty());
        b.extend_from_slice(&[7; 1005]).unwrap();
        assert_eq!(
            (b.capacity(), b.as_ptr()),
            (cap, addr),
            "no reallocation once warm"
        );
    }

    #[test]
    fn insert_keeps_order() {
        let mut b = Buffer::<u64>::new();
        for v in [10, 30, 20] {
            let at = b.as_slice().partition_point(|&x| x < v);
            b.insert(at, v).unwrap();
        }
        b.insert(0, 5).unwrap();
        b.insert(4, 40).unwrap();
        assert_eq!(b.as_slice(), &[5, 10, 20, 30, 40]);
        assert_eq!(b.insert(9, 1), Err(libc::EINVAL));
    }

    #[test]
    fn impossible_sizes_are_enomem() {
        let mut b = Buffer::<u64>::new();
        b.push(1).unwrap();
        assert_eq!(b.reserve(usize::MAX), Err(libc::ENOMEM));
        assert_eq!(b.reserve(usize::MAX / 8), Err(libc::ENOMEM));
        // A real allocation failure (more than the address space).
        assert_eq!(b.reserve(usize::MAX / 16), Err(libc::ENOMEM));
        assert_eq!(b.as_slice(), &[1], "unchanged after a failed growth");
        assert!(Buffer::<u8>::with_capacity(usize::MAX).is_err());
    }

    #[test]
    fn short_copies_of_every_length() {
        let src: Vec<u8> = (1..=40).collect();
        for len in 0..=40 {
            let mut b = Buffer::<u8>::new();
            b.push(0xee).unwrap();
            b.extend_from_slice(&src[..len]).unwrap();
            b.push(0xff).unwrap();
            let mut want = vec![0xee];
            want.extend_from_slice(&src[..len]);
            want.push(0xff);
            assert_eq!(b.as_slice(), &want[..], "length {len}");
        }
    }

    #[test]
    fn padded_and_small_appends() {
        let mut b = Buffer::<u8>::new();
        b.extend_padded(b"name", [0, 1, 2, 3, 4, 5, 6, 7], 3)
            .unwrap();
        b.extend_small(&[9]).unwrap();
        b.extend_small(&[1, 2]).unwrap();
        b.extend_small(&[3, 4, 5]).unwrap();
        b.extend_small(&[6; 16]).unwrap();
        b.extend_padded(b"", [7; 8], 9).unwrap();
        let mut want = b"name\0\x01\x02\x09\x01\x02\x03\x04\x05".to_vec();
        want.extend_from_slice(&[6; 16]);
        want.extend_from_slice(&[7; 8]);
        assert_eq!(b.as_slice(), &want[..]);
    }

    #[test]
    fn clone_and_truncate() {
        let mut b = Buffer::<u16>::new();
        b.extend_from_slice(&[9, 9, 9]).unwrap();
        b.push(1).unwrap();
        let c = b.try_clone().unwrap();
        assert_eq!(c.as_slice(), &[9, 9, 9, 1]);
        assert!(c.capacity() >= b.capacity());
        b.truncate(2);
        b.truncate(10);
        assert_eq!(b.as_slice(), &[9, 9]);
        b.as_mut_slice()[0] = 4;
        assert_eq!(b.as_slice(), &[4, 9]);
    }
}
