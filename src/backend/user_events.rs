//! The kernel's user_events interface (Linux 6.4+, CONFIG_USER_EVENTS).
//!
//! One `user_events_data` descriptor per process, opened on first use.
//! Tracepoints are registered with `DIAG_IOCSREG`, naming the address of
//! their `status_word`, which the kernel then keeps up to date; events are
//! written with one `writev` whose first vector is the 4-byte write index.

use core::ffi::{c_int, c_uint, CStr};
use core::sync::atomic::{AtomicI32, AtomicU32, Ordering};

use libc::iovec;

use crate::cstr_buf::CStrBuf;
use crate::lock::{Guard, Locked};
use crate::sys::errno;

/// The usual tracefs location, tried before scanning /proc/mounts.
const FAST_PATH: &CStr = c"/sys/kernel/tracing/user_events_data";

/// `struct user_reg` of the kernel uapi (packed).
#[repr(C, packed)]
struct UserReg {
    size: u32,
    enable_bit: u8,
    enable_size: u8,
    flags: u16,
    enable_addr: u64,
    name_args: u64,
    write_index: u32,
}

/// `struct user_unreg` of the kernel uapi (packed).
#[repr(C, packed)]
struct UserUnreg {
    size: u32,
    disable_bit: u8,
    reserved: u8,
    reserved2: u16,
    disable_addr: u64,
}

const fn ioc(dir: u32, nr: u32) -> u32 {
    // _IOC(dir, '*', nr, sizeof(pointer)): the uapi declares both ioctls
    // with a pointer type as the size argument.
    (dir << 30) | ((core::mem::size_of::<usize>() as u32) << 16) | ((b'*' as u32) << 8) | nr
}
const IOC_WRITE: u32 = 1;
const IOC_READ: u32 = 2;
/// `_IOWR('*', 0, struct user_reg*)`
pub const DIAG_IOCSREG: u32 = ioc(IOC_READ | IOC_WRITE, 0);
/// `_IOW('*', 1, char*)`
pub const DIAG_IOCSDEL: u32 = ioc(IOC_WRITE, 1);
/// `_IOW('*', 2, struct user_unreg*)`
pub const DIAG_IOCSUNREG: u32 = ioc(IOC_WRITE, 2);

/// The process's user_events_data descriptor once opened (-1 before). Set
/// once, under the lock, and never closed, so the write path reads it
/// without the lock: a tracepoint registered with the kernel writes here.
static FD: AtomicI32 = AtomicI32::new(-1);

/// The process's user_events_data descriptor (-1 if not open).
#[inline(always)]
pub fn fd() -> c_int {
    FD.load(Ordering::Relaxed)
}

/// The errno of a failure to open user_events_data that will not go away by
/// retrying (0 if none).
static LASTING_ERRNO: Locked<c_int> = Locked::new(0);

/// The process's user_events_data descriptor, opened on first call. Success
/// and lasting failures (no tracefs, no user_events, no permission) are kept
/// for the life of the process; passing ones (out of descriptors or memory,
/// interrupted) are retried on the next call.
pub fn user_events_data(guard: &mut Guard) -> Result<c_int, c_int> {
    let fd = FD.load(Ordering::Relaxed);
    if fd >= 0 {
        return Ok(fd);
    }
    let lasting_errno = LASTING_ERRNO.get(guard);
    if *lasting_errno != 0 {
        return Err(*lasting_errno);
    }
    match open_user_events_data() {
        Ok(fd) => {
            // Release: published before any registration on it (whose
            // write index the write path loads with Acquire).
            FD.store(fd, Ordering::Release);
            Ok(fd)
        }
        Err(e) => {
            if !is_transient(e) {
                *lasting_errno = e;
            }
            Err(e)
        }
    }
}

/// Closes the process's user_events_data descriptor (the library is being
/// unloaded): the kernel ends every registration made on it.
pub(super) fn release(guard: &mut Guard) {
    let fd = FD.swap(-1, Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: the descriptor is ours, closed once (FD no longer names it).
        unsafe { libc::close(fd) };
    }
    *LASTING_ERRNO.get(guard) = 0;
}

/// Errors of open() that a later attempt may not see.
fn is_transient(errno: c_int) -> bool {
    matches!(
        errno,
        libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::EINTR | libc::EAGAIN
    )
}

fn open_path(path: &CStr, flags: c_int) -> Result<c_int, c_int> {
    // SAFETY: `path` is a valid C string; open has no other preconditions.
    let fd = unsafe { libc::open(path.as_ptr(), flags | libc::O_CLOEXEC) };
    if fd >= 0 {
        Ok(fd)
    } else {
        Err(errno())
    }
}

/// Opens user_events_data: the usual tracefs path, else every tracefs mount
/// point in /proc/mounts, then every debugfs one (+ "/tracing").
fn open_user_events_data() -> Result<c_int, c_int> {
    let fast_err = match open_path(FAST_PATH, libc::O_RDWR) {
        Ok(fd) => return Ok(fd),
        Err(e) => e,
    };
    let mut last_err = None;
    for kind in [MountKind::Tracefs, MountKind::Debugfs] {
        let Ok(mounts) = open_path(c"/proc/mounts", libc::O_RDONLY) else {
            break;
        };
        let found = for_each_candidate(read_from(mounts), kind, |path| {
            if path == FAST_PATH {
                return None;
            }
            match open_path(path, libc::O_RDWR) {
                Ok(fd) => Some(fd),
                Err(e) => {
                    last_err = Some(e);
                    None
                }
            }
        });
        // SAFETY: `mounts` is our descriptor, closed once.
        unsafe { libc::close(mounts) };
        if let Some(fd) = found {
            return Ok(fd);
        }
    }
    Err(match last_err {
        Some(e) => e,
        // Nothing mounted anywhere else: a missing fast path means no
        // tracefs at all, which callers see as "not supported".
        None if fast_err == libc::ENOENT => libc::EOPNOTSUPP,
        None => fast_err,
    })
}

/// A reader over descriptor `fd`: fills the buffer it is given and returns
/// the byte count, 0 at the end of the file or on an error.
fn read_from(fd: c_int) -> impl FnMut(&mut [u8]) -> usize {
    move |buf| loop {
        // SAFETY: `buf` is writable for its length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 && errno() == libc::EINTR {
            continue;
        }
        return usize::try_from(n).unwrap_or(0);
    }
}

/// The file systems user_events_data can be found under.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MountKind {
    /// `<mount point>/user_events_data`
    Tracefs,
    /// `<mount point>/tracing/user_events_data`
    Debugfs,
}

/// Longest /proc/mounts line looked at; the rest of a longer line is
/// ignored (its first three fields are all that is read).
const LINE_MAX: usize = 8192;
/// Longest candidate path, with its NUL.
const PATH_MAX: usize = libc::PATH_MAX as usize;

/// Calls `f` with each candidate `user_events_data` path on a `kind` file
/// system in the text of /proc/mounts that `read` yields, in the file's
/// order, until `f` returns `Some`, and returns that.
fn for_each_candidate<R>(
    read: impl FnMut(&mut [u8]) -> usize,
    kind: MountKind,
    mut f: impl FnMut(&CStr) -> Option<R>,
) -> Option<R> {
    let mut path = CStrBuf::<PATH_MAX>::new();
    for_each_line(read, |line| {
        let mut words = line
            .split(|&b| b == b' ' || b == b'\t')
            .filter(|w| !w.is_empty());
        let (Some(_device), Some(mount_point), Some(fs_type)) =
            (words.next(), words.next(), words.next())
        else {
            return None;
        };
        let suffix: &[u8] = match (kind, fs_type) {
            (MountKind::Tracefs, b"tracefs") => b"/user_events_data",
            (MountKind::Debugfs, b"debugfs") => b"/tracing/user_events_data",
            _ => return None,
        };
        path.clear();
        if unescape_mount_point(mount_point, &mut path).is_err() || path.push(suffix).is_err() {
            return None; // longer than any path open() accepts
        }
        f(path.as_c_str())
    })
}

/// Calls `f` with each line `read` yields (without the newline; the first
/// LINE_MAX bytes of a longer line) until it returns `Some`.
fn for_each_line<R>(
    mut read: impl FnMut(&mut [u8]) -> usize,
    mut f: impl FnMut(&[u8]) -> Option<R>,
) -> Option<R> {
    let mut chunk = [0u8; 1024];
    let mut line = [0u8; LINE_MAX];
    let mut len = 0;
    loop {
        let n = read(&mut chunk);
        if n == 0 {
            break;
        }
        for &b in chunk.get(..n).unwrap_or_default() {
            if b == b'\n' {
                if let Some(r) = f(line.get(..len).unwrap_or_default()) {
                    return Some(r);
                }
                len = 0;
            } else if let Some(slot) = line.get_mut(len) {
                *slot = b;
                len += 1;
            }
        }
    }
    if len > 0 {
        return f(line.get(..len).unwrap_or_default());
    }
    None
}

/// /proc/mounts writes ' ', '\t', '\n' and '\\' in mount points as octal
/// escapes ("\040"). Appends the unescaped `text` to `out`.
fn unescape_mount_point<const N: usize>(
    text: &[u8],
    out: &mut CStrBuf<N>,
) -> Result<(), crate::cstr_buf::Full> {
    let mut rest = text;
    while let Some((&b, tail)) = rest.split_first() {
        if let (b'\\', [d1 @ b'0'..=b'3', d2 @ b'0'..=b'7', d3 @ b'0'..=b'7', after @ ..]) =
            (b, tail)
        {
            out.push_byte((d1 - b'0') * 64 + (d2 - b'0') * 8 + (d3 - b'0'))?;
            rest = after;
        } else {
            out.push_byte(b)?;
            rest = tail;
        }
    }
    Ok(())
}

/// Registers "Name arg-spec" on `fd`; the kernel will set bit 0 of
/// `status_word` while the tracepoint is enabled. Returns the write index.
pub fn register(
    fd: c_int,
    status_word: &AtomicU32,
    name_args: &CStr,
    flags: c_uint,
) -> Result<c_int, c_int> {
    let Ok(flags) = u16::try_from(flags) else {
        return Err(libc::EINVAL);
    };
    let mut reg = UserReg {
        size: core::mem::size_of::<UserReg>() as u32,
        enable_bit: 0,
        enable_size: core::mem::size_of::<AtomicU32>() as u8,
        flags,
        enable_addr: status_word.as_ptr() as u64,
        name_args: name_args.as_ptr() as u64,
        write_index: 0,
    };
    // SAFETY: `reg` is a valid user_reg for the duration of the call; the
    // kernel keeps only the enable address, which the caller's
    // tracepoint_state owns until it is unregistered.
    let ret = unsafe { libc::ioctl(fd, DIAG_IOCSREG as _, &mut reg as *mut UserReg) };
    if ret < 0 {
        return Err(errno());
    }
    c_int::try_from(reg.write_index).map_err(|_| libc::E2BIG)
}

/// Tells the kernel to stop updating `status_word`.
pub fn unregister(fd: c_int, status_word: &AtomicU32) {
    let mut unreg = UserUnreg {
        size: core::mem::size_of::<UserUnreg>() as u32,
        disable_bit: 0,
        reserved: 0,
        reserved2: 0,
        disable_addr: status_word.as_ptr() as u64,
    };
    // SAFETY: `unreg` is a valid user_unreg for the duration of the call.
    // An error leaves nothing to undo: the registration is gone either way
    // once the descriptor or the address is.
    unsafe { libc::ioctl(fd, DIAG_IOCSUNREG as _, &mut unreg as *mut UserUnreg) };
}

/// Writes one event of the tracepoint registered as `index` on the
/// process's user_events_data descriptor: `vecs[0]` is set to the write
/// index, plus one padding byte if `pad` (an event with no bytes at all,
/// which the kernel would otherwise drop).
///
/// # Safety
/// `vecs` must not be empty; the buffers of `vecs[1..]` must be readable for
/// their lengths.
#[inline(always)]
pub unsafe fn write(index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    // The write index in native byte order, then a zero padding byte: one
    // 8-byte store.
    let index = u64::from(index as u32);
    let prefix: u64 = if cfg!(target_endian = "little") {
        index
    } else {
        index << 32
    };
    // SAFETY: `vecs` has a first element (the caller's guarantee).
    unsafe {
        vecs.as_mut_ptr().write(iovec {
            iov_base: &prefix as *const u64 as *mut _,
            iov_len: 4 + usize::from(pad),
        })
    };
    // SAFETY: the caller guarantees the payload buffers; vecs[0] points at
    // `prefix`, live until writev returns. A descriptor of -1 (a write
    // racing the first registration) fails with EBADF.
    let ret = unsafe {
        libc::writev(
            FD.load(Ordering::Relaxed),
            vecs.as_ptr(),
            vecs.len() as c_int,
        )
    };
    if ret < 0 {
        errno()
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    /// docs/format.md §6.2 and §6.3.
    #[test]
    fn ioctl_numbers_match_the_uapi() {
        assert_eq!(DIAG_IOCSREG, 0xC008_2A00);
        assert_eq!(DIAG_IOCSDEL, 0x4008_2A01);
        assert_eq!(DIAG_IOCSUNREG, 0x4008_2A02);
        assert_eq!(core::mem::size_of::<UserReg>(), 28);
        assert_eq!(core::mem::size_of::<UserUnreg>(), 16);
    }

    /// A reader over `text` that yields at most `step` bytes per call.
    fn reader(text: &[u8], step: usize) -> impl FnMut(&mut [u8]) -> usize + '_ {
        let mut at = 0;
        move |buf| {
            let n = step.min(buf.len()).min(text.len() - at);
            buf[..n].copy_from_slice(&text[at..at + n]);
            at += n;
            n
        }
    }

    fn candidates(text: &[u8], step: usize, kind: MountKind) -> Vec<String> {
        let mut out = Vec::new();
        for_each_candidate(reader(text, step), kind, |p| {
            out.push(p.to_str().unwrap().into());
            None::<()>
        });
        out
    }

    /// The search order of docs/format.md §6.1.
    #[test]
    fn mounts_yield_tracefs_then_debugfs_paths() {
        let mounts = b"sysfs /sys sysfs rw 0 0\n\
            debugfs /sys/kernel/debug debugfs rw 0 0\n\
            tracefs /mnt/my\\040trace tracefs rw 0 0\n\
            none /x tmpfs rw 0 0\n\
            tracefs /t\\134 tracefs rw 0 0\n\
            short line\n\
            tracefs /last tracefs rw 0 0";
        for step in [1, 7, 1024] {
            assert_eq!(
                candidates(mounts, step, MountKind::Tracefs),
                [
                    "/mnt/my trace/user_events_data",
                    "/t\\/user_events_data",
                    "/last/user_events_data"
                ]
            );
            assert_eq!(
                candidates(mounts, step, MountKind::Debugfs),
                ["/sys/kernel/debug/tracing/user_events_data"]
            );
        }
        assert!(candidates(b"", 1, MountKind::Tracefs).is_empty());
    }

    #[test]
    fn long_lines_and_paths() {
        // A line longer than LINE_MAX: its first fields still count.
        let mut text = b"tracefs /long tracefs ".to_vec();
        text.extend(core::iter::repeat_n(b'o', LINE_MAX * 2));
        text.extend_from_slice(b" 0 0\ntracefs /next tracefs rw 0 0\n");
        assert_eq!(
            candidates(&text, 1000, MountKind::Tracefs),
            ["/long/user_events_data", "/next/user_events_data"]
        );
        // A mount point too long for a path is skipped.
        let mut text = b"tracefs /".to_vec();
        text.extend(core::iter::repeat_n(b'p', PATH_MAX));
        text.extend_from_slice(b" tracefs rw 0 0\ntracefs /ok tracefs rw 0 0\n");
        assert_eq!(
            candidates(&text, 1000, MountKind::Tracefs),
            ["/ok/user_events_data"]
        );
    }
}
