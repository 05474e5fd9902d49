//! How a TraceLogging write finds the calling thread's activity id without
//! linking the thread activity code into programs that never set one.
//!
//! The write path tests one word: until some thread sets an activity id
//! ([`thread_activity::set`](super::thread_activity::set) installs the hook)
//! it is null and the event is written without an id; from then on every
//! such write goes through the hook, which looks at the calling thread's
//! id. The thread activity code and its thread-local slot live in their own
//! module, which the static library puts in a member of its own
//! (`eventheader-activity.o`, see `cmake/split-archive.cmake`): a program
//! that does not use `TraceLoggingActivity.h`'s classes links neither, and
//! carries no thread-local storage of ours.

use core::ffi::c_int;

use libc::iovec;

use crate::abi::EventHeaderTracepoint;

/// A TraceLogging write that adds the calling thread's activity id, if it
/// has one. `write`'s contract is `_eventheader_tlg_write`'s.
pub struct ThreadWrite {
    pub write: unsafe fn(&EventHeaderTracepoint, *mut iovec, u32) -> c_int,
}

/// From now on, TraceLogging writes without an id of their own go through
/// `hook`.
pub fn install(hook: &'static ThreadWrite) {
    word::store(core::ptr::from_ref(hook).cast_mut());
}

/// `none()` until a hook is installed, then `some()`: on x86_64 a compare
/// of the word with zero and a branch.
#[inline(always)]
pub fn dispatch<R>(none: impl FnOnce() -> R, some: impl FnOnce() -> R) -> R {
    word::dispatch(none, some)
}

/// The installed hook, if any: one load.
#[inline(always)]
pub fn installed() -> Option<&'static ThreadWrite> {
    // SAFETY: the word is null or was stored from a `&'static ThreadWrite`
    // by `install`, and statics are never freed or written.
    unsafe { word::load().as_ref() }
}

/// The hook's word on x86_64: a hidden 8-byte variable defined in assembly
/// and read `rip`-relative, so the write path's test is one load, a
/// compare and a branch in the shared library too (a Rust static is
/// reached through the GOT there: one load more). Aligned 8-byte moves are
/// atomic on x86_64; the hook needs no ordering (it is a static, and the
/// thread that sets an id sees its own store).
#[cfg(target_arch = "x86_64")]
mod word {
    use core::arch::{asm, global_asm};

    use super::ThreadWrite;

    global_asm!(
        ".pushsection .bss._eventheader_tlg_thread_hook,\"aw\",@nobits",
        ".balign 8",
        ".globl _eventheader_tlg_thread_hook",
        ".hidden _eventheader_tlg_thread_hook",
        ".type _eventheader_tlg_thread_hook,@object",
        ".size _eventheader_tlg_thread_hook,8",
        "_eventheader_tlg_thread_hook:",
        ".skip 8",
        ".popsection",
    );

    #[inline(always)]
    pub fn load() -> *mut ThreadWrite {
        let hook: *mut ThreadWrite;
        // SAFETY: reads the library's own 8-byte word, defined above.
        unsafe {
            asm!(
                "mov {hook}, qword ptr [rip + _eventheader_tlg_thread_hook]",
                hook = out(reg) hook,
                options(nostack, readonly, preserves_flags),
            );
        }
        hook
    }

    #[inline(always)]
    pub fn dispatch<R>(none: impl FnOnce() -> R, some: impl FnOnce() -> R) -> R {
        // SAFETY: reads the library's own 8-byte word, defined above.
        unsafe {
            asm!(
                "cmp qword ptr [rip + _eventheader_tlg_thread_hook], 0",
                "jne {some}",
                some = label { return some(); },
                options(nostack, readonly),
            );
        }
        none()
    }

    pub fn store(hook: *mut ThreadWrite) {
        // SAFETY: writes the library's own 8-byte word, defined above.
        unsafe {
            asm!(
                "mov qword ptr [rip + _eventheader_tlg_thread_hook], {hook}",
                hook = in(reg) hook,
                options(nostack, preserves_flags),
            );
        }
    }
}

/// The hook's word elsewhere: an atomic pointer (relaxed, as above).
#[cfg(not(target_arch = "x86_64"))]
mod word {
    use core::sync::atomic::{AtomicPtr, Ordering};

    use super::ThreadWrite;

    static HOOK: AtomicPtr<ThreadWrite> = AtomicPtr::new(core::ptr::null_mut());

    #[inline(always)]
    pub fn load() -> *mut ThreadWrite {
        HOOK.load(Ordering::Relaxed)
    }

    #[inline(always)]
    pub fn dispatch<R>(none: impl FnOnce() -> R, some: impl FnOnce() -> R) -> R {
        if load().is_null() {
            none()
        } else {
            some()
        }
    }

    pub fn store(hook: *mut ThreadWrite) {
        HOOK.store(hook, Ordering::Relaxed);
    }
}
