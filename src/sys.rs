//! Small wrappers over libc for the syscall boundary.

use core::ffi::c_int;

/// The calling thread's errno, never 0 (a failed call that left errno unset
/// reports EIO).
pub(crate) fn errno() -> c_int {
    match std::io::Error::last_os_error().raw_os_error() {
        Some(e) if e > 0 => e,
        _ => libc::EIO,
    }
}
