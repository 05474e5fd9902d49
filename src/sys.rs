//! Small wrappers over libc for the syscall boundary.
#![deny(clippy::multiple_unsafe_ops_per_block)]

use core::ffi::{c_char, c_int};

extern "C" {
    /// glibc and musl: `getenv`, but NULL in setuid/setgid processes. (Not
    /// declared by the libc crate.)
    pub(crate) fn secure_getenv(name: *const c_char) -> *mut c_char;
}

/// The calling thread's errno, never 0 (a failed call that left errno unset
/// reports EIO).
pub(crate) fn errno() -> c_int {
    // SAFETY: __errno_location has no preconditions.
    let location = unsafe { libc::__errno_location() };
    // SAFETY: it returns the address of the calling thread's errno, valid for
    // the life of the thread.
    let e = unsafe { *location };
    if e > 0 {
        e
    } else {
        libc::EIO
    }
}
