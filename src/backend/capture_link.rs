//! How the rest of the library reaches the capture backend: through one
//! weak reference, so that a program linked statically carries the capture
//! backend only if it uses it.
//!
//! The capture backend ([`super::capture`]) publishes its functions as one
//! table under a hidden, weak alias; here is a weak reference to that alias.
//! In the shared library both are in the one object, and capture is always
//! there. In the static library the capture backend is an archive member of
//! its own (with `tracepoint_set_capture_file`), linked only when the
//! program references it: by calling `tracepoint_set_capture_file`, or with
//! `-Wl,-u,tracepoint_set_capture_file` on the link line to honour
//! `TRACEPOINT_CAPTURE_FILE`. Without it the reference is 0: providers
//! open on the kernel, unless `TRACEPOINT_CAPTURE_FILE` asks for capture
//! mode, which such a program cannot honour: then opening a provider fails
//! with ENOSYS (see [`super::open_for_provider`]), so that nobody takes
//! events sent to the kernel, or nowhere, for captured ones.

use core::ffi::{c_int, CStr};
use core::hint::black_box;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

use libc::iovec;

use crate::lock::Guard;
use crate::sys::secure_getenv;

/// The environment variable that selects a capture file.
pub const ENV_VAR: &CStr = c"TRACEPOINT_CAPTURE_FILE";

/// The path `TRACEPOINT_CAPTURE_FILE` names, if it is set and not empty
/// (read with `secure_getenv`: never in a setuid/setgid process). The bytes
/// are the environment's: copy them before releasing the lock.
pub fn environment_path(_guard: &Guard) -> Option<&[u8]> {
    // SAFETY: ENV_VAR is a valid C string.
    let value = unsafe { secure_getenv(ENV_VAR.as_ptr()) };
    if value.is_null() {
        return None;
    }
    // SAFETY: a non-NULL result of secure_getenv is a C string in the
    // environment, read before anything can change it (we hold the lock;
    // changing the environment concurrently is the caller's race, as for
    // any getenv).
    let value = unsafe { CStr::from_ptr(value) }.to_bytes();
    (!value.is_empty()).then_some(value)
}

/// The environment variable that selects the capture records' layout.
pub const LAYOUT_ENV_VAR: &CStr = c"TRACEPOINT_CAPTURE_LAYOUT";

/// Whether `TRACEPOINT_CAPTURE_LAYOUT` (read with `secure_getenv`) asks
/// for the timed layout (`timed`) or the reference's (unset, empty or
/// `reference`); EINVAL for any other value.
pub fn environment_layout_timed() -> Result<bool, c_int> {
    // SAFETY: LAYOUT_ENV_VAR is a valid C string.
    let value = unsafe { secure_getenv(LAYOUT_ENV_VAR.as_ptr()) };
    if value.is_null() {
        return Ok(false);
    }
    // SAFETY: a non-NULL result of secure_getenv is a C string in the
    // environment, compared here before anything can change it (the caller
    // holds the library lock; changing the environment concurrently is the
    // caller's race, as for any getenv).
    match unsafe { CStr::from_ptr(value) }.to_bytes() {
        b"" | b"reference" => Ok(false),
        b"timed" => Ok(true),
        _ => Err(libc::EINVAL),
    }
}

/// The capture backend's functions (see [`super::capture`] for each).
pub struct CaptureBackend {
    /// The capture descriptor (-1 before the first capture file opened).
    pub fd: fn() -> c_int,
    /// The descriptor a provider opened now captures to, or None for the
    /// kernel.
    pub selected_fd: fn(&mut Guard) -> Result<Option<c_int>, c_int>,
    /// Registers a tracepoint name (checked) for capture: its capture index.
    pub register: fn(&mut Guard, &[u8]) -> Result<c_int, c_int>,
    /// Writes one record of the tracepoint with a capture index.
    pub write: unsafe fn(c_int, &mut [iovec], bool) -> c_int,
    /// Closes the capture descriptor and frees the names (the library is
    /// being unloaded).
    pub release: fn(&mut Guard),
}

// A weak, hidden reference: see the module documentation. The address is
// loaded from the global offset table, and through `black_box`: the
// compiler does not know the reference is weak, and would take it for
// non-NULL.
core::arch::global_asm!(
    ".weak _tracepoint_capture_backend",
    ".hidden _tracepoint_capture_backend",
);

extern "C" {
    /// The capture backend's table (a `CaptureBackend`), or nothing.
    static _tracepoint_capture_backend: u8;
}

/// The write of a capture record, as the write path calls it: the capture
/// backend's [`CaptureBackend::write`] once a provider opened on it (where
/// [`capture`] costs a call), [`not_open`] before. Capture write indexes
/// exist only after that open (their registration needs the open provider),
/// and the write path loads the index with Acquire, after this was stored.
static WRITE: AtomicPtr<()> = AtomicPtr::new(not_open as *mut ());

type Write = unsafe fn(c_int, &mut [iovec], bool) -> c_int;

/// [`WRITE`] before a provider opened on the capture backend: no capture
/// index exists.
unsafe fn not_open(_index: c_int, _vecs: &mut [iovec], _pad: bool) -> c_int {
    libc::EBADF
}

/// Notes that a provider opened on the capture backend.
pub fn note_opened(backend: &'static CaptureBackend) {
    WRITE.store(backend.write as *mut (), Ordering::Release);
}

/// Writes one record of the tracepoint with capture index `index` (see
/// [`CaptureBackend::write`]); EBADF before any provider opened on the
/// capture backend.
///
/// # Safety
/// The buffers of `vecs[1..]` must be readable for their lengths.
#[inline(always)]
pub unsafe fn write(index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    // SAFETY: WRITE holds a function of type Write (not_open or the capture
    // backend's write), stored as a pointer.
    let write = unsafe { core::mem::transmute::<*mut (), Write>(WRITE.load(Ordering::Relaxed)) };
    // SAFETY: the caller's guarantee.
    unsafe { write(index, vecs, pad) }
}

/// The capture backend, if the program has it. Never inlined: the
/// reference must stay in this module's object, the one with the `.weak`.
#[inline(never)]
pub fn capture() -> Option<&'static CaptureBackend> {
    let table = black_box(ptr::addr_of!(_tracepoint_capture_backend));
    // SAFETY: NULL, or the address of the capture backend's table, a static.
    unsafe { table.cast::<CaptureBackend>().as_ref() }
}
