//! Where events go: the kernel's user_events interface, or a capture file.
//!
//! A provider's backend is fixed when it opens: its `data_file` is either the
//! process's user_events_data descriptor or the capture descriptor
//! ([`capture::fd`]); [`Backend::of`] tells them apart by comparing the two
//! integers, for registration. The capture backend is reached through
//! [`capture_link`], so that static programs link it only if they use it.
//! Each backend numbers its registrations in its own range of write indexes (the kernel's from 0, capture's from
//! [`CAPTURE_INDEX_BASE`]), and neither descriptor ever changes once open,
//! so a write needs the tracepoint's write index alone: one unsigned compare
//! ([`Backend::of_index`]) both rejects an unregistered tracepoint and
//! chooses the kernel, which the write then reaches without loading the
//! provider or the capture state. No lock, no extra state in the caller's
//! structs. This module knows descriptors, names, indexes and status words,
//! not the provider and tracepoint state blocks.

pub mod capture;
pub mod capture_link;
mod capture_names;
pub mod user_events;

use core::ffi::{c_int, c_uint};
use core::sync::atomic::AtomicU32;

use libc::iovec;

use crate::diagnostics::{self, Failure};
use crate::lock::Guard;
use crate::tracepoint_name::Command;
use capture_link::capture;

/// The backend of an open provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    UserEvents,
    Capture,
}

/// The first write index of capture registrations (the interned name's
/// index plus this). The kernel's write indexes are below it: it numbers the
/// events registered on the process's one user_events_data descriptor from
/// 0, and [`Backend::register`] refuses one that would reach this.
pub const CAPTURE_INDEX_BASE: c_int = 1 << 30;

const _: () = assert!(capture_names::CAPACITY < (c_int::MAX - CAPTURE_INDEX_BASE) as usize);

impl Backend {
    /// The backend that owns descriptor `fd` (a provider's `data_file`), for
    /// registration; None for a descriptor the library did not open (-1, a
    /// zero-initialized provider's 0, a descriptor closed when the library
    /// was unloaded): nothing is ever registered on, or written to, it.
    #[inline(always)]
    pub fn of(fd: c_int) -> Option<Backend> {
        if fd < 0 {
            None
        } else if capture().is_some_and(|c| fd == (c.fd)()) {
            Some(Backend::Capture)
        } else if fd == user_events::fd() {
            Some(Backend::UserEvents)
        } else {
            None
        }
    }

    /// The backend that registered write index `index`, for writing; None
    /// for an unregistered tracepoint (index -1).
    #[inline(always)]
    pub fn of_index(index: c_int) -> Option<Backend> {
        // One unsigned compare: negative indexes are above every other.
        if (index as u32) < CAPTURE_INDEX_BASE as u32 {
            Some(Backend::UserEvents)
        } else if index >= 0 {
            Some(Backend::Capture)
        } else {
            None
        }
    }

    /// Registers `command` ("Name arg-spec", its name checked) and returns
    /// the write index, in this backend's range. The kernel updates
    /// `status_word` from then on (user_events only).
    pub fn register(
        self,
        guard: &mut Guard,
        fd: c_int,
        status_word: &AtomicU32,
        command: &Command<'_>,
        flags: c_uint,
    ) -> Result<c_int, c_int> {
        match self {
            Backend::UserEvents => {
                let index = user_events::register(fd, status_word, command.text, flags)?;
                if index >= CAPTURE_INDEX_BASE {
                    user_events::unregister(fd, status_word);
                    return Err(libc::E2BIG);
                }
                Ok(index)
            }
            Backend::Capture => match capture() {
                Some(c) => Ok((c.register)(guard, command.name)? + CAPTURE_INDEX_BASE),
                None => Err(libc::EBADF),
            },
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

/// The library's unload destructor: when the library is unloaded
/// (`dlclose` of it, or of a plugin that brought it in), it closes the
/// descriptors it opened (the capture file, user_events_data, which also
/// ends the kernel registrations made on it) and frees the capture names.
/// A library loaded and unloaded in a loop then grows nothing; before, each
/// round kept a descriptor and about 8 KiB. Nothing happens at process exit
/// (see [`crate::lock::for_unload`]).
extern "C" fn unload() {
    if let Some(mut guard) = crate::lock::for_unload() {
        if let Some(c) = capture() {
            (c.release)(&mut guard);
        }
        user_events::release(&mut guard);
    }
}

#[used]
#[link_section = ".fini_array"]
static UNLOAD: extern "C" fn() = unload;

/// The descriptor a provider opened now writes to: the capture file if one
/// is selected (programmatically or by TRACEPOINT_CAPTURE_FILE), else
/// user_events_data. Errors are errno values: ENOSYS when
/// TRACEPOINT_CAPTURE_FILE names a file but the program has no capture
/// backend (a static program that did not ask for it, see
/// [`capture_link`]), so that its events are not mistaken for captured
/// ones. The lock also guards the capture selection and the lazily opened
/// user_events_data descriptor (so `fork()` never copies them mid-update).
pub fn open_for_provider(guard: &mut Guard) -> Result<c_int, c_int> {
    match capture() {
        Some(c) => {
            if let Some(fd) = (c.selected_fd)(guard)? {
                capture_link::note_opened(c);
                return Ok(fd);
            }
        }
        None if capture_link::environment_path(guard).is_some() => {
            diagnostics::failed(Failure::ProviderOpen {
                errno: libc::ENOSYS,
                has_capture: false,
            });
            return Err(libc::ENOSYS);
        }
        None => {}
    }
    user_events::user_events_data(guard).inspect_err(|&errno| {
        diagnostics::failed(Failure::ProviderOpen {
            errno,
            has_capture: capture().is_some(),
        })
    })
}

/// Writes one event for the tracepoint registered as `index` (-1: not
/// registered, EBADF): no lock, no allocation, one writev. `vecs[0]` is the
/// backend's (overwritten); `pad`: the event has no bytes at all, so one
/// padding byte goes out (the kernel drops empty events; capture records
/// match).
///
/// # Safety
/// `vecs` must not be empty; the buffers of `vecs[1..]` must be readable for
/// their lengths.
#[inline(always)]
pub unsafe fn write(index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    match Backend::of_index(index) {
        // SAFETY: the caller guarantees `vecs` and the payload buffers.
        Some(Backend::UserEvents) => unsafe { user_events::write(index, vecs, pad) },
        // SAFETY: the caller guarantees `vecs` and the payload buffers.
        _ => unsafe { write_not_kernel(index, vecs, pad) },
    }
}

/// [`write`] for an index that is not the kernel's: capture mode's, or -1.
///
/// # Safety
/// As for [`write`].
#[inline(always)]
pub unsafe fn write_not_kernel(index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    if index >= CAPTURE_INDEX_BASE {
        // SAFETY: the caller guarantees the payload buffers.
        unsafe { capture_link::write(index - CAPTURE_INDEX_BASE, vecs, pad) }
    } else {
        libc::EBADF
    }
}
