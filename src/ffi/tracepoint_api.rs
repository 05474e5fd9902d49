//! The exports of `tracepoint/tracepoint.h`: register named user_events
//! tracepoints, keep their enable words, and write events as iovecs.

use core::ffi::{c_char, c_int, c_uint};
use core::sync::atomic::Ordering;

use libc::iovec;

use super::args::{non_null, optional_c_str, pointer_range, vecs_arg};
use crate::abi::{TracepointDefinition, TracepointProviderState, TracepointState};
use crate::provider;

// Hidden aliases of the four functions the EventHeader layer calls, which
// tell `crate::tracepoint_layer` whether the names resolve to these (see
// there). Weak and hidden as `crate::tracepoint_layer` references them;
// here, in the object (and archive member) of the functions themselves.
core::arch::global_asm!(
    ".weak _tracepoint_own_open_provider",
    ".hidden _tracepoint_own_open_provider",
    ".set _tracepoint_own_open_provider, {open_provider}",
    ".weak _tracepoint_own_close_provider",
    ".hidden _tracepoint_own_close_provider",
    ".set _tracepoint_own_close_provider, {close_provider}",
    ".weak _tracepoint_own_connect",
    ".hidden _tracepoint_own_connect",
    ".set _tracepoint_own_connect, {connect}",
    ".weak _tracepoint_own_write",
    ".hidden _tracepoint_own_write",
    ".set _tracepoint_own_write, {write}",
    open_provider = sym tracepoint_open_provider,
    close_provider = sym tracepoint_close_provider,
    connect = sym tracepoint_connect,
    write = sym tracepoint_write,
);

/// Closes the provider: unregisters every tracepoint connected to it and
/// resets them to TRACEPOINT_STATE_INIT. Closing a closed provider, or NULL,
/// is a safe no-op.
///
/// # Safety
/// `provider_state` must be NULL or a valid provider state.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_close_provider(provider_state: *mut TracepointProviderState) {
    if let Some(state) = non_null(provider_state) {
        // SAFETY: non-NULL, so a valid provider state (this function's contract).
        unsafe { provider::close(state.as_ptr()) }
    }
}

/// Opens the provider. Returns 0 for success or an errno: EINVAL for NULL,
/// EALREADY if it is already open, or the error of opening the kernel's
/// user_events_data file (e.g. EOPNOTSUPP without tracefs, ENOENT without
/// user_events, EACCES) or the capture file; ENOSYS if
/// TRACEPOINT_CAPTURE_FILE is set but the program, linked statically, has no
/// capture mode (it neither calls tracepoint_set_capture_file nor was linked
/// with -Wl,-u,tracepoint_set_capture_file). On failure the provider stays
/// closed and its tracepoints stay disabled.
///
/// On success, tracepoints connected to the provider while it was closed are
/// reset to TRACEPOINT_STATE_INIT (for init-on-first-use callers).
///
/// # Safety
/// `provider_state` must be NULL or a valid, initialized provider state.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_open_provider(
    provider_state: *mut TracepointProviderState,
) -> c_int {
    let Some(state) = non_null(provider_state) else {
        return libc::EINVAL;
    };
    // SAFETY: non-NULL, so a valid, initialized provider state (this
    // function's contract).
    unsafe { provider::open(state.as_ptr()) }
}

/// Opens the provider, then connects every distinct tracepoint of the array
/// [tp_definition_start, tp_definition_stop) (NULLs and repeats skipped), in
/// the array's order. The array is only read, so it may be in read-only
/// memory, and nothing is allocated. Registration errors of single
/// tracepoints are ignored (they stay disabled). Returns 0 or the errno of
/// opening; EINVAL for NULL or an invalid range.
///
/// # Safety
/// `provider_state` as for tracepoint_open_provider; the range must be one
/// readable array of NULL or valid definition pointers.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_open_provider_with_tracepoints(
    provider_state: *mut TracepointProviderState,
    tp_definition_start: *mut *const TracepointDefinition,
    tp_definition_stop: *mut *const TracepointDefinition,
) -> c_int {
    // SAFETY: a valid range is one readable array (this function's contract).
    let Some(definitions) = (unsafe { pointer_range(tp_definition_start, tp_definition_stop) })
    else {
        return libc::EINVAL;
    };
    let Some(state) = non_null(provider_state) else {
        return libc::EINVAL;
    };
    // SAFETY: the provider state is valid and every non-NULL definition
    // valid, with valid or NULL states and C string or NULL names (this
    // function's contract).
    unsafe { provider::open_with_tracepoints(state.as_ptr(), definitions) }
}

/// tracepoint_connect2 with flags 0.
///
/// # Safety
/// As for tracepoint_connect2.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_connect(
    tp_state: *mut TracepointState,
    provider_state: *mut TracepointProviderState,
    tp_name_args: *const c_char,
) -> c_int {
    let Some(tp) = non_null(tp_state) else {
        return libc::EINVAL;
    };
    // SAFETY: `tp_name_args` is NULL or a C string (this function's contract).
    let name_args = unsafe { optional_c_str(tp_name_args) };
    // SAFETY: the tracepoint state is valid and stays put while connected,
    // the provider state NULL or valid (this function's contract).
    unsafe { provider::connect(tp.as_ptr(), provider_state, name_args, 0) }
}

/// Connects the tracepoint to the provider, first disconnecting it from any
/// provider it was connected to. provider_state NULL disconnects and resets
/// the tracepoint. A closed provider is allowed: the tracepoint stays
/// disabled until the provider opens, which resets it.
///
/// tp_name_args is "Name arg-spec", e.g. "MyTracepoint u16 field1;u8 field2".
/// The name (up to the first space) must be 1 to 255 bytes without ':',
/// '/' or control characters (the same rules for user_events and capture
/// files). flags go to the kernel's registration (e.g.
/// USER_EVENT_REG_PERSIST).
///
/// Returns 0 (also when the provider is closed), EINVAL for a NULL
/// tp_state, for NULL tp_name_args with a provider (open or not) or a
/// refused name, E2BIG for a name over 255 bytes (the tracepoint is left
/// unchanged in these cases), or the errno of the registration (the
/// connection is updated, the tracepoint stays disabled).
///
/// # Safety
/// `tp_state` must be NULL or a valid, initialized tracepoint state that
/// stays at this address while connected; `provider_state` NULL or valid;
/// `tp_name_args` NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_connect2(
    tp_state: *mut TracepointState,
    provider_state: *mut TracepointProviderState,
    tp_name_args: *const c_char,
    flags: c_uint,
) -> c_int {
    let Some(tp) = non_null(tp_state) else {
        return libc::EINVAL;
    };
    // SAFETY: `tp_name_args` is NULL or a C string (this function's contract).
    let name_args = unsafe { optional_c_str(tp_name_args) };
    // SAFETY: the tracepoint state is valid and stays put while connected,
    // the provider state NULL or valid (this function's contract).
    unsafe { provider::connect(tp.as_ptr(), provider_state, name_args, flags) }
}

/// Writes an event. data_vecs[0] is reserved: the caller sets it to
/// { NULL, 0 } and the library overwrites it. The payload is data_vecs[1..].
///
/// Returns 0 for success, EBADF if nobody listens (or the tracepoint is not
/// connected to an open provider), EINVAL for NULL arguments or a count of
/// 0 or over 1024 (UIO_MAXIOV, checked before any vector is read), else the
/// errno of the write. Call only if TRACEPOINT_ENABLED(tp_state).
///
/// # Safety
/// `tp_state` must be NULL or valid; `data_vecs` must point to `data_count`
/// iovecs whose buffers are readable.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_write(
    tp_state: *const TracepointState,
    data_count: c_uint,
    data_vecs: *mut iovec,
) -> c_int {
    let (Some(tp), Some(_)) = (non_null(tp_state), non_null(data_vecs)) else {
        return libc::EINVAL;
    };
    // SAFETY: non-NULL, so a valid tracepoint state (this function's contract).
    if unsafe { TracepointState::status_word(tp.as_ptr()) }.load(Ordering::Relaxed) == 0 {
        return libc::EBADF;
    }
    // SAFETY: `data_vecs` points to `data_count` iovecs (this function's
    // contract), which nothing else uses during the call.
    let Some(vecs) = (unsafe { vecs_arg(data_vecs, data_count, 1) }) else {
        return libc::EINVAL;
    };
    // SAFETY: the state is valid and the payload buffers readable (this function's contract).
    unsafe { provider::write(tp.as_ptr(), vecs) }
}
