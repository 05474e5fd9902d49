//! Where events go: the kernel's user_events interface, or a capture file.
//!
//! A provider's backend is fixed when it opens: its `data_file` is either the
//! process's user_events_data descriptor or the capture descriptor
//! ([`capture::fd`]). The write path tells them apart by comparing the two
//! integers, so it needs no lock and no extra state in the caller's structs.

pub mod capture;
pub mod user_events;

use core::ffi::{c_int, c_uint, CStr};
use std::sync::atomic::{AtomicU32, Ordering};

use libc::iovec;

use crate::abi::TracepointState;
use crate::provider;

/// The backend of an open provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    UserEvents,
    Capture,
}

impl Backend {
    /// The backend that owns descriptor `fd` (a provider's `data_file`).
    pub fn of(fd: c_int) -> Backend {
        if fd == capture::fd() {
            Backend::Capture
        } else {
            Backend::UserEvents
        }
    }

    /// The descriptor a provider opened now should use: the capture file if
    /// one is selected (programmatically or by TRACEPOINT_CAPTURE_FILE), else
    /// user_events_data. Errors are errno values. Called with the library
    /// lock held, which also guards the capture selection and the lazily
    /// opened user_events_data file (so `fork()` never copies them mid-update).
    pub fn open_data_file() -> Result<c_int, c_int> {
        match capture::selected_fd()? {
            Some(fd) => Ok(fd),
            None => user_events::data_file(),
        }
    }

    /// Registers "Name arg-spec" and returns the write index. The kernel
    /// updates `status_word` from then on (user_events only).
    pub fn register(
        self,
        fd: c_int,
        status_word: &AtomicU32,
        name_args: &CStr,
        flags: c_uint,
    ) -> Result<c_int, c_int> {
        match self {
            Backend::UserEvents => user_events::register(fd, status_word, name_args, flags),
            Backend::Capture => capture::register(name_args),
        }
    }

    /// Undoes [`Backend::register`].
    pub fn unregister(self, fd: c_int, status_word: &AtomicU32) {
        match self {
            Backend::UserEvents => user_events::unregister(fd, status_word),
            Backend::Capture => {}
        }
    }

    /// Whether a tracepoint registered with this backend is always enabled
    /// (no collector decides; every event is written).
    pub fn always_enabled(self) -> bool {
        self == Backend::Capture
    }
}

/// The write path of `tracepoint_write`: no lock, no allocation, one writev.
///
/// Returns 0, EBADF if the tracepoint is disabled or not connected to an open
/// provider, EINVAL for a count of 0, or the errno of the write (EINVAL
/// from the kernel for more than UIO_MAXIOV vectors).
///
/// # Safety
/// `tp` must be a valid tracepoint state; `vecs` must point to `count`
/// iovecs whose buffers (other than `vecs[0]`, which is overwritten) are
/// readable for their lengths.
pub unsafe fn write(tp: *const TracepointState, count: c_uint, vecs: *mut iovec) -> c_int {
    // SAFETY: per the function contract.
    unsafe {
        if provider::status_word(tp).load(Ordering::Relaxed) == 0 {
            return libc::EBADF;
        }
        if count == 0 {
            return libc::EINVAL;
        }
        let vecs = core::slice::from_raw_parts_mut(vecs, count as usize);
        // An event with no bytes at all gets one padding byte: the kernel
        // drops empty events.
        let pad = vecs[1..].iter().all(|v| v.iov_len == 0);
        write_enabled(tp, vecs, pad)
    }
}

/// [`write`] for a caller that has just seen the tracepoint enabled and has
/// at least one vector. (If a collector detaches in between, the kernel
/// answers EBADF itself.) `pad`: the event has no bytes at all (see
/// [`user_events::write`]).
///
/// # Safety
/// `tp` must be a valid tracepoint state; the buffers of `vecs[1..]` must be
/// readable for their lengths.
#[inline(always)]
pub unsafe fn write_enabled(tp: *const TracepointState, vecs: &mut [iovec], pad: bool) -> c_int {
    // SAFETY: per the function contract; every field read here is read atomically.
    unsafe {
        let provider = provider::provider_of(tp).load(Ordering::Acquire);
        if provider.is_null() {
            return libc::EBADF;
        }
        let fd = provider::data_file(provider).load(Ordering::Acquire);
        let index = provider::write_index(tp).load(Ordering::Relaxed);
        if fd < 0 || index < 0 {
            return libc::EBADF;
        }
        if fd == capture::fd() {
            capture::write(fd, index, vecs, pad)
        } else {
            user_events::write(fd, index, vecs, pad)
        }
    }
}
