//! Unit tests of the capture backend: registration, records and their limits.

use super::*;
use std::ffi::CString;
use std::vec::Vec;

#[test]
fn register_interns_names() {
    let mut guard = lock();
    let a = register(&mut guard, b"CaptureTest_L5K1").unwrap();
    let b = register(&mut guard, b"CaptureTest_L5K1").unwrap();
    let c = register(&mut guard, b"CaptureTest_L4K1").unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(capture_names::get(a).unwrap(), b"CaptureTest_L5K1\0");
    assert_eq!(capture_names::get(c).unwrap(), b"CaptureTest_L4K1\0");
    assert!(register(&mut guard, &[b'M'; MAX_NAME]).is_ok());
}

/// The record of docs/format.md §7.1.
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
    let idx = register(&mut lock(), b"WriteTest_L1K2").unwrap();
    let long_idx = register(&mut lock(), &[b'L'; 100]).unwrap();
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
    // An empty event gets one padding byte, as in a user_events write.
    let mut empty = [iovec {
        iov_base: core::ptr::null_mut(),
        iov_len: 0,
    }];
    // SAFETY: every vector's buffer is readable.
    let write = |index, vecs: &mut [iovec], pad| unsafe { write_to(fd, index, vecs, pad) };
    assert_eq!(write(idx, &mut vecs, false), 0);
    assert_eq!(write(idx, &mut empty, true), 0);
    assert_eq!(write(long_idx, &mut vecs, false), 0);
    assert_eq!(write(999_999, &mut empty, true), libc::EBADF);
    assert_eq!(write(idx, &mut [], false), libc::EINVAL);
    // SAFETY: fd is ours, closed once.
    unsafe { libc::close(fd) };

    let bytes = std::fs::read(&path).unwrap();
    let mut expected = Vec::new();
    expected.extend_from_slice(&(4u32 + 15 + 4).to_le_bytes());
    expected.extend_from_slice(b"WriteTest_L1K2\0");
    expected.extend_from_slice(&[1, 2, 3, 4]);
    expected.extend_from_slice(&(4u32 + 15 + 1).to_le_bytes());
    expected.extend_from_slice(b"WriteTest_L1K2\0");
    expected.push(0);
    expected.extend_from_slice(&(4u32 + 101 + 4).to_le_bytes());
    expected.extend_from_slice(&[b'L'; 100]);
    expected.extend_from_slice(&[0, 1, 2, 3, 4]);
    assert_eq!(bytes, expected);
}
