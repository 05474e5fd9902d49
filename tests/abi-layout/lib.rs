//! The C view of the public headers, as bindgen reads them: see
//! `tests/layout.rs`. bindgen runs in `build.rs` over the checked-in headers of
//! `include/`, so this crate sees exactly what a C compiler sees.
#![allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code
)]

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
