//! Where recordings are read from: large reads into one buffer, whatever the
//! input (a file, a pipe, bytes in memory).
//!
//! [`Buffered`] asks its input for at least [`BLOCK`] bytes per read, so a
//! file of N bytes takes about N / BLOCK reads (at most one read per
//! 64 KiB: a read per record costs more than decoding it), and a pipe gives what its writer has written so far: a read
//! never waits for more than the record being assembled needs. The buffer
//! holds one record (at most 64 KiB for perf records; a capture record or a
//! perf.data's tracing data may be larger, up to [`MAX_RECORD`]) plus one
//! block, whatever the size of the input.
//!
//! [`RandomAccess`] is what a normal-mode perf.data needs besides: its
//! metadata (attributes, feature sections) lies before and after the data,
//! read with one positioned read per section.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;

/// The size of each read.
pub const BLOCK: usize = 256 << 10;

/// The largest record (or metadata section) the readers hold in memory.
pub const MAX_RECORD: usize = 64 << 20;

/// A byte source with positioned reads and a known size: a regular file, or
/// bytes in memory (the fuzz targets and tests).
pub trait RandomAccess {
    /// Reads at `offset`; fewer bytes than `buf.len()` only at the end.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
    /// The size in bytes.
    fn size(&self) -> u64;
}

impl RandomAccess for File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let mut done = 0;
        while done < buf.len() {
            match FileExt::read_at(self, &mut buf[done..], offset + done as u64) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }

    fn size(&self) -> u64 {
        self.metadata().map_or(0, |m| m.len())
    }
}

impl RandomAccess for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.len());
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }

    fn size(&self) -> u64 {
        self.len() as u64
    }
}

impl<T: RandomAccess + ?Sized> RandomAccess for &T {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        (**self).read_at(buf, offset)
    }

    fn size(&self) -> u64 {
        (**self).size()
    }
}

/// `len` bytes at `offset`, or an error naming `what` if the source ends first.
pub fn read_exact_at<A: RandomAccess + ?Sized>(
    source: &A,
    offset: u64,
    len: u64,
    what: &str,
) -> Result<Vec<u8>, String> {
    if len > MAX_RECORD as u64 {
        return Err(format!(
            "{what}: {len} bytes, more than the {MAX_RECORD} this decoder accepts"
        ));
    }
    if offset
        .checked_add(len)
        .map_or(true, |end| end > source.size())
    {
        return Err(format!(
            "{what}: {len} bytes at offset {offset} lie past the end of the file ({} bytes)",
            source.size()
        ));
    }
    let mut buf = vec![0; len as usize];
    let n = source
        .read_at(&mut buf, offset)
        .map_err(|e| format!("{what}: {e}"))?;
    if n < buf.len() {
        return Err(format!(
            "{what}: the file ended after {n} of {len} bytes at offset {offset}"
        ));
    }
    Ok(buf)
}

/// A range of a [`RandomAccess`] source as a stream (the data section of a
/// normal-mode perf.data).
pub struct Section<A> {
    source: A,
    pos: u64,
    end: u64,
}

impl<A: RandomAccess> Section<A> {
    pub fn new(source: A, offset: u64, len: u64) -> Section<A> {
        Section {
            source,
            pos: offset,
            end: offset.saturating_add(len),
        }
    }
}

impl<A: RandomAccess> Read for Section<A> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = buf
            .len()
            .min(usize::try_from(self.end - self.pos).unwrap_or(usize::MAX));
        if want == 0 {
            return Ok(0);
        }
        let n = self.source.read_at(&mut buf[..want], self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// A stream read in blocks of at least [`BLOCK`] bytes.
pub struct Buffered<R> {
    inner: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    eof: bool,
    /// Input offset of `buf[start]`.
    pos: u64,
}

impl<R: Read> Buffered<R> {
    /// Reads `inner`, after the bytes `head` already taken from it (the
    /// first bytes, read to recognize the format).
    pub fn new(inner: R, head: &[u8]) -> Buffered<R> {
        let mut buf = vec![0; (2 * BLOCK).max(head.len() + BLOCK)];
        buf[..head.len()].copy_from_slice(head);
        Buffered {
            inner,
            buf,
            start: 0,
            end: head.len(),
            eof: false,
            pos: 0,
        }
    }

    /// Input offset of the next unread byte.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The unread bytes in the buffer.
    pub fn available(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Makes at least `n` bytes available (`n` at most [`MAX_RECORD`]), reading
    /// as needed; returns false if the input ends first (what it had is
    /// still available).
    pub fn fill(&mut self, n: usize) -> io::Result<bool> {
        debug_assert!(n <= MAX_RECORD);
        while self.end - self.start < n {
            if self.eof {
                return Ok(false);
            }
            // Room for a whole block (or the rest of the record) after the
            // unread bytes: move them to the front, and grow the buffer only
            // for a record larger than a block.
            let tail = BLOCK.max(n - (self.end - self.start));
            if self.buf.len() - self.end < tail {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
                if self.buf.len() - self.end < tail {
                    self.buf.resize(self.end + tail, 0);
                }
            }
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(got) => self.end += got,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    /// Marks `n` available bytes read.
    pub fn consume(&mut self, n: usize) {
        debug_assert!(n <= self.end - self.start);
        self.start += n;
        self.pos += n as u64;
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            if self.buf.len() > 4 * BLOCK {
                // A large record is done with: give its memory back.
                self.buf.truncate(2 * BLOCK);
                self.buf.shrink_to_fit();
            }
        }
    }

    /// Skips `n` bytes (available or not); false if the input ends first.
    pub fn skip(&mut self, mut n: u64) -> io::Result<bool> {
        loop {
            let here = (self.end - self.start).min(usize::try_from(n).unwrap_or(usize::MAX));
            self.consume(here);
            n -= here as u64;
            if n == 0 {
                return Ok(true);
            }
            if !self.fill(1)? {
                return Ok(false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `chunk` bytes per read and counts reads.
    struct Trickle<'a> {
        data: &'a [u8],
        chunk: usize,
        reads: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.reads += 1;
            let n = buf.len().min(self.chunk).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn fills_across_reads_and_grows_for_large_records() {
        let data: Vec<u8> = (0..3 * BLOCK as u32).map(|i| i as u8).collect();
        let mut b = Buffered::new(
            Trickle {
                data: &data[2..],
                chunk: 1000,
                reads: 0,
            },
            &data[..2],
        );
        assert!(b.fill(10).unwrap());
        assert_eq!(&b.available()[..10], &data[..10]);
        b.consume(5);
        assert_eq!(b.position(), 5);
        // A "record" larger than a block.
        assert!(b.fill(BLOCK + 7).unwrap());
        assert_eq!(&b.available()[..BLOCK + 7], &data[5..BLOCK + 12]);
        b.consume(BLOCK + 7);
        assert!(b.skip(BLOCK as u64).unwrap());
        assert!(b.fill(1).unwrap());
        assert_eq!(b.available()[0], data[2 * BLOCK + 12]);
        assert!(!b.fill(data.len()).unwrap());
        assert!(!b.skip(data.len() as u64).unwrap());
    }

    #[test]
    fn one_read_per_block() {
        let data = vec![7u8; 10 * BLOCK];
        let mut b = Buffered::new(
            Trickle {
                data: &data,
                chunk: usize::MAX,
                reads: 0,
            },
            &[],
        );
        while b.fill(100).unwrap() {
            b.consume(100);
        }
        // 10 blocks of data, plus the read that sees the end.
        assert!(b.inner.reads <= 10 + 1, "{} reads", b.inner.reads);
    }

    #[test]
    fn random_access_bounds() {
        let data = [1u8, 2, 3, 4];
        assert_eq!(read_exact_at(&data[..], 1, 2, "x").unwrap(), [2, 3]);
        assert!(read_exact_at(&data[..], 3, 2, "x")
            .unwrap_err()
            .contains("past the end"));
        assert!(read_exact_at(&data[..], u64::MAX, 2, "x").is_err());
        let mut s = Section::new(&data[..], 1, 2);
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        assert_eq!(out, [2, 3]);
    }
}
