//! The capture backend: events go to a file instead of the kernel.
//!
//! Selected by the environment variable `TRACEPOINT_CAPTURE_FILE` (read with
//! `secure_getenv`, so ignored in setuid/setgid processes) or by
//! `tracepoint_set_capture_file()`. Providers opened while a capture file is
//! selected write to it, and their tracepoints report enabled as soon as they
//! are connected.
//!
//! File format: a sequence of records, each
//! `u32 record_size` (little-endian, counting these 4 bytes), the tracepoint
//! name with a NUL, then the event bytes exactly as they follow the write
//! index in a user_events write. With `TRACEPOINT_CAPTURE_LAYOUT=timed`
//! (read when a file is selected) the size field has its top bit set and is
//! followed by the time (CLOCK_MONOTONIC), pid and tid of the write
//! ([`stamp`], docs/format.md §7.4): which layout a write uses is part of
//! the one word it reads about the file. Each record is one `writev` on a descriptor
//! opened with O_APPEND, so records from several threads and processes never
//! interleave in a regular file; a FIFO or pipe takes records of at most
//! `PIPE_BUF` bytes, which it writes at once, and any file records of at most
//! 64 MiB, what `eventheader decode` reads: larger ones are refused with E2BIG
//! ([`file`], which also keeps SIGPIPE and SIGXFSZ from the host).
//!
//! Capture writes take no lock: a thread cancelled inside its capture
//! `writev` (a cancellation point), or a signal handler that interrupted a
//! capture write and leaves it with `siglongjmp`, leaves nothing held, and
//! a signal handler's capture write is an ordinary one (it may block where
//! the write it interrupted blocked, on a full FIFO). What a write needs to
//! know about the file is one word, read once per write ([`file`]); the
//! kernel keeps records whole: one `writev` with O_APPEND on a regular file
//! appends all its bytes at once (the inode is locked for the write), and a
//! pipe writes up to `PIPE_BUF` bytes at once.
//!
//! A short write (the file system filled up, RLIMIT_FSIZE) leaves a partial
//! record at the end of the file, and nothing after it could be read: its
//! size field claims bytes that the next record would provide. The file can
//! neither take the partial record back (other writers append to it too)
//! nor be resynchronised by a reader, so the process stops writing to it:
//! the short write returns ENOSPC, and every capture write that starts
//! after it returned (in any thread) returns ENOSPC without writing, until
//! a capture file is selected again (`tracepoint_set_capture_file`). A
//! write of another thread that had already started when the short write
//! happened may still land after the partial record and return 0: its
//! record is whole but unreachable for a reader. (Another process appending
//! to the same file, such as a child after fork, knows only its own short
//! writes.) A write that writes nothing (EFBIG at the file size limit,
//! EPIPE) leaves the file whole and returns its errno.
//!
//! Selecting another file while other threads write: a write reads the
//! file's limit and whether to block SIGPIPE and SIGXFSZ once, before its
//! `writev`. The switch first narrows that word to what both files take
//! (the smaller limit; blocking if either file needs it), then changes the
//! file, then sets the new file's word, so a write that starts during the
//! switch suits both files. A write that read the word before the switch
//! started and reaches its `writev` only after the file changed (a window of
//! a few instructions, unless the thread is descheduled or interrupted
//! right there) writes to the new file as the old one allowed: into a FIFO
//! after a regular file, that is a record over `PIPE_BUF` (possibly
//! interleaved) or a write without the signal guard. A program that
//! switches to a FIFO or socket while other threads write capture events
//! and wants none of that selects the FIFO before the writes start.
//!
//! The capture descriptor number never changes once allocated: selecting
//! another file `dup3`s the new file onto it, which redirects every
//! capture-mode provider at once, and lets the write path recognise capture
//! providers by their `data_file` alone.

use core::ffi::{c_int, CStr};
use core::sync::atomic::{AtomicI32, Ordering};

use libc::iovec;

use super::capture_link::{environment_layout_timed, environment_path, CaptureBackend};
use super::capture_names;
use crate::cstr_buf::CStrBuf;
use crate::diagnostics::report as diagnostics;
use crate::lock::{lock, Guard, Locked};
use crate::sys::errno;
use file::Kind;

mod file;
mod stamp;

/// Longest tracepoint name (without the NUL) a capture record may carry.
pub const MAX_NAME: usize = crate::tracepoint_name::MAX;

/// Longest path kept from the environment, with its NUL (open() refuses
/// longer ones with ENAMETOOLONG anyway).
const PATH_MAX: usize = libc::PATH_MAX as usize;

/// The capture descriptor, or -1 before the first capture file is opened.
static FD: AtomicI32 = AtomicI32::new(-1);

/// What providers opened from now on write to.
#[allow(clippy::large_enum_variant)] // one instance, a static
enum Selection {
    /// TRACEPOINT_CAPTURE_FILE has not been read yet.
    EnvUnread,
    /// The kernel.
    Kernel,
    /// The selected file, open on [`FD`].
    Open,
    /// A file named by the environment that is not open yet: each provider
    /// open tries again.
    Pending(CStrBuf<PATH_MAX>),
    /// The environment names a path longer than any file name.
    TooLong,
}

static SELECTION: Locked<Selection> = Locked::new(Selection::EnvUnread);

/// This backend's functions, for the rest of the library (see
/// [`super::capture_link`]), published under a hidden, weak alias.
static BACKEND: CaptureBackend = CaptureBackend {
    fd,
    selected_fd,
    register,
    write,
    release,
};

core::arch::global_asm!(
    ".weak _tracepoint_capture_backend",
    ".hidden _tracepoint_capture_backend",
    ".set _tracepoint_capture_backend, {backend}",
    backend = sym BACKEND,
);

/// The capture descriptor (-1 if no capture file was ever opened).
#[inline(always)]
pub fn fd() -> c_int {
    FD.load(Ordering::Relaxed)
}

/// The descriptor a provider opened now should capture to, or None for the
/// kernel. Opens the selected file if it is not open yet.
pub fn selected_fd(guard: &mut Guard) -> Result<Option<c_int>, c_int> {
    if let Selection::EnvUnread = SELECTION.get(guard) {
        let selection = from_environment(guard);
        *SELECTION.get(guard) = selection;
    }
    let selection = SELECTION.get(guard);
    match selection {
        Selection::EnvUnread | Selection::Kernel => Ok(None),
        Selection::Open => Ok(Some(fd())),
        Selection::TooLong => {
            diagnostics::capture_path_too_long();
            Err(libc::ENAMETOOLONG)
        }
        Selection::Pending(path) => {
            install(path.as_c_str())?;
            *selection = Selection::Open;
            Ok(Some(fd()))
        }
    }
}

/// The selection TRACEPOINT_CAPTURE_FILE asks for (copied: the environment
/// may change later).
fn from_environment(guard: &Guard) -> Selection {
    let Some(value) = environment_path(guard) else {
        return Selection::Kernel;
    };
    let mut path = CStrBuf::new();
    match path.push(value) {
        Ok(()) => Selection::Pending(path),
        Err(_) => Selection::TooLong,
    }
}

/// Selects `path` as the capture file (None: providers opened from now on
/// use the kernel). The file is opened (created with mode 0644 if needed)
/// before this returns, so errors are reported here. Capture-mode providers
/// that are already open follow the new file; none are switched between
/// capture and kernel. Takes the library lock.
pub fn select_file(path: Option<&CStr>) -> Result<(), c_int> {
    let mut guard = lock();
    let selection = SELECTION.get(&mut guard);
    // An explicit choice overrides the environment, even a failed one.
    if let Selection::EnvUnread = selection {
        *selection = Selection::Kernel;
    }
    match path {
        None => *selection = Selection::Kernel,
        Some(path) => {
            if path.is_empty() {
                return Err(libc::ENOENT);
            }
            install(path)?;
            *selection = Selection::Open;
        }
    }
    Ok(())
}

/// Opens `path` and makes it the file behind the capture descriptor.
///
/// Called with the library lock held, which `fork()` also takes, so the open
/// must not block: it is non-blocking (a FIFO without a reader fails with
/// ENXIO instead of waiting), and writes are made blocking again afterwards.
fn install(path: &CStr) -> Result<(), c_int> {
    // The switch is read now, so that a later write error finds it read.
    diagnostics::enabled();
    let timed = timed_layout()?;
    let opened = open_capture_file(path, timed);
    if let Err(e) = opened {
        diagnostics::capture_file_failed(path.to_bytes(), e);
    }
    let (new, kind) = opened?;
    let current = FD.load(Ordering::Relaxed);
    if current < 0 {
        // The first capture file: no write is in flight.
        let switch = file::begin_switch(kind);
        file::end_switch(switch, kind);
        FD.store(new, Ordering::Release);
        return Ok(());
    }
    // Writes in flight: see the module documentation.
    let switch = file::begin_switch(kind);
    // SAFETY: both are descriptors we own; dup3 atomically replaces the file
    // behind `current`, which stays open for concurrent writers.
    let ret = unsafe { libc::dup3(new, current, libc::O_CLOEXEC) };
    let err = if ret < 0 { Some(errno()) } else { None };
    // SAFETY: `new` is ours and no longer needed.
    unsafe { libc::close(new) };
    match err {
        Some(e) => {
            file::abandon_switch(switch);
            Err(e)
        }
        None => {
            // The new file starts whole.
            file::end_switch(switch, kind);
            Ok(())
        }
    }
}

/// Whether the records take the timed layout (`TRACEPOINT_CAPTURE_LAYOUT`,
/// see [`environment_layout_timed`]); prepares what its writes need.
fn timed_layout() -> Result<bool, c_int> {
    let timed = environment_layout_timed()?;
    if timed {
        stamp::prepare();
    }
    Ok(timed)
}

/// Opens `path` for capture writes: its descriptor and kind.
fn open_capture_file(path: &CStr, timed: bool) -> Result<(c_int, Kind), c_int> {
    // SAFETY: `path` is a valid C string.
    let new = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT | libc::O_CLOEXEC | libc::O_NONBLOCK,
            0o644 as libc::c_uint,
        )
    };
    if new < 0 {
        return Err(errno());
    }
    // SAFETY: `new` is a descriptor we own.
    let cleared = unsafe { libc::fcntl(new, libc::F_SETFL, libc::O_APPEND) } == 0;
    let ready = match (cleared, Kind::of(new, timed)) {
        (false, _) => Err(errno()),
        (true, kind) => kind,
    };
    match ready {
        Ok(kind) => Ok((new, kind)),
        Err(e) => {
            // SAFETY: `new` is ours, closed once.
            unsafe { libc::close(new) };
            Err(e)
        }
    }
}

/// Closes the capture descriptor and frees the interned names (the library
/// is being unloaded).
pub(super) fn release(guard: &mut Guard) {
    let fd = FD.swap(-1, Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: the descriptor is ours, closed once (FD no longer names it).
        unsafe { libc::close(fd) };
    }
    *SELECTION.get(guard) = Selection::EnvUnread;
    file::reset();
    stamp::release();
    capture_names::release(guard);
}

/// "Registers" a tracepoint for capture: interns its name (checked by
/// [`crate::tracepoint_name`]: 1..=MAX_NAME bytes) and returns its index.
pub fn register(guard: &mut Guard, name: &[u8]) -> Result<c_int, c_int> {
    capture_names::intern(guard, name)
}

/// Writes one capture record for the tracepoint with capture index `index`
/// (as [`register`] returned it) to the capture descriptor. `vecs[0]` is set
/// to the record header (size and name), plus one padding byte if `pad`, as
/// in a user_events write.
///
/// # Safety
/// The buffers of `vecs[1..]` must be readable for their lengths.
#[inline(never)]
pub unsafe fn write(index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    // SAFETY: the caller guarantees the payload buffers.
    unsafe { write_to(fd(), index, vecs, pad) }
}

/// [`write()`] to descriptor `fd`.
///
/// # Safety
/// As for [`write()`].
#[inline(always)]
unsafe fn write_to(fd: c_int, index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    let Some(name) = capture_names::get(index) else {
        return libc::EBADF;
    };
    let Some((_, payload)) = vecs.split_first() else {
        return libc::EINVAL;
    };
    let head_len = 4 + name.len() + usize::from(pad);
    // Over u32 (the size field) is refused here; over what the file takes
    // (file::limit) under it.
    let record_len = payload
        .iter()
        .try_fold(head_len as u64, |sum, v| sum.checked_add(v.iov_len as u64))
        .and_then(|n| u32::try_from(n).ok());
    let Some(record_len) = record_len else {
        return diagnostics::capture_write_failed(libc::E2BIG);
    };
    // The one read of the file's state for this write (see `file`).
    let state = file::state();
    if record_len > file::limit(state) {
        // SAFETY: the caller guarantees the payload buffers.
        return unsafe { write_timed_or_refuse(fd, name, head_len, record_len, vecs, state) };
    }
    // Most names are short: a small head buffer keeps the zeroing cheap.
    if head_len <= SHORT_HEAD {
        // SAFETY: the caller guarantees the payload buffers.
        unsafe { write_record::<SHORT_HEAD, false>(fd, name, head_len, record_len, vecs, state) }
    } else {
        // SAFETY: the caller guarantees the payload buffers.
        unsafe { write_record::<LONG_HEAD, false>(fd, name, head_len, record_len, vecs, state) }
    }
}

/// The size field's top bit marks a record of the timed layout
/// (docs/format.md §7.4); no record is near 2 GiB (`file::MAX_RECORD`).
const TIMED_FLAG: u32 = 1 << 31;
/// The timed layout's time, pid and tid after the size field.
const STAMP: usize = 16;
const SHORT_HEAD: usize = 64;
const LONG_HEAD: usize = 4 + STAMP + MAX_NAME + 1 + 1;

/// A record the reference's layout's limit refused (`head_len` and
/// `record_len` are its sizes in that layout): written in the timed layout
/// if the file takes it (whose state has no reference limit, see `file`),
/// else refused.
///
/// # Safety
/// As for [`write()`].
#[cold]
#[inline(never)]
unsafe fn write_timed_or_refuse(
    fd: c_int,
    name: &[u8],
    head_len: usize,
    record_len: u32,
    vecs: &mut [iovec],
    state: u32,
) -> c_int {
    if !file::timed(state) {
        return diagnostics::capture_write_failed(file::refusal(state));
    }
    let head_len = head_len + STAMP;
    let record_len = record_len.checked_add(STAMP as u32);
    let Some(record_len) = record_len.filter(|&n| n <= file::timed_limit(state)) else {
        return diagnostics::capture_write_failed(libc::E2BIG);
    };
    if head_len <= SHORT_HEAD {
        // SAFETY: the caller guarantees the payload buffers.
        unsafe { write_record::<SHORT_HEAD, true>(fd, name, head_len, record_len, vecs, state) }
    } else {
        // SAFETY: the caller guarantees the payload buffers.
        unsafe { write_record::<LONG_HEAD, true>(fd, name, head_len, record_len, vecs, state) }
    }
}

/// Builds the head of a record (the timed layout's if `TIMED`) of
/// `record_len` bytes, within the file's limit, in a buffer of `N` bytes,
/// and writes it.
///
/// # Safety
/// As for [`write()`].
#[inline(always)]
unsafe fn write_record<const N: usize, const TIMED: bool>(
    fd: c_int,
    name: &[u8],
    head_len: usize,
    record_len: u32,
    vecs: &mut [iovec],
    state: u32,
) -> c_int {
    let mut head = [0u8; N];
    let (size, rest) = head.split_at_mut(4);
    let size_field = if TIMED {
        record_len | TIMED_FLAG
    } else {
        record_len
    };
    crate::bytes::copy(size, &size_field.to_le_bytes());
    let rest = if TIMED {
        let Some((stamp, rest)) = rest.split_at_mut_checked(STAMP) else {
            return libc::EINVAL;
        };
        let mut fields = [0u8; STAMP];
        let (time, ids) = fields.split_at_mut(8);
        let (pid, tid) = ids.split_at_mut(4);
        crate::bytes::copy(time, &stamp::now().to_le_bytes());
        crate::bytes::copy(pid, &stamp::pid().to_le_bytes());
        crate::bytes::copy(tid, &stamp::tid().to_le_bytes());
        crate::bytes::copy(stamp, &fields);
        rest
    } else {
        rest
    };
    let (Some(name_dst), Some(first)) = (rest.get_mut(..name.len()), vecs.first_mut()) else {
        return libc::EINVAL;
    };
    crate::bytes::copy(name_dst, name);
    // The padding byte of an empty event, if any, is already 0.
    *first = iovec {
        iov_base: head.as_mut_ptr().cast(),
        iov_len: head_len.min(N),
    };
    // SAFETY: the caller guarantees the payload buffers; vecs[0] points at
    // `head`, live until writev returns.
    match unsafe { file::writev(fd, vecs, state) } {
        Err(e) => diagnostics::capture_write_failed(e),
        Ok(written) if written as u64 != u64::from(record_len) => {
            // A short append (e.g. the disk filled up mid-record): a partial
            // record now ends the file, unless nothing was written.
            if written > 0 {
                file::mark_broken(state);
            }
            diagnostics::capture_write_failed(libc::ENOSPC)
        }
        Ok(_) => 0,
    }
}

#[cfg(test)]
mod tests;
