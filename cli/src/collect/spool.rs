//! A recording's writer thread: the draining thread copies the pieces of
//! the rings into the buffers of a bounded pool and gives the rings' room
//! back to the kernel at once; the writer thread writes the buffers to the
//! file or standard output, in order.
//!
//! A write that stalls (a slow or remote file system, a busy disk, a
//! reader of standard output that pauses) then holds buffers of the pool,
//! not the rings: the kernel keeps writing into them while the pool lasts.
//! When every buffer is in flight, the draining thread waits for one, and
//! the rings fill as they would without the pool. Pieces are packed into a
//! buffer until the next one does not fit, and a buffer part full is handed
//! over at the end of a pass only if the writer is idle: a stall fills the
//! buffers, not only takes them. They are allocated and touched before
//! recording starts, so no page fault is taken for them during a burst.

use std::io::IoSlice;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use super::output::Recorder;
use super::signals;
use crate::exit::{Error, Status};

/// The pool holds this many times the rings' bytes...
const RINGS_TIMES: usize = 4;
/// ...but no more than this.
const MAX_POOL_BYTES: usize = 64 << 20;
/// The most a piece goes past its mark: one record (at most 64 KiB) and
/// the end-of-round record.
const PIECE_SLACK: usize = (64 << 10) + 64;

/// The buffers for pieces of `piece_bytes` of rings of `rings_bytes` in
/// all: (how many, the bytes of each). A buffer holds two pieces;
/// together they hold [`RINGS_TIMES`] the rings' bytes, at most
/// [`MAX_POOL_BYTES`], in two buffers at least (one being written while
/// another fills). None where two would be more than that (pieces of about
/// 16 MiB: rings of 64 MiB), which are written in place.
pub fn pool(rings_bytes: usize, piece_bytes: usize) -> Option<(usize, usize)> {
    let buffer = piece_bytes.saturating_add(PIECE_SLACK).saturating_mul(2);
    let bytes = rings_bytes.saturating_mul(RINGS_TIMES).min(MAX_POOL_BYTES);
    (buffer <= MAX_POOL_BYTES / 2).then(|| ((bytes / buffer).max(2), buffer))
}

/// Where the writer thread writes.
pub trait Sink: Send + 'static {
    /// Writes records (whole ones) at once.
    fn write(&mut self, data: &[u8]) -> Result<(), Error>;
    /// Standard output, whose reader may leave (not an error).
    fn is_stdout(&self) -> bool;
}

impl Sink for Recorder {
    fn write(&mut self, data: &[u8]) -> Result<(), Error> {
        Recorder::write(self, data)
    }
    fn is_stdout(&self) -> bool {
        self.name() == "standard output"
    }
}

/// What the two threads share.
#[derive(Default)]
struct Shared {
    /// Buffers handed to the writer and not yet written.
    in_flight: AtomicUsize,
    /// A write failed (`error` holds it): later buffers are dropped.
    failed: AtomicBool,
    error: Mutex<Option<Error>>,
    /// Standard output is gone (its reader left): later buffers are
    /// dropped.
    closed: AtomicBool,
}

/// The writer thread and its pool (see the module's description).
pub struct Spool<S: Sink = Recorder> {
    /// Full buffers to the writer; dropped to end it.
    full: Option<SyncSender<Vec<u8>>>,
    /// Empty buffers back from the writer.
    empty: Receiver<Vec<u8>>,
    /// The buffer being filled.
    filling: Option<Vec<u8>>,
    buffer_bytes: usize,
    shared: Arc<Shared>,
    writer: Option<JoinHandle<S>>,
}

impl<S: Sink> Spool<S> {
    /// Starts the writer thread with `buffers` buffers of `buffer_bytes`
    /// ([`pool`]), every page touched.
    pub fn start(sink: S, buffers: usize, buffer_bytes: usize) -> Result<Spool<S>, Error> {
        let buffers = buffers.max(1);
        let (full_tx, full_rx) = mpsc::sync_channel::<Vec<u8>>(buffers);
        let (empty_tx, empty_rx) = mpsc::sync_channel::<Vec<u8>>(buffers);
        for _ in 0..buffers {
            // Written, not only allocated: an allocation of zeros may map
            // pages it never touches.
            let mut b = vec![1u8; buffer_bytes];
            b.clear();
            // The channel holds `buffers`: never full here.
            let _ = empty_tx.send(b);
        }
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        let writer = std::thread::Builder::new()
            .name("collect-writer".into())
            .spawn(move || write_all(sink, full_rx, empty_tx, &theirs))
            .map_err(|e| Error::io(&e, "starting the writer thread"))?;
        Ok(Spool {
            full: Some(full_tx),
            empty: empty_rx,
            filling: None,
            buffer_bytes,
            shared,
            writer: Some(writer),
        })
    }

    /// Standard output is gone: nothing more reaches it.
    pub fn closed(&self) -> bool {
        self.shared.closed.load(Ordering::Relaxed)
    }

    /// The failed write's error (or, should the writer thread be gone,
    /// that).
    fn error(&self) -> Error {
        self.shared
            .error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .unwrap_or_else(|| Error::new(Status::Failure, "the recording's writer thread ended"))
    }

    /// The error of a failed write, if one failed: it ends the recording
    /// (what is in the pool and after it is not written).
    pub fn check(&self) -> Result<(), Error> {
        if self.shared.failed.load(Ordering::Acquire) {
            return Err(self.error());
        }
        Ok(())
    }

    /// Hands the buffer being filled to the writer.
    fn hand_over(&mut self) -> Result<(), Error> {
        let Some(b) = self.filling.take() else {
            return Ok(());
        };
        self.shared.in_flight.fetch_add(1, Ordering::Relaxed);
        match self.full.as_ref().map(|tx| tx.send(b)) {
            Some(Ok(())) => Ok(()),
            _ => Err(self.error()),
        }
    }

    /// Copies `bufs` (a piece: at most half a buffer) into the buffer being
    /// filled, handing that one over first if it has no room left, and
    /// waiting for an empty one while every buffer is in flight.
    pub fn push(&mut self, bufs: &[IoSlice<'_>]) -> Result<(), Error> {
        self.check()?;
        let len: usize = bufs.iter().map(|b| b.len()).sum();
        if self
            .filling
            .as_ref()
            .is_some_and(|b| !b.is_empty() && b.len() + len > self.buffer_bytes)
        {
            self.hand_over()?;
        }
        if self.filling.is_none() {
            let Ok(mut b) = self.empty.recv() else {
                return Err(self.error());
            };
            b.clear();
            self.filling = Some(b);
        }
        if let Some(b) = self.filling.as_mut() {
            for s in bufs {
                b.extend_from_slice(s);
            }
        }
        Ok(())
    }

    /// The end of a pass: the buffer being filled goes to the writer if it
    /// is idle (else it fills on); the error of a failed write.
    pub fn end_of_pass(&mut self) -> Result<(), Error> {
        self.check()?;
        if self.shared.in_flight.load(Ordering::Relaxed) == 0
            && self.filling.as_ref().is_some_and(|b| !b.is_empty())
        {
            self.hand_over()?;
        }
        Ok(())
    }

    /// Hands over what is left, waits until every buffer is written and
    /// returns the sink and whether standard output is gone
    /// ([`Spool::closed`]: not an error), or the error of a failed write.
    pub fn finish(mut self) -> Result<(S, bool), Error> {
        if self.filling.as_ref().is_some_and(|b| !b.is_empty()) {
            self.hand_over()?;
        }
        self.full = None;
        let sink = self.writer.take().map(JoinHandle::join);
        self.check()?;
        match sink {
            Some(Ok(s)) => Ok((s, self.closed())),
            _ => Err(self.error()),
        }
    }
}

/// The writer thread: writes each full buffer in order and sends it back
/// empty; after a failed write (or with standard output gone) it only
/// sends buffers back.
fn write_all<S: Sink>(
    mut sink: S,
    full: Receiver<Vec<u8>>,
    empty: SyncSender<Vec<u8>>,
    shared: &Shared,
) -> S {
    // The draining thread takes the signals: its wait ends at once.
    signals::block_in_this_thread();
    while let Ok(b) = full.recv() {
        if !shared.failed.load(Ordering::Relaxed) && !shared.closed.load(Ordering::Relaxed) {
            match sink.write(&b) {
                Ok(()) => {}
                Err(_) if sink.is_stdout() => shared.closed.store(true, Ordering::Relaxed),
                Err(e) => {
                    *shared.error.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
                    shared.failed.store(true, Ordering::Release);
                }
            }
        }
        shared.in_flight.fetch_sub(1, Ordering::Relaxed);
        // The draining side may be gone (an error ended it).
        let _ = empty.send(b);
    }
    sink
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::Sender;
    use std::time::Duration;

    /// A sink that waits for a go-ahead before each write (when gated),
    /// keeps what it is given, and fails its `fail_at`-th write (from 1).
    struct Fake {
        out: Arc<Mutex<Vec<Vec<u8>>>>,
        gate: Option<Receiver<()>>,
        fail_at: Option<usize>,
        stdout: bool,
    }

    impl Sink for Fake {
        fn write(&mut self, data: &[u8]) -> Result<(), Error> {
            if let Some(g) = &self.gate {
                let _ = g.recv();
            }
            let mut out = self.out.lock().unwrap();
            if self.fail_at == Some(out.len() + 1) {
                return Err(Error::new(Status::Failure, "writing f: No space left"));
            }
            out.push(data.to_vec());
            Ok(())
        }
        fn is_stdout(&self) -> bool {
            self.stdout
        }
    }

    type Out = Arc<Mutex<Vec<Vec<u8>>>>;

    fn fake(gated: bool, fail_at: Option<usize>, stdout: bool) -> (Fake, Out, Sender<()>) {
        let (go, gate) = mpsc::channel();
        let out = Out::default();
        let f = Fake {
            out: Arc::clone(&out),
            gate: gated.then_some(gate),
            fail_at,
            stdout,
        };
        (f, out, go)
    }

    fn piece(i: usize) -> Vec<u8> {
        vec![i as u8; 100]
    }

    /// Waits (at most 10 s) until `out` holds `n` writes.
    fn wait_for(out: &Out, n: usize) {
        for _ in 0..1000 {
            if out.lock().unwrap().len() >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("{} writes, not {n}", out.lock().unwrap().len());
    }

    #[test]
    fn a_stalled_writer_holds_the_pool_and_pieces_are_packed() {
        let (sink, out, go) = fake(true, None, false);
        // 4 buffers of 1,000 bytes: the first piece goes over alone (the
        // writer is idle at the end of its pass) and waits with the writer;
        // 30 more pieces of 100 go in (the 32nd would wait for a buffer).
        let (done_tx, done) = mpsc::channel();
        let pusher = std::thread::spawn(move || {
            let mut spool = Spool::start(sink, 4, 1000).unwrap();
            for i in 0..31 {
                let p = piece(i);
                spool.push(&[IoSlice::new(&p)]).unwrap();
                spool.end_of_pass().unwrap();
            }
            done_tx.send(()).unwrap();
            spool
        });
        done.recv_timeout(Duration::from_secs(10))
            .expect("31 pieces pushed while the writer is stalled");
        let spool = pusher.join().unwrap();
        assert!(out.lock().unwrap().is_empty());
        for _ in 0..100 {
            go.send(()).unwrap();
        }
        let (_, closed) = spool.finish().unwrap();
        assert!(!closed);
        let out = out.lock().unwrap();
        // The first piece alone, then buffers of 10 pieces (the last one
        // handed over by `finish`).
        let sizes: Vec<usize> = out.iter().map(Vec::len).collect();
        assert_eq!(sizes, [100, 1000, 1000, 1000]);
        let all: Vec<u8> = (0..31).flat_map(piece).collect();
        assert_eq!(out.concat(), all);
    }

    #[test]
    fn a_part_full_buffer_goes_over_only_when_the_writer_is_idle() {
        let (sink, out, go) = fake(true, None, false);
        let mut spool = Spool::start(sink, 4, 1000).unwrap();
        spool.push(&[IoSlice::new(&piece(1))]).unwrap();
        spool.end_of_pass().unwrap();
        // Handed over: the writer holds it (waiting at its gate).
        assert!(spool.filling.is_none());
        spool.push(&[IoSlice::new(&piece(2))]).unwrap();
        spool.end_of_pass().unwrap();
        // The writer is busy: the piece stays in the buffer being filled.
        assert_eq!(spool.filling.as_ref().map(Vec::len), Some(100));
        go.send(()).unwrap();
        wait_for(&out, 1);
        while spool.shared.in_flight.load(Ordering::Relaxed) > 0 {
            std::thread::yield_now();
        }
        spool.end_of_pass().unwrap();
        assert!(spool.filling.is_none());
        go.send(()).unwrap();
        wait_for(&out, 2);
        assert_eq!(*out.lock().unwrap(), [piece(1), piece(2)]);
        drop(go);
        spool.finish().unwrap();
    }

    #[test]
    fn a_failed_write_ends_the_recording_with_its_error() {
        let (sink, out, _go) = fake(false, Some(2), false);
        let mut spool = Spool::start(sink, 2, 200).unwrap();
        let mut result = Ok(());
        for i in 0..100 {
            result = spool
                .push(&[IoSlice::new(&piece(i))])
                .and_then(|()| spool.end_of_pass());
            if result.is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let e = result.expect_err("the second write failed");
        assert!(e.to_string().contains("No space left"), "{e}");
        assert_eq!(out.lock().unwrap().len(), 1);
        // Nothing is written after it.
        assert!(spool.finish().is_err());
        assert_eq!(out.lock().unwrap().len(), 1);
    }

    #[test]
    fn standard_output_gone_is_not_an_error() {
        let (sink, out, _go) = fake(false, Some(1), true);
        let mut spool = Spool::start(sink, 2, 200).unwrap();
        for i in 0..10 {
            spool.push(&[IoSlice::new(&piece(i))]).unwrap();
            spool.end_of_pass().unwrap();
        }
        let (_, closed) = spool.finish().unwrap();
        assert!(closed);
        assert!(out.lock().unwrap().is_empty());
    }

    #[test]
    fn the_pool_is_bounded_with_two_buffers_at_least() {
        // 2 rings of 1 MiB, pieces of 256 KiB: 8 MiB of buffers of two
        // pieces each.
        let piece = 256 << 10;
        let buffer = 2 * (piece + PIECE_SLACK);
        assert_eq!(pool(2 << 20, piece), Some(((8 << 20) / buffer, buffer)));
        // 64 rings of 16 MiB, pieces of 4 MiB: at most 64 MiB.
        let (n, b) = pool(64 * (16 << 20), 4 << 20).unwrap();
        assert_eq!(n, 7);
        assert!(n * b <= MAX_POOL_BYTES);
        // One small ring: two buffers.
        assert_eq!(pool(8 << 10, 2 << 10).map(|p| p.0), Some(2));
        // Pieces of 16 MiB: two buffers would pass the bound.
        assert_eq!(pool(1 << 30, 16 << 20), None);
        assert!(pool(1 << 30, (16 << 20) - PIECE_SLACK).is_some());
    }
}
