//! The library's one lock: serializes open, close, connect and capture-file
//! selection for the whole process. The write path never takes it.
//!
//! It is a pthread mutex with `pthread_atfork` handlers (taken before
//! `fork()`, released after it in parent and child), so a child forked while
//! another thread was registering tracepoints can still register its own
//! instead of deadlocking on a lock whose owner does not exist in the child.

use core::cell::UnsafeCell;
use std::sync::Once;

struct RawLock(UnsafeCell<libc::pthread_mutex_t>);

// SAFETY: the mutex is only used through pthread_mutex_lock/unlock, which
// are thread-safe.
unsafe impl Sync for RawLock {}

static LOCK: RawLock = RawLock(UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER));
static ATFORK: Once = Once::new();

fn raw_lock() {
    // SAFETY: LOCK is a valid, statically initialized mutex.
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

/// Holds the lock until dropped (also during unwinding).
pub struct Guard(());

impl Drop for Guard {
    fn drop(&mut self) {
        raw_unlock();
    }
}

/// Takes the library lock.
pub fn lock() -> Guard {
    ATFORK.call_once(|| {
        // SAFETY: the handlers are plain functions valid for the life of the
        // process (the library is never unloaded while a handler could run:
        // glibc removes a DSO's atfork handlers when it is dlclose'd).
        unsafe { libc::pthread_atfork(Some(before_fork), Some(after_fork), Some(after_fork)) };
    });
    raw_lock();
    Guard(())
}
