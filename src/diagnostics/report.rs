//! The diagnostic switch's reports: the messages, their formatting and the
//! one `write(2)` each (see [`super`]). Its own member of the static
//! library: the capture backend calls it directly, the rest of the library
//! through [`super`]'s weak reference to [`TABLE`].

use core::ffi::c_int;
use core::sync::atomic::{AtomicU32, AtomicU8, Ordering};

use super::{Diagnostics, Failure};
use crate::sys::secure_getenv;

/// This module's functions for the rest of the library (see [`super`]),
/// published under a hidden, weak alias.
static TABLE: Diagnostics = Diagnostics { failed };

core::arch::global_asm!(
    ".weak _eventheader_diagnostics",
    ".hidden _eventheader_diagnostics",
    ".set _eventheader_diagnostics, {table}",
    table = sym TABLE,
);

/// How many capture write errors a process reports at most.
pub const WRITE_REPORTS: u32 = 8;

/// 0: not read yet; 1: off; 2: on.
static SWITCH: AtomicU8 = AtomicU8::new(0);
/// Capture write errors reported so far.
static WRITE_ERRORS: AtomicU32 = AtomicU32::new(0);

/// Whether `EVENTHEADER_DEBUG=1` is set (read once; never in a setuid or
/// setgid process).
pub fn enabled() -> bool {
    match SWITCH.load(Ordering::Relaxed) {
        0 => {
            // SAFETY: a valid C string.
            let value = unsafe { secure_getenv(c"EVENTHEADER_DEBUG".as_ptr()) };
            // SAFETY: NULL or a C string of the environment, read at once.
            let on = !value.is_null() && unsafe { core::ffi::CStr::from_ptr(value) } == c"1";
            SWITCH.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
        state => state == 2,
    }
}

/// One piece of a report line.
enum Part<'a> {
    /// Text of the library's own.
    Text(&'a str),
    /// Bytes from outside (a path, a name): quoted, control bytes as `?`.
    Quoted(&'a [u8]),
    /// An errno value: its name and meaning.
    Errno(c_int),
}

/// Writes one report line made of `parts`, if the switch is on.
#[cold]
#[inline(never)]
fn report(parts: &[Part<'_>]) {
    if !enabled() {
        return;
    }
    let mut line = Line {
        buf: [0; 1024],
        len: 0,
    };
    line.push(b"eventheader-tracepoint: ");
    for part in parts {
        match *part {
            Part::Text(text) => line.push(text.as_bytes()),
            Part::Quoted(bytes) => {
                line.push(b"\"");
                for &b in bytes {
                    line.push(&[if b < 0x20 || b == 0x7f { b'?' } else { b }]);
                }
                line.push(b"\"");
            }
            Part::Errno(e) => line.errno(e),
        }
    }
    line.finish();
}

/// Reports a failure outside the capture backend.
fn failed(failure: Failure<'_>) {
    match failure {
        Failure::ProviderOpen { errno, has_capture } => provider_open_failed(errno, has_capture),
        Failure::Registration { name, errno } => registration_failed(name, errno),
    }
}

/// Reports why opening a provider failed: its backend's errno `e`; whether
/// the program has capture mode (a static program may not).
fn provider_open_failed(e: c_int, has_capture: bool) {
    if e == libc::ENOSYS {
        report(&[
            Part::Text("cannot open a provider: "),
            Part::Errno(e),
            Part::Text(
                ": TRACEPOINT_CAPTURE_FILE is set, but this statically linked program has no \
                 capture mode (link it with -Wl,-u,tracepoint_set_capture_file)",
            ),
        ]);
        return;
    }
    let why = match e {
        libc::EOPNOTSUPP => {
            ": no user_events_data (tracefs is not mounted, or this kernel has no user_events)"
        }
        libc::ENOENT => {
            ": no tracefs or debugfs mount has user_events_data (this kernel has no user_events)"
        }
        libc::EACCES | libc::EPERM => ": no permission to write user_events_data",
        _ => "",
    };
    let capture = match (e, has_capture) {
        (libc::EOPNOTSUPP | libc::ENOENT | libc::EACCES | libc::EPERM, true) => {
            "; set TRACEPOINT_CAPTURE_FILE to capture events to a file instead"
        }
        (libc::EOPNOTSUPP | libc::ENOENT | libc::EACCES | libc::EPERM, false) => {
            "; to capture events to a file (TRACEPOINT_CAPTURE_FILE), link this static \
             program with -Wl,-u,tracepoint_set_capture_file"
        }
        _ => "",
    };
    report(&[
        Part::Text("cannot open a provider: user_events is not available: "),
        Part::Errno(e),
        Part::Text(why),
        Part::Text(capture),
    ]);
}

/// Reports that registering the tracepoint `name` failed with `e`.
fn registration_failed(name: &[u8], e: c_int) {
    report(&[
        Part::Text("cannot register tracepoint "),
        Part::Quoted(name),
        Part::Text(": "),
        Part::Errno(e),
    ]);
}

/// Reports that the capture file `path` could not be opened (`e`).
#[cold]
#[inline(never)]
pub fn capture_file_failed(path: &[u8], e: c_int) {
    report(&[
        Part::Text("cannot open the capture file "),
        Part::Quoted(path),
        Part::Text(": "),
        Part::Errno(e),
    ]);
}

/// Reports that TRACEPOINT_CAPTURE_FILE is longer than any path.
#[cold]
#[inline(never)]
pub fn capture_path_too_long() {
    report(&[
        Part::Text("TRACEPOINT_CAPTURE_FILE is longer than any path: "),
        Part::Errno(libc::ENAMETOOLONG),
    ]);
}

/// Reports a failed capture write, for the first [`WRITE_REPORTS`] of them.
/// Async-signal-safe. Returns `e`.
#[cold]
#[inline(never)]
pub fn capture_write_failed(e: c_int) -> c_int {
    if !enabled() {
        return e;
    }
    let n = WRITE_ERRORS.fetch_add(1, Ordering::Relaxed);
    if n < WRITE_REPORTS {
        let last = if n + 1 == WRITE_REPORTS {
            " (the last capture write error reported)"
        } else {
            ""
        };
        report(&[
            Part::Text("a capture write failed: "),
            Part::Errno(e),
            Part::Text(last),
        ]);
    }
    e
}

/// A report line on the stack; what does not fit is cut, and ends in "...".
struct Line {
    buf: [u8; 1024],
    len: usize,
}

impl Line {
    fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
    }

    fn number(&mut self, n: c_int) {
        let mut digits = [0u8; 12];
        let mut at = digits.len();
        let mut rest = n.unsigned_abs();
        loop {
            at -= 1;
            if let Some(d) = digits.get_mut(at) {
                *d = b'0' + (rest % 10) as u8;
            }
            rest /= 10;
            if rest == 0 || at == 1 {
                break;
            }
        }
        if n < 0 {
            self.push(b"-");
        }
        self.push(digits.get(at..).unwrap_or_default());
    }

    fn errno(&mut self, e: c_int) {
        match errno_text(e) {
            Some((name, meaning)) => {
                self.push(name.as_bytes());
                self.push(b" (");
                self.push(meaning.as_bytes());
                self.push(b")");
            }
            None => {
                self.push(b"errno ");
                self.number(e);
            }
        }
    }

    /// Ends the line and writes it.
    fn finish(&mut self) {
        const CUT: &[u8] = b"...\n";
        if self.len + 1 > self.buf.len() {
            self.len = self.buf.len() - CUT.len();
            self.push(CUT);
        } else {
            self.push(b"\n");
        }
        let line = self.buf.get(..self.len).unwrap_or_default();
        // SAFETY: `line` is readable for its length; one write to stderr
        // (a short or failed write is not retried: diagnostics only).
        unsafe { libc::write(2, line.as_ptr().cast(), line.len()) };
    }
}

/// The name and meaning of the errno values the library reports.
fn errno_text(e: c_int) -> Option<(&'static str, &'static str)> {
    Some(match e {
        libc::EPERM => ("EPERM", "Operation not permitted"),
        libc::ENOENT => ("ENOENT", "No such file or directory"),
        libc::EINTR => ("EINTR", "Interrupted system call"),
        libc::EIO => ("EIO", "Input/output error"),
        libc::ENXIO => ("ENXIO", "No such device or address"),
        libc::E2BIG => ("E2BIG", "Argument list too long"),
        libc::EBADF => ("EBADF", "Bad file descriptor"),
        libc::EAGAIN => ("EAGAIN", "Resource temporarily unavailable"),
        libc::ENOMEM => ("ENOMEM", "Cannot allocate memory"),
        libc::EACCES => ("EACCES", "Permission denied"),
        libc::EFAULT => ("EFAULT", "Bad address"),
        libc::EBUSY => ("EBUSY", "Device or resource busy"),
        libc::EEXIST => ("EEXIST", "File exists"),
        libc::ENOTDIR => ("ENOTDIR", "Not a directory"),
        libc::EISDIR => ("EISDIR", "Is a directory"),
        libc::EINVAL => ("EINVAL", "Invalid argument"),
        libc::ENFILE => ("ENFILE", "Too many open files in system"),
        libc::EMFILE => ("EMFILE", "Too many open files"),
        libc::EFBIG => ("EFBIG", "File too large"),
        libc::ENOSPC => ("ENOSPC", "No space left on device"),
        libc::EROFS => ("EROFS", "Read-only file system"),
        libc::EPIPE => ("EPIPE", "Broken pipe"),
        libc::ENAMETOOLONG => ("ENAMETOOLONG", "File name too long"),
        libc::ENOSYS => ("ENOSYS", "Function not implemented"),
        libc::ELOOP => ("ELOOP", "Too many levels of symbolic links"),
        libc::EOPNOTSUPP => ("EOPNOTSUPP", "Operation not supported"),
        libc::EALREADY => ("EALREADY", "Operation already in progress"),
        libc::EDQUOT => ("EDQUOT", "Disk quota exceeded"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_errnos_format_without_allocation() {
        let mut line = Line {
            buf: [0; 1024],
            len: 0,
        };
        line.number(0);
        line.push(b" ");
        line.number(-2_147_483_648);
        line.push(b" ");
        line.errno(libc::ENOENT);
        line.push(b" ");
        line.errno(4000);
        assert_eq!(
            &line.buf[..line.len],
            b"0 -2147483648 ENOENT (No such file or directory) errno 4000"
        );
    }
}
