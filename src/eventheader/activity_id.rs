//! New activity ids for `TraceLoggingActivity.h`: random (RFC 4122 version
//! 4) 16-byte ids, never zero, made without a lock or a system call.
//!
//! Each id is a keyed mix of a process-wide counter: the key is 128 bits
//! from `getrandom` (read once, at the first id; again in a child after
//! `fork()`, so that parent and child never share a sequence), the counter
//! an atomic that every id increments. Ids of one process differ as the
//! counter values do (the mix is a bijection of the counter but for the 6
//! version and variant bits); ids of different processes as random 122-bit
//! values do.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static KEY: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
/// KEY holds this process's key (cleared in a child after fork()).
static SEEDED: AtomicBool = AtomicBool::new(false);
/// The fork handler is registered.
static ATFORK: AtomicBool = AtomicBool::new(false);
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A new activity id, in the byte order it is written in events.
pub fn create() -> [u8; 16] {
    let (k0, k1) = key();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let hi = mix(k0 ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let lo = mix(k1 ^ hi);
    let mut id = (u128::from(hi) << 64 | u128::from(lo)).to_be_bytes();
    // RFC 4122 version 4 (random) and variant 10x: never all zero.
    id[6] = (id[6] & 0x0f) | 0x40;
    id[8] = (id[8] & 0x3f) | 0x80;
    id
}

/// splitmix64's finalizer: a bijection of u64 that spreads every input bit
/// over the output.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn key() -> (u64, u64) {
    if !SEEDED.load(Ordering::Acquire) {
        seed();
    }
    (
        KEY[0].load(Ordering::Relaxed),
        KEY[1].load(Ordering::Relaxed),
    )
}

/// Reads a new key. Threads that race here each store a random key; ids
/// made meanwhile mix words of both, which are random all the same.
#[cold]
fn seed() {
    if !ATFORK.swap(true, Ordering::AcqRel) {
        // SAFETY: the handler is a plain function valid for the life of the
        // process (glibc removes a DSO's fork handlers when it is
        // dlclose'd). Registration fails only without memory; a child then
        // keeps the parent's key and its ids stay unique within it.
        unsafe { libc::pthread_atfork(None, None, Some(forget_key_in_child)) };
    }
    let mut key = [0u8; 16];
    if !getrandom(&mut key) {
        key = fallback_entropy();
    }
    let key = u128::from_ne_bytes(key);
    KEY[0].store(key as u64, Ordering::Relaxed);
    KEY[1].store((key >> 64) as u64, Ordering::Relaxed);
    SEEDED.store(true, Ordering::Release);
}

extern "C" fn forget_key_in_child() {
    SEEDED.store(false, Ordering::Relaxed);
}

/// Fills `buf` from the kernel's random pool; false if it cannot (a kernel
/// before 3.17, or a seccomp filter refusing the call). Requests of up to
/// 256 bytes are filled whole or fail; EINTR (a signal while the pool was
/// not yet initialized) retries. The system call, not glibc's wrapper
/// (glibc 2.25), so that the library needs no function glibc 2.17 lacks
/// (docs/install.md).
fn getrandom(buf: &mut [u8; 16]) -> bool {
    loop {
        // SAFETY: `buf` is writable for its length.
        let n = unsafe { libc::syscall(libc::SYS_getrandom, buf.as_mut_ptr(), buf.len(), 0) };
        if n == buf.len() as libc::c_long {
            return true;
        }
        if n >= 0 || crate::sys::errno() != libc::EINTR {
            return false;
        }
    }
}

/// A key when getrandom fails: the clocks, the process and thread ids and
/// two addresses (randomized by ASLR), mixed.
fn fallback_entropy() -> [u8; 16] {
    let mut acc = 0u64;
    for clock in [libc::CLOCK_REALTIME, libc::CLOCK_MONOTONIC] {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a writable timespec.
        unsafe { libc::clock_gettime(clock, &mut ts) };
        acc = mix(acc ^ (ts.tv_sec as u64) ^ ((ts.tv_nsec as u64) << 32));
    }
    // SAFETY: getpid has no preconditions.
    let pid = unsafe { libc::getpid() } as u64;
    // SAFETY: gettid has no preconditions (the system call: glibc's
    // wrapper is 2.30's).
    let tid = unsafe { libc::syscall(libc::SYS_gettid) } as u64;
    let ids = pid << 32 | tid;
    let here = &acc as *const u64 as u64;
    let hi = mix(acc ^ ids);
    let lo = mix(hi ^ here ^ (&KEY as *const _ as u64).rotate_left(32));
    (u128::from(hi) << 64 | u128::from(lo)).to_ne_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_version_4_distinct_and_never_zero() {
        let ids: std::collections::HashSet<[u8; 16]> = (0..100_000).map(|_| create()).collect();
        assert_eq!(ids.len(), 100_000);
        for id in &ids {
            assert_eq!(id[6] >> 4, 4, "version 4: {id:02x?}");
            assert_eq!(id[8] >> 6, 0b10, "variant 10: {id:02x?}");
        }
    }

    #[test]
    fn a_new_key_after_fork_gives_other_ids() {
        let before = create();
        forget_key_in_child();
        let after = create();
        assert_ne!(before, after);
        assert!(SEEDED.load(Ordering::Relaxed));
    }

    #[test]
    fn the_fallback_key_is_not_zero() {
        assert_ne!(fallback_entropy(), [0u8; 16]);
    }
}
