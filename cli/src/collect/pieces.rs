//! How a recording's pass leaves the rings: in pieces of about a quarter of
//! a ring (the wakeup mark), each cut at a record's end, written straight
//! from its ring and given back to the kernel as soon as it is written.
//!
//! The kernel drops what it cannot fit between data_head and data_tail, and
//! data_tail moves only when the reader gives room back. Room given back
//! piece by piece lets the kernel write into the first quarter of a full
//! ring while the next quarter is being written out, instead of waiting for
//! every ring's records of the pass; a ring is never held for another
//! ring's write.

use std::io::IoSlice;

use super::output::FINISHED_ROUND;

/// Where a ring's records of one pass are cut: fed the records' lengths in
/// order, it tells after which one a piece ends (at least `every` bytes
/// since the last cut).
pub struct Cuts {
    every: u64,
    taken: u64,
    since: u64,
}

impl Cuts {
    pub fn new(every: usize) -> Cuts {
        Cuts {
            every: every.max(1) as u64,
            taken: 0,
            since: 0,
        }
    }

    /// Adds a record of `len` bytes; returns the bytes taken so far when a
    /// piece ends after it.
    pub fn add(&mut self, len: usize) -> Option<u64> {
        self.taken += len as u64;
        self.since += len as u64;
        if self.since >= self.every {
            self.since = 0;
            Some(self.taken)
        } else {
            None
        }
    }

    /// The bytes taken, when the last piece ends after them (records since
    /// the last cut).
    pub fn rest(&self) -> Option<u64> {
        (self.since > 0).then_some(self.taken)
    }
}

/// The rings of a pass, as `write_pieces` reads and releases them.
pub trait Pieces {
    /// The bytes of ring `ring` from its data_tail up to position `end`:
    /// one slice, or two where they wrap around its end.
    fn piece(&self, ring: usize, end: u64) -> [&[u8]; 2];
    /// Gives ring `ring` back to the kernel up to position `end`.
    fn release_to(&mut self, ring: usize, end: u64);
}

/// Writes `pieces` ((ring, end position), in the order of the pass) with
/// one `write` each (its one or two slices; the last one with the
/// FINISHED_ROUND), each piece's room given back to the kernel right after
/// its write and before the next one. A failed write stops there: its
/// piece and the ones after it stay in the rings.
pub fn write_pieces<P: Pieces, E>(
    rings: &mut P,
    pieces: &[(usize, u64)],
    mut write: impl FnMut(&[IoSlice<'_>]) -> Result<(), E>,
) -> Result<(), E> {
    for (k, &(ring, end)) in pieces.iter().enumerate() {
        {
            let mut bufs: Vec<IoSlice<'_>> = rings
                .piece(ring, end)
                .into_iter()
                .filter(|s| !s.is_empty())
                .map(IoSlice::new)
                .collect();
            if k + 1 == pieces.len() {
                bufs.push(IoSlice::new(&FINISHED_ROUND));
            }
            write(&bufs)?;
        }
        rings.release_to(ring, end);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::forward::walk_records;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Rings as plain bytes, with their data_tails, logging what happens.
    struct Fake {
        rings: Vec<Vec<u8>>,
        tails: Vec<u64>,
        log: Rc<RefCell<Vec<String>>>,
    }

    impl Pieces for Fake {
        fn piece(&self, ring: usize, end: u64) -> [&[u8]; 2] {
            let data = &self.rings[ring];
            let size = data.len() as u64;
            let len = end.wrapping_sub(self.tails[ring]).min(size) as usize;
            let at = (self.tails[ring] % size) as usize;
            let first = (data.len() - at).min(len);
            [&data[at..at + first], &data[..len - first]]
        }
        fn release_to(&mut self, ring: usize, end: u64) {
            self.tails[ring] = end;
            self.log.borrow_mut().push(format!("release {ring} {end}"));
        }
    }

    /// A ring of `size` bytes holding `n` records of `len` bytes from
    /// position `tail` on (each record's bytes its number).
    fn ring(size: usize, tail: u64, n: usize, len: u16) -> (Vec<u8>, u64) {
        let mut ring = vec![0u8; size];
        let mut head = tail;
        for i in 0..n {
            let mut r = 9u32.to_ne_bytes().to_vec();
            r.extend_from_slice(&0u16.to_ne_bytes());
            r.extend_from_slice(&len.to_ne_bytes());
            r.resize(usize::from(len), i as u8);
            for (j, b) in r.iter().enumerate() {
                ring[((head + j as u64) % size as u64) as usize] = *b;
            }
            head += u64::from(len);
        }
        (ring, head)
    }

    /// The cuts of a ring's records as a pass makes them.
    fn cuts_of(
        data: &[u8],
        ring_index: usize,
        tail: u64,
        head: u64,
        every: usize,
    ) -> Vec<(usize, u64)> {
        let mut cuts = Cuts::new(every);
        let mut out = Vec::new();
        let mut scratch = Vec::new();
        walk_records(data, tail, head, usize::MAX, &mut scratch, |rec| {
            if let Some(n) = cuts.add(rec.len()) {
                out.push((ring_index, tail + n));
            }
        });
        if let Some(n) = cuts.rest() {
            out.push((ring_index, tail + n));
        }
        out
    }

    #[test]
    fn a_full_ring_is_given_back_piece_by_piece() {
        // A full 1 MiB ring of 80-byte records, read from the middle (it
        // wraps), pieces of a quarter; a second ring with a few records.
        let size = 1 << 20;
        let n = size / 80;
        let (r0, h0) = ring(size, 300_000, n, 80);
        let (r1, h1) = ring(4096, 0, 3, 32);
        let mut pieces = cuts_of(&r0, 0, 300_000, h0, size / 4);
        pieces.extend(cuts_of(&r1, 1, 0, h1, size / 4));
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut fake = Fake {
            rings: vec![r0.clone(), r1.clone()],
            tails: vec![300_000, 0],
            log: log.clone(),
        };
        let mut file = Vec::new();
        write_pieces(&mut fake, &pieces, |bufs| {
            let bytes: usize = bufs.iter().map(|b| b.len()).sum();
            log.borrow_mut().push(format!("write {bytes}"));
            file.extend(bufs.iter().flat_map(|b| b.iter().copied()));
            Ok::<(), ()>(())
        })
        .unwrap();
        // The big ring: 4 pieces of a quarter (3,277 records of 80 bytes
        // reach it) but the last, cut at records' ends; each piece given
        // back right after its write, before the next write.
        let quarter = (size / 4) as u64;
        let piece = quarter.div_ceil(80) * 80;
        let ends: Vec<u64> = pieces.iter().map(|p| p.1).collect();
        assert_eq!(
            ends,
            [
                300_000 + piece,
                300_000 + 2 * piece,
                300_000 + 3 * piece,
                h0,
                h1
            ]
        );
        let mut expect_log = Vec::new();
        let mut from = [300_000, 0];
        for (k, &(r, e)) in pieces.iter().enumerate() {
            let bytes = e - from[r] + if k == 4 { 8 } else { 0 };
            expect_log.push(format!("write {bytes}"));
            expect_log.push(format!("release {r} {e}"));
            from[r] = e;
        }
        assert_eq!(*log.borrow(), expect_log);
        assert_eq!((fake.tails[0], fake.tails[1]), (h0, h1));
        // The file: the records as the rings hold them, ring by ring, then
        // the end of the round; nothing lost or repeated at the cuts.
        let mut expect = Vec::new();
        let mut scratch = Vec::new();
        walk_records(&r0, 300_000, h0, usize::MAX, &mut scratch, |rec| {
            expect.extend_from_slice(rec)
        });
        walk_records(&r1, 0, h1, usize::MAX, &mut scratch, |rec| {
            expect.extend_from_slice(rec)
        });
        expect.extend_from_slice(&FINISHED_ROUND);
        assert_eq!(file, expect);
    }

    #[test]
    fn release_follows_each_write_and_a_failed_write_keeps_its_piece() {
        let (r0, h0) = ring(4096, 0, 40, 64);
        let pieces = cuts_of(&r0, 0, 0, h0, 1024);
        assert_eq!(pieces.len(), 3);
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut fake = Fake {
            rings: vec![r0],
            tails: vec![0],
            log: log.clone(),
        };
        let mut k = 0;
        let result = write_pieces(&mut fake, &pieces, |bufs| {
            k += 1;
            let bytes: usize = bufs.iter().map(|b| b.len()).sum();
            log.borrow_mut().push(format!("write {bytes}"));
            if k == 3 {
                Err("disk full")
            } else {
                Ok(())
            }
        });
        assert_eq!(result, Err("disk full"));
        // Given back up to the second piece's end: the third stays.
        assert_eq!(fake.tails[0], 2048);
        assert_eq!(
            *log.borrow(),
            [
                "write 1024",
                "release 0 1024",
                "write 1024",
                "release 0 2048",
                "write 520"
            ]
        );
    }

    #[test]
    fn cuts_at_records_ends() {
        let mut c = Cuts::new(100);
        assert_eq!(c.add(60), None);
        assert_eq!(c.add(60), Some(120));
        assert_eq!(c.rest(), None);
        assert_eq!(c.add(8), None);
        assert_eq!(c.rest(), Some(128));
    }
}
