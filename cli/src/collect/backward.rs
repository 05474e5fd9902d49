//! Overwrite-mode ring buffers for `collect --circular`: one per CPU,
//! mapped read-only with the events' `write_backward` bit set (the kernel's
//! overwrite mode, as `perf record --overwrite`). The kernel never waits
//! for a reader: the newest record goes below the previous one and the
//! oldest are overwritten. `data_head` only decreases (a wrapping u64
//! starting at 0); the newest record starts at it, older ones follow.
//!
//! A snapshot pauses the ring (PERF_EVENT_IOC_PAUSE_OUTPUT: the kernel
//! counts what arrives meanwhile as lost and says so in a PERF_RECORD_LOST
//! once resumed), copies the records written since the previous snapshot
//! (as far back as the ring still holds them), and resumes.

use std::os::fd::AsRawFd;

use perf_event::Counter;

use crate::exit::Error;

/// Bytes of the data area for a requested size: a power of two of pages.
pub fn data_bytes(requested: usize, page: usize) -> usize {
    requested.max(page).next_power_of_two()
}

/// The records of a backward ring's data area `ring` (its length the
/// ring's size) from position `head` on, over at most `avail` bytes (those
/// written since the last copy: older ones were copied then), appended to
/// `out` each whole (header and body) in the ring's order, newest first.
/// Stops at a header that is zero, shorter than itself, or whose record
/// would go past `avail` or the ring's size (a record the newest ones
/// overwrote in part). Returns (records, bytes) taken.
///
/// Kernel memory, but read as untrusted input: nothing in it can make this
/// read out of `ring` or loop forever (fuzz target `backward_ring`).
pub fn copy_records(ring: &[u8], head: u64, avail: u64, out: &mut Vec<u8>) -> (usize, u64) {
    let size = ring.len() as u64;
    if size < 8 {
        return (0, 0);
    }
    let limit = avail.min(size);
    let at = |pos: u64| (pos % size) as usize;
    let mut taken = 0u64;
    let mut records = 0;
    let mut header = [0u8; 8];
    while taken + 8 <= limit {
        let start = head.wrapping_add(taken);
        copy_wrapped(ring, at(start), &mut header);
        let len = u64::from(u16::from_ne_bytes([header[6], header[7]]));
        if len < 8 || taken + len > limit {
            break;
        }
        let from = out.len();
        out.resize(from + len as usize, 0);
        copy_wrapped(ring, at(start), &mut out[from..]);
        taken += len;
        records += 1;
    }
    (records, taken)
}

/// Fills `dst` from `ring` at `at`, wrapping at the ring's end.
fn copy_wrapped(ring: &[u8], at: usize, dst: &mut [u8]) {
    let first = (ring.len() - at).min(dst.len());
    dst[..first].copy_from_slice(&ring[at..at + first]);
    let rest = dst.len() - first;
    dst[first..].copy_from_slice(&ring[..rest]);
}

/// One CPU's overwrite ring: the mapping of its first event.
pub struct BackwardRing {
    pub cpu: usize,
    pub counter: Counter,
    base: *mut libc::c_void,
    map_len: usize,
    data_offset: usize,
    data_size: usize,
    /// `data_head` at the previous copy (0: the start, nothing older).
    last_head: u64,
}

impl BackwardRing {
    /// Maps `data_size` bytes (a power of two of pages) of `counter`'s ring
    /// read-only: the kernel's overwrite mode.
    pub fn map(cpu: usize, counter: Counter, data_size: usize) -> Result<BackwardRing, Error> {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
        let map_len = page + data_size;
        // SAFETY: a new shared read-only mapping of an open perf event's
        // ring; the kernel checks the length (one page + a power of two).
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                counter.as_raw_fd(),
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(Error::kernel(
                &std::io::Error::last_os_error(),
                format!(
                    "mapping the {} KiB ring buffer of CPU {cpu} (see perf_event_mlock_kb)",
                    data_size >> 10
                ),
            ));
        }
        Ok(BackwardRing {
            cpu,
            counter,
            base,
            map_len,
            data_offset: page,
            data_size,
            last_head: 0,
        })
    }

    fn meta(&self) -> *const perf_event_open_sys::bindings::perf_event_mmap_page {
        self.base as *const _
    }

    /// The kernel's `data_head`, read before the records it covers.
    fn head(&self) -> u64 {
        // SAFETY: the first page of the mapping is the kernel's
        // perf_event_mmap_page; data_head is an aligned u64 in it, which
        // the kernel updates concurrently (hence the volatile read).
        let head = unsafe { std::ptr::addr_of!((*self.meta()).data_head).read_volatile() };
        std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
        head
    }

    /// Pauses (true) or resumes the kernel's writing into this ring.
    pub fn pause(&self, paused: bool) -> Result<(), Error> {
        // SAFETY: an ioctl on an open perf event owned by this ring; the
        // argument is a plain integer.
        let rc = unsafe {
            perf_event_open_sys::ioctls::PAUSE_OUTPUT(self.counter.as_raw_fd(), u32::from(paused))
        };
        if rc != 0 {
            return Err(Error::kernel(
                &std::io::Error::last_os_error(),
                format!("pausing the ring buffer of CPU {}", self.cpu),
            ));
        }
        Ok(())
    }

    /// Copies the records written since the previous copy into `out`
    /// (pause the ring first). Returns (records, wrapped): wrapped when
    /// more was written than the ring holds, the oldest of it overwritten.
    pub fn take_new(&mut self, out: &mut Vec<u8>) -> (usize, bool) {
        let head = self.head();
        let avail = self.last_head.wrapping_sub(head);
        // SAFETY: the data area is the `data_size` bytes after the first
        // page of the mapping, readable while it lives. The ring is paused:
        // the kernel does not write it during the copy.
        let ring = unsafe {
            std::slice::from_raw_parts(
                (self.base as *const u8).add(self.data_offset),
                self.data_size,
            )
        };
        // At most what is new, at once: no doubling of `out` as it grows.
        out.reserve(avail.min(self.data_size as u64) as usize);
        let (records, _) = copy_records(ring, head, avail, out);
        self.last_head = head;
        (records, avail > self.data_size as u64)
    }
}

impl BackwardRing {
    /// Where the next [`take_new`](Self::take_new) starts (the head at the
    /// previous copy).
    pub fn mark(&self) -> u64 {
        self.last_head
    }

    /// Starts the next copy at `mark` again (a copy that could not be
    /// saved: its records are taken again, as far as the ring still holds
    /// them).
    pub fn reset_mark(&mut self, mark: u64) {
        self.last_head = mark;
    }
}

impl Drop for BackwardRing {
    fn drop(&mut self) {
        // SAFETY: `base` and `map_len` are the mapping made in `map`, not
        // used after this.
        unsafe { libc::munmap(self.base, self.map_len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of type 9 and `len` bytes whose body bytes are all `tag`.
    fn rec(len: u16, tag: u8) -> Vec<u8> {
        let mut r = 9u32.to_ne_bytes().to_vec();
        r.extend_from_slice(&0u16.to_ne_bytes());
        r.extend_from_slice(&len.to_ne_bytes());
        r.resize(usize::from(len), tag);
        r
    }

    /// Writes records into a ring of `size` bytes as the kernel's
    /// backward mode does: each below the previous one. Returns the head.
    fn write_backward(ring: &mut [u8], records: &[Vec<u8>]) -> u64 {
        let mut head = 0u64;
        for r in records {
            head = head.wrapping_sub(r.len() as u64);
            for (i, b) in r.iter().enumerate() {
                let at = (head.wrapping_add(i as u64) % ring.len() as u64) as usize;
                ring[at] = *b;
            }
        }
        head
    }

    #[test]
    fn newest_first_until_nothing_older() {
        let mut ring = vec![0u8; 64];
        let head = write_backward(&mut ring, &[rec(16, 1), rec(8, 2), rec(24, 3)]);
        let mut out = Vec::new();
        assert_eq!(
            copy_records(&ring, head, 0u64.wrapping_sub(head), &mut out),
            (3, 48)
        );
        assert_eq!(out, [rec(24, 3), rec(8, 2), rec(16, 1)].concat());
    }

    #[test]
    fn wrapped_ring_drops_the_overwritten_record() {
        let mut ring = vec![0u8; 64];
        // 16 + 24 + 24 + 24 = 88 bytes into 64: the fourth record
        // overwrote the first and the last 8 bytes of the second, whose
        // header is still there.
        let records = [rec(16, 1), rec(24, 2), rec(24, 3), rec(24, 4)];
        let head = write_backward(&mut ring, &records);
        let mut out = Vec::new();
        assert_eq!(copy_records(&ring, head, 88, &mut out), (2, 48));
        assert_eq!(out, [rec(24, 4), rec(24, 3)].concat());
        // 16 + 24 + 24 + 16 = 80: only the first is gone.
        let mut ring = vec![0u8; 64];
        let records = [rec(16, 1), rec(24, 2), rec(24, 3), rec(16, 4)];
        let head = write_backward(&mut ring, &records);
        out.clear();
        assert_eq!(copy_records(&ring, head, 80, &mut out), (3, 64));
        assert_eq!(out, [rec(16, 4), rec(24, 3), rec(24, 2)].concat());
    }

    #[test]
    fn only_what_is_new_since_the_last_copy() {
        let mut ring = vec![0u8; 128];
        let first = write_backward(&mut ring, &[rec(16, 1), rec(16, 2)]);
        let mut out = Vec::new();
        copy_records(&ring, first, 0u64.wrapping_sub(first), &mut out);
        // Two more below the first two.
        let mut head = first;
        for r in [rec(8, 3), rec(24, 4)] {
            head = head.wrapping_sub(r.len() as u64);
            for (i, b) in r.iter().enumerate() {
                ring[(head.wrapping_add(i as u64) % 128) as usize] = *b;
            }
        }
        out.clear();
        assert_eq!(
            copy_records(&ring, head, first.wrapping_sub(head), &mut out),
            (2, 32)
        );
        assert_eq!(out, [rec(24, 4), rec(8, 3)].concat());
        out.clear();
        assert_eq!(copy_records(&ring, head, 0, &mut out), (0, 0));
    }

    #[test]
    fn bad_headers_stop_the_walk() {
        let mut ring = vec![0u8; 32];
        ring[6..8].copy_from_slice(&4u16.to_ne_bytes());
        let mut out = Vec::new();
        assert_eq!(copy_records(&ring, 0, 32, &mut out), (0, 0));
        ring[6..8].copy_from_slice(&40u16.to_ne_bytes());
        assert_eq!(copy_records(&ring, 0, u64::MAX, &mut out), (0, 0));
        assert_eq!(copy_records(&[0u8; 4], 0, 4, &mut out), (0, 0));
        assert!(out.is_empty());
        assert_eq!(data_bytes(5000, 4096), 8192);
        assert_eq!(data_bytes(1 << 31, 4096), 1 << 31);
    }
}
