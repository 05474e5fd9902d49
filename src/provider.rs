//! Provider and tracepoint state: open, close, connect.
//!
//! The state blocks live in the caller's memory (`tracepoint_provider_state`,
//! `tracepoint_state`), laid out as the reference's so that programs built
//! against either library work with both. Every tracepoint connected to a
//! provider is linked into the provider's intrusive list, so closing the
//! provider can unregister all of them without any allocation.
//!
//! Locking: every store to a state block happens under the library lock
//! ([`crate::lock`]). Fields that
//! the write path reads without the lock (`status_word`, `write_index`,
//! `provider_state`, `data_file`) are stored atomically, so a concurrent
//! writer sees either the old or the new value, never a torn one.

use core::ffi::{c_int, c_uint, CStr};
use core::ptr::{self, addr_of_mut};
use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicU32, Ordering};

use crate::abi::{TracepointListNode, TracepointProviderState, TracepointState};
use crate::backend::Backend;
use crate::lock::lock;

/// Atomic views of the fields the write path reads without the lock.
///
/// # Safety
/// The pointers must be valid, aligned and live for the duration of the
/// returned borrow; every concurrent access to the field must be atomic.
pub(crate) unsafe fn status_word<'a>(tp: *const TracepointState) -> &'a AtomicU32 {
    // SAFETY: per the function contract; c_uint is u32 on every Linux target.
    unsafe { AtomicU32::from_ptr(ptr::addr_of!((*tp).status_word) as *mut u32) }
}

/// # Safety
/// As for [`status_word`].
pub(crate) unsafe fn write_index<'a>(tp: *const TracepointState) -> &'a AtomicI32 {
    // SAFETY: per the function contract.
    unsafe { AtomicI32::from_ptr(ptr::addr_of!((*tp).write_index) as *mut i32) }
}

/// # Safety
/// As for [`status_word`].
pub(crate) unsafe fn provider_of<'a>(
    tp: *const TracepointState,
) -> &'a AtomicPtr<TracepointProviderState> {
    // SAFETY: per the function contract; `*const T` and `*mut T` have the same layout.
    unsafe {
        AtomicPtr::from_ptr(ptr::addr_of!((*tp).provider_state) as *mut *mut TracepointProviderState)
    }
}

/// # Safety
/// As for [`status_word`], for a provider state.
pub(crate) unsafe fn data_file<'a>(provider: *const TracepointProviderState) -> &'a AtomicI32 {
    // SAFETY: per the function contract.
    unsafe { AtomicI32::from_ptr(ptr::addr_of!((*provider).data_file) as *mut i32) }
}

/// # Safety
/// As for [`status_word`], for a provider state.
unsafe fn ref_count<'a>(provider: *mut TracepointProviderState) -> &'a AtomicU32 {
    // SAFETY: per the function contract.
    unsafe { AtomicU32::from_ptr(addr_of_mut!((*provider).ref_count)) }
}

/// Opens `provider` on the current backend (the capture file if one is
/// selected, else the kernel's user_events_data file).
///
/// Tracepoints connected to the provider while it was closed are reset to
/// TRACEPOINT_STATE_INIT (init-on-first-use callers reconnect them).
/// Returns EALREADY, leaving everything unchanged, if the provider is open,
/// or the errno of opening the backend's file (the provider stays closed).
///
/// # Safety
/// `provider` must point to a valid, initialized provider state.
pub unsafe fn open(provider: *mut TracepointProviderState) -> c_int {
    let _guard = lock();
    // SAFETY: the caller guarantees `provider` is valid; we hold the lock.
    unsafe {
        if data_file(provider).load(Ordering::Relaxed) != -1 {
            return libc::EALREADY;
        }
        match Backend::open_data_file() {
            Ok(fd) => reset(provider, fd),
            Err(e) => return e,
        }
    }
    0
}

/// Closes `provider`: unregisters and resets every tracepoint connected to
/// it. Closing a closed provider is a no-op.
///
/// # Safety
/// `provider` must point to a valid, initialized provider state.
pub unsafe fn close(provider: *mut TracepointProviderState) {
    let _guard = lock();
    // SAFETY: the caller guarantees `provider` is valid; we hold the lock, and
    // every node in its list is the link of a live, connected tracepoint.
    unsafe {
        if data_file(provider).load(Ordering::Relaxed) != -1 {
            for_each_tracepoint(provider, |tp| unregister(tp));
        }
        reset(provider, -1);
    }
}

/// Connects `tp` to `provider` (NULL disconnects), registering
/// `name_args` ("Name arg-spec") with the provider's backend if the provider
/// is open. The connection is updated even when registration fails, in which
/// case the tracepoint stays disabled and the errno is returned.
///
/// # Safety
/// `tp` must point to a valid, initialized tracepoint state; `provider` must
/// be NULL or point to a valid provider state.
pub unsafe fn connect(
    tp: *mut TracepointState,
    provider: *mut TracepointProviderState,
    name_args: Option<&CStr>,
    flags: c_uint,
) -> c_int {
    let _guard = lock();
    // SAFETY: the caller guarantees both pointers; we hold the lock.
    unsafe {
        unregister(tp);

        let mut err = 0;
        let mut index = -1;
        let mut enable_now = false;
        if !provider.is_null() {
            let fd = data_file(provider).load(Ordering::Relaxed);
            if fd != -1 {
                let backend = Backend::of(fd);
                match name_args {
                    None => err = libc::EINVAL,
                    Some(name_args) => {
                        match backend.register(fd, status_word(tp), name_args, flags) {
                            Ok(i) => {
                                index = i;
                                enable_now = backend.always_enabled();
                                ref_count(provider).fetch_add(1, Ordering::Relaxed);
                            }
                            Err(e) => err = e,
                        }
                    }
                }
            }
        }

        link(tp, provider, index);
        if enable_now {
            status_word(tp).store(1, Ordering::Release);
        }
        err
    }
}

/// Unregisters `tp` from its backend, if it is registered. Leaves the links
/// alone. Lock held by the caller.
///
/// # Safety
/// `tp` must be valid; if connected, its provider must be valid.
unsafe fn unregister(tp: *mut TracepointState) {
    // SAFETY: per the function contract.
    unsafe {
        let provider = provider_of(tp).load(Ordering::Relaxed);
        if provider.is_null() || write_index(tp).load(Ordering::Relaxed) < 0 {
            return;
        }
        let fd = data_file(provider).load(Ordering::Relaxed);
        if fd >= 0 {
            Backend::of(fd).unregister(fd, status_word(tp));
        }
        status_word(tp).store(0, Ordering::Relaxed);
        write_index(tp).store(-1, Ordering::Relaxed);
        ref_count(provider).fetch_sub(1, Ordering::Relaxed);
    }
}

/// Removes `tp` from its current list (if any) and links it into
/// `provider`'s list (if not NULL) with the given write index.
///
/// # Safety
/// Lock held; `tp` valid; `provider` NULL or valid; list links consistent.
unsafe fn link(tp: *mut TracepointState, provider: *mut TracepointProviderState, index: c_int) {
    // SAFETY: per the function contract.
    unsafe {
        let node: *mut TracepointListNode = addr_of_mut!((*tp).tracepoint_list_link);
        if !provider_of(tp).load(Ordering::Relaxed).is_null() && !(*node).next.is_null() {
            (*(*node).next).prev = (*node).prev;
            (*(*node).prev).next = (*node).next;
        }

        write_index(tp).store(index, Ordering::Relaxed);
        provider_of(tp).store(provider, Ordering::Release);

        if provider.is_null() {
            status_word(tp).store(0, Ordering::Relaxed);
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
/// Lock held; `provider` valid; list links consistent.
unsafe fn reset(provider: *mut TracepointProviderState, fd: c_int) {
    // SAFETY: per the function contract.
    unsafe {
        for_each_tracepoint(provider, |tp| {
            status_word(tp).store(0, Ordering::Relaxed);
            write_index(tp).store(-1, Ordering::Relaxed);
            provider_of(tp).store(ptr::null_mut(), Ordering::Relaxed);
            (*tp).tracepoint_list_link.next = ptr::null_mut();
            (*tp).tracepoint_list_link.prev = ptr::null_mut();
        });
        data_file(provider).store(fd, Ordering::Release);
        ref_count(provider).store(0, Ordering::Relaxed);
        let head: *mut TracepointListNode = addr_of_mut!((*provider).tracepoint_list_head);
        (*head).next = head;
        (*head).prev = head;
    }
}

/// Calls `f` for each tracepoint linked to `provider`. `f` may unlink or
/// reset the tracepoint it is given.
///
/// # Safety
/// Lock held; `provider` valid; list links consistent.
unsafe fn for_each_tracepoint(
    provider: *mut TracepointProviderState,
    mut f: impl FnMut(*mut TracepointState),
) {
    // SAFETY: per the function contract; each node other than the head is the
    // `tracepoint_list_link` field of a tracepoint_state.
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

/// Sorts a caller's array of pointers in place, removes duplicates, and moves
/// NULLs to the end. Returns the number of distinct non-NULL pointers, which
/// now occupy the front of the array. Does not allocate.
pub fn sort_unique_pointers<T>(items: &mut [*const T]) -> usize {
    // Descending order puts NULL (the lowest address) last.
    items.sort_unstable_by(|a, b| b.cmp(a));
    let mut kept = 0;
    for i in 0..items.len() {
        let item = items[i];
        if item.is_null() {
            break;
        }
        if kept == 0 || items[kept - 1] != item {
            items[kept] = item;
            kept += 1;
        }
    }
    for slot in &mut items[kept..] {
        *slot = ptr::null();
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_unique_moves_nulls_last_and_drops_duplicates() {
        let a = 1u8;
        let b = 2u8;
        let c = 3u8;
        let (pa, pb, pc) = (&a as *const u8, &b as *const u8, &c as *const u8);
        let mut items = [pb, ptr::null(), pa, pb, pc, ptr::null(), pa, pa];
        let n = sort_unique_pointers(&mut items);
        assert_eq!(n, 3);
        let mut front = items[..3].to_vec();
        front.sort();
        let mut expected = vec![pa, pb, pc];
        expected.sort();
        assert_eq!(front, expected);
        assert!(items[3..].iter().all(|p| p.is_null()));
    }

    #[test]
    fn sort_unique_handles_empty_and_all_null() {
        let mut empty: [*const u8; 0] = [];
        assert_eq!(sort_unique_pointers(&mut empty), 0);
        let mut nulls = [ptr::null::<u8>(); 4];
        assert_eq!(sort_unique_pointers(&mut nulls), 0);
    }

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
        // SAFETY: test-owned state, lock not needed for a single thread.
        unsafe { for_each_tracepoint(p, |_| n += 1) };
        n
    }

    #[test]
    fn connect_to_closed_provider_links_then_open_resets() {
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

            // Opening resets the tracepoints connected while closed.
            let fake_fd = 1_000_000;
            {
                let _guard = lock();
                reset(&mut *p, fake_fd);
            }
            assert_eq!(open(&mut *p), libc::EALREADY);
            assert_eq!(list_len(&mut p), 0);
            assert!(t2.provider_state.is_null());
            assert_eq!(t2.write_index, -1);
            close(&mut *p);
            assert_eq!(p.data_file, -1);
            close(&mut *p);
        }
    }
}
