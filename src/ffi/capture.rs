//! Our addition to the reference API: choosing a capture file from code.

use core::ffi::{c_char, c_int, CStr};

use super::{boundary, PANIC_ERRNO};
use crate::backend::capture;
use crate::lock::lock;

/// Selects a capture file: providers opened after this call write their
/// events to `path` (appending, one record per event; created with mode 0644)
/// instead of the kernel, and their tracepoints are always enabled.
/// Capture-mode providers that are already open follow the new file.
///
/// `path` NULL turns capture off for providers opened afterwards (providers
/// already open keep their backend until closed and reopened).
///
/// This overrides the TRACEPOINT_CAPTURE_FILE environment variable. Returns 0
/// or the errno of opening the file.
///
/// # Safety
/// `path` must be NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_set_capture_file(path: *const c_char) -> c_int {
    boundary(PANIC_ERRNO, || {
        // SAFETY: a non-NULL path is a C string per the contract.
        let path = (!path.is_null()).then(|| unsafe { CStr::from_ptr(path) });
        let _guard = lock();
        match capture::set_file(path) {
            Ok(()) => 0,
            Err(e) => e,
        }
    })
}
