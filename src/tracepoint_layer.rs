//! The tracepoint layer under the EventHeader layer: this library's own, or
//! one the program supplies at link time.
//!
//! The reference documents the `tracepoint.h` functions as replaceable at
//! link time (a mock for tests, a writer to a file): a program, or a library
//! linked before this one, that defines `tracepoint_open_provider`,
//! `tracepoint_close_provider`, `tracepoint_connect` and `tracepoint_write`
//! itself receives every event of the layers above, `eventheader_*`,
//! TraceLogging and runtime-defined events. (`tracepoint-provider.h` calls
//! the `tracepoint.h` functions from the program, which reaches the
//! program's own definitions by the link alone.)
//!
//! Which layer it is follows from the link and the dynamic loader's symbol
//! resolution, fixed for the life of the process: this module compares the
//! addresses the four names resolve to with hidden aliases of this
//! library's own four functions (defined beside them in
//! `ffi/tracepoint_api.rs`). All equal: the layer is ours, and the
//! EventHeader layer calls it directly. Else the program replaced it (with
//! the shared library, its definitions interpose on ours; with the static
//! library, the archive member that has ours was not linked, so the aliases
//! are 0), and every call goes through the four names, as the reference's
//! EventHeader layer makes them.
//!
//! The addresses are loaded from the global offset table, where the linker
//! and the dynamic loader put what each name resolves to, and pass through
//! `black_box`, so that the compiler, which sees this library's definitions
//! of the names, neither binds nor compares them itself. The aliases are
//! weak (they pull nothing out of an archive: 0 when nothing defines them)
//! and hidden (they resolve inside the module that defines them: a
//! program's definitions interpose on the four names, not on these). In the
//! static library's build (cfg `eventheader_tracepoint_archive`, see
//! `cmake/cargo-build.cmake`) the references to the four names are weak too,
//! so that a program that uses neither `tracepoint.h` nor
//! `tracepoint-provider.h` does not link the member with the `tracepoint.h`
//! functions at all (all eight addresses 0: the layer is ours). Everywhere
//! else the names are defined in the same object as this module's
//! references, where a weak reference would make the definition weak, so
//! they are ordinary references.
//!
//! The write path pays one load for the choice: events go straight to the
//! kernel when their write index is below [`KERNEL_LIMIT`], which is
//! `CAPTURE_INDEX_BASE` once the layer is known to be ours and 0 before and
//! when it is replaced, so one compare with a variable instead of a constant
//! both chooses the kernel and rules out a replaced layer. With the limit
//! set, the other indexes are capture mode's or a tracepoint not registered;
//! the rest (a replaced layer, the first write before anything decided)
//! takes [`write_slow`].

use core::ffi::{c_char, c_int, c_uint, CStr};
use core::hint::black_box;
use core::ptr;
use core::sync::atomic::{AtomicU32, Ordering};

use libc::iovec;

use crate::abi::{TracepointProviderState, TracepointState};
use crate::backend::{self, user_events, CAPTURE_INDEX_BASE};
use crate::provider;

type OpenProvider = unsafe extern "C" fn(*mut TracepointProviderState) -> c_int;
type CloseProvider = unsafe extern "C" fn(*mut TracepointProviderState);
type Connect = unsafe extern "C" fn(
    *mut TracepointState,
    *mut TracepointProviderState,
    *const c_char,
) -> c_int;
type Write = unsafe extern "C" fn(*const TracepointState, c_uint, *mut iovec) -> c_int;

extern "C" {
    /// The four names, whoever defines them.
    #[link_name = "tracepoint_open_provider"]
    fn name_open_provider(provider: *mut TracepointProviderState) -> c_int;
    #[link_name = "tracepoint_close_provider"]
    fn name_close_provider(provider: *mut TracepointProviderState);
    #[link_name = "tracepoint_connect"]
    fn name_connect(
        tp: *mut TracepointState,
        provider: *mut TracepointProviderState,
        name_args: *const c_char,
    ) -> c_int;
    #[link_name = "tracepoint_write"]
    fn name_write(tp: *const TracepointState, count: c_uint, vecs: *mut iovec) -> c_int;

    /// This library's own four functions (weak, hidden: see above).
    static _tracepoint_own_open_provider: u8;
    static _tracepoint_own_close_provider: u8;
    static _tracepoint_own_connect: u8;
    static _tracepoint_own_write: u8;
}

core::arch::global_asm!(
    ".weak _tracepoint_own_open_provider",
    ".hidden _tracepoint_own_open_provider",
    ".weak _tracepoint_own_close_provider",
    ".hidden _tracepoint_own_close_provider",
    ".weak _tracepoint_own_connect",
    ".hidden _tracepoint_own_connect",
    ".weak _tracepoint_own_write",
    ".hidden _tracepoint_own_write",
);

#[cfg(eventheader_tracepoint_archive)]
core::arch::global_asm!(
    ".weak tracepoint_open_provider",
    ".weak tracepoint_close_provider",
    ".weak tracepoint_connect",
    ".weak tracepoint_write",
);

/// Write indexes below this go to the kernel on the fast path (see the
/// module documentation): `CAPTURE_INDEX_BASE` once the layer is known to be
/// ours, else 0.
static KERNEL_LIMIT: AtomicU32 = AtomicU32::new(0);

/// The tracepoint layer the EventHeader layer uses.
enum Layer {
    /// This library's.
    Ours,
    /// The program's four functions.
    Replaced(Replacement),
    /// The program defines some of the four functions but not all of them:
    /// calls fail with ENOSYS (writes with EBADF). With the static library
    /// the member with ours is then not linked, and the rest resolve to
    /// nothing; with the shared library the rest resolve to ours, which
    /// would take the program's write indexes for its own (and its writes
    /// ours). The reference's libraries fail such a link.
    Incomplete,
}

/// A replacement's four functions.
#[derive(Clone, Copy)]
struct Replacement {
    open_provider: OpenProvider,
    close_provider: CloseProvider,
    connect: Connect,
    write: Write,
}

/// Which layer it is, from the addresses the four names resolve to and the
/// addresses of this library's own four (0 where nothing defines them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ours,
    Replaced,
    Incomplete,
}

fn classify(resolved: [usize; 4], own: [usize; 4]) -> Kind {
    if resolved == own {
        Kind::Ours
    } else if partly_ours(resolved, own) {
        // Some names are the program's, the others ours or nobody's.
        Kind::Incomplete
    } else {
        Kind::Replaced
    }
}

/// Whether some of the names resolve to nothing or to ours, the layer not
/// being ours. With the static library, ours are then not linked (0): the
/// names of the four that the program does not define resolve to nothing.
#[cfg(eventheader_tracepoint_archive)]
fn partly_ours(resolved: [usize; 4], _own: [usize; 4]) -> bool {
    resolved.contains(&0)
}

/// Whether some of the names resolve to nothing or to ours, the layer not
/// being ours. With the shared library, the names of the four that the
/// program does not define resolve to ours.
#[cfg(not(eventheader_tracepoint_archive))]
fn partly_ours(resolved: [usize; 4], own: [usize; 4]) -> bool {
    resolved.contains(&0) || resolved.iter().zip(own).any(|(&name, own)| name == own)
}

/// Which tracepoint layer it is. When it is ours, the write path's fast
/// path is enabled from now on. Never inlined: the references must stay in
/// this module's object, the one with the `.weak` directives.
#[inline(never)]
fn layer() -> Layer {
    let resolved = black_box([
        name_open_provider as OpenProvider as usize,
        name_close_provider as CloseProvider as usize,
        name_connect as Connect as usize,
        name_write as Write as usize,
    ]);
    let own = black_box(
        [
            ptr::addr_of!(_tracepoint_own_open_provider),
            ptr::addr_of!(_tracepoint_own_close_provider),
            ptr::addr_of!(_tracepoint_own_connect),
            ptr::addr_of!(_tracepoint_own_write),
        ]
        .map(|p| p as usize),
    );
    match classify(resolved, own) {
        Kind::Ours => {
            KERNEL_LIMIT.store(CAPTURE_INDEX_BASE as u32, Ordering::Relaxed);
            Layer::Ours
        }
        Kind::Incomplete => Layer::Incomplete,
        Kind::Replaced => {
            let [open_provider, close_provider, connect, write] = resolved;
            // Each is the non-zero address of the function that defines the
            // name, with the signature of tracepoint.h.
            Layer::Replaced(Replacement {
                // SAFETY: see above.
                open_provider: unsafe {
                    core::mem::transmute::<usize, OpenProvider>(open_provider)
                },
                // SAFETY: see above.
                close_provider: unsafe {
                    core::mem::transmute::<usize, CloseProvider>(close_provider)
                },
                // SAFETY: see above.
                connect: unsafe { core::mem::transmute::<usize, Connect>(connect) },
                // SAFETY: see above.
                write: unsafe { core::mem::transmute::<usize, Write>(write) },
            })
        }
    }
}

/// Opens the provider (see [`provider::open`]).
///
/// # Safety
/// `provider` must point to a valid, initialized provider state.
pub unsafe fn open(provider: *mut TracepointProviderState) -> c_int {
    match layer() {
        // SAFETY: the caller's guarantee.
        Layer::Ours => unsafe { provider::open(provider) },
        // SAFETY: the program's tracepoint_open_provider, with a valid state.
        Layer::Replaced(f) => unsafe { (f.open_provider)(provider) },
        Layer::Incomplete => libc::ENOSYS,
    }
}

/// Closes the provider (see [`provider::close`]).
///
/// # Safety
/// `provider` must point to a valid, initialized provider state.
pub unsafe fn close(provider: *mut TracepointProviderState) {
    match layer() {
        // SAFETY: the caller's guarantee.
        Layer::Ours => unsafe { provider::close(provider) },
        // SAFETY: the program's tracepoint_close_provider, with a valid state.
        Layer::Replaced(f) => unsafe { (f.close_provider)(provider) },
        Layer::Incomplete => {}
    }
}

/// Connects the tracepoint to the provider (NULL disconnects it), as
/// `tracepoint_connect` (see [`provider::connect`]).
///
/// # Safety
/// As for [`provider::connect`].
pub unsafe fn connect(
    tp: *mut TracepointState,
    provider: *mut TracepointProviderState,
    name_args: Option<&CStr>,
) -> c_int {
    match layer() {
        // SAFETY: the caller's guarantee.
        Layer::Ours => unsafe { provider::connect(tp, provider, name_args, 0) },
        // SAFETY: the program's tracepoint_connect, with valid states and a
        // C string or NULL.
        Layer::Replaced(f) => unsafe {
            (f.connect)(tp, provider, name_args.map_or(ptr::null(), CStr::as_ptr))
        },
        Layer::Incomplete => libc::ENOSYS,
    }
}

/// Writes an event of `tp` whose enabled test the caller has just passed
/// (see [`provider::write`]): `vecs[0]` is the tracepoint layer's,
/// the event (at least one byte) follows.
///
/// # Safety
/// `tp` must be a valid tracepoint state; `vecs` must not be empty, and the
/// buffers of `vecs[1..]` must be readable for their lengths.
#[inline(always)]
pub unsafe fn write(tp: *const TracepointState, vecs: &mut [iovec]) -> c_int {
    // Acquire: pairs with the Release store of the index at connection,
    // after the backend's descriptor was published.
    // SAFETY: `tp` is valid (the caller's guarantee).
    let index = unsafe { TracepointState::write_index(tp) }.load(Ordering::Acquire);
    let limit = KERNEL_LIMIT.load(Ordering::Relaxed);
    // One unsigned compare: negative indexes are above every limit.
    if (index as u32) < limit {
        // SAFETY: the caller guarantees `vecs` and the payload buffers.
        unsafe { user_events::write(index, vecs, false) }
    } else if limit != 0 {
        // Ours, not the kernel: capture mode, or a tracepoint not registered.
        // SAFETY: the caller guarantees `vecs` and the payload buffers.
        unsafe { backend::write_not_kernel(index, vecs, false) }
    } else {
        // SAFETY: the caller's guarantees.
        unsafe { write_slow(tp, index, vecs) }
    }
}

/// [`write`] when the fast path does not apply; `index` is the tracepoint's
/// write index, as [`write`] loaded it.
///
/// # Safety
/// As for [`write`].
#[cold]
#[inline(never)]
unsafe fn write_slow(tp: *const TracepointState, index: c_int, vecs: &mut [iovec]) -> c_int {
    if KERNEL_LIMIT.load(Ordering::Relaxed) == 0 {
        match layer() {
            Layer::Ours => {}
            Layer::Incomplete => return libc::EBADF,
            Layer::Replaced(f) => {
                // The reference's EventHeader layer hands the tracepoint
                // layer vecs[0] empty.
                if let Some(first) = vecs.first_mut() {
                    *first = iovec {
                        iov_base: ptr::null_mut(),
                        iov_len: 0,
                    };
                }
                // SAFETY: the program's tracepoint_write, with a valid state
                // and `vecs.len()` iovecs (at most 1024: they came from a C
                // count).
                return unsafe { (f.write)(tp, vecs.len() as c_uint, vecs.as_mut_ptr()) };
            }
        }
    }
    // Ours: the kernel (if the layer was only just found to be ours), the
    // capture backend, or EBADF for a tracepoint not registered.
    // SAFETY: the caller's guarantees.
    unsafe { backend::write(index, vecs, false) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_by_resolution() {
        let ours = [10, 20, 30, 40];
        // The names resolve to our own functions, or (static library, no
        // tracepoint.h user) nothing defines either.
        assert_eq!(classify(ours, ours), Kind::Ours);
        assert_eq!(classify([0; 4], [0; 4]), Kind::Ours);
        // The program's definitions: interposed (shared), or ours not
        // linked (static).
        assert_eq!(classify([11, 21, 31, 41], ours), Kind::Replaced);
        assert_eq!(classify([11, 21, 31, 41], [0; 4]), Kind::Replaced);
        // Some of the four interposed, the rest ours (shared library).
        assert_eq!(classify([10, 20, 30, 41], ours), Kind::Incomplete);
        assert_eq!(classify([11, 21, 30, 41], ours), Kind::Incomplete);
        // Some of the four defined by the program, the rest by nobody.
        assert_eq!(classify([0, 0, 0, 41], [0; 4]), Kind::Incomplete);
        assert_eq!(classify([11, 0, 31, 41], [0; 4]), Kind::Incomplete);
    }

    /// In this test binary the names are the library's own.
    #[test]
    fn the_library_s_own_layer_is_found() {
        assert!(matches!(layer(), Layer::Ours));
        assert_eq!(
            KERNEL_LIMIT.load(Ordering::Relaxed),
            CAPTURE_INDEX_BASE as u32
        );
    }
}
