//! Opening what `decode` reads: a file, standard input (`-`), or bytes (the
//! fuzz targets), and recognizing it by its content: a capture file, a
//! normal-mode perf.data or a pipe-mode perf.data.
//!
//! A normal-mode perf.data needs positioned reads (its formats follow its
//! data): on a pipe it is first copied to an unnamed temporary file. Every
//! other input is read as a stream.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};

use super::capture::{self, CaptureReader};
use crate::perfdata::buffered_input::{Buffered, RandomAccess};
use crate::perfdata::headers::{self, PIPE_HEADER_SIZE};
use crate::perfdata::{self, PerfReader};

/// Where an input comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A file name; `-` is standard input.
    Path(&'a str),
    /// Bytes in memory, read as a file.
    Bytes(&'a [u8]),
    /// Bytes in memory, read as a pipe.
    Stream(&'a [u8]),
}

impl Source<'_> {
    pub fn name(&self) -> &str {
        match self {
            Source::Path(p) => p,
            Source::Bytes(_) | Source::Stream(_) => "(bytes)",
        }
    }
}

/// An opened input.
pub enum Recording<'a> {
    Capture(CaptureReader<'a>),
    Perf(Box<PerfReader<'a>>),
}

/// An opened input and its size when known (for progress).
pub struct Opened<'a> {
    pub recording: Recording<'a>,
    pub len: Option<u64>,
}

/// The device and inode of an input or output, to tell when they are the
/// same file.
pub fn identity(path: &str) -> Option<(u64, u64)> {
    let m = if path == "-" {
        std::fs::File::from(io::stdin().as_fd().try_clone_to_owned().ok()?)
            .metadata()
            .ok()?
    } else {
        std::fs::metadata(path).ok()?
    };
    Some((m.dev(), m.ino()))
}

/// Opens `source`.
pub fn open(source: Source<'_>) -> Result<Opened<'_>, String> {
    match source {
        Source::Bytes(bytes) => open_random(bytes, bytes.len() as u64),
        Source::Stream(bytes) => open_stream(Box::new(bytes)),
        Source::Path(path) => {
            let file = if path == "-" {
                io::stdin()
                    .as_fd()
                    .try_clone_to_owned()
                    .map(File::from)
                    .map_err(|e| format!("standard input: {e}"))?
            } else {
                File::open(path).map_err(|e| e.to_string())?
            };
            let meta = file.metadata().map_err(|e| e.to_string())?;
            if meta.is_file() {
                open_random(file, meta.len())
            } else if meta.is_dir() {
                Err("is a directory".into())
            } else {
                open_stream(Box::new(file))
            }
        }
    }
}

/// A regular file (or bytes): recognized from its first 16 bytes.
fn open_random<'a, A: RandomAccess + Read + 'a>(source: A, len: u64) -> Result<Opened<'a>, String> {
    let mut head = [0u8; PIPE_HEADER_SIZE as usize];
    let n = source.read_at(&mut head, 0).map_err(|e| e.to_string())?;
    let head = &head[..n];
    let recording = if headers::is_perf_magic(head) && !is_pipe_mode(head) {
        Recording::Perf(Box::new(perfdata::open_file(source)?))
    } else {
        let input = Buffered::new(Box::new(source) as Box<dyn Read + 'a>, &[]);
        stream_recording(input, Some(len))?
    };
    Ok(Opened {
        recording,
        len: Some(len),
    })
}

fn is_pipe_mode(head: &[u8]) -> bool {
    head.len() >= 16 && headers::header_size(headers::byte_reader(head), head) == PIPE_HEADER_SIZE
}

/// A pipe-mode perf.data or a capture file, read as a stream.
fn stream_recording<'a>(
    mut input: Buffered<Box<dyn Read + 'a>>,
    len: Option<u64>,
) -> Result<Recording<'a>, String> {
    input
        .fill(PIPE_HEADER_SIZE as usize)
        .map_err(|e| e.to_string())?;
    if headers::is_perf_magic(input.available()) {
        return Ok(Recording::Perf(Box::new(PerfReader::open_stream(input)?)));
    }
    // The first record: its size, then (no further than the record goes, so
    // that a slow pipe is not waited for) its tracepoint name.
    if input.available().len() >= 4 {
        let end = capture::first_name_end(input.available());
        input.fill(end).map_err(|e| e.to_string())?;
    }
    capture::plausible_start(input.available(), len)
        .map_err(|why| format!("not a capture file or perf.data (no PERFILE2 magic, and {why})"))?;
    Ok(Recording::Capture(CaptureReader::new(input, len)))
}

/// A pipe (or other stream).
fn open_stream<'a>(read: Box<dyn Read + 'a>) -> Result<Opened<'a>, String> {
    let mut input = Buffered::new(read, &[]);
    input
        .fill(PIPE_HEADER_SIZE as usize)
        .map_err(|e| e.to_string())?;
    let head = input.available();
    if headers::is_perf_magic(head) && !is_pipe_mode(head) && head.len() >= 16 {
        let file = spool(input)?;
        let len = file.size();
        let recording = Recording::Perf(Box::new(perfdata::open_file(file)?));
        return Ok(Opened {
            recording,
            len: Some(len),
        });
    }
    Ok(Opened {
        recording: stream_recording(input, None)?,
        len: None,
    })
}

/// Copies the rest of a stream to an unnamed temporary file.
fn spool(mut input: Buffered<Box<dyn Read + '_>>) -> Result<File, String> {
    let dir = std::env::temp_dir();
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .mode(0o600)
        .open(&dir)
        .map_err(|e| {
            format!(
                "a perf.data file (not pipe mode) on a pipe needs a temporary file in {}: {e}",
                dir.display()
            )
        })?;
    let write_error =
        |e: io::Error| format!("writing the temporary copy in {}: {e}", dir.display());
    loop {
        let chunk = input.available();
        if !chunk.is_empty() {
            file.write_all(chunk).map_err(write_error)?;
            let n = chunk.len();
            input.consume(n);
        }
        if !input.fill(1).map_err(|e| e.to_string())? {
            break;
        }
    }
    Ok(file)
}
