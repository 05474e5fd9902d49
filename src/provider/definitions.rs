//! Opening a provider with its tracepoints' definitions (what
//! `tracepoint_open_provider_with_tracepoints`, and so
//! `TPP_REGISTER_PROVIDER`, does). A module of its own so that it is part of
//! the static library's `tracepoint.o` (see `cmake/split-archive.cmake`),
//! which only programs that call the `tracepoint.h` functions link.

use core::ffi::{c_int, CStr};

use super::{connect, open, UniquePointers};
use crate::abi::{TracepointDefinition, TracepointProviderState};

/// Opens `provider`, then connects every distinct tracepoint of
/// `definitions` (NULLs and repeats skipped), in the array's order; the array
/// is only read (see [`UniquePointers`]). Registration errors of single
/// tracepoints are ignored (they stay disabled). Returns 0 or the errno of
/// opening.
///
/// # Safety
/// `provider` as for [`open`]; every non-NULL entry of `definitions` must
/// point to a valid definition whose state (if not NULL) is valid as for
/// [`connect`] and whose name (if not NULL) is a C string.
pub unsafe fn open_with_tracepoints(
    provider: *mut TracepointProviderState,
    definitions: &[*const TracepointDefinition],
) -> c_int {
    let definitions = UniquePointers::new(definitions);
    // SAFETY: `provider` is a valid provider state (the caller's guarantee).
    let err = unsafe { open(provider) };
    if err != 0 {
        return err;
    }
    for i in 0..definitions.entries() {
        let Some(definition) = definitions.first_at(i) else {
            continue;
        };
        // SAFETY: a non-NULL entry is a valid definition.
        let definition = unsafe { &*definition };
        if definition.state.is_null() {
            continue;
        }
        // SAFETY: a non-NULL name is a C string (the caller's guarantee).
        let name_args = (!definition.tp_name_args.is_null())
            .then(|| unsafe { CStr::from_ptr(definition.tp_name_args) });
        // SAFETY: a non-NULL state is valid (the caller's guarantee).
        unsafe { connect(definition.state, provider, name_args, 0) };
    }
    0
}
