//! How `doctor` opens and reads files, and how it shows what it read.
//!
//! Every file is opened without blocking (`O_NONBLOCK`: a FIFO or a device
//! opens at once) and refused unless `fstat` says it is a regular file, so
//! a FIFO, `/dev/zero` or a terminal never holds doctor up. The kernel's
//! files are read up to [`TEXT_MAX`]; a program file is scanned in chunks
//! of [`CHUNK`] bytes, up to [`PROGRAM_MAX`], so doctor's memory stays
//! small whatever the file's size. Strings from the system (paths, names,
//! command names) may hold control characters: [`escape`] shows them as
//! `\n`, `\t`, `\xNN`.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The most read of a kernel file (/proc, tracefs, a kernel configuration):
/// the largest real one, user_events_status with its 32768 tracepoints, is
/// under 8 MiB. Past it a file is cut (the parsers see its first part).
pub const TEXT_MAX: u64 = 16 << 20;

/// The most of a program file scanned for strings. Larger files (programs
/// with debug info) are scanned up to it: string literals sit in
/// `.rodata`, near the start, debug sections come last.
pub const PROGRAM_MAX: u64 = 1 << 30;

/// The size of each read of a program file (the memory its scan takes).
pub const CHUNK: usize = 1 << 20;

/// What kind of file a non-regular one is, for messages.
fn kind(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Opens `p` for reading without blocking and without becoming the
/// controlling terminal, and refuses (`InvalidInput`) anything but a
/// regular file. Returns the file and its size.
pub fn open_regular(p: &Path) -> io::Result<(File, u64)> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC)
        .open(p)?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", kind(meta.file_type())),
        ));
    }
    Ok((file, meta.len()))
}

/// A regular file's bytes, at most [`TEXT_MAX`] of them (tracefs and
/// /proc files report size 0, so the size is not trusted: the reads stop
/// at the bound).
pub fn read_bounded(p: &Path) -> io::Result<Vec<u8>> {
    let (file, _) = open_regular(p)?;
    let mut out = Vec::new();
    file.take(TEXT_MAX).read_to_end(&mut out)?;
    Ok(out)
}

/// What a program file's scan saw.
pub struct Scan {
    /// The file's size.
    pub size: u64,
    /// The bytes scanned: the size, or [`PROGRAM_MAX`] when it is larger.
    pub scanned: u64,
}

/// Scans a program file in chunks of [`CHUNK`] bytes, up to
/// [`PROGRAM_MAX`], handing each chunk to `each` in order.
pub fn scan_program(p: &Path, mut each: impl FnMut(&[u8])) -> io::Result<Scan> {
    let (file, size) = open_regular(p)?;
    let mut input = file.take(PROGRAM_MAX);
    let mut buf = vec![0u8; CHUNK];
    let mut scanned = 0u64;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        each(&buf[..n]);
        scanned += n as u64;
    }
    Ok(Scan { size, scanned })
}

/// `s` as doctor prints it: control characters as `\n`, `\t`, `\r`, `\e`
/// or `\xNN` (C1 controls as `\u{NN}`), and a backslash as `\\`, so that
/// a line of the report is one line and says which bytes a name holds.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x1b' => out.push_str("\\e"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if ('\u{80}'..='\u{9f}').contains(&c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// A path as doctor prints it: [`escape`]d, and each byte that is not
/// UTF-8 as `\xNN`.
pub fn show_path(p: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::new();
    for chunk in p.as_os_str().as_bytes().utf8_chunks() {
        out.push_str(&escape(chunk.valid()));
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn escapes_control_characters() {
        assert_eq!(escape("/mnt/a b"), "/mnt/a b");
        assert_eq!(
            escape("a\nb\tc\rd\x1be\x01f\x7fg\\h\u{85}i"),
            "a\\nb\\tc\\rd\\ee\\x01f\\x7fg\\\\h\\u{85}i"
        );
        assert_eq!(escape("ünï"), "ünï");
        let p = Path::new(std::ffi::OsStr::from_bytes(b"/mnt/x\n\xff\x1b"));
        assert_eq!(show_path(p), "/mnt/x\\n\\xff\\e");
    }

    #[test]
    fn mount_paths_from_mountinfo_are_shown_escaped() {
        let m = crate::doctor::parse::mountinfo(
            "41 1 0:12 / /mnt/a\\012b\\011c\\134d\x07e rw - tracefs tracefs rw\n",
        );
        assert_eq!(m[0].point, Path::new("/mnt/a\nb\tc\\d\x07e"));
        assert_eq!(show_path(&m[0].point), "/mnt/a\\nb\\tc\\\\d\\x07e");
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        let e = open_regular(Path::new("/dev/null")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(e.to_string(), "a character device is not a regular file");
        let e = open_regular(Path::new("/")).unwrap_err();
        assert!(e.to_string().starts_with("a directory"), "{e}");
        let e = read_bounded(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn scans_in_chunks_up_to_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, vec![7u8; CHUNK * 2 + 5]).unwrap();
        let mut sizes = Vec::new();
        let scan = scan_program(&p, |c| sizes.push(c.len())).unwrap();
        assert_eq!(
            (scan.size, scan.scanned),
            (CHUNK as u64 * 2 + 5, CHUNK as u64 * 2 + 5)
        );
        assert!(sizes.iter().all(|&n| n <= CHUNK), "{sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>(), CHUNK * 2 + 5);
    }
}
