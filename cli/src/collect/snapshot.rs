//! The files of `collect --circular`: each snapshot a complete perf.data
//! file of its own, named after `-o` with a sequence number that never
//! reuses a name (`trace.data` gives `trace.0001.data`, `trace.0002.data`,
//! ... after the highest number already in the directory), the oldest ones
//! this run wrote deleted beyond `--max-snapshots`; the records sorted by
//! time across CPUs.

use std::collections::VecDeque;
use std::fs::File;

use super::outdir::{split_dir, OutDir};
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

/// The snapshot files of one run, created new in the directory of `-o`
/// opened once ([`OutDir`]): a name someone else holds (a file, a link,
/// dangling or not, made before or at the same moment) is skipped, never
/// followed or truncated.
pub struct Files {
    output: String,
    dir: OutDir,
    next: u64,
    max: Option<usize>,
    written: VecDeque<String>,
}

/// A snapshot file just created: its path as shown, its name in the
/// directory, and the file.
pub struct NewFile {
    pub path: String,
    pub name: String,
    pub file: File,
}

impl Files {
    /// Opens `output`'s directory and checks that a file can be created in
    /// it (a probe file, created and removed); numbers after the highest of
    /// `output`'s numbered names already there; keeps at most `max` of the
    /// files it writes.
    pub fn new(output: &str, max: Option<usize>) -> Result<Files, Error> {
        let (dir_part, name) = split_dir(output);
        let shown = if dir_part.is_empty() { "." } else { dir_part };
        let refuse = |e: std::io::Error| {
            Error::io(
                &e,
                format!(
                    "cannot create the snapshot files {} in {shown}",
                    numbered(output, 1)
                ),
            )
        };
        let dir = OutDir::open(output).map_err(refuse)?;
        dir.probe(name).map_err(refuse)?;
        let highest = std::fs::read_dir(shown)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| number_of(output, e.file_name().to_str()?))
            .max()
            .unwrap_or(0);
        Ok(Files {
            output: output.to_string(),
            dir,
            next: highest + 1,
            max,
            written: VecDeque::new(),
        })
    }

    /// Creates the next numbered file, new: a name that exists is skipped.
    /// An error names the file that could not be created.
    pub fn create_next(&mut self) -> Result<NewFile, Error> {
        let mut tries = 0;
        loop {
            let path = numbered(&self.output, self.next);
            let name = split_dir(&path).1.to_string();
            match self.dir.create_new(&name) {
                Ok(file) => {
                    self.next += 1;
                    return Ok(NewFile { path, name, file });
                }
                Err(e) if e.raw_os_error() == Some(libc::EEXIST) && tries < 100_000 => {
                    self.next += 1;
                    tries += 1;
                }
                Err(e) => return Err(Error::io(&e, format!("creating {path}"))),
            }
        }
    }

    /// Removes a file of this run that could not be written completely
    /// (if the name is still that file's). True if removed.
    pub fn remove_partial(&self, new: &NewFile) -> std::io::Result<bool> {
        self.dir.remove_if_same(&new.name, &new.file)
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
/// order) to `file`, new and empty, created as `path`, in time order.
pub fn write(
    file: File,
    path: &str,
    meta: &Metadata,
    recorded: &[Recorded],
    records: &[u8],
) -> Result<Summary, Error> {
    let index = time_order(records);
    let mut recorder = Recorder::in_file(file, path, meta, recorded)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

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
        let mut files = Files::new(&out, Some(2)).unwrap();
        let mut deleted = Vec::new();
        let mut names = Vec::new();
        for _ in 0..4 {
            let new = files.create_next().unwrap();
            std::io::Write::write_all(&mut &new.file, b"x").unwrap();
            names.push(new.path.clone());
            deleted.extend(files.written(new.path));
        }
        assert_eq!(names, (4..8).map(|n| numbered(&out, n)).collect::<Vec<_>>());
        assert_eq!(deleted, names[..2].to_vec());
        for (n, exists) in [(3, true), (4, false), (5, false), (6, true), (7, true)] {
            assert_eq!(Path::new(&numbered(&out, n)).exists(), exists, "{n}");
        }
        assert!(Path::new(&out).exists());
        // A name taken meanwhile is skipped, never overwritten: a file,
        // a link to a file, a dangling link.
        let target = dir.path().join("target");
        std::fs::write(&target, b"precious").unwrap();
        std::fs::write(numbered(&out, 8), b"taken").unwrap();
        std::os::unix::fs::symlink(&target, numbered(&out, 9)).unwrap();
        std::os::unix::fs::symlink(dir.path().join("none"), numbered(&out, 10)).unwrap();
        let new = files.create_next().unwrap();
        assert_eq!(new.path, numbered(&out, 11));
        assert_eq!(std::fs::read(numbered(&out, 8)).unwrap(), b"taken");
        assert_eq!(std::fs::read(&target).unwrap(), b"precious");
        assert!(!dir.path().join("none").exists());
        // A partial file is removed, and only while the name is still its.
        assert!(files.remove_partial(&new).unwrap());
        assert!(!Path::new(&new.path).exists());
        assert!(!files.remove_partial(&new).unwrap());
        // Two recorders with one -o never share a file: the second finds
        // the first one's name taken.
        let other = format!("{}/two.data", dir.path().display());
        let mut a = Files::new(&other, None).unwrap();
        let mut b = Files::new(&other, None).unwrap();
        assert_eq!(a.create_next().unwrap().path, numbered(&other, 1));
        assert_eq!(b.create_next().unwrap().path, numbered(&other, 2));
        assert_eq!(a.create_next().unwrap().path, numbered(&other, 3));
        // No directory: refused at once.
        let e = Files::new("/nonexistent-dir/x.data", None).err().unwrap();
        assert!(
            e.message.contains("/nonexistent-dir/x.0001.data")
                && e.message.contains("No such file or directory"),
            "{}",
            e.message
        );
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
