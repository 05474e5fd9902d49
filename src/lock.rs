//! The library's one lock: serializes open, close, connect and capture-file
//! selection for the whole process. The write path never takes it.
//!
//! It is a pthread mutex with `pthread_atfork` handlers (taken before
//! `fork()`, released after it in parent and child), so a child forked while
//! another thread was registering tracepoints can still register its own
//! instead of deadlocking on a lock whose owner does not exist in the child.
//!
//! Data that only the lock's holder may touch is a [`Locked`], reached
//! through the [`Guard`].
#![deny(clippy::multiple_unsafe_ops_per_block)]

use core::cell::UnsafeCell;
use core::marker::PhantomData;

/// A pthread object in a static: used only through its pthread functions,
/// which are thread-safe.
struct PthreadCell<T>(UnsafeCell<T>);

// SAFETY: the cell is only ever passed by address to pthread functions,
// which synchronize access to it themselves.
unsafe impl<T> Sync for PthreadCell<T> {}

static LOCK: PthreadCell<libc::pthread_mutex_t> =
    PthreadCell(UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER));
static ATFORK_ONCE: PthreadCell<libc::pthread_once_t> =
    PthreadCell(UnsafeCell::new(libc::PTHREAD_ONCE_INIT));

fn raw_lock() {
    // SAFETY: LOCK is a valid, statically initialized mutex. A normal mutex
    // fails only on a relock by its owner, which the Guard discipline rules out.
    unsafe { libc::pthread_mutex_lock(LOCK.0.get()) };
}

fn raw_unlock() {
    // SAFETY: called only by the thread holding LOCK (a Guard's owner, or the
    // forking thread, which in the child is the only thread).
    unsafe { libc::pthread_mutex_unlock(LOCK.0.get()) };
}

extern "C" fn before_fork() {
    raw_lock();
}

extern "C" fn after_fork() {
    raw_unlock();
}

extern "C" fn register_fork_handlers() {
    // SAFETY: the handlers are plain functions valid for the life of the
    // process (glibc removes a DSO's atfork handlers when it is dlclose'd).
    unsafe { libc::pthread_atfork(Some(before_fork), Some(after_fork), Some(after_fork)) };
}

/// Holds the lock until dropped. There is at most one in the process at a
/// time (it is the mutex), and it stays on the thread that took it.
pub struct Guard(PhantomData<*mut ()>);

impl Drop for Guard {
    fn drop(&mut self) {
        raw_unlock();
    }
}

/// Takes the library lock.
pub fn lock() -> Guard {
    // SAFETY: ATFORK_ONCE is a valid, statically initialized once control;
    // pthread_once runs the handler registration exactly once per process
    // (registering twice would make the fork handlers lock twice).
    unsafe { libc::pthread_once(ATFORK_ONCE.0.get(), register_fork_handlers) };
    raw_lock();
    Guard(PhantomData)
}

/// Data that only the holder of the library lock may touch.
pub struct Locked<T>(UnsafeCell<T>);

// SAFETY: the data is reached only through `get`, which requires the lock.
unsafe impl<T: Send> Sync for Locked<T> {}

impl<T> Locked<T> {
    pub const fn new(value: T) -> Self {
        Locked(UnsafeCell::new(value))
    }

    /// The data, for as long as `guard` is borrowed.
    pub fn get<'a>(&'a self, guard: &'a mut Guard) -> &'a mut T {
        let _ = guard;
        // SAFETY: only one Guard exists at a time, and it stays mutably
        // borrowed while the returned reference lives, so no other reference
        // to the data can exist meanwhile, in this thread or another.
        unsafe { &mut *self.0.get() }
    }
}
