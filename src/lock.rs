//! The library's one lock: serializes open, close, connect and capture-file
//! selection for the whole process. The write path never takes it.
//!
//! It is a pthread mutex with `pthread_atfork` handlers (taken before
//! `fork()`, released after it in parent and child), so a child forked while
//! another thread was registering tracepoints can still register its own
//! instead of deadlocking on a lock whose owner does not exist in the child.
//!
//! Beside it, the capture write lock ([`capture_write`]): capture-mode
//! writes take it around their `writev`, so that a short write is noticed
//! before any other record is appended (see `backend::capture`). The fork
//! handlers take it after the library lock, as capture-file selection does.
//! Writes may come from signal handlers, so it is not a pthread mutex (not
//! async-signal-safe, and a handler that interrupted its own thread's
//! capture write would wait for itself forever): it is a word holding its
//! owner's `pthread_self()`, taken with one compare-and-swap, so a thread
//! that asks for it while holding it gets EDEADLK at once; other threads
//! wait on a futex.
//!
//! Data that only the lock's holder may touch is a [`Locked`], reached
//! through the [`Guard`].
//!
//! The first lock also registers an exit handler (`atexit`), which tells the
//! library's unload destructor ([`for_unload`]) whether it runs because the
//! process exits or because the library is being unloaded (`dlclose`).
//! Both handlers are libc_nonshared's (see `sys.rs`): registered under this
//! object's `__dso_handle`, glibc forgets them when the object is unloaded.
#![deny(clippy::multiple_unsafe_ops_per_block)]

use core::cell::UnsafeCell;
use core::ffi::c_int;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

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

fn raw_lock(mutex: &PthreadCell<libc::pthread_mutex_t>) {
    // SAFETY: `mutex` is a valid, statically initialized mutex. A normal
    // mutex fails only on a relock by its owner, which the guard discipline
    // rules out.
    unsafe { libc::pthread_mutex_lock(mutex.0.get()) };
}

fn raw_unlock(mutex: &PthreadCell<libc::pthread_mutex_t>) {
    // SAFETY: called only by the thread holding `mutex` (a guard's owner, or
    // the forking thread, which in the child is the only thread).
    unsafe { libc::pthread_mutex_unlock(mutex.0.get()) };
}

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

extern "C" fn before_fork() {
    raw_lock(&LOCK);
    FORK_TOOK_CAPTURE.store(capture_lock().is_ok(), Ordering::Relaxed);
}

extern "C" fn after_fork_parent() {
    if FORK_TOOK_CAPTURE.load(Ordering::Relaxed) {
        capture_unlock();
    }
    raw_unlock(&LOCK);
}

extern "C" fn after_fork_child() {
    // The parent's waiting threads do not exist here.
    CAPTURE_WAITERS.store(0, Ordering::SeqCst);
    after_fork_parent();
}

/// The library has taken its lock at least once (its handlers are
/// registered).
static USED: AtomicBool = AtomicBool::new(false);
/// The process is exiting: its exit handlers have started.
static EXITING: AtomicBool = AtomicBool::new(false);

extern "C" fn mark_exiting() {
    EXITING.store(true, Ordering::Relaxed);
}

extern "C" fn register_handlers() {
    // SAFETY: the handlers are plain functions of this object; glibc removes
    // an object's atfork handlers when it is unloaded (they are registered
    // with its __dso_handle, see sys.rs).
    unsafe {
        libc::pthread_atfork(
            Some(before_fork),
            Some(after_fork_parent),
            Some(after_fork_child),
        )
    };
    // SAFETY: as above; an exit handler of an unloaded object is run by the
    // unload itself (__cxa_finalize), never later. A failure (out of memory)
    // only means the unload destructor also runs its cleanup at exit.
    unsafe { libc::atexit(mark_exiting) };
    USED.store(true, Ordering::Relaxed);
}

/// Holds the lock until dropped. There is at most one in the process at a
/// time (it is the mutex), and it stays on the thread that took it.
pub struct Guard(PhantomData<*mut ()>);

impl Drop for Guard {
    fn drop(&mut self) {
        raw_unlock(&LOCK);
    }
}

/// Holds the capture write lock until dropped.
pub struct WriteGuard(PhantomData<*mut ()>);

impl Drop for WriteGuard {
    fn drop(&mut self) {
        capture_unlock();
    }
}

/// Takes the capture write lock; EDEADLK, at once, when this thread holds
/// it already (a signal handler interrupted its capture write). Its holder
/// never takes the library lock (the fork handlers and capture-file
/// selection take the library lock first). Only capture-mode tracepoints
/// write, and they were registered under [`lock`], which registered the
/// fork handlers. Async-signal-safe.
pub fn capture_write() -> Result<WriteGuard, c_int> {
    capture_lock()?;
    Ok(WriteGuard(PhantomData))
}

/// Takes the library lock.
pub fn lock() -> Guard {
    // SAFETY: ATFORK_ONCE is a valid, statically initialized once control;
    // pthread_once runs the handler registration exactly once per process
    // (registering twice would make the fork handlers lock twice).
    unsafe { libc::pthread_once(ATFORK_ONCE.0.get(), register_handlers) };
    raw_lock(&LOCK);
    Guard(PhantomData)
}

/// The lock, for the library's unload destructor: None when there is
/// nothing to release (the library was never used) or nothing to gain (the
/// process is exiting: its descriptors and memory go with it, and a thread
/// still writing must not find them gone).
///
/// Order (glibc): at exit, the exit handlers, this library's among them,
/// run before the destructors of the loaded objects, so the destructor sees
/// EXITING. At dlclose, an object's destructors run before its exit
/// handlers (`__cxa_finalize` is called by the C runtime's last destructor
/// entry), so it does not. When the library's first use was in another
/// object's constructor at program start (before glibc registered its own
/// exit handler, which runs the destructors), the destructor cannot tell
/// and releases at exit too, after every object that depends on this one
/// has run its destructors.
pub fn for_unload() -> Option<Guard> {
    if !USED.load(Ordering::Relaxed) || EXITING.load(Ordering::Relaxed) {
        return None;
    }
    Some(lock())
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
