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
//! index in a user_events write. Each record is one `writev` on a descriptor
//! opened with O_APPEND, so records from several threads and processes never
//! interleave.
//!
//! The capture descriptor number never changes once allocated: selecting
//! another file `dup3`s the new file onto it, which redirects every
//! capture-mode provider at once, and lets the write path recognise capture
//! providers by their `data_file` alone.

use core::ffi::{c_char, c_int, CStr};
use std::collections::HashMap;
use std::ffi::CString;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock};

use libc::iovec;

use crate::sys::errno;

/// The environment variable that selects a capture file.
pub const ENV_VAR: &CStr = c"TRACEPOINT_CAPTURE_FILE";

/// Longest tracepoint name (without the NUL) a capture record may carry.
pub const MAX_NAME: usize = 255;

/// The capture descriptor, or -1 before the first capture file is opened.
static FD: AtomicI32 = AtomicI32::new(-1);

struct Selection {
    /// The environment has been consulted (it is read once).
    env_read: bool,
    /// Path of the selected file, None = capture off for new providers.
    path: Option<CString>,
    /// `path` is open on `FD`.
    opened: bool,
}

static SELECTION: Mutex<Selection> = Mutex::new(Selection {
    env_read: false,
    path: None,
    opened: false,
});

extern "C" {
    fn secure_getenv(name: *const c_char) -> *mut c_char;
}

fn selection() -> std::sync::MutexGuard<'static, Selection> {
    SELECTION.lock().unwrap_or_else(|p| p.into_inner())
}

/// The capture descriptor (-1 if no capture file was ever opened).
#[inline]
pub fn fd() -> c_int {
    FD.load(Ordering::Relaxed)
}

/// The descriptor a provider opened now should capture to, or None for the
/// kernel. Opens the selected file if it is not open yet.
pub fn selected_fd() -> Result<Option<c_int>, c_int> {
    let mut sel = selection();
    if !sel.env_read {
        sel.env_read = true;
        // SAFETY: ENV_VAR is a valid C string; the result is NULL or a
        // C string in the environment, copied before anything can change it.
        let value = unsafe { secure_getenv(ENV_VAR.as_ptr()) };
        if !value.is_null() {
            // SAFETY: non-NULL results of secure_getenv are C strings.
            let value = unsafe { CStr::from_ptr(value) };
            if !value.is_empty() {
                sel.path = Some(value.to_owned());
            }
        }
    }
    let Some(path) = sel.path.clone() else {
        return Ok(None);
    };
    if !sel.opened {
        install(&path)?;
        sel.opened = true;
    }
    Ok(Some(fd()))
}

/// Selects `path` as the capture file (None: providers opened from now on
/// use the kernel). The file is opened (created with mode 0644 if needed)
/// before this returns, so errors are reported here. Capture-mode providers
/// that are already open follow the new file; none are switched between
/// capture and kernel.
pub fn set_file(path: Option<&CStr>) -> Result<(), c_int> {
    let mut sel = selection();
    sel.env_read = true;
    match path {
        None => {
            sel.path = None;
            sel.opened = false;
        }
        Some(path) => {
            if path.is_empty() {
                return Err(libc::ENOENT);
            }
            install(path)?;
            sel.path = Some(path.to_owned());
            sel.opened = true;
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
    let cleared = unsafe { libc::fcntl(new, libc::F_SETFL, libc::O_APPEND) == 0 };
    if !cleared {
        let e = errno();
        // SAFETY: `new` is ours.
        unsafe { libc::close(new) };
        return Err(e);
    }
    let current = FD.load(Ordering::Relaxed);
    if current < 0 {
        FD.store(new, Ordering::Release);
        return Ok(());
    }
    // SAFETY: both are descriptors we own; dup3 atomically replaces the file
    // behind `current`, which stays open for concurrent writers.
    let ret = unsafe { libc::dup3(new, current, libc::O_CLOEXEC) };
    let err = if ret < 0 { Some(errno()) } else { None };
    // SAFETY: `new` is ours and no longer needed.
    unsafe { libc::close(new) };
    match err {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

// Interned tracepoint names, indexed by the capture "write index".
// Lock-free to read (the write path), appended under NAME_INDEX's lock.
const SEGMENT_BITS: u32 = 10;
const SEGMENT_LEN: usize = 1 << SEGMENT_BITS;
const SEGMENTS: usize = 1024;

type Segment = Box<[OnceLock<Box<[u8]>>]>;
static NAMES: [OnceLock<Segment>; SEGMENTS] = [const { OnceLock::new() }; SEGMENTS];
static NAME_INDEX: Mutex<Option<HashMap<Box<[u8]>, c_int>>> = Mutex::new(None);

/// The interned name (with its NUL) for a capture write index.
fn name(index: c_int) -> Option<&'static [u8]> {
    let index = usize::try_from(index).ok()?;
    let segment = NAMES.get(index >> SEGMENT_BITS)?.get()?;
    segment
        .get(index & (SEGMENT_LEN - 1))?
        .get()
        .map(|b| &b[..])
}

/// "Registers" a tracepoint for capture: interns the name part of
/// "Name arg-spec" and returns its index. Names must be 1..=MAX_NAME bytes.
pub fn register(name_args: &CStr) -> Result<c_int, c_int> {
    let bytes = name_args.to_bytes();
    let name = bytes.split(|&b| b == b' ').next().unwrap_or_default();
    if name.is_empty() {
        return Err(libc::EINVAL);
    }
    if name.len() > MAX_NAME {
        return Err(libc::E2BIG);
    }
    let mut stored = Vec::with_capacity(name.len() + 1);
    stored.extend_from_slice(name);
    stored.push(0);

    let mut guard = NAME_INDEX.lock().unwrap_or_else(|p| p.into_inner());
    let index = guard.get_or_insert_with(HashMap::new);
    if let Some(&i) = index.get(&stored[..]) {
        return Ok(i);
    }
    let next = index.len();
    if next >= SEGMENTS * SEGMENT_LEN {
        return Err(libc::ENOSPC);
    }
    let segment = NAMES[next >> SEGMENT_BITS].get_or_init(|| {
        (0..SEGMENT_LEN)
            .map(|_| OnceLock::new())
            .collect::<Vec<_>>()
            .into_boxed_slice()
    });
    let stored: Box<[u8]> = stored.into_boxed_slice();
    // Index space is bounded by SEGMENTS * SEGMENT_LEN < i32::MAX.
    let i = next as c_int;
    segment[next & (SEGMENT_LEN - 1)]
        .set(stored.clone())
        .map_err(|_| libc::EEXIST)?;
    index.insert(stored, i);
    Ok(i)
}

/// Writes one capture record for the tracepoint with capture index `index`.
/// `vecs[0]` is set to the record header (size and name), plus one padding
/// byte if `pad`, as in a user_events write.
#[inline(never)]
pub fn write(fd: c_int, index: c_int, vecs: &mut [iovec], pad: bool) -> c_int {
    let Some(name) = name(index) else {
        return libc::EBADF;
    };
    let head_len = 4 + name.len() + usize::from(pad);
    let record_len = vecs[1..]
        .iter()
        .try_fold(head_len as u64, |sum, v| sum.checked_add(v.iov_len as u64))
        .and_then(|n| u32::try_from(n).ok());
    let Some(record_len) = record_len else {
        return libc::E2BIG;
    };
    // Most names are short: a small head buffer keeps the zeroing cheap.
    if head_len <= SHORT_HEAD {
        write_record::<SHORT_HEAD>(fd, name, head_len, record_len, vecs)
    } else {
        write_record::<LONG_HEAD>(fd, name, head_len, record_len, vecs)
    }
}

const SHORT_HEAD: usize = 64;
const LONG_HEAD: usize = 4 + MAX_NAME + 1 + 1;

fn write_record<const N: usize>(
    fd: c_int,
    name: &[u8],
    head_len: usize,
    record_len: u32,
    vecs: &mut [iovec],
) -> c_int {
    let mut head = [0u8; N];
    head[..4].copy_from_slice(&record_len.to_le_bytes());
    head[4..4 + name.len()].copy_from_slice(name);
    // The padding byte of an empty event, if any, is already 0.
    vecs[0] = iovec {
        iov_base: head.as_mut_ptr().cast(),
        iov_len: head_len,
    };
    // SAFETY: the caller guarantees the vectors' buffers are readable;
    // vecs[0] points at `head`, live until writev returns.
    let ret = unsafe { libc::writev(fd, vecs.as_ptr(), vecs.len() as c_int) };
    if ret < 0 {
        errno()
    } else if ret as u64 != u64::from(record_len) {
        // A short append (e.g. the disk filled up mid-record).
        libc::ENOSPC
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_interns_names_and_validates() {
        let a = register(c"CaptureTest_L5K1 u8 x").unwrap();
        let b = register(c"CaptureTest_L5K1 u32 y").unwrap();
        let c = register(c"CaptureTest_L4K1").unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(name(a).unwrap(), b"CaptureTest_L5K1\0");
        assert_eq!(name(c).unwrap(), b"CaptureTest_L4K1\0");
        assert_eq!(register(c" x"), Err(libc::EINVAL));
        assert_eq!(register(c""), Err(libc::EINVAL));
        let long = CString::new("N".repeat(MAX_NAME + 1)).unwrap();
        assert_eq!(register(&long), Err(libc::E2BIG));
        let max = CString::new("M".repeat(MAX_NAME)).unwrap();
        assert!(register(&max).is_ok());
        assert_eq!(name(-1), None);
        assert_eq!(name(c_int::MAX), None);
    }

    #[test]
    fn write_produces_size_name_and_event_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cap.dat");
        let cpath = CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: valid C string path.
        let fd = unsafe {
            libc::open(
                cpath.as_ptr(),
                libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT | libc::O_CLOEXEC,
                0o644 as libc::c_uint,
            )
        };
        assert!(fd >= 0);
        let idx = register(c"WriteTest_L1K2 u8 a").unwrap();
        let payload1 = [1u8, 2, 3];
        let payload2 = [4u8];
        let mut vecs = [
            iovec {
                iov_base: core::ptr::null_mut(),
                iov_len: 0,
            },
            iovec {
                iov_base: payload1.as_ptr() as *mut _,
                iov_len: 3,
            },
            iovec {
                iov_base: payload2.as_ptr() as *mut _,
                iov_len: 1,
            },
        ];
        assert_eq!(write(fd, idx, &mut vecs, false), 0);
        // An empty event gets one padding byte, as in a user_events write.
        let mut empty = [iovec {
            iov_base: core::ptr::null_mut(),
            iov_len: 0,
        }];
        assert_eq!(write(fd, idx, &mut empty, true), 0);
        assert_eq!(write(fd, 999_999, &mut empty, true), libc::EBADF);
        // SAFETY: fd is ours.
        unsafe { libc::close(fd) };

        let bytes = std::fs::read(&path).unwrap();
        let mut expected = Vec::new();
        expected.extend_from_slice(&(4u32 + 15 + 4).to_le_bytes());
        expected.extend_from_slice(b"WriteTest_L1K2\0");
        expected.extend_from_slice(&[1, 2, 3, 4]);
        expected.extend_from_slice(&(4u32 + 15 + 1).to_le_bytes());
        expected.extend_from_slice(b"WriteTest_L1K2\0");
        expected.push(0);
        assert_eq!(bytes, expected);
    }
}
