//! The opt-in diagnostic switch: with `EVENTHEADER_DEBUG=1` in the
//! environment, the library says on stderr why something failed that a
//! program may never check (a provider's open, a registration, the capture
//! file's open, a capture write). See docs/capture-mode.md.
//!
//! The variable is read once, with `secure_getenv` (so never in a setuid or
//! setgid process), the first time something fails or the first time a
//! capture file is opened; a success never reads it. Each report is one
//! line, `eventheader-tracepoint: ...`, formatted in a buffer on the stack
//! (no allocation) and written with one `write(2)` to descriptor 2:
//! async-signal-safe, so capture write errors of signal handlers are
//! reported too. Capture write errors are reported for the first
//! [`report::WRITE_REPORTS`] of them in the process, the last saying so.
//!
//! The reports are [`report`], reached from here through one weak
//! reference, as the capture backend is (`backend::capture_link`): in the
//! shared library they are always there; in the static library they are a
//! member of their own, linked by programs with capture mode (the capture
//! backend calls them directly) or linked with
//! `-Wl,-u,_eventheader_diagnostics`, so that other static programs carry
//! none of their bytes.

use core::ffi::c_int;
use core::hint::black_box;
use core::ptr;

pub mod report;

/// A failure outside the capture backend, to report.
pub enum Failure<'a> {
    /// Opening a provider failed with this errno (ENOSYS: a static program
    /// without capture mode and TRACEPOINT_CAPTURE_FILE set); whether the
    /// program has capture mode.
    ProviderOpen { errno: c_int, has_capture: bool },
    /// Registering the tracepoint with this name failed with this errno.
    Registration { name: &'a [u8], errno: c_int },
}

/// The reports the library outside the capture backend makes.
pub struct Diagnostics {
    /// Reports a failure (see [`report::failed`]).
    pub failed: fn(Failure<'_>),
}

// A weak, hidden reference: see the module documentation. Loaded through
// `black_box`: the compiler does not know the reference is weak.
core::arch::global_asm!(
    ".weak _eventheader_diagnostics",
    ".hidden _eventheader_diagnostics",
);

extern "C" {
    /// The reports' table (a `Diagnostics`), or nothing.
    static _eventheader_diagnostics: u8;
}

/// The reports, if the program has them (inlined only into this module's
/// [`failed`]: the reference stays in the object with the `.weak`).
#[inline(always)]
fn table() -> Option<&'static Diagnostics> {
    let table = black_box(ptr::addr_of!(_eventheader_diagnostics));
    // SAFETY: NULL, or the address of the reports' table, a static.
    unsafe { table.cast::<Diagnostics>().as_ref() }
}

/// Reports `failure`, if the program has the reports and the switch is on.
#[cold]
#[inline(never)]
pub fn failed(failure: Failure<'_>) {
    if let Some(t) = table() {
        (t.failed)(failure);
    }
}
