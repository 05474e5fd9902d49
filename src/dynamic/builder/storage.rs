//! Where a builder's buffers live: its own allocations, storage it is given
//! (an `ehd::EventBuilder`'s inline storage), or one heap block with the
//! builder; and the copies and moves of an event between builders.

use core::ffi::c_int;
use core::ptr::NonNull;

use super::{Builder, Parts, BOXED_DATA_ROOM, BOXED_META_ROOM, EXT_HEADER};
use crate::dynamic::buffer::Buffer;
use crate::dynamic::heap;

impl Builder {
    /// A builder whose buffers start with room for `meta_capacity` and
    /// `data_capacity` bytes (they grow as needed). ENOMEM if that cannot be
    /// allocated.
    pub fn new(meta_capacity: usize, data_capacity: usize) -> Result<Builder, c_int> {
        let meta_capacity = meta_capacity.checked_add(EXT_HEADER).ok_or(libc::ENOMEM)?;
        Ok(Builder::over(
            Buffer::with_capacity(meta_capacity)?,
            Buffer::with_capacity(data_capacity)?,
        ))
    }

    /// A builder over the buffers `meta` and `data` that was never reset:
    /// the error EINVAL, header values and inline limits 0, both parts.
    fn over(meta: Buffer<u8>, data: Buffer<u8>) -> Builder {
        Builder {
            meta,
            data,
            error: libc::EINVAL,
            id: 0,
            tag: 0,
            version: 0,
            opcode: 0,
            level: 0,
            parts: Parts::Both,
            meta_limit: 0,
            data_limit: 0,
        }
    }

    /// A builder whose buffers start in storage it does not own:
    /// `meta_room` bytes at `meta` and `data_room` bytes at `data` (a
    /// builder's own allocation, or an `ehd::EventBuilder`'s inline storage).
    /// They grow out of it into `malloc`ed memory as needed.
    ///
    /// # Safety
    /// Both areas must be writable for their sizes, not overlap, and outlive
    /// the builder; nothing else may use them meanwhile.
    pub unsafe fn in_storage(
        meta: NonNull<u8>,
        meta_room: usize,
        data: NonNull<u8>,
        data_room: usize,
    ) -> Builder {
        Builder::over(
            // SAFETY: the caller's guarantee.
            unsafe { Buffer::borrowing(meta, meta_room) },
            // SAFETY: the caller's guarantee.
            unsafe { Buffer::borrowing(data, data_room) },
        )
    }

    /// A new builder on the heap, its buffers in the same block: room for at
    /// least `meta_capacity` bytes of metadata (plus [`EXT_HEADER`]) and
    /// `data_capacity` bytes of payload, and for a typical event
    /// ([`BOXED_META_ROOM`], [`BOXED_DATA_ROOM`]): one allocation. Free it
    /// with [`Builder::free_boxed`]. ENOMEM if there is no memory.
    pub fn boxed(meta_capacity: usize, data_capacity: usize) -> Result<NonNull<Builder>, c_int> {
        let meta_room = meta_capacity
            .checked_add(EXT_HEADER + 12)
            .ok_or(libc::ENOMEM)?
            .max(BOXED_META_ROOM);
        let data_room = data_capacity.max(BOXED_DATA_ROOM);
        let tail = meta_room.checked_add(data_room).ok_or(libc::ENOMEM)?;
        heap::alloc_with_tail(tail, |storage| {
            // The payload's storage follows the metadata's within the tail.
            // SAFETY: `meta_room` bytes into the tail of `tail` bytes.
            let data = unsafe { storage.add(meta_room) };
            // SAFETY: two disjoint areas of the block's tail, which lives
            // (and is used by nothing else) as long as the builder in it.
            unsafe { Builder::in_storage(storage, meta_room, data, data_room) }
        })
    }

    /// A new builder on the heap (as [`Builder::boxed`]) holding a copy of
    /// `other`'s event. ENOMEM if there is no memory.
    pub fn boxed_copy(other: &Builder) -> Result<NonNull<Builder>, c_int> {
        let meta = other.meta.len().saturating_sub(EXT_HEADER);
        let mut copy = Self::boxed(meta, other.data.len())?;
        // SAFETY: just allocated, not shared.
        let b = unsafe { copy.as_mut() };
        // Cannot fail: the buffers have room for the copy.
        b.copy_from(other);
        Ok(copy)
    }

    /// Destroys a builder from [`Builder::boxed`] or [`Builder::boxed_copy`].
    ///
    /// # Safety
    /// `this` must come from one of them and not be used again.
    pub unsafe fn free_boxed(this: NonNull<Builder>) {
        // SAFETY: a block from heap::alloc_with_tail (the caller's
        // guarantee); the buffers' borrowed storage is in the block, freed
        // after they are dropped.
        unsafe { heap::free(this) }
    }

    /// Makes room for at least `meta` bytes of metadata (besides the
    /// extension header) and `data` bytes of payload. ENOMEM if it cannot.
    pub fn reserve(&mut self, meta: usize, data: usize) -> Result<(), c_int> {
        self.meta.reserve(meta.saturating_add(EXT_HEADER))?;
        self.data.reserve(data)
    }

    /// Makes this builder's event a copy of `other`'s (its fields, header
    /// values, mode and error). ENOMEM (latched, the event emptied) if a
    /// buffer cannot grow.
    pub fn copy_from(&mut self, other: &Builder) -> c_int {
        self.take_parts_of(other);
        self.meta.clear();
        self.data.clear();
        let copied = self
            .meta
            .extend_from_slice(other.meta.as_slice())
            .and_then(|()| self.data.extend_from_slice(other.data.as_slice()));
        let result = self.settle(copied);
        self.refresh_limits();
        result
    }

    /// Moves `other`'s event into this builder: its buffers if it owns them
    /// (it is left without storage, to grow anew), else a copy of their
    /// bytes. `other` is left with the error EINVAL, as if never reset.
    /// ENOMEM (latched, the event emptied) if a buffer cannot grow.
    pub fn take_from(&mut self, other: &mut Builder) -> c_int {
        self.take_parts_of(other);
        let moved = self
            .meta
            .take_from(&mut other.meta)
            .and_then(|()| self.data.take_from(&mut other.data));
        other.error = libc::EINVAL;
        other.refresh_limits();
        let result = self.settle(moved);
        self.refresh_limits();
        result
    }

    /// The header values, mode and error of `other`.
    fn take_parts_of(&mut self, other: &Builder) {
        self.error = other.error;
        self.set_header(other.header());
        self.parts = other.parts;
    }

    /// After copying buffers: 0 or the latched error; on failure both
    /// buffers are emptied (a half-copied event is never written).
    fn settle(&mut self, copied: Result<(), c_int>) -> c_int {
        match copied {
            Ok(()) => self.error,
            Err(e) => {
                self.meta.clear();
                self.data.clear();
                self.error = e;
                e
            }
        }
    }
}
