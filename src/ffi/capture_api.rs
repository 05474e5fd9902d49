//! The exports of `tracepoint/tracepoint-capture.h`, our addition to the
//! reference API: choosing a capture file from code.

use core::ffi::{c_char, c_int};

use super::args::optional_c_str;
use crate::backend::capture;

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
    // SAFETY: `path` is NULL or a C string (this function's contract).
    let path = unsafe { optional_c_str(path) };
    match capture::select_file(path) {
        Ok(()) => 0,
        Err(e) => e,
    }
}
