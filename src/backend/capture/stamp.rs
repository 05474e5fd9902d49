//! The time, process id and thread id a timed capture record carries
//! (docs/format.md §7.4), got without a lock, an allocation or, once a
//! thread has written, a system call but the clock's.
//!
//! - Time: `CLOCK_MONOTONIC` in nanoseconds, the clock `eventheader collect`
//!   has the kernel stamp its samples with, so that a capture and a recording
//!   of the same run line up. glibc reads it through the vDSO.
//! - Process id: read once with `getpid` and kept in [`PID`]; a child after
//!   `fork()` forgets it (its fork handler), and reads its own at its first
//!   write.
//! - Thread id: read once per thread with `gettid` and kept in a
//!   thread-specific value (a pthread key, made when the timed layout is
//!   first selected) together with the number of forks the process had seen
//!   when it was read ([`FORKS`]): after `fork()`, the child's one thread
//!   still holds its parent thread's value, whose fork count no longer
//!   matches, so it reads its own. A process made by a raw `clone` system
//!   call runs no fork handler: it keeps its parent's ids (documented in
//!   docs/capture-mode.md).
//!
//! Without a key (`pthread_key_create` failed), each write reads the thread
//! id with `gettid`.

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// This process's id, 0 until read (and in a child after fork()).
static PID: AtomicU32 = AtomicU32::new(0);
/// Forks this process has gone through (counted in the child).
static FORKS: AtomicU32 = AtomicU32::new(0);
/// The pthread key + 1 of the cached thread ids (0: none).
static KEY: AtomicU32 = AtomicU32::new(0);
/// The fork handler is registered.
static ATFORK: AtomicBool = AtomicBool::new(false);

extern "C" fn forget_ids_in_child() {
    PID.store(0, Ordering::Relaxed);
    FORKS.fetch_add(1, Ordering::Relaxed);
}

/// Makes what the timed layout needs: the fork handler and the thread-id
/// key. Called under the library lock when the timed layout is selected;
/// does nothing the second time.
pub fn prepare() {
    if !ATFORK.swap(true, Ordering::AcqRel) {
        // SAFETY: the handler is a plain function of this object; glibc
        // removes an object's fork handlers when it is unloaded. A failure
        // (no memory) leaves a child with its parent's cached pid.
        unsafe { libc::pthread_atfork(None, None, Some(forget_ids_in_child)) };
    }
    if KEY.load(Ordering::Acquire) == 0 {
        let mut key: libc::pthread_key_t = 0;
        // SAFETY: `key` is writable; no destructor (the value is a number).
        if unsafe { libc::pthread_key_create(&mut key, None) } == 0 {
            KEY.store(key + 1, Ordering::Release);
        }
    }
}

/// Deletes the thread-id key (the library is being unloaded).
pub fn release() {
    let key = KEY.swap(0, Ordering::AcqRel);
    if key != 0 {
        // SAFETY: the key was made by `prepare` and is deleted once.
        unsafe { libc::pthread_key_delete(key - 1) };
    }
}

/// `CLOCK_MONOTONIC` now, in nanoseconds.
#[inline(always)]
pub fn now() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a writable timespec; CLOCK_MONOTONIC always exists.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// This process's id.
#[inline(always)]
pub fn pid() -> u32 {
    let pid = PID.load(Ordering::Relaxed);
    if pid != 0 {
        return pid;
    }
    // SAFETY: getpid has no preconditions.
    let pid = unsafe { libc::getpid() } as u32;
    PID.store(pid, Ordering::Relaxed);
    pid
}

/// The calling thread's id.
#[inline(always)]
pub fn tid() -> u32 {
    let key = KEY.load(Ordering::Acquire);
    if key == 0 {
        return gettid();
    }
    let key = key - 1;
    let forks = FORKS.load(Ordering::Relaxed);
    // SAFETY: `key` is a live key (deleted only when the library is
    // unloaded, when nothing writes).
    let cached = unsafe { libc::pthread_getspecific(key) } as usize as u64;
    if cached != 0 && (cached >> 32) as u32 == forks {
        return cached as u32;
    }
    cache_tid(key, forks)
}

#[cold]
fn cache_tid(key: libc::pthread_key_t, forks: u32) -> u32 {
    let tid = gettid();
    let value = (u64::from(forks) << 32 | u64::from(tid)) as usize;
    // SAFETY: `key` is a live key; the value is a number, never dereferenced.
    // A failure (no memory for a high key) leaves it uncached.
    unsafe { libc::pthread_setspecific(key, value as *const libc::c_void) };
    tid
}

fn gettid() -> u32 {
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as u32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_the_system_calls() {
        prepare();
        // SAFETY: getpid has no preconditions.
        assert_eq!(pid(), unsafe { libc::getpid() } as u32);
        assert_eq!(tid(), gettid());
        assert_eq!(tid(), gettid());
        let other = std::thread::spawn(|| (tid(), gettid())).join().unwrap();
        assert_eq!(other.0, other.1);
        assert_ne!(other.0, tid());
        // A fork seen: the cached value is read again.
        FORKS.fetch_add(1, Ordering::Relaxed);
        assert_eq!(tid(), gettid());
        let a = now();
        assert!(now() >= a && a > 0);
    }
}
