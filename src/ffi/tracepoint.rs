//! The tracepoint layer: register named user_events tracepoints, keep their
//! enable words, and write events as iovecs.

use core::ffi::{c_char, c_int, c_uint, CStr};

use libc::iovec;

use super::{boundary, pointer_range, PANIC_ERRNO};
use crate::abi::{TracepointProviderState, TracepointState};
use crate::backend;
use crate::provider;

/// A tracepoint and its "Name arg-spec" registration string, for
/// tracepoint_open_provider_with_tracepoints.
#[repr(C)]
pub struct TracepointDefinition {
    pub state: *mut TracepointState,
    pub tp_name_args: *const c_char,
}

/// Closes the provider: unregisters every tracepoint connected to it and
/// resets them to TRACEPOINT_STATE_INIT. Closing a closed provider, or NULL,
/// is a safe no-op.
///
/// # Safety
/// `provider_state` must be NULL or a valid provider state.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_close_provider(provider_state: *mut TracepointProviderState) {
    boundary((), || {
        if !provider_state.is_null() {
            // SAFETY: non-NULL and valid per the contract.
            unsafe { provider::close(provider_state) }
        }
    })
}

/// Opens the provider. Returns 0 for success or an errno: EINVAL for NULL,
/// EALREADY if it is already open, or the error of opening the kernel's
/// user_events_data file (e.g. EOPNOTSUPP without tracefs, ENOENT without
/// user_events, EACCES) or the capture file. On failure the provider stays
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
    boundary(PANIC_ERRNO, || {
        if provider_state.is_null() {
            return libc::EINVAL;
        }
        // SAFETY: non-NULL and valid per the contract.
        unsafe { provider::open(provider_state) }
    })
}

/// Opens the provider, then connects every tracepoint of the array
/// [tp_definition_start, tp_definition_stop), which is sorted and
/// de-duplicated in place first (NULLs moved to the end). Registration
/// errors of single tracepoints are ignored (they stay disabled). Returns 0
/// or the errno of opening; EINVAL for NULL or an invalid range.
///
/// # Safety
/// `provider_state` as for tracepoint_open_provider; the range must be one
/// writable array of NULL or valid definition pointers.
#[no_mangle]
pub unsafe extern "C" fn tracepoint_open_provider_with_tracepoints(
    provider_state: *mut TracepointProviderState,
    tp_definition_start: *mut *const TracepointDefinition,
    tp_definition_stop: *mut *const TracepointDefinition,
) -> c_int {
    boundary(PANIC_ERRNO, || {
        // SAFETY: the range is valid per the contract.
        let Some(defs) = (unsafe { pointer_range(tp_definition_start, tp_definition_stop) }) else {
            return libc::EINVAL;
        };
        // SAFETY: forwarded contract.
        let err = unsafe { tracepoint_open_provider(provider_state) };
        if err != 0 {
            return err;
        }
        let count = provider::sort_unique_pointers(defs);
        for &def in &defs[..count] {
            // SAFETY: non-NULL entries are valid definitions per the contract.
            unsafe {
                let def = &*def;
                if !def.state.is_null() {
                    tracepoint_connect2(def.state, provider_state, def.tp_name_args, 0);
                }
            }
        }
        0
    })
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
    // SAFETY: forwarded contract.
    unsafe { tracepoint_connect2(tp_state, provider_state, tp_name_args, 0) }
}

/// Connects the tracepoint to the provider, first disconnecting it from any
/// provider it was connected to. provider_state NULL disconnects and resets
/// the tracepoint. A closed provider is allowed: the tracepoint stays
/// disabled until the provider opens, which resets it.
///
/// tp_name_args is "Name arg-spec", e.g. "MyTracepoint u16 field1;u8 field2".
/// flags go to the kernel's registration (e.g. USER_EVENT_REG_PERSIST).
///
/// Returns 0 (also when the provider is closed), EINVAL for NULL arguments,
/// or the errno of the registration; the connection is updated either way.
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
    boundary(PANIC_ERRNO, || {
        if tp_state.is_null() {
            return libc::EINVAL;
        }
        // SAFETY: a non-NULL tp_name_args is a C string per the contract.
        let name_args = (!tp_name_args.is_null()).then(|| unsafe { CStr::from_ptr(tp_name_args) });
        // SAFETY: forwarded contract.
        unsafe { provider::connect(tp_state, provider_state, name_args, flags) }
    })
}

/// Writes an event. data_vecs[0] is reserved: the caller sets it to
/// { NULL, 0 } and the library overwrites it. The payload is data_vecs[1..].
///
/// Returns 0 for success, EBADF if nobody listens (or the tracepoint is not
/// connected to an open provider), EINVAL for NULL arguments or a bad count,
/// else the errno of the write. Call only if TRACEPOINT_ENABLED(tp_state).
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
    boundary(PANIC_ERRNO, || {
        if tp_state.is_null() || data_vecs.is_null() {
            return libc::EINVAL;
        }
        // SAFETY: forwarded contract.
        unsafe { backend::write(tp_state, data_count, data_vecs) }
    })
}
