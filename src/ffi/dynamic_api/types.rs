//! The handle types and constants of `eventheader/eventheader-dynamic.h`
//! (the header's fragment declares them in C).
#![allow(non_camel_case_types)]

use crate::dynamic::builder::NO_BOOKMARK;

/// A string length meaning "the string is NUL-terminated" (also a count of
/// characters, for the string functions). In C: `#define EHD_NTS` in the
/// header's fragment.
/// cbindgen:ignore
pub const EHD_NTS: usize = usize::MAX;

/// The bookmark a failed ehd_builder_add_struct stores; setting a field
/// count through it does nothing. In C: `#define EHD_NO_BOOKMARK`.
/// cbindgen:ignore
pub const EHD_NO_BOOKMARK: usize = NO_BOOKMARK;

/// A provider of runtime-defined events (opaque; declared in the header's
/// fragment).
pub struct ehd_provider {
    _opaque: [u8; 0],
}

/// An event set: the tracepoint of one provider, level and keyword (opaque,
/// but its first member is the status word: see EHD_EVENT_SET_ENABLED).
pub struct ehd_event_set {
    _opaque: [u8; 0],
}

/// An event builder (opaque).
pub struct ehd_builder {
    _opaque: [u8; 0],
}

/// An event definition: name, tag and fields made once (opaque).
pub struct ehd_event_def {
    _opaque: [u8; 0],
}
