//! The entry points private to `eventheader/EventHeaderDynamic.h`: the
//! parts of an `ehd::EventBuilder`'s life that its inline code leaves to the
//! library. An `ehd::EventBuilder` holds its builder (`_ehd_builder_state`,
//! the layout of [`Builder`]) and the builder's first storage inside
//! itself, and starts it inline; these functions grow it ahead of time,
//! copy and move events between two of them, and free what a builder
//! allocated.
//!
//! No generated header declares them: `EventHeaderDynamic.h` does itself
//! (`tests/headers.rs` checks its declarations against these functions).
//! They check nothing: the header passes its own, initialized builders.
//! Programs must not call them.

use core::ffi::c_int;

use super::ehd_builder;
use crate::dynamic::builder::{Builder, Edit};

/// Makes room in `builder` for `meta_capacity` bytes of metadata and
/// `data_capacity` bytes of payload (an `ehd::EventBuilder` constructed
/// with more than its inline storage holds). Returns 0 or ENOMEM (the
/// buffers then grow when needed, as usual).
///
/// # Safety
/// Only for `EventHeaderDynamic.h`: `builder` must be an initialized
/// builder that no other thread uses.
#[no_mangle]
pub unsafe extern "C" fn _ehd_builder_reserve(
    builder: *mut ehd_builder,
    meta_capacity: usize,
    data_capacity: usize,
) -> c_int {
    // SAFETY: this function's contract.
    let mut b = Edit::new(unsafe { &mut *builder.cast::<Builder>() });
    match b.reserve(meta_capacity, data_capacity) {
        Ok(()) => 0,
        Err(e) => e,
    }
}

/// Frees the memory `builder` allocated (its inline storage is the
/// caller's); `builder` must not be used afterwards.
///
/// # Safety
/// Only for `EventHeaderDynamic.h`: `builder` must be an initialized
/// builder that no other thread uses.
#[no_mangle]
pub unsafe extern "C" fn _ehd_builder_fini(builder: *mut ehd_builder) {
    // SAFETY: an initialized builder, dropped once (this function's
    // contract).
    unsafe { builder.cast::<Builder>().drop_in_place() }
}

/// Makes `dst`'s event a copy of `src`'s. Returns 0, `src`'s latched error,
/// or ENOMEM (latched in `dst`).
///
/// # Safety
/// Only for `EventHeaderDynamic.h`: `dst` and `src` must be two distinct
/// initialized builders that no other thread uses.
#[no_mangle]
pub unsafe extern "C" fn _ehd_builder_copy(
    dst: *mut ehd_builder,
    src: *const ehd_builder,
) -> c_int {
    // SAFETY: this function's contract (distinct, so not aliased).
    let d = unsafe { &mut *dst.cast::<Builder>() };
    // SAFETY: as above.
    let s = unsafe { &*src.cast::<Builder>() };
    d.copy_from(s)
}

/// Moves `src`'s event into `dst` (its allocated buffers, or a copy of its
/// inline ones); `src` is left as a builder never reset. Returns 0, the
/// event's latched error, or ENOMEM (latched in `dst`).
///
/// # Safety
/// Only for `EventHeaderDynamic.h`: `dst` and `src` must be two distinct
/// initialized builders that no other thread uses.
#[no_mangle]
pub unsafe extern "C" fn _ehd_builder_move(dst: *mut ehd_builder, src: *mut ehd_builder) -> c_int {
    // SAFETY: this function's contract (distinct, so not aliased).
    let d = unsafe { &mut *dst.cast::<Builder>() };
    // SAFETY: as above.
    let s = unsafe { &mut *src.cast::<Builder>() };
    d.take_from(s)
}
