//! The calling thread's activity id: set by the C++ classes of
//! `TraceLoggingActivity.h` (`TraceLoggingThreadActivity`,
//! `TraceLoggingThreadActivityIdSetter`), carried by every TraceLogging
//! event the thread writes without an activity id of its own.
//!
//! The first `set` installs [`write_with_thread_id`] as the write path's
//! hook ([`thread_hook`](super::thread_hook)): until then a TraceLogging
//! write costs nothing more than the test of that hook (three
//! instructions), and a static program that never sets an id links none of
//! this module.
//!
//! Stable Rust has no thread-local statics without the standard library,
//! so the slot is:
//! - on x86_64, a 24-byte initial-exec TLS variable defined in assembly
//!   (hidden: private to the library), read `%fs`-relative.
//! - elsewhere, a pthread key whose value is the thread's slot, allocated
//!   the first time the thread sets an id and freed when it exits.
//!
//! The slot holds the id itself, not a pointer to an activity object: an
//! activity may move, end on another thread or outlive its nesting, and the
//! slot never refers to memory that may be gone.

use core::ffi::c_int;

use libc::iovec;

use super::event;
use super::thread_hook::{self, ThreadWrite};
use crate::abi::EventHeaderTracepoint;

/// The thread's activity id, if `set` is non-zero.
#[repr(C)]
struct Slot {
    set: u64,
    id: [u8; 16],
}

#[cfg(not(target_arch = "x86_64"))]
use self::key as slot;
#[cfg(target_arch = "x86_64")]
use self::tls as slot;

pub use self::slot::get;

/// Sets (or with None clears) the calling thread's activity id; setting one
/// makes TraceLogging writes look for it from then on.
pub fn set(id: Option<&[u8; 16]>) {
    if id.is_some() {
        thread_hook::install(&WRITE_WITH_THREAD_ID);
    }
    slot::set(id);
}

static WRITE_WITH_THREAD_ID: ThreadWrite = ThreadWrite {
    write: write_with_thread_id,
};

/// `_eventheader_tlg_write` once a thread has set an activity id: the event
/// with the calling thread's activity id, or without one if it has none.
///
/// # Safety
/// As for `_eventheader_tlg_write`: the event has metadata, and
/// `data_count` (3..=1024) vectors with a readable payload.
unsafe fn write_with_thread_id(
    ev: &EventHeaderTracepoint,
    data_vecs: *mut iovec,
    data_count: u32,
) -> c_int {
    let id = get();
    let activity = id.as_ref().map(|id| (id, None));
    // SAFETY: the caller's guarantee.
    unsafe { event::write_macro_event(ev, activity, data_vecs, data_count) }
}

#[cfg(target_arch = "x86_64")]
mod tls {
    use core::arch::{asm, global_asm};

    // The slot: `Slot` in .tbss (zero: no id), one per thread. Hidden, so
    // the shared library does not export it; initial-exec, so a read is
    // %fs-relative at an offset fixed when the library is loaded.
    global_asm!(
        ".pushsection .tbss,\"awT\",@nobits",
        ".balign 8",
        ".globl _eventheader_tlg_thread_slot",
        ".hidden _eventheader_tlg_thread_slot",
        ".type _eventheader_tlg_thread_slot,@object",
        ".size _eventheader_tlg_thread_slot,24",
        "_eventheader_tlg_thread_slot:",
        ".skip 24",
        ".popsection",
    );
    const _: () = assert!(core::mem::size_of::<super::Slot>() == 24);

    /// The calling thread's activity id.
    pub fn get() -> Option<[u8; 16]> {
        let (set, lo, hi): (u64, u64, u64);
        // SAFETY: reads the calling thread's slot, which is allocated for
        // every thread of a process that loaded the library.
        unsafe {
            asm!(
                "mov {t}, qword ptr [rip + _eventheader_tlg_thread_slot@GOTTPOFF]",
                "mov {s}, qword ptr fs:[{t}]",
                "mov {lo}, qword ptr fs:[{t} + 8]",
                "mov {hi}, qword ptr fs:[{t} + 16]",
                t = out(reg) _,
                s = out(reg) set,
                lo = out(reg) lo,
                hi = out(reg) hi,
                options(nostack, readonly, preserves_flags),
            );
        }
        let id = (u128::from(hi) << 64 | u128::from(lo)).to_le_bytes();
        (set != 0).then_some(id)
    }

    /// Sets (or with None clears) the calling thread's activity id.
    pub fn set(id: Option<&[u8; 16]>) {
        let (set, id) = match id {
            Some(id) => (1u64, u128::from_le_bytes(*id)),
            None => (0, 0),
        };
        // SAFETY: writes the calling thread's slot (allocated for every
        // thread of a process that loaded the library), which nothing else
        // writes.
        unsafe {
            asm!(
                "mov {t}, qword ptr [rip + _eventheader_tlg_thread_slot@GOTTPOFF]",
                "mov qword ptr fs:[{t} + 8], {lo}",
                "mov qword ptr fs:[{t} + 16], {hi}",
                "mov qword ptr fs:[{t}], {s}",
                t = out(reg) _,
                lo = in(reg) id as u64,
                hi = in(reg) (id >> 64) as u64,
                s = in(reg) set,
                options(nostack, preserves_flags),
            );
        }
    }
}

/// The portable slot: a pthread key (compiled on x86_64 for its tests).
#[cfg(any(test, not(target_arch = "x86_64")))]
mod key {
    use core::ffi::c_void;
    use core::sync::atomic::{AtomicU64, Ordering};

    use super::Slot;

    /// The key plus one; 0 until the first `set`.
    static KEY: AtomicU64 = AtomicU64::new(0);

    fn existing_key() -> Option<libc::pthread_key_t> {
        let k = KEY.load(Ordering::Acquire);
        (k != 0).then(|| (k - 1) as libc::pthread_key_t)
    }

    /// The key, created by the first caller (racing creators keep the
    /// first key stored and delete theirs).
    fn key() -> Option<libc::pthread_key_t> {
        if let Some(k) = existing_key() {
            return Some(k);
        }
        let mut fresh: libc::pthread_key_t = 0;
        // SAFETY: `fresh` is writable; the destructor frees the slots.
        if unsafe { libc::pthread_key_create(&mut fresh, Some(free_slot)) } != 0 {
            return None;
        }
        match KEY.compare_exchange(0, u64::from(fresh) + 1, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => Some(fresh),
            Err(k) => {
                // SAFETY: `fresh` is our key, used by nobody.
                unsafe { libc::pthread_key_delete(fresh) };
                Some((k - 1) as libc::pthread_key_t)
            }
        }
    }

    /// When the library is unloaded (`dlclose`), the key goes: a thread
    /// that exits later must not call `free_slot`, which is unmapped by
    /// then. (The slots of threads still running stay allocated, 24 bytes
    /// each.)
    extern "C" fn delete_key() {
        if let Some(k) = existing_key() {
            // SAFETY: a valid key, no longer used once the library is gone.
            unsafe { libc::pthread_key_delete(k) };
        }
    }

    #[used]
    #[link_section = ".fini_array"]
    static DELETE_KEY: extern "C" fn() = delete_key;

    extern "C" fn free_slot(slot: *mut c_void) {
        // SAFETY: the key's values are slots from malloc.
        unsafe { libc::free(slot) };
    }

    /// The calling thread's slot, if it has one.
    fn slot() -> *mut Slot {
        match existing_key() {
            // SAFETY: a valid key.
            Some(k) => unsafe { libc::pthread_getspecific(k) }.cast(),
            None => core::ptr::null_mut(),
        }
    }

    pub fn get() -> Option<[u8; 16]> {
        // SAFETY: NULL or the calling thread's slot, used by no other thread.
        let slot = unsafe { slot().as_ref() }?;
        (slot.set != 0).then_some(slot.id)
    }

    /// Sets (or with None clears) the calling thread's activity id. Without
    /// memory for the thread's slot the thread keeps no id.
    pub fn set(id: Option<&[u8; 16]>) {
        let mut slot = slot();
        if slot.is_null() {
            let (Some(id), Some(k)) = (id, key()) else {
                return;
            };
            // SAFETY: plain allocation of a slot.
            slot = unsafe { libc::malloc(core::mem::size_of::<Slot>()) }.cast();
            if slot.is_null() {
                return;
            }
            // SAFETY: a valid key; the slot is freed by the key's destructor.
            if unsafe { libc::pthread_setspecific(k, slot.cast()) } != 0 {
                // SAFETY: the slot is ours and stored nowhere.
                unsafe { libc::free(slot.cast()) };
                return;
            }
            // SAFETY: the slot is the calling thread's own, writable.
            unsafe { slot.write(Slot { set: 1, id: *id }) };
            return;
        }
        let value = match id {
            Some(id) => Slot { set: 1, id: *id },
            None => Slot {
                set: 0,
                id: [0; 16],
            },
        };
        // SAFETY: the calling thread's own slot, writable.
        unsafe { slot.write(value) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `get` and `set` of one implementation: each thread sees only its own
    /// id, and a new thread none.
    fn check(get: fn() -> Option<[u8; 16]>, set: fn(Option<&[u8; 16]>)) {
        let threads: Vec<_> = (1..=4u8)
            .map(|t| {
                std::thread::spawn(move || {
                    assert_eq!(get(), None);
                    for round in 0..1000u32 {
                        let id = [t; 16];
                        set(Some(&id));
                        assert_eq!(get(), Some(id), "thread {t} round {round}");
                        set(None);
                        assert_eq!(get(), None);
                    }
                    set(Some(&[t; 16]));
                    std::thread::yield_now();
                    assert_eq!(get(), Some([t; 16]));
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    #[test]
    fn each_thread_has_its_own_id() {
        check(get, set);
    }

    #[test]
    fn the_pthread_key_slot_too() {
        check(key::get, key::set);
    }

    /// Setting an id installs the write path's hook, clearing one keeps it
    /// (other threads may still have ids).
    #[test]
    fn setting_an_id_installs_the_hook() {
        std::thread::spawn(|| {
            set(Some(&[7; 16]));
            let hook = thread_hook::installed().expect("installed");
            assert!(core::ptr::eq(hook, &WRITE_WITH_THREAD_ID));
            set(None);
            assert!(thread_hook::installed().is_some());
        })
        .join()
        .unwrap();
    }
}
