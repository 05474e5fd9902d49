//! Small wrappers over libc for the syscall boundary.

use core::ffi::{c_char, c_int};

// The C library, named by the library itself: the libc crate links nothing
// when its `std` feature is on (it leaves that to the standard library,
// which this library does not use), so without this the shared library had
// no DT_NEEDED entry and no symbol versions, and `pthread_atfork` bound to
// glibc's compatibility symbol, whose handlers stay registered after
// `dlclose` (a later `fork()` then called into unmapped memory). Linked the
// normal way (`-lc`: libc.so.6 plus libc_nonshared.a), `pthread_atfork` and
// `atexit` are libc_nonshared's, which register under this object's
// `__dso_handle`, and glibc removes them when the object is unloaded.
#[link(name = "c")]
extern "C" {}

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
