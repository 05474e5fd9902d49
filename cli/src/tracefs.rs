//! Finding tracefs and reading what `collect` needs from it: tracepoint ids,
//! `format` files, the list of a system's tracepoints, and the ring-buffer
//! header descriptions perf.data carries.

use std::io;
use std::path::{Path, PathBuf};

use crate::exit::{Error, Status};

pub struct Tracefs {
    root: PathBuf,
}

/// Reads a tracefs file. Some (events/header_page, header_event) answer a
/// small first read and then report the end of the file, so a read must ask
/// for everything at once: `std::fs::read` starts with a 32-byte probe read
/// for files that report size 0, and got 32 of header_page's 205 bytes.
fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Undoes the octal escapes of /proc/mounts (`\040` for a space, ...).
fn unescape_mount_point(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            out.push((b[i + 1] - b'0') * 64 + (b[i + 2] - b'0') * 8 + (b[i + 3] - b'0'));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Candidate tracefs directories from the text of /proc/mounts: tracefs mount
/// points, then debugfs mount points + `/tracing`.
fn candidates(mounts: &str) -> Vec<PathBuf> {
    let mut tracefs = Vec::new();
    let mut debugfs = Vec::new();
    for line in mounts.lines() {
        let mut words = line.split_ascii_whitespace();
        let (Some(_), Some(dir), Some(fs)) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        match fs {
            "tracefs" => tracefs.push(PathBuf::from(unescape_mount_point(dir))),
            "debugfs" => debugfs.push(Path::new(&unescape_mount_point(dir)).join("tracing")),
            _ => {}
        }
    }
    tracefs.extend(debugfs);
    tracefs
}

impl Tracefs {
    /// Finds tracefs: `/sys/kernel/tracing`, else a tracefs mount, else debugfs.
    pub fn find() -> Result<Tracefs, Error> {
        let mut tried = vec![PathBuf::from("/sys/kernel/tracing")];
        let mounts = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
        tried.extend(candidates(&mounts));
        Self::find_in(tried)
    }

    /// The first of `tried` that has an `events` directory.
    fn find_in(tried: Vec<PathBuf>) -> Result<Tracefs, Error> {
        for root in tried {
            match std::fs::metadata(root.join("events")) {
                Ok(m) if m.is_dir() => return Ok(Tracefs { root }),
                Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                    return Err(Error::new(
                        Status::PermissionDenied,
                        format!(
                            "permission denied reading tracefs at {} (usually needs root)",
                            root.display()
                        ),
                    ))
                }
                _ => {}
            }
        }
        Err(Error::new(
            Status::NoUserEvents,
            "tracefs is not mounted (no /sys/kernel/tracing/events, none in /proc/mounts)",
        ))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn event_dir(&self, system: &str, name: &str) -> PathBuf {
        self.root.join("events").join(system).join(name)
    }

    /// Does the tracepoint exist?
    pub fn exists(&self, system: &str, name: &str) -> bool {
        self.event_dir(system, name).join("id").exists()
    }

    /// Is there a user_events interface?
    pub fn has_user_events(&self) -> bool {
        self.root.join("user_events_data").exists()
    }

    /// The tracepoint's `format` file.
    pub fn format(&self, system: &str, name: &str) -> io::Result<String> {
        let bytes = read_file(&self.event_dir(system, name).join("format"))?;
        String::from_utf8(bytes).map_err(|_| io::ErrorKind::InvalidData.into())
    }

    /// The tracepoints of a system, sorted.
    pub fn list(&self, system: &str) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(self.root.join("events").join(system))? {
            let entry = entry?;
            if entry.path().join("id").exists() {
                names.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    /// `printk_formats`, for TRACING_DATA (empty if unreadable).
    pub fn printk_formats(&self) -> Vec<u8> {
        read_file(&self.root.join("printk_formats")).unwrap_or_default()
    }

    /// `events/header_page` and `events/header_event`, for TRACING_DATA
    /// (empty if missing: the writer then uses its defaults).
    pub fn ring_headers(&self) -> (Vec<u8>, Vec<u8>) {
        let read = |f: &str| read_file(&self.root.join("events").join(f)).unwrap_or_default();
        (read("header_page"), read("header_event"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_candidates_in_order() {
        let mounts = "sysfs /sys sysfs rw 0 0\n\
                      debugfs /sys/kernel/debug debugfs rw 0 0\n\
                      tracefs /mnt/my\\040trace tracefs rw 0 0\n\
                      garbage\n";
        assert_eq!(
            candidates(mounts),
            vec![
                PathBuf::from("/mnt/my trace"),
                PathBuf::from("/sys/kernel/debug/tracing")
            ]
        );
        assert_eq!(unescape_mount_point("a\\134b\\"), "a\\b\\");
    }

    #[test]
    fn missing_tracefs_is_reported_as_no_user_events() {
        let dir = std::env::temp_dir().join(format!("ehcli-tracefs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        std::fs::create_dir_all(dir.join("mounted/events")).unwrap();
        let missing = vec![dir.join("none"), dir.join("empty")];
        match Tracefs::find_in(missing.clone()) {
            Err(e) => assert_eq!(e.status, Status::NoUserEvents, "{}", e.message),
            Ok(t) => panic!("found tracefs at {}", t.root().display()),
        }
        let mut found = missing;
        found.push(dir.join("mounted"));
        let root = Tracefs::find_in(found).map(|t| t.root().to_path_buf());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(root.ok(), Some(dir.join("mounted")));
    }
}
