//! Event definitions: an event's name, tag and fields checked once, its
//! metadata block made once (by a builder in metadata-only mode, so the
//! bytes are the builder's), and then, per event, only the values. The
//! write sends the definition's header and metadata and points a vector at
//! each value the caller gives: nothing of the payload is copied, except for
//! a definition with more vectors than the write keeps on its stack (see
//! [`STACK_VECS`]), whose payload is gathered in one `malloc`ed block.

use core::ffi::{c_int, c_void};
use core::mem::MaybeUninit;
use core::ptr::{self, NonNull};

use libc::iovec;

use crate::dynamic::builder::{
    char_size, enc, value_size, Builder, HeaderValues, EVENT_SIZE_LIMIT, EXT_HEADER,
};
use crate::dynamic::event_of;
use crate::dynamic::heap;
use crate::dynamic::layers_below::{self, find_nul, Activity};
use crate::dynamic::provider::EventSet;

mod gathered;
mod zero;
use zero::has_zero;

/// One field's value for [`EventDef::write`] (`ehd_value` in C): `size`
/// bytes at `data` for a value encoding (exactly the encoding's size), else
/// `size` characters (`usize::MAX`: up to the first zero character).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Value {
    pub data: *const c_void,
    pub size: usize,
}

/// The vectors a write keeps on its stack: the header's 3, then the
/// payload's (one per value, two per string). A definition that needs more
/// gathers its payload instead.
pub const STACK_VECS: usize = 64;

/// The most payload vectors one event may have: the kernel's writev takes
/// at most 1024 (UIO_MAXIOV), 3 of which go before the payload.
const PAYLOAD_VECS_MAX: usize = 1024 - 3;

/// A zero character of up to 4 bytes (a zstring's end).
static ZERO_CHAR: [u8; 4] = [0; 4];

/// An event definition: header values, the metadata extension block, and
/// each field's encoding byte (struct fields take no value). In one
/// `malloc`ed block: the metadata, then the encodings.
pub struct EventDef {
    /// The metadata extension block (its header, then the event name, NUL,
    /// the fields), 2-byte aligned.
    meta: NonNull<u8>,
    /// Fields (and so values) the definition has.
    count: usize,
    /// Their layout bytes ([`layout`]).
    encodings: NonNull<u8>,
    /// Metadata bytes after the extension header.
    meta_len: usize,
    /// Payload vectors a write needs at most.
    vecs: usize,
    tag: u16,
}

/// How a field's value is laid out, one byte per field (made once from
/// its encoding): 0 for a struct (no value); a value's size (1 ... 16); or
/// a string's character size with [`ZSTRING`] or [`COUNTED`].
const ZSTRING: u8 = 0x20;
const COUNTED: u8 = 0x40;
const UNIT: u8 = 0x1f;

fn layout(encoding: u8) -> u8 {
    // Sizes of at most 16 bytes: the casts keep them.
    if let Some(size) = value_size(encoding) {
        size as u8
    } else if let Some(unit) = char_size(encoding) {
        let zstring = (enc::ZSTRING_CHAR8..=enc::ZSTRING_CHAR32).contains(&encoding);
        unit as u8 | if zstring { ZSTRING } else { COUNTED }
    } else {
        0
    }
}

/// Whether a definition may hold a field of this encoding byte: a struct,
/// a value or a string, without array flags.
pub fn supported(encoding: u8) -> bool {
    encoding == enc::STRUCT || (enc::VALUE8..=enc::BINARY_LENGTH16_CHAR8).contains(&encoding)
}

impl EventDef {
    /// A definition of the event `b` holds (built in metadata-only mode:
    /// its fields' metadata, no payload) with event tag `tag`, whose field
    /// `i` has the encoding byte `encoding(i)` (each [`supported`]).
    /// Returns the builder's error, ERANGE or E2BIG as its write would for
    /// the metadata, E2BIG for a definition of more than 1021 payload
    /// vectors, ENOMEM.
    pub fn new(
        b: &mut Builder,
        tag: u16,
        count: usize,
        encoding: impl Fn(usize) -> u8,
    ) -> Result<NonNull<EventDef>, c_int> {
        let (meta, _) = b.finish()?;
        let mut vecs = 0usize;
        for i in 0..count {
            let layout = layout(encoding(i));
            vecs += if layout & (ZSTRING | COUNTED) != 0 {
                2
            } else {
                usize::from(layout != 0)
            };
        }
        if vecs > PAYLOAD_VECS_MAX {
            return Err(libc::E2BIG);
        }
        let tail = meta.len().checked_add(count).ok_or(libc::ENOMEM)?;
        let meta_len = meta.len() - EXT_HEADER;
        heap::alloc_with_tail(tail, |storage| {
            // SAFETY: `tail` bytes at `storage`: the metadata, then `count`
            // encodings; the block is not shared yet.
            let encodings = unsafe { storage.add(meta.len()) };
            // SAFETY: as above, `meta.len()` bytes; a builder's buffer is
            // not the new block.
            unsafe { ptr::copy_nonoverlapping(meta.as_ptr(), storage.as_ptr(), meta.len()) };
            for i in 0..count {
                // SAFETY: `count` bytes after the metadata, as above.
                unsafe {
                    encodings
                        .as_ptr()
                        .wrapping_add(i)
                        .write(layout(encoding(i)))
                };
            }
            EventDef {
                meta: storage,
                count,
                encodings,
                meta_len,
                vecs,
                tag,
            }
        })
    }

    /// Frees a definition from [`EventDef::new`].
    ///
    /// # Safety
    /// `this` must come from it and not be used again.
    pub unsafe fn free(this: NonNull<EventDef>) {
        // SAFETY: the caller's guarantee; the metadata and encodings are in
        // the block.
        unsafe { heap::free(this) }
    }

    /// Fields (and so values) of the definition.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The metadata block (extension header, then the metadata).
    pub fn metadata(&self) -> &[u8] {
        // SAFETY: the block holds the extension header and `meta_len` bytes,
        // as long as the definition lives.
        unsafe { core::slice::from_raw_parts(self.meta.as_ptr(), self.meta_len + EXT_HEADER) }
    }

    /// Writes one event of the definition with `values` (one per field; a
    /// struct's is not read) to `set`.
    ///
    /// Returns 0, else: EINVAL for a value count that is not the
    /// definition's or a value that does not fit its field (NULL with a
    /// size, a value's size not the encoding's, a string's bytes not a whole
    /// number of characters); ERANGE for a counted string over 65535
    /// characters or an event over [`EVENT_SIZE_LIMIT`]; EBADF for a NULL or
    /// disabled set; ENOMEM if a large definition's payload block cannot be
    /// allocated; else the write's errno.
    ///
    /// # Safety
    /// Each value's `data` NULL or readable for its size (characters up to
    /// and including a zero one for `usize::MAX`).
    #[inline(always)]
    pub unsafe fn write(
        &self,
        values: &[Value],
        set: Option<&EventSet>,
        activity: Option<Activity<'_>>,
    ) -> c_int {
        if values.len() != self.count {
            return libc::EINVAL;
        }
        if self.vecs > STACK_VECS - 3 {
            // SAFETY: the caller's guarantee.
            return unsafe { self.write_gathered(values, set, activity) };
        }
        let mut vecs = [MaybeUninit::<iovec>::uninit(); STACK_VECS];
        let mut counts = [MaybeUninit::<[u8; 2]>::uninit(); STACK_VECS / 2];
        let mut out = Vecs {
            vecs: vecs.as_mut_ptr().cast::<iovec>(),
            counts: counts.as_mut_ptr().cast::<[u8; 2]>(),
            used: 3,
            counted: 0,
        };
        // SAFETY: room for the definition's vectors and counts (checked
        // above: at most STACK_VECS - 3 payload vectors, at most half of
        // them counts); the caller's guarantee for the values.
        let payload = match unsafe { self.fill(values, &mut out) } {
            Ok(len) => len,
            Err(e) => return e,
        };
        if let Err(e) = self.fits(payload) {
            return e;
        }
        let used = out.used;
        // SAFETY: the first 3 vectors are the header's (filled below by the
        // write), the next ones were written by fill; nothing else uses the
        // array meanwhile.
        let vecs = unsafe { core::slice::from_raw_parts_mut(out.vecs, used) };
        // SAFETY: vectors 3.. point at the caller's values (readable, the
        // caller's guarantee), ZERO_CHAR and `counts`, live until it returns.
        unsafe { self.send(vecs, set, activity) }
    }

    /// ERANGE if the event (metadata and `payload` bytes) is over the limit.
    #[inline(always)]
    fn fits(&self, payload: usize) -> Result<(), c_int> {
        if payload > EVENT_SIZE_LIMIT - self.meta_len {
            return Err(libc::ERANGE);
        }
        Ok(())
    }

    /// Points `out` at each field's payload: the values, a zstring's
    /// characters before its first zero one and a zero character, a
    /// counted string's u16 count and characters. Returns the payload's
    /// length, or EINVAL/ERANGE for a value that does not fit its field.
    ///
    /// # Safety
    /// `out` must have room for the definition's vectors and counts; each
    /// value readable as [`EventDef::write`] says.
    #[inline(always)]
    unsafe fn fill(&self, values: &[Value], out: &mut Vecs) -> Result<usize, c_int> {
        let mut payload = 0usize;
        // An index over both arrays (of the same length, checked by the
        // caller) rather than iterator adapters, whose generic code the
        // static archive would put in a member every program links.
        let (layouts, count) = (self.encodings.as_ptr(), values.len().min(self.count));
        let mut i = 0;
        while i < count {
            // SAFETY: `i` is below both lengths.
            let layout = unsafe { layouts.wrapping_add(i).read() };
            // SAFETY: as above.
            let v = unsafe { &*values.as_ptr().wrapping_add(i) };
            i += 1;
            if layout & (ZSTRING | COUNTED) == 0 {
                if layout == 0 {
                    continue; // a struct
                }
                let size = usize::from(layout);
                if v.size != size || v.data.is_null() {
                    return Err(libc::EINVAL);
                }
                // SAFETY: room for it (the caller's guarantee).
                unsafe { out.push(v.data.cast(), size) };
                payload += size;
                continue;
            }
            let unit = usize::from(layout & UNIT);
            // SAFETY: the caller's guarantee.
            let chars = unsafe { chars(v, unit) }?;
            let len = if layout & ZSTRING != 0 {
                let body = zstring_body(chars, unit);
                // SAFETY: room for both (the caller's guarantee).
                unsafe { out.push(chars.as_ptr(), body) };
                // SAFETY: as above.
                unsafe { out.push(ZERO_CHAR.as_ptr(), unit) };
                body + unit
            } else {
                let Ok(n) = u16::try_from(chars.len().checked_div(unit).unwrap_or(0)) else {
                    return Err(libc::ERANGE);
                };
                // SAFETY: room for both (the caller's guarantee).
                unsafe { out.push_count(n) };
                // SAFETY: as above.
                unsafe { out.push(chars.as_ptr(), chars.len()) };
                chars.len() + 2
            };
            // Each string is at most isize::MAX bytes, and the sum is
            // checked against the limit after each: no overflow.
            payload = payload.saturating_add(len);
            if payload > EVENT_SIZE_LIMIT {
                return Err(libc::ERANGE);
            }
        }
        Ok(payload)
    }

    /// Sends the event: the header and metadata in `vecs[1]` and `vecs[2]`,
    /// the payload from `vecs[3]`.
    ///
    /// # Safety
    /// The payload vectors readable for their lengths.
    #[inline(always)]
    unsafe fn send(
        &self,
        vecs: &mut [iovec],
        set: Option<&EventSet>,
        activity: Option<Activity<'_>>,
    ) -> c_int {
        let Some(set) = set else {
            return libc::EBADF;
        };
        if !set.enabled() {
            return libc::EBADF;
        }
        let header = HeaderValues {
            tag: self.tag,
            ..HeaderValues::default()
        };
        let event = event_of(set, header, self.meta.as_ptr());
        // SAFETY: the set's state lives as long as `set`; the metadata block
        // is the definition's (its extension header filled in, 2-byte
        // aligned: malloc'ed); the payload the caller's guarantee.
        unsafe { layers_below::write_vecs(&event, activity, vecs) }
    }
}

/// A value's characters of `unit` bytes: `size` of them, or up to the
/// first zero one for `usize::MAX`. EINVAL for NULL with a size.
///
/// # Safety
/// As for [`EventDef::write`].
#[inline(always)]
unsafe fn chars<'a>(v: &Value, unit: usize) -> Result<&'a [u8], c_int> {
    let len = if v.size == usize::MAX {
        if v.data.is_null() {
            return Err(libc::EINVAL);
        }
        // SAFETY: characters up to a zero one (the caller's guarantee).
        unsafe { terminated_len(v.data.cast(), unit) }
    } else {
        v.size.checked_mul(unit).ok_or(libc::EINVAL)?
    };
    if len == 0 {
        return Ok(&[]);
    }
    if v.data.is_null() || len > isize::MAX as usize {
        return Err(libc::EINVAL);
    }
    // SAFETY: `len` readable bytes (the caller's guarantee).
    Ok(unsafe { core::slice::from_raw_parts(v.data.cast::<u8>(), len) })
}

/// Bytes before the first zero character of `unit` bytes at `p`.
///
/// # Safety
/// Characters readable up to and including a zero one.
#[cold]
unsafe fn terminated_len(p: *const u8, unit: usize) -> usize {
    let mut len = 0usize;
    loop {
        // SAFETY: characters up to the zero one are readable.
        let ch = unsafe { core::slice::from_raw_parts(p.wrapping_add(len), unit) };
        if ch.iter().all(|&b| b == 0) {
            return len;
        }
        len += unit;
    }
}

/// Bytes of `chars` before its first zero character of `unit` bytes.
#[inline(always)]
fn zstring_body(chars: &[u8], unit: usize) -> usize {
    if unit == 1 {
        if !has_zero(chars) {
            return chars.len();
        }
        return find_nul(chars).unwrap_or(chars.len());
    }
    crate::dynamic::builder::field::zstring_len(chars, unit)
}

/// Vectors (and the counted strings' u16 counts they point at) being
/// filled.
struct Vecs {
    vecs: *mut iovec,
    counts: *mut [u8; 2],
    used: usize,
    counted: usize,
}

impl Vecs {
    /// Appends a vector of `len` bytes at `p`.
    ///
    /// # Safety
    /// Room for one more vector.
    #[inline(always)]
    unsafe fn push(&mut self, p: *const u8, len: usize) {
        // SAFETY: room for it (the caller's guarantee).
        unsafe {
            self.vecs.wrapping_add(self.used).write(iovec {
                iov_base: p.cast_mut().cast(),
                iov_len: len,
            })
        };
        self.used += 1;
    }

    /// Appends a vector of a u16 count.
    ///
    /// # Safety
    /// Room for one more vector and one more count.
    #[inline(always)]
    unsafe fn push_count(&mut self, n: u16) {
        let at = self.counts.wrapping_add(self.counted);
        // SAFETY: room for one more count (the caller's guarantee).
        unsafe { at.write(n.to_ne_bytes()) };
        self.counted += 1;
        // SAFETY: room for one more vector.
        unsafe { self.push(at.cast::<u8>(), 2) };
    }
}
