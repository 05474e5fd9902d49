//! The files of `collect --circular`: each snapshot a complete perf.data
//! file of its own, named after `-o` with a sequence number that never
//! reuses a name (`trace.data` gives `trace.0001.data`, `trace.0002.data`,
//! ... after the highest number already in the directory), the oldest ones
//! this run wrote deleted beyond `--max-snapshots`; the records sorted by
//! time across CPUs.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use super::output::{push_finished_round, Recorded, Recorder};
use super::session::record_time;
use crate::exit::Error;
use crate::perfdata::writer::Metadata;

const PERF_RECORD_LOST: u32 = 2;
const PERF_RECORD_SAMPLE: u32 = 9;
const PERF_RECORD_LOST_SAMPLES: u32 = 13;

/// `output` with `n` before its extension: `dir/trace.data` and 1 give
/// `dir/trace.0001.data`; without an extension, `trace` gives
/// `trace.0001`.
pub fn numbered(output: &str, n: u64) -> String {
    let (dir, file) = split_dir(output);
    match file.rfind('.').filter(|&i| i > 0) {
        Some(i) => format!("{dir}{}.{n:04}{}", &file[..i], &file[i..]),
        None => format!("{dir}{file}.{n:04}"),
    }
}

/// (directory part with its '/', file name).
fn split_dir(output: &str) -> (&str, &str) {
    match output.rfind('/') {
        Some(i) => output.split_at(i + 1),
        None => ("", output),
    }
}

/// The number of `file` (a name in `output`'s directory) if it is one of
/// `output`'s numbered names.
pub fn number_of(output: &str, file: &str) -> Option<u64> {
    let (_, name) = split_dir(output);
    let (stem, ext) = match name.rfind('.').filter(|&i| i > 0) {
        Some(i) => name.split_at(i),
        None => (name, ""),
    };
    let digits = file
        .strip_prefix(stem)?
        .strip_prefix('.')?
        .strip_suffix(ext)?;
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The snapshot files of one run.
pub struct Files {
    output: String,
    next: u64,
    max: Option<usize>,
    written: VecDeque<String>,
}

impl Files {
    /// Numbers after the highest of `output`'s numbered names already in
    /// its directory; keeps at most `max` of the files it writes.
    pub fn new(output: &str, max: Option<usize>) -> Files {
        let (dir, _) = split_dir(output);
        let dir = if dir.is_empty() { "." } else { dir };
        let highest = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| number_of(output, e.file_name().to_str()?))
            .max()
            .unwrap_or(0);
        Files {
            output: output.to_string(),
            next: highest + 1,
            max,
            written: VecDeque::new(),
        }
    }

    /// The next file's name (not yet taken: a name that exists is skipped).
    pub fn next_path(&mut self) -> String {
        loop {
            let path = numbered(&self.output, self.next);
            self.next += 1;
            if std::fs::symlink_metadata(&path).is_err() {
                return path;
            }
        }
    }

    /// Notes that `path` was written; returns the files deleted to keep
    /// the newest `max`.
    pub fn written(&mut self, path: String) -> Vec<String> {
        self.written.push_back(path);
        let mut deleted = Vec::new();
        while self.max.is_some_and(|m| self.written.len() > m) {
            if let Some(old) = self.written.pop_front() {
                if std::fs::remove_file(&old).is_ok() {
                    deleted.push(old);
                }
            }
        }
        deleted
    }
}

/// What a snapshot file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub samples: u64,
    pub lost: u64,
    pub first_time: Option<u64>,
    pub last_time: u64,
}

/// The (time, start, length) of each whole record in `records`, sorted by
/// time (records of equal time keep their order).
pub fn time_order(records: &[u8]) -> Vec<(u64, usize, usize)> {
    let mut index = Vec::new();
    let mut at = 0;
    while at + 8 <= records.len() {
        let size = usize::from(u16::from_ne_bytes([records[at + 6], records[at + 7]]));
        if size < 8 || at + size > records.len() {
            break;
        }
        let time = record_time(&records[at..at + size]).unwrap_or(0);
        index.push((time, at, size));
        at += size;
    }
    index.sort_by_key(|&(t, _, _)| t);
    index
}

/// Counts a record's samples, losses and times into `s`.
fn count(s: &mut Summary, time: u64, rec: &[u8]) {
    let ty = u32::from_ne_bytes(rec[0..4].try_into().expect("a header"));
    let u64_at = |at: usize| {
        rec.get(at..at + 8)
            .map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")))
    };
    match ty {
        PERF_RECORD_SAMPLE => {
            s.samples += 1;
            s.first_time = Some(s.first_time.map_or(time, |f| f.min(time)));
            s.last_time = s.last_time.max(time);
        }
        PERF_RECORD_LOST => s.lost += u64_at(16),
        PERF_RECORD_LOST_SAMPLES => s.lost += u64_at(8),
        _ => {}
    }
}

/// Writes `records` (whole records of every CPU's ring, each CPU's in any
/// order) to a new perf.data file at `path`, in time order.
pub fn write(
    path: &str,
    meta: &Metadata,
    recorded: &[Recorded],
    records: &[u8],
) -> Result<Summary, Error> {
    let index = time_order(records);
    let mut recorder = Recorder::create(path, meta, recorded)?;
    let mut summary = Summary::default();
    let mut batch = Vec::with_capacity(1 << 20);
    for (time, start, len) in index {
        let rec = &records[start..start + len];
        count(&mut summary, time, rec);
        batch.extend_from_slice(rec);
        if batch.len() >= 1 << 20 {
            recorder.write(&batch)?;
            batch.clear();
        }
    }
    push_finished_round(&mut batch);
    recorder.write(&batch)?;
    recorder.finish(summary.first_time.map(|f| (f, summary.last_time)))?;
    Ok(summary)
}

/// Whether `path`'s directory exists (checked before recording starts).
pub fn check_dir(output: &str) -> Result<(), Error> {
    let (dir, _) = split_dir(output);
    if dir.is_empty() || Path::new(dir).is_dir() {
        return Ok(());
    }
    Err(Error::new(
        crate::exit::Status::Failure,
        format!(
            "cannot write snapshots to {}: no such directory",
            PathBuf::from(dir).display()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(numbered("trace.data", 1), "trace.0001.data");
        assert_eq!(numbered("d.x/trace", 12), "d.x/trace.0012");
        assert_eq!(numbered("/t/a.perf.data", 10000), "/t/a.perf.10000.data");
        assert_eq!(numbered(".hidden", 2), ".hidden.0002");
        assert_eq!(number_of("d/trace.data", "trace.0007.data"), Some(7));
        assert_eq!(number_of("trace.data", "trace.12345.data"), Some(12345));
        assert_eq!(number_of("trace.data", "trace.007.data"), None);
        assert_eq!(number_of("trace.data", "trace.data"), None);
        assert_eq!(number_of("trace.data", "trace.00x1.data"), None);
        assert_eq!(number_of("trace.data", "other.0001.data"), None);
        assert_eq!(number_of("trace", "trace.0003"), Some(3));
        for n in [1, 9999, 10000, 123456] {
            assert_eq!(number_of("a.b", &numbered("a.b", n)), Some(n));
        }
    }

    #[test]
    fn numbering_continues_and_rotation_keeps_the_newest() {
        let dir = tempfile::tempdir().unwrap();
        let out = format!("{}/trace.data", dir.path().display());
        std::fs::write(numbered(&out, 3), b"older run").unwrap();
        std::fs::write(&out, b"not numbered").unwrap();
        let mut files = Files::new(&out, Some(2));
        let mut deleted = Vec::new();
        let mut names = Vec::new();
        for _ in 0..4 {
            let p = files.next_path();
            std::fs::write(&p, b"x").unwrap();
            names.push(p.clone());
            deleted.extend(files.written(p));
        }
        assert_eq!(names, (4..8).map(|n| numbered(&out, n)).collect::<Vec<_>>());
        assert_eq!(deleted, names[..2].to_vec());
        for (n, exists) in [(3, true), (4, false), (5, false), (6, true), (7, true)] {
            assert_eq!(Path::new(&numbered(&out, n)).exists(), exists, "{n}");
        }
        assert!(Path::new(&out).exists());
        // A name taken meanwhile is skipped, never overwritten.
        std::fs::write(numbered(&out, 8), b"taken").unwrap();
        assert_eq!(files.next_path(), numbered(&out, 9));
        assert!(check_dir(&out).is_ok());
        assert!(check_dir("/nonexistent-dir/x.data").is_err());
    }

    #[test]
    fn records_sorted_by_time() {
        // Samples: header, identifier, pid/tid, time.
        let sample = |t: u64| {
            let mut r = 9u32.to_ne_bytes().to_vec();
            r.extend_from_slice(&0u16.to_ne_bytes());
            r.extend_from_slice(&32u16.to_ne_bytes());
            for v in [1u64, 2, t] {
                r.extend_from_slice(&v.to_ne_bytes());
            }
            r
        };
        let records = [sample(30), sample(10), sample(20), sample(10)].concat();
        let order: Vec<(u64, usize)> = time_order(&records)
            .into_iter()
            .map(|(t, at, _)| (t, at))
            .collect();
        assert_eq!(order, vec![(10, 32), (10, 96), (20, 64), (30, 0)]);
        let mut s = Summary::default();
        for (t, at, len) in time_order(&records) {
            count(&mut s, t, &records[at..at + len]);
        }
        assert_eq!((s.samples, s.first_time, s.last_time), (4, Some(10), 30));
        // A truncated record ends the walk.
        assert_eq!(time_order(&records[..40]).len(), 1);
    }
}
