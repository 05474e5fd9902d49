//! Provider and tracepoint state: open, close, connect, and the write of a
//! connected tracepoint.
//!
//! The state blocks live in the caller's memory (`tracepoint_provider_state`,
//! `tracepoint_state`), laid out as the reference's so that programs built
//! against either library work with both. Every tracepoint connected to a
//! provider is linked into the provider's intrusive list, so closing the
//! provider can unregister all of them without any allocation.
//!
//! Locking: every store to a state block happens under the library lock
//! (`crate::lock`). Fields that the write path reads without the lock
//! (`status_word`, `write_index`, `provider_state`, `data_file`) are only
//! accessed through their atomic views ([`crate::abi::tracepoint_state`]).

use core::ffi::{c_int, c_uint, CStr};
use core::ptr::{self, addr_of_mut};
use core::sync::atomic::Ordering;

use libc::iovec;

use crate::abi::{TracepointListNode, TracepointProviderState, TracepointState};
use crate::backend::{self, Backend};
use crate::diagnostics::{self, Failure};
use crate::lock::{lock, Guard};
use crate::tracepoint_name::Command;

mod definitions;
mod pointers;
pub use definitions::open_with_tracepoints;
pub use pointers::UniquePointers;

/// Opens `provider` on the current backend (the capture file if one is
/// selected, else the kernel's user_events_data file).
///
/// Tracepoints connected to the provider while it was closed are reset to
/// TRACEPOINT_STATE_INIT (init-on-first-use callers reconnect them).
/// Returns EALREADY, leaving everything unchanged, if the provider is open,
/// or the errno of opening the backend's file (the provider stays closed).
/// A zero-initialized state (not TRACEPOINT_PROVIDER_STATE_INIT) is a
/// closed provider (see [`open_backend`]).
///
/// # Safety
/// `provider` must point to a valid, initialized (or zeroed) provider state.
pub unsafe fn open(provider: *mut TracepointProviderState) -> c_int {
    let mut guard = lock();
    // SAFETY: `provider` is a valid provider state (the caller's guarantee).
    if unsafe { open_backend(&guard, provider) }.is_some() {
        return libc::EALREADY;
    }
    match backend::open_for_provider(&mut guard) {
        Ok(fd) => {
            // SAFETY: `provider` is valid and we hold the lock.
            unsafe { reset(&guard, provider, fd) };
            0
        }
        Err(e) => e,
    }
}

/// Closes `provider`: unregisters and resets every tracepoint connected to
/// it. Closing a closed provider is a no-op.
///
/// # Safety
/// `provider` must point to a valid, initialized provider state.
pub unsafe fn close(provider: *mut TracepointProviderState) {
    let guard = lock();
    // SAFETY: `provider` is a valid provider state (the caller's guarantee).
    if unsafe { open_backend(&guard, provider) }.is_some() {
        let unregister_one = |tp: *mut TracepointState| {
            // SAFETY: `tp` is a live, connected tracepoint (below) and its
            // provider is `provider`, which is valid.
            unsafe { unregister(&guard, tp) }
        };
        // SAFETY: we hold the lock; every node in the list is the link of a
        // live, connected tracepoint (the caller keeps connected states alive).
        unsafe { for_each_tracepoint(&guard, provider, unregister_one) };
    }
    // SAFETY: `provider` is valid and we hold the lock.
    unsafe { reset(&guard, provider, -1) };
}

/// Connects `tp` to `provider` (NULL disconnects), registering
/// `name_args` ("Name arg-spec") with the provider's backend if the provider
/// is open.
///
/// With a provider, `name_args` is required and its name must follow
/// [`crate::tracepoint_name`]'s rules, open provider or not: EINVAL (NULL,
/// an empty name, a refused character) or E2BIG (over 255 bytes), and the
/// tracepoint is left as it was. Otherwise the connection is updated even
/// when the registration fails, in which case the tracepoint stays disabled
/// and the errno is returned.
///
/// # Safety
/// `tp` must point to a valid, initialized tracepoint state that stays at
/// its address while connected; `provider` must be NULL or point to a valid
/// provider state.
pub unsafe fn connect(
    tp: *mut TracepointState,
    provider: *mut TracepointProviderState,
    name_args: Option<&CStr>,
    flags: c_uint,
) -> c_int {
    let command = if provider.is_null() {
        None
    } else {
        match name_args.map(Command::parse) {
            None => return libc::EINVAL,
            Some(Err(e)) => return e,
            Some(Ok(command)) => Some(command),
        }
    };
    let mut guard = lock();
    // SAFETY: `tp` is valid (the caller's guarantee) and we hold the lock.
    unsafe { unregister(&guard, tp) };

    let mut err = 0;
    let mut index = -1;
    let mut enable_now = false;
    // SAFETY: `tp` is valid.
    let status_word = unsafe { TracepointState::status_word(tp) };
    if let Some(command) = command {
        // SAFETY: a non-NULL provider is valid (the caller's guarantee).
        match unsafe { open_backend(&guard, provider) } {
            Some((fd, backend)) => {
                match backend.register(&mut guard, fd, status_word, &command, flags) {
                    Ok(i) => {
                        index = i;
                        enable_now = backend.always_enabled();
                        // SAFETY: a non-NULL provider is valid (the caller's guarantee).
                        let ref_count = unsafe { TracepointProviderState::ref_count(provider) };
                        ref_count.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => {
                        diagnostics::failed(Failure::Registration {
                            name: command.name,
                            errno: e,
                        });
                        err = e;
                    }
                }
            }
            None => {
                // A closed provider, whatever its data_file held (a zeroed
                // state's 0): from now on it says so.
                // SAFETY: a non-NULL provider is valid (the caller's guarantee).
                unsafe { TracepointProviderState::data_file(provider) }
                    .store(-1, Ordering::Relaxed);
            }
        }
    }

    // SAFETY: both are valid and we hold the lock.
    unsafe { link(&guard, tp, provider, index) };
    if enable_now {
        status_word.store(1, Ordering::Release);
    }
    err
}

/// Writes an event of `tp`, whose enabled test the caller has just passed
/// (if a collector detaches in between, the kernel answers EBADF itself):
/// EBADF if it is not connected to an open provider, else as
/// [`backend::write`]. `vecs[0]` is reserved for the backend; an event with
/// no payload bytes at all gets one padding byte.
///
/// # Safety
/// `tp` must be a valid tracepoint state; `vecs` must not be empty, and the
/// buffers of `vecs[1..]` must be readable for their lengths.
#[inline(always)]
pub unsafe fn write(tp: *const TracepointState, vecs: &mut [iovec]) -> c_int {
    let pad = vecs
        .get(1..)
        .unwrap_or_default()
        .iter()
        .all(|v| v.iov_len == 0);
    // The write index alone says whether and where the tracepoint is
    // registered (see backend): -1 when it is not connected to an open
    // provider. Acquire: pairs with the Release store in `link`, after the
    // backend's descriptor was published.
    // SAFETY: `tp` is valid (the caller's guarantee).
    let index = unsafe { TracepointState::write_index(tp) }.load(Ordering::Acquire);
    // SAFETY: the caller guarantees `vecs` and the payload buffers.
    unsafe { backend::write(index, vecs, pad) }
}

/// Unregisters `tp` from its backend, if it is registered. Leaves the links
/// alone.
///
/// # Safety
/// `tp` must be valid; if connected, its provider must be valid.
unsafe fn unregister(_lock: &Guard, tp: *mut TracepointState) {
    // SAFETY: `tp` is valid (the caller's guarantee).
    let status_word = unsafe { TracepointState::status_word(tp) };
    // SAFETY: as above.
    let write_index = unsafe { TracepointState::write_index(tp) };
    // SAFETY: as above.
    let provider = unsafe { TracepointState::provider_state(tp) }.load(Ordering::Relaxed);
    if provider.is_null() || write_index.load(Ordering::Relaxed) < 0 {
        return;
    }
    // SAFETY: the provider of a connected tracepoint is valid.
    let data_file = unsafe { TracepointProviderState::data_file(provider) };
    // SAFETY: as above.
    let ref_count = unsafe { TracepointProviderState::ref_count(provider) };
    let fd = data_file.load(Ordering::Relaxed);
    if let Some(backend) = Backend::of(fd) {
        backend.unregister(fd, status_word);
    }
    status_word.store(0, Ordering::Relaxed);
    write_index.store(-1, Ordering::Relaxed);
    ref_count.fetch_sub(1, Ordering::Relaxed);
}

/// The descriptor and backend `provider` is open on, or None if it is
/// closed. Open means: its list was set up by an open (an open provider's
/// list head points at itself or at a tracepoint; TRACEPOINT_PROVIDER_STATE_INIT
/// and a zeroed state have NULL there) and its `data_file` is a descriptor
/// this library opened ([`Backend::of`]). So a zero-initialized state, whose
/// `data_file` is 0, is closed, and no registration ever goes to a
/// descriptor the library did not open (before, descriptor 0 got the
/// registration ioctl).
///
/// # Safety
/// `provider` must be valid.
unsafe fn open_backend(
    _lock: &Guard,
    provider: *const TracepointProviderState,
) -> Option<(c_int, Backend)> {
    // SAFETY: `provider` is valid (the caller's guarantee); the list head is
    // only changed under the lock, which we hold.
    let head = unsafe { (*provider).tracepoint_list_head.next };
    if head.is_null() {
        return None;
    }
    // SAFETY: as above.
    let fd = unsafe { TracepointProviderState::data_file(provider) }.load(Ordering::Relaxed);
    Backend::of(fd).map(|backend| (fd, backend))
}

/// Removes `tp` from its current list (if any) and links it into
/// `provider`'s list (if not NULL) with the given write index.
///
/// # Safety
/// `tp` valid; `provider` NULL or valid; list links consistent (every node
/// reachable from a list is a live tracepoint's link or a provider's head).
#[allow(clippy::multiple_unsafe_ops_per_block)] // one list splice, one reason
unsafe fn link(
    _lock: &Guard,
    tp: *mut TracepointState,
    provider: *mut TracepointProviderState,
    index: c_int,
) {
    // SAFETY: `tp` and `provider` are valid and the list links consistent
    // (the caller's guarantee), so every node dereferenced here is live; we
    // hold the lock, so no one else changes the lists.
    unsafe {
        let node: *mut TracepointListNode = addr_of_mut!((*tp).tracepoint_list_link);
        if !TracepointState::provider_state(tp)
            .load(Ordering::Relaxed)
            .is_null()
            && !(*node).next.is_null()
        {
            (*(*node).next).prev = (*node).prev;
            (*(*node).prev).next = (*node).next;
        }

        TracepointState::write_index(tp).store(index, Ordering::Release);
        TracepointState::provider_state(tp).store(provider, Ordering::Release);

        if provider.is_null() {
            TracepointState::status_word(tp).store(0, Ordering::Relaxed);
            (*node).next = ptr::null_mut();
            (*node).prev = ptr::null_mut();
        } else {
            let head: *mut TracepointListNode = addr_of_mut!((*provider).tracepoint_list_head);
            if (*head).next.is_null() {
                (*head).next = head;
                (*head).prev = head;
            }
            let first = (*head).next;
            (*node).next = first;
            (*node).prev = head;
            (*first).prev = node;
            (*head).next = node;
        }
    }
}

/// Resets every tracepoint in `provider`'s list to TRACEPOINT_STATE_INIT and
/// sets the provider to an empty list on `fd` (-1 = closed).
///
/// # Safety
/// `provider` valid; list links consistent.
#[allow(clippy::multiple_unsafe_ops_per_block)] // one list reset, one reason
unsafe fn reset(lock: &Guard, provider: *mut TracepointProviderState, fd: c_int) {
    // SAFETY: `provider` is valid and the list links consistent (the
    // caller's guarantee), so every tracepoint in the list is live; we hold
    // the lock.
    unsafe {
        for_each_tracepoint(lock, provider, |tp| {
            TracepointState::status_word(tp).store(0, Ordering::Relaxed);
            TracepointState::write_index(tp).store(-1, Ordering::Relaxed);
            TracepointState::provider_state(tp).store(ptr::null_mut(), Ordering::Relaxed);
            (*tp).tracepoint_list_link.next = ptr::null_mut();
            (*tp).tracepoint_list_link.prev = ptr::null_mut();
        });
        TracepointProviderState::data_file(provider).store(fd, Ordering::Release);
        TracepointProviderState::ref_count(provider).store(0, Ordering::Relaxed);
        let head: *mut TracepointListNode = addr_of_mut!((*provider).tracepoint_list_head);
        (*head).next = head;
        (*head).prev = head;
    }
}

/// Calls `f` for each tracepoint linked to `provider`. `f` may unlink or
/// reset the tracepoint it is given.
///
/// # Safety
/// `provider` valid; list links consistent.
#[allow(clippy::multiple_unsafe_ops_per_block)] // one list walk, one reason
unsafe fn for_each_tracepoint(
    _lock: &Guard,
    provider: *mut TracepointProviderState,
    mut f: impl FnMut(*mut TracepointState),
) {
    // SAFETY: `provider` is valid and the list links consistent (the
    // caller's guarantee); each node other than the head is the
    // `tracepoint_list_link` field of a live tracepoint_state, and `next` is
    // read before `f` may unlink the node.
    unsafe {
        let head: *mut TracepointListNode = addr_of_mut!((*provider).tracepoint_list_head);
        let mut node = (*head).next;
        if node.is_null() {
            return;
        }
        while node != head {
            let next = (*node).next;
            let tp = node
                .byte_sub(core::mem::offset_of!(TracepointState, tracepoint_list_link))
                .cast::<TracepointState>();
            f(tp);
            node = next;
        }
    }
}

#[cfg(test)]
// A test's unsafe block sets up or reads one scenario, under one reason.
#[allow(clippy::multiple_unsafe_ops_per_block)]
mod tests {
    use super::*;
    use std::boxed::Box;

    fn new_provider() -> Box<TracepointProviderState> {
        Box::new(TracepointProviderState {
            data_file: -1,
            ref_count: 0,
            tracepoint_list_head: TracepointListNode {
                next: ptr::null_mut(),
                prev: ptr::null_mut(),
            },
        })
    }

    fn new_tracepoint() -> Box<TracepointState> {
        Box::new(TracepointState {
            status_word: 0,
            write_index: -1,
            provider_state: ptr::null(),
            tracepoint_list_link: TracepointListNode {
                next: ptr::null_mut(),
                prev: ptr::null_mut(),
            },
        })
    }

    fn list_len(p: &mut TracepointProviderState) -> usize {
        let mut n = 0;
        // SAFETY: a test-owned provider whose list holds live tracepoints.
        unsafe { for_each_tracepoint(&lock(), p, |_| n += 1) };
        n
    }

    /// The only unit test that opens a provider: it selects a capture file,
    /// which every provider opened afterwards in this test process uses.
    #[test]
    fn connect_to_closed_provider_links_then_open_resets() {
        let dir = tempfile::tempdir().unwrap();
        let path = std::ffi::CString::new(dir.path().join("cap.dat").to_str().unwrap()).unwrap();
        crate::backend::capture::select_file(Some(&path)).unwrap();
        let mut p = new_provider();
        let mut t1 = new_tracepoint();
        let mut t2 = new_tracepoint();
        // SAFETY: test-owned state blocks that outlive every call.
        unsafe {
            assert_eq!(connect(&mut *t1, &mut *p, Some(c"A u8 x"), 0), 0);
            assert_eq!(connect(&mut *t2, &mut *p, Some(c"B u8 x"), 0), 0);
            assert_eq!(list_len(&mut p), 2);
            assert_eq!(t1.provider_state, &*p as *const _);
            assert_eq!(t1.write_index, -1);

            // Moving t1 away unlinks it.
            assert_eq!(connect(&mut *t1, ptr::null_mut(), None, 0), 0);
            assert_eq!(list_len(&mut p), 1);
            assert!(t1.provider_state.is_null());
            assert!(t1.tracepoint_list_link.next.is_null());

            // open's own reset: the tracepoints connected while the provider
            // was closed are reset, and the provider is open on the capture
            // file with an empty list.
            assert_eq!(open(&mut *p), 0);
            assert_eq!(p.data_file, crate::backend::capture::fd());
            assert_eq!(list_len(&mut p), 0);
            assert!(t2.provider_state.is_null());
            assert_eq!(t2.write_index, -1);
            assert!(t2.tracepoint_list_link.next.is_null());
            assert_eq!(open(&mut *p), libc::EALREADY);

            // Reconnected, it registers and is enabled (capture mode).
            assert_eq!(connect(&mut *t2, &mut *p, Some(c"B u8 x"), 0), 0);
            assert!(t2.write_index >= 0);
            assert_eq!(t2.status_word, 1);
            close(&mut *p);
            assert_eq!(p.data_file, -1);
            assert_eq!(t2.write_index, -1);
            close(&mut *p);
        }
    }

    /// A zero-initialized provider state (not TRACEPOINT_PROVIDER_STATE_INIT)
    /// is a closed provider: connect links without registering anywhere,
    /// and open opens it.
    #[test]
    fn zeroed_provider_is_closed() {
        let mut p = new_provider();
        p.data_file = 0;
        let mut t = new_tracepoint();
        // SAFETY: test-owned state blocks that outlive every call.
        unsafe {
            assert!(open_backend(&lock(), &*p).is_none());
            assert_eq!(connect(&mut *t, &mut *p, Some(c"Z u8 x"), 0), 0);
            assert_eq!(t.write_index, -1);
            assert_eq!(p.data_file, -1);
            assert_eq!(list_len(&mut p), 1);
            assert_eq!(connect(&mut *t, ptr::null_mut(), None, 0), 0);
            close(&mut *p);
        }
    }

    /// Name rules and NULL name args are checked before anything changes.
    #[test]
    fn refused_names_leave_the_tracepoint_unchanged() {
        let mut p = new_provider();
        let mut t = new_tracepoint();
        // SAFETY: test-owned state blocks that outlive every call.
        unsafe {
            assert_eq!(connect(&mut *t, &mut *p, None, 0), libc::EINVAL);
            assert_eq!(connect(&mut *t, &mut *p, Some(c" u8 x"), 0), libc::EINVAL);
            assert_eq!(
                connect(&mut *t, &mut *p, Some(c"Bad:c u8 x"), 0),
                libc::EINVAL
            );
            assert!(t.provider_state.is_null());
            assert!(t.tracepoint_list_link.next.is_null());
            assert!(p.tracepoint_list_head.next.is_null());
        }
    }
}
