//! eventheader-tracepoint: Linux user_events tracepoints and EventHeader events
//! for C and C++ programs, binary-compatible with the reference `libtracepoint`
//! and `libeventheader-tracepoint`.
//!
//! Layers, each using only the ones below it (the floors of
//! docs/code-layout.md, which `tests/structure.rs` checks):
//! - [`ffi`]: the exported C functions. Argument checks and the enabled test,
//!   then one call into a layer below (the write entry point private to
//!   `TraceLoggingProvider.h` checks nothing: the macro builds its
//!   arguments). No export calls another.
//! - [`dynamic`]: runtime-defined events (the `ehd_*` API): the event
//!   builder, providers and event sets on the C heap; it reaches the layers
//!   below only through [`dynamic::layers_below`].
//! - [`eventheader`]: the EventHeader layer: tracepoint names and
//!   registration commands, opening and connecting EventHeader providers and
//!   events, and assembling each event's vectors. It reaches the tracepoint
//!   layer only through [`tracepoint_layer`].
//! - [`tracepoint_layer`]: the tracepoint layer under the EventHeader
//!   layer: this library's ([`provider`]), or the `tracepoint.h` functions
//!   a program defines itself to replace it at link time.
//! - [`provider`]: provider and tracepoint state: open, close, connect and the
//!   write of a connected tracepoint, serialized by the library lock.
//! - [`backend`]: where events go: [`backend::user_events`] (the kernel) or
//!   [`backend::capture`] (a file, for tests and machines without
//!   user_events), and the one place that tells them apart.
//! - [`abi`]: the C data types of the public headers and the atomic views of
//!   the state fields that are read without the lock; `lock` (the library
//!   lock), `sys` (errno, libc declarations) and [`tracepoint_name`] (the
//!   rules for a tracepoint's name, for every backend and API) beside it.
//!
//! The library uses only `core` and `libc`: no standard library, no
//! allocator, no panic path. The shipped `.so` and `.a` are built with
//! `panic = "abort"` and define their own panic handler, which nothing
//! calls (`scripts/footprint.sh` fails if any panic machinery is linked).
// The unit tests (cfg(test)) use the standard library: Vec, format!, tempfile.
#![cfg_attr(not(test), no_std)]
// One unsafe operation per block, each with its own `// SAFETY:` reason
// (the workspace lints deny a block without one).
#![deny(clippy::multiple_unsafe_ops_per_block)]

// `cargo test` and `cargo bench` build every target with panic=unwind, which
// needs the standard library's unwinder and panic runtime; with the `std`
// feature, std's panic handler replaces ours (see below). Link std in those
// builds, unnamed, so the library code cannot use it by accident.
#[cfg(all(not(test), any(panic = "unwind", feature = "std")))]
extern crate std as _;

pub mod abi;
pub mod backend;
pub mod bytes;
pub mod cstr_buf;
mod diagnostics;
pub mod dynamic;
pub mod eventheader;
pub mod ffi;
mod lock;
pub mod provider;
mod sys;
pub mod tracepoint_layer;
pub mod tracepoint_name;

/// Never called: nothing in the library panics, and the footprint check
/// proves it by finding none of the panic machinery a call would link. A
/// Rust program that links the rlib with the standard library enables the
/// `std` feature and uses std's handler instead (two handlers do not link).
/// Cargo unifies features across a workspace build, so the `.so` and `.a`
/// built together with such a program link std too: they work but are not
/// the small ones; the shipped ones are built alone (CMake, footprint.sh).
#[cfg(all(panic = "abort", not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: abort has no preconditions; it ends the process.
    unsafe { libc::abort() }
}

/// The unwinding personality routine that the unwind tables of Rust's
/// precompiled `core` name (it is built with panic=unwind). A build that
/// links `core`'s object code as it is (no LTO: `cargo build --release`,
/// whose crate types include rlib) keeps such a table even when
/// none of its functions is used (rust-lang/rust#56152), so the linker
/// needs the symbol; with panic=abort nothing unwinds, so it is never
/// called. The CMake release build compiles everything by LTO, needs none,
/// and sets `eventheader_tracepoint_lto` to leave it out: the shipped
/// library has no personality routine (scripts/footprint.sh checks).
#[cfg(all(
    panic = "abort",
    not(feature = "std"),
    not(test),
    not(eventheader_tracepoint_lto)
))]
#[no_mangle]
extern "C" fn rust_eh_personality() -> ! {
    // SAFETY: abort has no preconditions; it ends the process.
    unsafe { libc::abort() }
}
