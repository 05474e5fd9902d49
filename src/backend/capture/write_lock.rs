//! The capture write lock: capture-mode writes take it around their
//! `writev`, so that a short write is noticed before any other record is
//! appended (see [`super`]); capture-file selection takes it, under the
//! library lock, to change the file; the fork handlers take it after the
//! library lock (`lock::set_capture_fork_handlers`).
//!
//! Writes may come from signal handlers, so it is not a pthread mutex (not
//! async-signal-safe, and a handler that interrupted its own thread's
//! capture write would wait for itself forever): it is a word holding its
//! owner's `pthread_self()`, taken with one compare-and-swap, so a thread
//! that asks for it while holding it gets EDEADLK at once; other threads
//! wait on a futex.
#![deny(clippy::multiple_unsafe_ops_per_block)]

use core::ffi::c_int;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use crate::lock::ForkHandlers;

/// The capture write lock: its owner's `pthread_self()`, 0 when free.
static CAPTURE_OWNER: AtomicUsize = AtomicUsize::new(0);
/// Counts the capture write lock's releases: the futex word its waiters
/// sleep on.
static CAPTURE_RELEASES: AtomicU32 = AtomicU32::new(0);
/// Threads waiting for the capture write lock (a release wakes one).
static CAPTURE_WAITERS: AtomicU32 = AtomicU32::new(0);
/// Whether the fork handler took the capture write lock (not when `fork()`
/// was called by a signal handler that interrupted this thread's capture
/// write, which then still holds it in parent and child).
static FORK_TOOK_CAPTURE: AtomicBool = AtomicBool::new(false);

fn this_thread() -> usize {
    // SAFETY: pthread_self has no preconditions (it reads the thread
    // pointer, so it is async-signal-safe in practice); never 0.
    unsafe { libc::pthread_self() as usize }
}

/// Takes the capture write lock, waiting for another thread that holds it;
/// EDEADLK if this thread holds it (a signal handler that interrupted it).
fn capture_lock() -> Result<(), c_int> {
    let me = this_thread();
    loop {
        match CAPTURE_OWNER.compare_exchange(0, me, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => return Ok(()),
            Err(owner) if owner == me => return Err(libc::EDEADLK),
            Err(_) => {}
        }
        let seen = CAPTURE_RELEASES.load(Ordering::SeqCst);
        CAPTURE_WAITERS.fetch_add(1, Ordering::SeqCst);
        // A release between the compare-and-swap and here changed
        // CAPTURE_RELEASES (the futex returns at once) or is seen here.
        if CAPTURE_OWNER.load(Ordering::SeqCst) != 0 {
            // SAFETY: FUTEX_WAIT on a static word with a null timeout; it
            // returns when woken, interrupted, or the word is no longer
            // `seen` (every outcome retries).
            unsafe {
                libc::syscall(
                    libc::SYS_futex,
                    CAPTURE_RELEASES.as_ptr(),
                    libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                    seen,
                    core::ptr::null::<libc::timespec>(),
                )
            };
        }
        CAPTURE_WAITERS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Releases the capture write lock (held by this thread).
fn capture_unlock() {
    CAPTURE_OWNER.store(0, Ordering::SeqCst);
    CAPTURE_RELEASES.fetch_add(1, Ordering::SeqCst);
    if CAPTURE_WAITERS.load(Ordering::SeqCst) != 0 {
        // SAFETY: FUTEX_WAKE of one waiter on a static word.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                CAPTURE_RELEASES.as_ptr(),
                libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
                1,
            )
        };
    }
}

/// Holds the capture write lock until dropped; stays on its thread.
pub struct WriteGuard(PhantomData<*mut ()>);

impl Drop for WriteGuard {
    fn drop(&mut self) {
        capture_unlock();
    }
}

/// Takes the capture write lock; EDEADLK, at once, when this thread holds
/// it already (a signal handler interrupted its capture write). Its holder
/// never takes the library lock (the fork handlers and capture-file
/// selection take the library lock first). Async-signal-safe.
pub fn capture_write() -> Result<WriteGuard, c_int> {
    capture_lock()?;
    Ok(WriteGuard(PhantomData))
}

fn fork_prepare() {
    FORK_TOOK_CAPTURE.store(capture_lock().is_ok(), Ordering::Relaxed);
}

fn fork_parent() {
    if FORK_TOOK_CAPTURE.load(Ordering::Relaxed) {
        capture_unlock();
    }
}

fn fork_child() {
    // The parent's waiting threads do not exist here.
    CAPTURE_WAITERS.store(0, Ordering::SeqCst);
    fork_parent();
}

/// The fork handlers' part (see `lock::set_capture_fork_handlers`).
pub static FORK_HANDLERS: ForkHandlers = ForkHandlers {
    prepare: fork_prepare,
    parent: fork_parent,
    child: fork_child,
};
