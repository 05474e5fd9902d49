//! The rules for a tracepoint's name, the same for both backends (the
//! kernel's user_events and the capture file) and for every API that makes
//! one: `tracepoint_connect`'s "Name arg-spec", EventHeader provider names
//! (the start of their tracepoint names), runtime-defined providers.
//!
//! The name is the text before the first space, as the kernel splits it. It
//! must be 1 to [`MAX`] bytes, each a printable character other than ' ',
//! ':' and '/'. What the kernel (6.12) does with the others: ':' starts
//! registration flags, none of which it accepts (EINVAL); an empty name and
//! a name with '/' are registered, after which listing
//! `events/user_events/` in tracefs fails with EIO until reboot; control
//! characters (tab, newline, ...) and DEL are registered as part of the
//! name, which tools that read tracefs and `dynamic_events` line by line, or
//! `perf -e`, cannot name. The library refuses all of them (EINVAL), and
//! otherwise names over 255 bytes (E2BIG: EVENTHEADER_NAME_MAX - 1, also
//! the longest name a capture record carries), before anything reaches a
//! backend.

use core::ffi::{c_int, CStr};

/// The longest tracepoint name, in bytes without the NUL.
pub const MAX: usize = 255;

/// Whether byte `b` may appear in a tracepoint name: printable (above ' ',
/// below DEL, or any byte of a UTF-8 sequence), and not ':' or '/'.
#[inline]
pub const fn allowed(b: u8) -> bool {
    b > b' ' && b != 0x7f && b != b':' && b != b'/'
}

/// [`allowed`] as a table: one load per byte on the registration path.
static ALLOWED: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = allowed(b as u8);
        b += 1;
    }
    table
};

/// A registration command "Name arg-spec" whose name follows the rules.
#[derive(Clone, Copy, Debug)]
pub struct Command<'a> {
    /// The whole command, as given.
    pub text: &'a CStr,
    /// Its name: the bytes before the first space.
    pub name: &'a [u8],
}

impl<'a> Command<'a> {
    /// Checks the name of `text`, in one pass up to its first space:
    /// EINVAL when it is empty or has a refused byte, else E2BIG when it is
    /// longer than [`MAX`].
    pub fn parse(text: &'a CStr) -> Result<Self, c_int> {
        let bytes = text.to_bytes();
        let mut len = 0;
        for &b in bytes {
            if b == b' ' {
                break;
            }
            if !ALLOWED[usize::from(b)] {
                return Err(libc::EINVAL);
            }
            len += 1;
        }
        let name = bytes.get(..len).unwrap_or_default();
        check_length(name)?;
        Ok(Command { text, name })
    }
}

/// Checks a whole tracepoint name (see [`Command::parse`]).
pub fn check(name: &[u8]) -> Result<(), c_int> {
    if !name.iter().all(|&b| ALLOWED[usize::from(b)]) {
        return Err(libc::EINVAL);
    }
    check_length(name)
}

fn check_length(name: &[u8]) -> Result<(), c_int> {
    if name.is_empty() {
        Err(libc::EINVAL)
    } else if name.len() > MAX {
        Err(libc::E2BIG)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;

    fn parse(text: &[u8]) -> Result<std::vec::Vec<u8>, c_int> {
        let text = CString::new(text).unwrap();
        Command::parse(&text).map(|c| c.name.to_vec())
    }

    #[test]
    fn the_name_is_the_text_before_the_first_space() {
        assert_eq!(parse(b"Name u32 a;u8 b").unwrap(), b"Name");
        assert_eq!(parse(b"Name").unwrap(), b"Name");
        assert_eq!(
            parse(b"Prov_L5K1Gg u8 eventheader_flags").unwrap(),
            b"Prov_L5K1Gg"
        );
        assert_eq!(
            parse("Ünïcode.name-1 u8 a".as_bytes()).unwrap(),
            "Ünïcode.name-1".as_bytes()
        );
    }

    #[test]
    fn empty_and_refused_names() {
        for bad in [
            &b""[..],
            b" u32 a",
            b" ",
            b"Bad:colon u32 a",
            b"Bad/slash u32 a",
            b"Bad\tname u32 a",
            b"Bad\nname u32 a",
            b"Bad\rname",
            b"Bad\x01name",
            b"Bad\x7fname",
            b"Name\tu32 a",
        ] {
            assert_eq!(parse(bad), Err(libc::EINVAL), "{bad:?}");
        }
    }

    #[test]
    fn the_table_is_the_rule() {
        for b in 0..=255u8 {
            assert_eq!(ALLOWED[usize::from(b)], allowed(b), "{b}");
            assert_eq!(check(&[b]).is_ok(), allowed(b), "{b}");
        }
        assert!(allowed(b'a') && allowed(b'.') && allowed(0x80) && allowed(0xff));
        assert!(!allowed(b' ') && !allowed(b'\t') && !allowed(b':') && !allowed(b'/'));
    }

    #[test]
    fn length_limit() {
        let mut at = std::vec![b'N'; MAX];
        assert_eq!(parse(&at).unwrap().len(), MAX);
        at.extend_from_slice(b" u32 a");
        assert_eq!(parse(&at).unwrap().len(), MAX);
        assert_eq!(parse(&std::vec![b'N'; MAX + 1]), Err(libc::E2BIG));
        assert_eq!(check(&std::vec![b'N'; 100_000]), Err(libc::E2BIG));
    }
}
