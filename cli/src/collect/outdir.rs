//! The directory `collect` writes into, opened once (its path resolved at
//! start), and every file made in it created new: `openat` with
//! `O_CREAT|O_EXCL|O_NOFOLLOW`, so that no existing file is truncated and no
//! symbolic link is followed, whoever else can write the directory (collect
//! runs as root). Two collectors given one `-o` never share a file: one of
//! them gets `EEXIST`.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;

/// (directory part with its '/', file name) of `output`.
pub fn split_dir(output: &str) -> (&str, &str) {
    match output.rfind('/') {
        Some(i) => output.split_at(i + 1),
        None => ("", output),
    }
}

fn c_name(name: &str) -> io::Result<CString> {
    if name.is_empty() || name.contains('/') {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    CString::new(name).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

/// A directory open for creating files in it.
pub struct OutDir {
    fd: OwnedFd,
    /// The directory as the user named it, with its '/' ("" for ".").
    shown: String,
}

impl OutDir {
    /// Opens the directory part of `output` (`.` when it has none).
    pub fn open(output: &str) -> io::Result<OutDir> {
        let (dir, _) = split_dir(output);
        let path = CString::new(if dir.is_empty() { "." } else { dir })
            .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
        // SAFETY: `path` is a NUL-terminated string; open returns a new
        // descriptor or -1.
        let fd = unsafe {
            libc::open(
                path.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(OutDir {
            // SAFETY: `fd` was just opened and is owned by nothing else.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            shown: dir.to_string(),
        })
    }

    /// `name` in this directory, as the user would write it.
    pub fn path(&self, name: &str) -> String {
        format!("{}{name}", self.shown)
    }

    /// Creates `name` as a new file (mode 0666 less the umask), open for
    /// writing: `EEXIST` if anything is there, a link (dangling too)
    /// included; a link is never followed.
    pub fn create_new(&self, name: &str) -> io::Result<File> {
        let c = c_name(name)?;
        // SAFETY: the directory descriptor is open, `c` is NUL-terminated;
        // openat returns a new descriptor or -1.
        let fd = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                0o666 as libc::c_uint,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened and is owned by nothing else.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    /// What `name` is, not following a link (None: nothing there).
    fn lstat(&self, name: &str) -> io::Result<Option<libc::stat>> {
        let c = c_name(name)?;
        // SAFETY: stat is plain old data (all-zero is valid).
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: the directory descriptor is open, `c` is NUL-terminated,
        // `st` is valid for writes.
        let rc = unsafe {
            libc::fstatat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                &mut st,
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        if rc == 0 {
            return Ok(Some(st));
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::ENOENT) => Ok(None),
            _ => Err(e),
        }
    }

    /// The output file of a recording, `name`: created new. A regular file
    /// or a link already there is renamed to `name.old` first (as `perf
    /// record` does; the link itself, never what it points to); a character
    /// device (`/dev/null`) is opened as it is; anything else is refused.
    /// Returns the file and the name the old one got, if any.
    pub fn replace(&self, name: &str) -> io::Result<(File, Option<String>)> {
        let mut renamed = None;
        if let Some(st) = self.lstat(name)? {
            match st.st_mode & libc::S_IFMT {
                libc::S_IFREG | libc::S_IFLNK => {
                    let old = format!("{name}.old");
                    let (from, to) = (c_name(name)?, c_name(&old)?);
                    // SAFETY: both names are NUL-terminated and relative to
                    // the open directory; renameat never follows a link.
                    let rc = unsafe {
                        libc::renameat(
                            self.fd.as_raw_fd(),
                            from.as_ptr(),
                            self.fd.as_raw_fd(),
                            to.as_ptr(),
                        )
                    };
                    if rc != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    renamed = Some(self.path(&old));
                }
                libc::S_IFCHR => return self.open_device(name).map(|f| (f, None)),
                libc::S_IFDIR => return Err(io::Error::from_raw_os_error(libc::EISDIR)),
                _ => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "not a regular file (a FIFO, socket or block device)",
                    ))
                }
            }
        }
        self.create_new(name).map(|f| (f, renamed))
    }

    /// Opens the character device `name` for writing (not through a link).
    fn open_device(&self, name: &str) -> io::Result<File> {
        let c = c_name(name)?;
        // SAFETY: the directory descriptor is open, `c` is NUL-terminated;
        // openat returns a new descriptor or -1.
        let fd = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                libc::O_WRONLY | libc::O_NOFOLLOW | libc::O_NOCTTY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened and is owned by nothing else.
        let file = unsafe { File::from_raw_fd(fd) };
        if !std::os::unix::fs::FileTypeExt::is_char_device(&file.metadata()?.file_type()) {
            return Err(io::Error::from_raw_os_error(libc::EEXIST));
        }
        Ok(file)
    }

    /// Removes `name` if it is still `file` (same device and inode): a name
    /// someone else took meanwhile is left alone. True if removed.
    pub fn remove_if_same(&self, name: &str, file: &File) -> io::Result<bool> {
        let ours = file.metadata()?;
        match self.lstat(name)? {
            Some(st) if st.st_dev == ours.dev() && st.st_ino == ours.ino() => {}
            _ => return Ok(false),
        }
        let c = c_name(name)?;
        // SAFETY: the directory descriptor is open, `c` is NUL-terminated;
        // unlinkat removes the name, never what a link points to.
        if unsafe { libc::unlinkat(self.fd.as_raw_fd(), c.as_ptr(), 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(true)
    }

    /// Whether a file can be created here: creates a new, empty probe file
    /// (`.NAME.probe.PID`, another number if taken) and removes it.
    pub fn probe(&self, name: &str) -> io::Result<()> {
        let pid = std::process::id();
        for n in 0..100u32 {
            let probe = format!(".{name}.probe.{pid}.{n}");
            match self.create_new(&probe) {
                Ok(f) => {
                    let _ = self.remove_if_same(&probe, &f);
                    return Ok(());
                }
                Err(e) if e.raw_os_error() == Some(libc::EEXIST) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::from_raw_os_error(libc::EEXIST))
    }
}

/// The path through which another opener reaches `file` itself (the
/// kernel's link to the open file, not a name someone could replace).
pub fn reopen_path(file: &File) -> String {
    format!("/proc/self/fd/{}", file.as_raw_fd())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::symlink;

    #[test]
    fn create_new_never_follows_or_truncates() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, b"precious").unwrap();
        symlink(&target, dir.path().join("link")).unwrap();
        symlink(dir.path().join("nowhere"), dir.path().join("dangling")).unwrap();
        std::fs::write(dir.path().join("file"), b"kept").unwrap();
        let out = OutDir::open(&format!("{}/x", dir.path().display())).unwrap();
        for name in ["link", "dangling", "file"] {
            let e = out.create_new(name).unwrap_err();
            assert_eq!(e.raw_os_error(), Some(libc::EEXIST), "{name}");
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"precious");
        assert!(!dir.path().join("nowhere").exists());
        assert_eq!(std::fs::read(dir.path().join("file")).unwrap(), b"kept");
        let mut f = out.create_new("new").unwrap();
        f.write_all(b"x").unwrap();
        assert_eq!(out.path("new"), format!("{}/new", dir.path().display()));
        assert!(out.create_new("new").is_err());
        assert!(out.create_new("a/b").is_err());
        // Removal checks it is still ours.
        let g = out.create_new("other").unwrap();
        assert!(!out.remove_if_same("new", &g).unwrap());
        assert!(out.remove_if_same("other", &g).unwrap());
        assert!(!dir.path().join("other").exists());
    }

    #[test]
    fn replace_renames_files_and_links_and_keeps_targets() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, b"precious").unwrap();
        symlink(&target, dir.path().join("t.data")).unwrap();
        let out = OutDir::open(&format!("{}/t.data", dir.path().display())).unwrap();
        let (mut f, old) = out.replace("t.data").unwrap();
        f.write_all(b"new").unwrap();
        assert_eq!(old, Some(out.path("t.data.old")));
        assert!(std::fs::symlink_metadata(dir.path().join("t.data.old"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"precious");
        assert_eq!(std::fs::read(dir.path().join("t.data")).unwrap(), b"new");
        // Again: the file becomes t.data.old.
        let (_, old) = out.replace("t.data").unwrap();
        assert!(old.is_some());
        assert_eq!(
            std::fs::read(dir.path().join("t.data.old")).unwrap(),
            b"new"
        );
        std::fs::create_dir(dir.path().join("d")).unwrap();
        assert!(out.replace("d").is_err());
        let null = OutDir::open("/dev/null").unwrap();
        assert!(null.replace("null").is_ok());
        assert!(OutDir::open("/nonexistent-dir/x").is_err());
        out.probe("t.data").unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
    }
}
