//! The write of a definition with more payload vectors than the write
//! keeps on its stack ([`STACK_VECS`](super::STACK_VECS)): the vectors in
//! one `malloc`ed block, the payload gathered into another, one vector.

use core::ffi::c_int;
use core::mem::size_of;
use core::ptr::{self, NonNull};

use libc::iovec;

use super::{EventDef, Value, Vecs};
use crate::dynamic::layers_below::Activity;
use crate::dynamic::provider::EventSet;

impl EventDef {
    /// [`EventDef::write`] for a definition with more vectors than the
    /// stack holds: the vectors in one `malloc`ed block, the payload
    /// gathered in another.
    ///
    /// # Safety
    /// As for [`EventDef::write`].
    #[cold]
    #[inline(never)]
    pub(super) unsafe fn write_gathered(
        &self,
        values: &[Value],
        set: Option<&EventSet>,
        activity: Option<Activity<'_>>,
    ) -> c_int {
        // The header's 3 vectors too (not used here): the pushes start at 3.
        let vec_bytes = size_of::<iovec>() * (self.vecs + 3);
        // SAFETY: malloc has no preconditions; NULL or a block of the size,
        // aligned for iovec and u16 pairs.
        let block = unsafe { libc::malloc(vec_bytes + self.vecs * 2) };
        let Some(block) = NonNull::new(block.cast::<u8>()) else {
            return libc::ENOMEM;
        };
        let mut out = Vecs {
            vecs: block.as_ptr().cast::<iovec>(),
            // The counts after the vectors.
            counts: block.as_ptr().wrapping_add(vec_bytes).cast::<[u8; 2]>(),
            used: 3,
            counted: 0,
        };
        // SAFETY: room in the block for `self.vecs` vectors from index 3 and
        // as many counts; the caller's guarantee for the values.
        let err = match unsafe { self.fill(values, &mut out) } {
            Ok(len) => match self.fits(len) {
                // SAFETY: `out` holds `used - 3` filled vectors in the block.
                Ok(()) => unsafe { self.send_gathered(&out, len, set, activity) },
                Err(e) => e,
            },
            Err(e) => e,
        };
        // SAFETY: the block from malloc above, freed once.
        unsafe { libc::free(block.as_ptr().cast()) };
        err
    }

    /// Copies the payload vectors of `out` (from index 3) into one block
    /// of `len` bytes and sends the event with it.
    ///
    /// # Safety
    /// `out`'s vectors from index 3 to `used` filled, readable.
    unsafe fn send_gathered(
        &self,
        out: &Vecs,
        len: usize,
        set: Option<&EventSet>,
        activity: Option<Activity<'_>>,
    ) -> c_int {
        // SAFETY: malloc has no preconditions (1 byte for an empty payload).
        let data = unsafe { libc::malloc(len.max(1)) }.cast::<u8>();
        if data.is_null() {
            return libc::ENOMEM;
        }
        let mut at = 0usize;
        for i in 3..out.used {
            // SAFETY: a filled vector (the caller's guarantee).
            let v = unsafe { out.vecs.wrapping_add(i).read() };
            // SAFETY: the vectors' lengths sum to `len`; each is readable.
            unsafe {
                ptr::copy_nonoverlapping(v.iov_base.cast::<u8>(), data.wrapping_add(at), v.iov_len)
            };
            at += v.iov_len;
        }
        let empty = iovec {
            iov_base: ptr::null_mut(),
            iov_len: 0,
        };
        let mut vecs = [
            empty,
            empty,
            empty,
            iovec {
                iov_base: data.cast(),
                iov_len: len,
            },
        ];
        // SAFETY: the payload block is readable for `len` bytes.
        let err = unsafe { self.send(&mut vecs, set, activity) };
        // SAFETY: the block from malloc above, freed once.
        unsafe { libc::free(data.cast()) };
        err
    }
}
