//! The ring buffers of a streaming `collect`: one per CPU, mapped
//! read-write (the reader's `data_tail` tells the kernel what it may
//! overwrite), the records read from `data_tail` up to `data_head`.
//!
//! Every page of a ring is touched when it is mapped, before the events are
//! enabled: the first read of a page of a perf ring is a page fault, and
//! the first pass over a ring that a burst fills would otherwise take one
//! per page (256 for 1 MiB) while the burst goes on. In the real-kernel
//! suite's VM those faults made that pass last up to seconds, and the ring
//! overflowed behind it (docs/performance.md). (Newer kernels, 6.18 on
//! the build machines, map every page of a ring when it is mapped: there
//! the touch costs nothing and finds nothing to do.)

use std::os::fd::AsRawFd;

use perf_event::Counter;

use crate::exit::Error;

/// One CPU's forward ring: the mapping of its first event.
pub struct ForwardRing {
    pub cpu: usize,
    pub counter: Counter,
    base: *mut libc::c_void,
    map_len: usize,
    data_offset: usize,
    data_size: usize,
}

/// The records of `ring` (a ring's data area) from position `tail` up to
/// `head`, each whole (header and body) appended to `out`, until `limit`
/// bytes are taken (the record that passes it included); `each` sees every
/// record as appended. Stops at a header shorter than itself or a record
/// past `head`. Returns the position after the last record taken.
///
/// Kernel memory, but read as untrusted input: nothing in it can make this
/// read out of `ring` or loop forever.
pub fn take_records(
    ring: &[u8],
    tail: u64,
    head: u64,
    limit: usize,
    out: &mut Vec<u8>,
    mut each: impl FnMut(&[u8]),
) -> u64 {
    // A record that wraps around the ring's end is put together here (no
    // allocation until one does).
    let mut wrapped = Vec::new();
    walk_records(ring, tail, head, limit, &mut wrapped, |rec| {
        let from = out.len();
        out.extend_from_slice(rec);
        each(&out[from..]);
    })
}

/// Fills `dst` from `ring` at `at`, wrapping at the ring's end.
fn copy_wrapped(ring: &[u8], at: usize, dst: &mut [u8]) {
    let first = (ring.len() - at).min(dst.len());
    dst[..first].copy_from_slice(&ring[at..at + first]);
    let rest = dst.len() - first;
    dst[first..].copy_from_slice(&ring[..rest]);
}

/// The records of `ring` from `tail` up to `head`, as `take_records`, but
/// not copied: `each` sees each record in place (one that wraps around the
/// ring's end, copied into `scratch`). Returns the position after the last
/// record.
pub fn walk_records(
    ring: &[u8],
    tail: u64,
    head: u64,
    limit: usize,
    scratch: &mut Vec<u8>,
    mut each: impl FnMut(&[u8]),
) -> u64 {
    let size = ring.len() as u64;
    if size < 8 {
        return tail;
    }
    let avail = head.wrapping_sub(tail).min(size);
    let mut taken = 0u64;
    let mut header = [0u8; 8];
    while taken + 8 <= avail && taken < limit as u64 {
        let at = (tail.wrapping_add(taken) % size) as usize;
        copy_wrapped(ring, at, &mut header);
        let len = usize::from(u16::from_ne_bytes([header[6], header[7]]));
        if len < 8 || taken + len as u64 > avail {
            break;
        }
        match ring.get(at..at + len) {
            Some(rec) => each(rec),
            None => {
                scratch.clear();
                scratch.resize(len, 0);
                copy_wrapped(ring, at, scratch);
                each(scratch);
            }
        }
        taken += len as u64;
    }
    tail.wrapping_add(taken)
}

impl ForwardRing {
    /// Maps `data_size` bytes (a power of two of pages) of `counter`'s ring
    /// and touches every page of it.
    pub fn map(cpu: usize, counter: Counter, data_size: usize) -> Result<ForwardRing, Error> {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
        let map_len = page + data_size;
        // SAFETY: a new shared mapping of an open perf event's ring; the
        // kernel checks the length (one page + a power of two of pages).
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
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
        let ring = ForwardRing {
            cpu,
            counter,
            base,
            map_len,
            data_offset: page,
            data_size,
        };
        for at in (0..data_size).step_by(page) {
            // SAFETY: `at` is inside the data area, which is mapped and
            // readable while the ring lives; the volatile read is what
            // faults the page in (its value does not matter).
            let _ = unsafe { (base as *const u8).add(page + at).read_volatile() };
        }
        Ok(ring)
    }

    fn meta(&self) -> *mut perf_event_open_sys::bindings::perf_event_mmap_page {
        self.base as *mut _
    }

    /// (data_head, data_tail).
    fn positions(&self) -> (u64, u64) {
        let meta = self.meta();
        // SAFETY: the first page of the mapping is the kernel's
        // perf_event_mmap_page; data_head (written by the kernel) and
        // data_tail (written only here) are aligned u64s in it. The acquire
        // fence orders the records' reads after data_head's.
        unsafe {
            let head = std::ptr::addr_of!((*meta).data_head).read_volatile();
            std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
            (head, std::ptr::addr_of!((*meta).data_tail).read_volatile())
        }
    }

    /// The data area.
    fn data(&self) -> &[u8] {
        // SAFETY: the data area is the `data_size` bytes after the first
        // page of the mapping, readable while it lives; the kernel writes
        // there only from data_head to data_tail + size, which is not read
        // before data_head has passed it.
        unsafe {
            std::slice::from_raw_parts(
                (self.base as *const u8).add(self.data_offset),
                self.data_size,
            )
        }
    }

    /// The bytes of the data area.
    pub fn data_len(&self) -> usize {
        self.data_size
    }

    /// Gives the ring up to position `tail` back to the kernel (its
    /// records are read, copied or written out).
    pub fn release(&mut self, tail: u64) {
        // The fence orders the records' reads before the store the kernel
        // sees.
        std::sync::atomic::fence(std::sync::atomic::Ordering::Release);
        // SAFETY: data_tail is the reader's field of the control page.
        unsafe { std::ptr::addr_of_mut!((*self.meta()).data_tail).write_volatile(tail) };
    }

    /// Walks the records the kernel has written since the last release (at
    /// least `limit` bytes of them if there are that many, each record
    /// whole) in place, calling `each` on each, and returns the positions
    /// before and after them: the ring keeps them until `release` of it.
    /// `scratch` holds a record that wraps around the ring's end while
    /// `each` sees it.
    pub fn walk(&self, limit: usize, scratch: &mut Vec<u8>, each: impl FnMut(&[u8])) -> (u64, u64) {
        let (head, tail) = self.positions();
        (
            tail,
            walk_records(self.data(), tail, head, limit, scratch, each),
        )
    }

    /// The bytes from data_tail to `to` (from `walk`): one slice, or two
    /// where they wrap around the ring's end.
    pub fn pending(&self, to: u64) -> [&[u8]; 2] {
        let (_, tail) = self.positions();
        let data = self.data();
        let size = data.len() as u64;
        let len = to.wrapping_sub(tail).min(size) as usize;
        let at = (tail % size) as usize;
        let first = (data.len() - at).min(len);
        [&data[at..at + first], &data[..len - first]]
    }

    /// Appends the records the kernel has written since the last call to
    /// `out` (at least `limit` bytes of them if there are that many, each
    /// record whole), calls `each` on each, and gives their room back to
    /// the kernel. Returns whether it took any.
    pub fn take(&mut self, limit: usize, out: &mut Vec<u8>, each: impl FnMut(&[u8])) -> bool {
        let (head, tail) = self.positions();
        if head == tail {
            return false;
        }
        let new_tail = take_records(self.data(), tail, head, limit, out, each);
        self.release(new_tail);
        new_tail != tail
    }
}

impl Drop for ForwardRing {
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

    /// Writes records into a ring from `head` on as the kernel does.
    fn write_forward(ring: &mut [u8], mut head: u64, records: &[Vec<u8>]) -> u64 {
        for r in records {
            for (i, b) in r.iter().enumerate() {
                ring[((head + i as u64) % ring.len() as u64) as usize] = *b;
            }
            head += r.len() as u64;
        }
        head
    }

    #[test]
    fn records_in_order_across_the_wrap() {
        let mut ring = vec![0u8; 64];
        let head = write_forward(&mut ring, 40, &[rec(16, 1), rec(24, 2), rec(8, 3)]);
        let (mut out, mut seen) = (Vec::new(), 0);
        let tail = take_records(&ring, 40, head, usize::MAX, &mut out, |_| seen += 1);
        assert_eq!((tail, seen), (head, 3));
        assert_eq!(out, [rec(16, 1), rec(24, 2), rec(8, 3)].concat());
        // In place: the record across the wrap through the scratch buffer.
        let (mut scratch, mut walked) = (Vec::new(), Vec::new());
        let end = walk_records(&ring, 40, head, usize::MAX, &mut scratch, |r| {
            walked.push(r.to_vec())
        });
        assert_eq!((end, walked.concat()), (head, out));
    }

    #[test]
    fn limit_and_bad_headers_stop() {
        let mut ring = vec![0u8; 64];
        let head = write_forward(&mut ring, 0, &[rec(16, 1), rec(16, 2), rec(16, 3)]);
        let (mut scratch, mut walked) = (Vec::new(), Vec::new());
        let end = walk_records(&ring, 0, head, 20, &mut scratch, |r| {
            walked.push(r.to_vec())
        });
        assert_eq!((end, walked), (32, vec![rec(16, 1), rec(16, 2)]));
        let mut out = Vec::new();
        // The record that reaches the limit is taken whole.
        assert_eq!(take_records(&ring, 0, head, 20, &mut out, |_| {}), 32);
        assert_eq!(out, [rec(16, 1), rec(16, 2)].concat());
        out.clear();
        // A header shorter than itself, or past head: nothing taken.
        ring[6..8].copy_from_slice(&4u16.to_ne_bytes());
        assert_eq!(
            take_records(&ring, 0, head, usize::MAX, &mut out, |_| {}),
            0
        );
        ring[6..8].copy_from_slice(&60u16.to_ne_bytes());
        assert_eq!(take_records(&ring, 0, 48, usize::MAX, &mut out, |_| {}), 0);
        assert_eq!(
            take_records(&[0u8; 4], 0, 4, usize::MAX, &mut out, |_| {}),
            0
        );
        assert!(out.is_empty());
    }
}
