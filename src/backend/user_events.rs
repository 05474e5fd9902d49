//! The kernel's user_events interface (Linux 6.4+, CONFIG_USER_EVENTS).
//!
//! One `user_events_data` descriptor per process, opened on first use.
//! Tracepoints are registered with `DIAG_IOCSREG`, naming the address of
//! their `status_word`, which the kernel then keeps up to date; events are
//! written with one `writev` whose first vector is the 4-byte write index.

use core::ffi::{c_int, c_uint, CStr};
use std::ffi::CString;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

use libc::iovec;

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

/// The user_events_data descriptor once opened (-1 before), and the errno
/// of a failure that will not go away by retrying (0 if none). Both are
/// written only under the library lock.
static DATA_FILE: AtomicI32 = AtomicI32::new(-1);
static DATA_FILE_ERRNO: AtomicI32 = AtomicI32::new(0);

/// The process's user_events_data descriptor, opened on first call. Success
/// and lasting failures (no tracefs, no user_events, no permission) are kept
/// for the life of the process; passing ones (out of descriptors or memory,
/// interrupted) are retried on the next call. Call with the library lock held.
pub fn data_file() -> Result<c_int, c_int> {
    let fd = DATA_FILE.load(Ordering::Acquire);
    if fd >= 0 {
        return Ok(fd);
    }
    let err = DATA_FILE_ERRNO.load(Ordering::Relaxed);
    if err != 0 {
        return Err(err);
    }
    match open_data_file() {
        Ok(fd) => {
            DATA_FILE.store(fd, Ordering::Release);
            Ok(fd)
        }
        Err(e) => {
            if !is_transient(e) {
                DATA_FILE_ERRNO.store(e, Ordering::Relaxed);
            }
            Err(e)
        }
    }
}

/// Errors of open() that a later attempt may not see.
fn is_transient(errno: c_int) -> bool {
    matches!(
        errno,
        libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::EINTR | libc::EAGAIN
    )
}

fn open_path(path: &CStr) -> Result<c_int, c_int> {
    // SAFETY: `path` is a valid C string; open has no other preconditions.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if fd >= 0 {
        Ok(fd)
    } else {
        Err(errno())
    }
}

fn open_data_file() -> Result<c_int, c_int> {
    let fast_err = match open_path(FAST_PATH) {
        Ok(fd) => return Ok(fd),
        Err(e) => e,
    };
    let mounts = std::fs::read("/proc/mounts").unwrap_or_default();
    let mut last_err = None;
    for path in candidate_paths(&mounts) {
        if path.as_c_str() == FAST_PATH {
            continue;
        }
        match open_path(&path) {
            Ok(fd) => return Ok(fd),
            Err(e) => last_err = Some(e),
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

/// Candidate `user_events_data` paths from the text of /proc/mounts: each
/// tracefs mount point + "/user_events_data", then each debugfs mount point
/// + "/tracing/user_events_data".
pub fn candidate_paths(mounts: &[u8]) -> Vec<CString> {
    let mut tracefs = Vec::new();
    let mut debugfs = Vec::new();
    for line in mounts.split(|&b| b == b'\n') {
        let mut words = line
            .split(|&b| b == b' ' || b == b'\t')
            .filter(|w| !w.is_empty());
        let (Some(_device), Some(mount_point), Some(fs_type)) =
            (words.next(), words.next(), words.next())
        else {
            continue;
        };
        let suffix: &[u8] = match fs_type {
            b"tracefs" => b"/user_events_data",
            b"debugfs" => b"/tracing/user_events_data",
            _ => continue,
        };
        let mut path = unescape_mount_point(mount_point);
        path.extend_from_slice(suffix);
        if let Ok(path) = CString::new(path) {
            if fs_type == b"tracefs" {
                tracefs.push(path);
            } else {
                debugfs.push(path);
            }
        }
    }
    tracefs.extend(debugfs);
    tracefs
}

/// /proc/mounts writes ' ', '\t', '\n' and '\\' in mount points as octal
/// escapes ("\040").
fn unescape_mount_point(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\\'
            && i + 3 < text.len()
            && text[i + 1..i + 4].iter().all(|d| (b'0'..=b'7').contains(d))
        {
            let value = (text[i + 1] - b'0') as u32 * 64
                + (text[i + 2] - b'0') as u32 * 8
                + (text[i + 3] - b'0') as u32;
            if let Ok(byte) = u8::try_from(value) {
                out.push(byte);
                i += 4;
                continue;
            }
        }
        out.push(text[i]);
        i += 1;
    }
    out
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

/// Writes one event: `vecs[0]` is set to the write index, plus one padding
/// byte if `pad` (an event with no bytes at all, which the kernel would
/// otherwise drop).
#[inline(always)]
pub fn write(fd: c_int, index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    #[repr(C)]
    struct Prefix {
        index: i32,
        pad: u8,
    }
    let prefix = Prefix { index, pad: 0 };
    vecs[0] = iovec {
        iov_base: &prefix as *const Prefix as *mut _,
        iov_len: 4 + usize::from(pad),
    };
    // SAFETY: the caller guarantees the vectors' buffers are readable;
    // vecs[0] points at `prefix`, live until writev returns.
    let ret = unsafe { libc::writev(fd, vecs.as_ptr(), vecs.len() as c_int) };
    if ret < 0 {
        errno()
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ioctl_numbers_match_the_uapi() {
        assert_eq!(DIAG_IOCSREG, 0xC008_2A00);
        assert_eq!(DIAG_IOCSDEL, 0x4008_2A01);
        assert_eq!(DIAG_IOCSUNREG, 0x4008_2A02);
        assert_eq!(core::mem::size_of::<UserReg>(), 28);
        assert_eq!(core::mem::size_of::<UserUnreg>(), 16);
    }

    #[test]
    fn mounts_yield_tracefs_then_debugfs_paths() {
        let mounts = b"sysfs /sys sysfs rw 0 0\n\
            debugfs /sys/kernel/debug debugfs rw 0 0\n\
            tracefs /mnt/my\\040trace tracefs rw 0 0\n\
            none /x tmpfs rw 0 0\n\
            short line\n";
        let paths = candidate_paths(mounts);
        assert_eq!(
            paths,
            vec![
                CString::new("/mnt/my trace/user_events_data").unwrap(),
                CString::new("/sys/kernel/debug/tracing/user_events_data").unwrap(),
            ]
        );
        assert!(candidate_paths(b"").is_empty());
    }
}
