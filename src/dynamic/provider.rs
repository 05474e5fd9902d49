//! Dynamic providers and their event sets: the provider concept at the
//! runtime-defined-event layer, objects on the C heap that own a provider
//! state of the [`crate::provider`] layer and open it through the
//! EventHeader layer.
//!
//! A [`Provider`] owns a name, an options string, the EventHeader provider
//! state and a table of [`EventSet`]s sorted by (level, keyword). An event set
//! is one tracepoint, `Provider_L<level>K<keyword><options>`, registered when
//! the set is created and shared by every event of that level and keyword.
//!
//! Lifetimes: both objects are reference counted. A provider counts one
//! reference for its handle and one per event set that exists; an event set
//! counts one for the provider's table and one per `retain`. Unregistering
//! the provider disconnects every set first, then drops the table's
//! references, so a set is never freed while its tracepoint is connected.
//! A set that outlives its provider's handle keeps the provider's memory
//! (and so the tracepoint layer's provider state) alive: a write racing with
//! the provider's destruction reads valid, closed state and returns EBADF.
//!
//! Thread safety: functions that change a provider (register, unregister,
//! destroy) must not run concurrently with any other function on the same
//! provider; lookups may run concurrently with each other. Event sets are
//! thread-safe: the enabled test, writes, retain and release from any thread.

use core::cell::UnsafeCell;
use core::ffi::{c_int, CStr};
use core::ptr::{self, NonNull};
use core::sync::atomic::{AtomicUsize, Ordering};

use super::buffer::Buffer;
use super::heap;
use super::layers_below::{
    self, EventHeader, EventHeaderTracepoint, ProviderRef, TracepointListNode,
    TracepointProviderState, TracepointState,
};

/// A tracepoint for the events of one provider, level and keyword.
///
/// `#[repr(C)]` with the tracepoint state first, so that a pointer to a set
/// is a pointer to its `status_word`: C tests it inline. The whole layout
/// is `_ehd_event_set_state` of `eventheader-dynamic.h` (checked by
/// `tests/abi-layout`): `EventHeaderDynamic.h` makes a placeholder set (never
/// enabled, errno EINVAL, no provider) of its own and writes to it through
/// the library, which reads only its state, level and errno.
#[repr(C)]
pub struct EventSet {
    state: UnsafeCell<TracepointState>,
    keyword: u64,
    errno: c_int,
    level: u8,
    refs: AtomicUsize,
    /// The provider's memory, of which this set holds one reference (None
    /// only in a placeholder, which no provider made).
    provider: Option<NonNull<Provider>>,
}

const _: () = assert!(core::mem::offset_of!(EventSet, state) == 0);
const _: () = assert!(core::mem::offset_of!(TracepointState, status_word) == 0);

/// Offsets and sizes of the set's fields, for the layout test against
/// `_ehd_event_set_state` (`tests/abi-layout`): (C field, offset, size).
#[doc(hidden)]
pub const LAYOUT: [(&str, usize, usize); 6] = {
    use core::mem::{offset_of, size_of};
    [
        (
            "state",
            offset_of!(EventSet, state),
            size_of::<TracepointState>(),
        ),
        ("keyword", offset_of!(EventSet, keyword), 8),
        ("error", offset_of!(EventSet, errno), size_of::<c_int>()),
        ("level", offset_of!(EventSet, level), 1),
        ("refs", offset_of!(EventSet, refs), size_of::<usize>()),
        (
            "provider",
            offset_of!(EventSet, provider),
            size_of::<usize>(),
        ),
    ]
};

/// A table entry: the key, and the set (the table holds one reference).
#[derive(Clone, Copy)]
struct Entry {
    level: u8,
    keyword: u64,
    set: NonNull<EventSet>,
}

/// A provider of runtime-defined events.
pub struct Provider {
    refs: AtomicUsize,
    state: UnsafeCell<TracepointProviderState>,
    /// Name, NUL, options, NUL.
    text: Buffer<u8>,
    options_at: usize,
    /// 0 if the provider opened, else the errno of opening it.
    open_errno: c_int,
    /// Sorted by (level, keyword). Changed only by the provider functions
    /// that callers must not run concurrently with others on this provider.
    sets: UnsafeCell<Buffer<Entry>>,
}

/// How a new set is created.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum NewSet {
    /// Registered with the provider's backend.
    Register,
    /// Not registered (for tests): enabled or not, for ever.
    Unregistered { enabled: bool },
}

fn initial_tracepoint_state(status_word: u32) -> TracepointState {
    TracepointState {
        status_word,
        write_index: -1,
        provider_state: ptr::null(),
        tracepoint_list_link: TracepointListNode {
            next: ptr::null_mut(),
            prev: ptr::null_mut(),
        },
    }
}

impl Provider {
    /// Creates a provider named `name` with `options` (e.g. "" or
    /// "Gmygroup") and opens it. A provider whose name or options are
    /// invalid (None stands for an argument that is not text, kept as ""),
    /// or that cannot open, is still created: its errno says why and its
    /// sets are never enabled. Err only for ENOMEM.
    pub fn create(name: Option<&[u8]>, options: Option<&[u8]>) -> Result<NonNull<Provider>, c_int> {
        let readable = name.is_some() && options.is_some();
        let (name, options) = (name.unwrap_or_default(), options.unwrap_or_default());
        let total = name
            .len()
            .checked_add(options.len())
            .and_then(|n| n.checked_add(2))
            .ok_or(libc::ENOMEM)?;
        let mut text = Buffer::with_capacity(total)?;
        text.extend_from_slice(name)?;
        text.push(0)?;
        text.extend_from_slice(options)?;
        text.push(0)?;
        let provider = heap::alloc(Provider {
            refs: AtomicUsize::new(1),
            state: UnsafeCell::new(TracepointProviderState {
                data_file: -1,
                ref_count: 0,
                tracepoint_list_head: TracepointListNode {
                    next: ptr::null_mut(),
                    prev: ptr::null_mut(),
                },
            }),
            text,
            options_at: name.len().saturating_add(1),
            open_errno: 0,
            sets: UnsafeCell::new(Buffer::new()),
        })?;
        // SAFETY: just allocated, not shared yet.
        let p = unsafe { &mut *provider.as_ptr() };
        // Names with a NUL cannot come from C strings, but the Rust API
        // allows them: they would be cut short, so refuse them.
        p.open_errno = if !readable || layers_below::has_nul(name) || layers_below::has_nul(options)
        {
            libc::EINVAL
        } else {
            layers_below::open_provider(&p.eventheader_provider())
        };
        Ok(provider)
    }

    /// The provider as the EventHeader layer sees it: its state, name and
    /// options, borrowed from this provider.
    fn eventheader_provider(&self) -> ProviderRef<'_> {
        ProviderRef {
            state: self.state.get(),
            name: self.name().to_bytes(),
            options: self.options().to_bytes(),
        }
    }

    /// The name, without options.
    pub fn name(&self) -> &CStr {
        layers_below::c_str_until_nul(self.text.as_slice())
    }

    /// The options string.
    pub fn options(&self) -> &CStr {
        self.text
            .as_slice()
            .get(self.options_at..)
            .map_or(c"", layers_below::c_str_until_nul)
    }

    /// 0, or the errno of opening the provider.
    pub fn errno(&self) -> c_int {
        self.open_errno
    }

    fn table(&self) -> &[Entry] {
        // SAFETY: the table is only changed by functions that the API's
        // contract keeps from running concurrently with this one.
        unsafe { &*self.sets.get() }.as_slice()
    }

    /// Index of (level, keyword) in the table, or where it would go.
    fn search(&self, level: u8, keyword: u64) -> Result<usize, usize> {
        self.table()
            .binary_search_by(|e| (e.level, e.keyword).cmp(&(level, keyword)))
    }

    /// The set of (level, keyword), if it exists.
    pub fn find_set(&self, level: u8, keyword: u64) -> Option<NonNull<EventSet>> {
        let index = self.search(level, keyword).ok()?;
        self.table().get(index).map(|e| e.set)
    }

    /// The set of (level, keyword): the existing one, or a new one created as
    /// `how` says (a registered set's errno is that of its registration, or
    /// the provider's if it did not open). Err only for ENOMEM.
    ///
    /// # Safety
    /// No other function may run on this provider concurrently, and
    /// `this` must be a live provider.
    pub unsafe fn register_set(
        this: NonNull<Provider>,
        level: u8,
        keyword: u64,
        how: NewSet,
    ) -> Result<NonNull<EventSet>, c_int> {
        // SAFETY: live provider (the caller's guarantee).
        let provider = unsafe { this.as_ref() };
        let index = match provider.search(level, keyword) {
            Ok(found) => {
                return provider
                    .table()
                    .get(found)
                    .map(|e| e.set)
                    .ok_or(libc::EINVAL)
            }
            Err(insert_at) => insert_at,
        };
        // SAFETY: no concurrent use of this provider (the caller's
        // guarantee), so the table may change; no borrow of it is live.
        let table = unsafe { &mut *provider.sets.get() };
        // Make room first: after the set exists, nothing may fail.
        table.reserve(1)?;
        let status = match how {
            NewSet::Unregistered { enabled: true } => 1,
            _ => 0,
        };
        let set = heap::alloc(EventSet {
            state: UnsafeCell::new(initial_tracepoint_state(status)),
            keyword,
            errno: 0,
            level,
            refs: AtomicUsize::new(1),
            provider: Some(this),
        })?;
        provider.refs.fetch_add(1, Ordering::Relaxed);
        let errno = match how {
            NewSet::Unregistered { .. } => 0,
            NewSet::Register if provider.open_errno != 0 => provider.open_errno,
            NewSet::Register => {
                // SAFETY: just allocated, live.
                let state = unsafe { set.as_ref() }.state_ptr();
                let event = EventHeaderTracepoint {
                    state,
                    metadata: ptr::null(),
                    header: EventHeader {
                        level,
                        ..EventHeader::default()
                    },
                    keyword,
                };
                // SAFETY: the set's state is valid and stays at its address
                // (a heap block freed only after the provider is closed).
                unsafe { layers_below::connect(&event, &provider.eventheader_provider()) }
            }
        };
        // SAFETY: the set is not shared yet.
        unsafe { (*set.as_ptr()).errno = errno };
        let entry = Entry {
            level,
            keyword,
            set,
        };
        // Cannot fail: the index is within the table and room was reserved.
        let _ = table.insert(index, entry);
        Ok(set)
    }

    /// Closes the provider (every set becomes disabled) and empties the
    /// table; sets retained elsewhere live on, disabled.
    ///
    /// # Safety
    /// As for register_set.
    pub unsafe fn unregister(this: NonNull<Provider>) {
        // SAFETY: live provider (the caller's guarantee).
        let provider = unsafe { this.as_ref() };
        layers_below::close_provider(&provider.eventheader_provider());
        // SAFETY: no concurrent use of this provider (the caller's guarantee).
        let table = unsafe { &mut *provider.sets.get() };
        for entry in table.as_slice() {
            // SAFETY: the table's reference, dropped once; the provider is
            // closed, so no set is connected any more.
            unsafe { EventSet::release(entry.set) };
        }
        table.clear();
    }

    /// Unregisters the provider and drops the handle's reference.
    ///
    /// # Safety
    /// As for register_set; `this` is not used again by the caller.
    pub unsafe fn destroy(this: NonNull<Provider>) {
        // SAFETY: forwarded contract.
        unsafe { Self::unregister(this) };
        // SAFETY: the handle's reference, dropped once.
        unsafe { Self::release(this) };
    }

    /// Drops one reference; frees the provider with the last.
    ///
    /// # Safety
    /// `this` must hold a reference that the caller gives up.
    unsafe fn release(this: NonNull<Provider>) {
        // SAFETY: live while the caller's reference exists.
        let refs = unsafe { &this.as_ref().refs };
        if refs.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // Acquire: every other reference's use happens before the free. A
        // load rather than a fence, as Rust's Arc does under ThreadSanitizer:
        // the same ordering, and one TSan can see.
        refs.load(Ordering::Acquire);
        // SAFETY: that was the last reference: no handle, no set, no table
        // entry refers to it any more.
        unsafe { heap::free(this) };
    }
}

impl EventSet {
    /// The tracepoint state (its first field is the status word).
    pub fn state_ptr(&self) -> *mut TracepointState {
        self.state.get()
    }

    /// Whether a collector listens.
    #[inline(always)]
    pub fn enabled(&self) -> bool {
        // SAFETY: the state lives as long as the set.
        unsafe { layers_below::status_word(self.state.get()) }.load(Ordering::Relaxed) != 0
    }

    /// 0 if the set was registered, else the errno of its registration (or
    /// of opening its provider).
    pub fn errno(&self) -> c_int {
        self.errno
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    pub fn keyword(&self) -> u64 {
        self.keyword
    }

    /// Adds a reference.
    pub fn retain(&self) {
        self.refs.fetch_add(1, Ordering::Relaxed);
    }

    /// Drops one reference; with the last, frees the set and drops its
    /// provider reference.
    ///
    /// # Safety
    /// `this` must hold a reference that the caller gives up; a set whose
    /// last reference goes must not be connected (only the provider's table
    /// holds connected sets, and it drops them after closing).
    pub unsafe fn release(this: NonNull<EventSet>) {
        // SAFETY: live while the caller's reference exists.
        let set = unsafe { this.as_ref() };
        if set.refs.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // Acquire, as in Provider::release.
        set.refs.load(Ordering::Acquire);
        let provider = set.provider;
        // SAFETY: that was the last reference to the set.
        unsafe { heap::free(this) };
        if let Some(provider) = provider {
            // SAFETY: the set's provider reference, dropped once.
            unsafe { Provider::release(provider) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_provider(name: &str, options: &str, f: impl FnOnce(NonNull<Provider>)) {
        let p = Provider::create(Some(name.as_bytes()), Some(options.as_bytes())).unwrap();
        f(p);
        // SAFETY: test-owned provider, destroyed once.
        unsafe { Provider::destroy(p) };
    }

    #[test]
    fn invalid_names_make_a_failed_provider() {
        for (name, options, errno) in [
            ("Bad Name", "", libc::EINVAL),
            ("Bad:Name", "", libc::EINVAL),
            ("", "", libc::EINVAL),
            ("Good", "gbad", libc::EINVAL),
            ("Nul\0", "", libc::EINVAL),
        ] {
            with_provider(name, options, |p| {
                // SAFETY: live test provider.
                let pr = unsafe { p.as_ref() };
                assert_eq!(pr.errno(), errno, "{name:?} {options:?}");
                // SAFETY: single-threaded test.
                let set = unsafe { Provider::register_set(p, 5, 1, NewSet::Register) }.unwrap();
                // SAFETY: owned by the live provider.
                let set = unsafe { set.as_ref() };
                assert_eq!(set.errno(), errno);
                assert!(!set.enabled());
            });
        }
        let long = "N".repeat(300);
        with_provider(&long, "", |p| {
            // SAFETY: live test provider.
            let pr = unsafe { p.as_ref() };
            assert_eq!(pr.errno(), libc::E2BIG);
            assert_eq!(pr.name().to_bytes(), long.as_bytes());
        });
    }

    #[test]
    fn sets_are_found_again_and_kept_sorted() {
        with_provider("DynUnit", "Gtest", |p| {
            // SAFETY: live test provider.
            let pr = unsafe { p.as_ref() };
            assert_eq!(pr.name().to_bytes(), b"DynUnit");
            assert_eq!(pr.options().to_bytes(), b"Gtest");
            let keys = [(5u8, 1u64), (4, 2), (5, 0), (1, u64::MAX), (4, 1)];
            let mut sets = Vec::new();
            for (level, keyword) in keys {
                let how = NewSet::Unregistered {
                    enabled: level == 4,
                };
                // SAFETY: single-threaded test.
                let set = unsafe { Provider::register_set(p, level, keyword, how) }.unwrap();
                sets.push(set);
            }
            for (i, (level, keyword)) in keys.into_iter().enumerate() {
                assert_eq!(pr.find_set(level, keyword), Some(sets[i]));
                // SAFETY: single-threaded test.
                let again = unsafe { Provider::register_set(p, level, keyword, NewSet::Register) };
                assert_eq!(again, Ok(sets[i]), "existing sets are returned");
                // SAFETY: owned by the live provider.
                let set = unsafe { sets[i].as_ref() };
                assert_eq!(
                    (set.level(), set.keyword(), set.errno()),
                    (level, keyword, 0)
                );
                assert_eq!(set.enabled(), level == 4);
            }
            assert_eq!(pr.find_set(2, 1), None);
            let order: Vec<(u8, u64)> = pr.table().iter().map(|e| (e.level, e.keyword)).collect();
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(order, sorted);
        });
    }

    #[test]
    fn a_retained_set_outlives_its_provider() {
        let p = Provider::create(Some(b"DynKeep"), Some(b"")).unwrap();
        // SAFETY: single-threaded test.
        let set =
            unsafe { Provider::register_set(p, 5, 1, NewSet::Unregistered { enabled: false }) }
                .unwrap();
        // SAFETY: owned by the live provider.
        unsafe { set.as_ref() }.retain();
        // SAFETY: destroyed once; the set keeps the memory alive.
        unsafe { Provider::destroy(p) };
        // SAFETY: the retained reference keeps it alive.
        let s = unsafe { set.as_ref() };
        assert!(!s.enabled());
        // SAFETY: that reference: frees the set and then the provider.
        unsafe { EventSet::release(set) };
    }
}
