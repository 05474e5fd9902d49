//! Where events go: the kernel's user_events interface, or a capture file.
//!
//! A provider's backend is fixed when it opens: its `data_file` is either the
//! process's user_events_data descriptor or the capture descriptor
//! ([`capture::fd`]). [`Backend::of`] tells them apart by comparing the two
//! integers, so the write path needs no lock and no extra state in the
//! caller's structs. This module knows descriptors, names and status words,
//! not the provider and tracepoint state blocks.

pub mod capture;
mod capture_names;
pub mod user_events;

use core::ffi::{c_int, c_uint, CStr};
use core::sync::atomic::AtomicU32;

use libc::iovec;

use crate::lock::Guard;

/// The backend of an open provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    UserEvents,
    Capture,
}

impl Backend {
    /// The backend that owns descriptor `fd` (a provider's `data_file`):
    /// the one place that decides between capture and kernel.
    #[inline(always)]
    pub fn of(fd: c_int) -> Backend {
        if fd == capture::fd() {
            Backend::Capture
        } else {
            Backend::UserEvents
        }
    }

    /// Registers "Name arg-spec" and returns the write index. The kernel
    /// updates `status_word` from then on (user_events only).
    pub fn register(
        self,
        guard: &mut Guard,
        fd: c_int,
        status_word: &AtomicU32,
        name_args: &CStr,
        flags: c_uint,
    ) -> Result<c_int, c_int> {
        match self {
            Backend::UserEvents => user_events::register(fd, status_word, name_args, flags),
            Backend::Capture => capture::register(guard, name_args),
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

/// The descriptor a provider opened now writes to: the capture file if one
/// is selected (programmatically or by TRACEPOINT_CAPTURE_FILE), else
/// user_events_data. Errors are errno values. The lock also guards the
/// capture selection and the lazily opened user_events_data descriptor (so
/// `fork()` never copies them mid-update).
pub fn open_for_provider(guard: &mut Guard) -> Result<c_int, c_int> {
    match capture::selected_fd(guard)? {
        Some(fd) => Ok(fd),
        None => user_events::user_events_data(guard),
    }
}

/// Writes one event on `fd` for the tracepoint registered as `index`: no
/// lock, no allocation, one writev. `vecs[0]` is the backend's (overwritten);
/// `pad`: the event has no bytes at all, so one padding byte goes out (the
/// kernel drops empty events; capture records match).
///
/// # Safety
/// The buffers of `vecs[1..]` must be readable for their lengths.
#[inline(always)]
pub unsafe fn write(fd: c_int, index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    match Backend::of(fd) {
        // SAFETY: the caller guarantees the payload buffers.
        Backend::UserEvents => unsafe { user_events::write(fd, index, vecs, pad) },
        // SAFETY: the caller guarantees the payload buffers.
        Backend::Capture => unsafe { capture::write(fd, index, vecs, pad) },
    }
}
