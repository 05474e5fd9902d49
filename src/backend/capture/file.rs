//! What the capture file is, and one record's `writev` to it without a
//! signal that could kill the host.
//!
//! The record size each kind of file takes (see docs/capture-mode.md):
//! - a FIFO or pipe: up to `PIPE_BUF` bytes, the most a pipe writes at once
//!   (larger writes from several threads or processes interleave, and the
//!   records would be unreadable);
//! - anything else: up to [`MAX_RECORD`] bytes, the largest record
//!   `eventheader decode` reads (`MAX_RECORD` in
//!   `cli/src/perfdata/buffered_input.rs`). Larger records could not be read back,
//!   and a `writev` of 2 GiB or more is always short (the kernel writes at
//!   most 2 GiB - 4 KiB at once), which would leave a torn record.
//!
//! Larger records are refused with E2BIG before anything is written.
//!
//! A write to a pipe whose reader is gone raises SIGPIPE, and a write at the
//! file size limit (`RLIMIT_FSIZE`) raises SIGXFSZ: by default each kills
//! the process. A tracing library must never kill its host, so while a
//! capture write to a regular file or a FIFO is in progress those two
//! signals are blocked on the writing thread, the one the write raised
//! (EPIPE, EFBIG) is taken back unless it was pending already, and the
//! write returns the errno. Other files (`/dev/null`, a terminal) raise
//! neither, and their writes skip the two mask changes.
#![deny(clippy::multiple_unsafe_ops_per_block)]

use core::ffi::c_int;
use core::ptr;
use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use libc::iovec;

use crate::sys::errno;

/// The largest capture record, with its size field: the largest record
/// `eventheader decode` reads.
pub const MAX_RECORD: u32 = 64 << 20;

/// The largest record the current capture file takes. Written under the
/// capture write lock, read under it.
static LIMIT: AtomicU32 = AtomicU32::new(MAX_RECORD);
/// Whether writes to the current capture file may raise SIGPIPE or SIGXFSZ.
/// Written and read under the capture write lock.
static GUARDED: AtomicBool = AtomicBool::new(true);

/// What a capture file is: its record limit, and whether its writes may
/// raise a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    limit: u32,
    guarded: bool,
}

impl Kind {
    /// The kind of the file open on `fd`.
    pub fn of(fd: c_int) -> Result<Kind, c_int> {
        // SAFETY: an all-zero stat is a valid value, overwritten by fstat.
        let mut st: libc::stat = unsafe { core::mem::zeroed() };
        // SAFETY: `st` is a writable stat.
        if unsafe { libc::fstat(fd, &mut st) } != 0 {
            return Err(errno());
        }
        Ok(match st.st_mode & libc::S_IFMT {
            libc::S_IFIFO => Kind {
                limit: libc::PIPE_BUF as u32,
                guarded: true,
            },
            libc::S_IFREG => Kind {
                limit: MAX_RECORD,
                guarded: true,
            },
            _ => Kind {
                limit: MAX_RECORD,
                guarded: false,
            },
        })
    }

    /// Makes this the current capture file's kind (under the capture write
    /// lock).
    pub fn install(self) {
        LIMIT.store(self.limit, Ordering::Relaxed);
        GUARDED.store(self.guarded, Ordering::Relaxed);
    }
}

/// The largest record the current capture file takes (under the capture
/// write lock).
#[inline(always)]
pub fn limit() -> u32 {
    LIMIT.load(Ordering::Relaxed)
}

/// `writev(fd, vecs)`, with SIGPIPE and SIGXFSZ kept from the process (see
/// the module documentation): the bytes written, or the errno. Under the
/// capture write lock.
///
/// # Safety
/// Every buffer of `vecs` must be readable for its length.
#[inline(always)]
pub unsafe fn writev(fd: c_int, vecs: &[iovec]) -> Result<usize, c_int> {
    if !GUARDED.load(Ordering::Relaxed) {
        // SAFETY: the caller guarantees the buffers.
        return unsafe { plain_writev(fd, vecs) };
    }
    // SAFETY: as above.
    unsafe { guarded_writev(fd, vecs) }
}

/// # Safety
/// As for [`writev`].
#[inline(always)]
unsafe fn plain_writev(fd: c_int, vecs: &[iovec]) -> Result<usize, c_int> {
    // SAFETY: the caller guarantees the buffers; the count is at most
    // 1025 (a C count of at most 1024, and the header).
    let ret = unsafe { libc::writev(fd, vecs.as_ptr(), vecs.len() as c_int) };
    usize::try_from(ret).map_err(|_| errno())
}

/// An empty signal set with `signals` added.
fn set_of(signals: &[c_int]) -> libc::sigset_t {
    // SAFETY: an all-zero sigset_t is a valid value, emptied next.
    let mut set: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: `set` is a writable sigset_t.
    unsafe { libc::sigemptyset(&mut set) };
    for &signal in signals {
        // SAFETY: as above; `signal` is a valid signal number.
        unsafe { libc::sigaddset(&mut set, signal) };
    }
    set
}

fn member(set: &libc::sigset_t, signal: c_int) -> bool {
    // SAFETY: `set` is an initialized sigset_t.
    unsafe { libc::sigismember(set, signal) == 1 }
}

/// # Safety
/// As for [`writev`].
#[inline(never)]
unsafe fn guarded_writev(fd: c_int, vecs: &[iovec]) -> Result<usize, c_int> {
    let block = set_of(&[libc::SIGPIPE, libc::SIGXFSZ]);
    let mut old = set_of(&[]);
    // SAFETY: both are initialized sigset_t; only this thread's mask
    // changes, and it is restored below.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut old) };
    // A signal can be pending already only if the thread blocked it.
    let mut before = set_of(&[]);
    if member(&old, libc::SIGPIPE) || member(&old, libc::SIGXFSZ) {
        // SAFETY: `before` is a writable sigset_t.
        unsafe { libc::sigpending(&mut before) };
    }
    // SAFETY: the caller guarantees the buffers.
    let result = unsafe { plain_writev(fd, vecs) };
    let raised = match result {
        Err(libc::EPIPE) => libc::SIGPIPE,
        Err(libc::EFBIG) => libc::SIGXFSZ,
        _ => 0,
    };
    if raised != 0 && !member(&before, raised) {
        let this = set_of(&[raised]);
        let now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `this` is an initialized set of a blocked signal; a zero
        // timeout polls: it takes the pending signal the write raised, or
        // returns EAGAIN.
        unsafe { libc::sigtimedwait(&this, ptr::null_mut(), &now) };
    }
    // SAFETY: `old` is the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, ptr::null_mut()) };
    result
}
