//! The rules for a tracepoint's name, the same for both backends (the
//! kernel's user_events and the capture file) and for every API that makes
//! one: `tracepoint_connect`'s "Name arg-spec", EventHeader provider names
//! (the start of their tracepoint names), runtime-defined providers.
//!
//! The name is the text before the first space, as the kernel splits it. It
//! must be 1 to [`MAX`] bytes of valid UTF-8, each character printable
//! (no C0 or C1 control character, no DEL) and other than ' ', ':' and '/',
//! and it must not be `enable` or `filter`, the names of tracefs's control
//! files in `events/user_events/`, which such a tracepoint would hide.
//! Invalid UTF-8 is refused because tools that read tracefs's formats as
//! text cannot name it (the kernel registers any byte). What the kernel (6.12) does with the others: ':' starts
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
/// below DEL, or any byte of a UTF-8 sequence, checked as a whole by
/// [`valid_utf8`]), and not ':' or '/'.
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
        let len = bytes.iter().take_while(|&&b| b != b' ').count();
        let name = bytes.get(..len).unwrap_or_default();
        check(name)?;
        Ok(Command { text, name })
    }
}

/// Checks a whole tracepoint name (see [`Command::parse`]).
pub fn check(name: &[u8]) -> Result<(), c_int> {
    if name.is_empty() || !allowed_text(name) || reserved(name) {
        Err(libc::EINVAL)
    } else if name.len() > MAX {
        Err(libc::E2BIG)
    } else {
        Ok(())
    }
}

/// Whether every character of `text` may appear in a tracepoint name
/// ([`allowed`] bytes forming valid UTF-8): also the rule for the part of a
/// name that something else completes, such as a provider name.
pub fn allowed_text(text: &[u8]) -> bool {
    let mut high = 0;
    for &b in text {
        if !ALLOWED[usize::from(b)] {
            return false;
        }
        high |= b;
    }
    high < 0x80 || valid_utf8(text)
}

/// `enable` and `filter`: tracefs's control files in `events/user_events/`.
fn reserved(name: &[u8]) -> bool {
    matches!(name, b"enable" | b"filter")
}

/// Whether `bytes` is valid UTF-8 (no overlong form, surrogate or code
/// point above U+10FFFF) without C1 control characters (U+0080..U+009F),
/// as Rust's `str` and `char::is_control` see it, so that the CLI's rule
/// (cli/src/spec/names.rs) is this one. Written out rather than
/// `core::str::from_utf8`, which is in the precompiled `core` that the
/// static library's members may not call.
#[inline(never)]
fn valid_utf8(bytes: &[u8]) -> bool {
    let mut rest = bytes.iter();
    while let Some(&lead) = rest.next() {
        // 0: ASCII; 1: a continuation byte; 2 to 4: a sequence's length.
        let len = lead.leading_ones();
        if len == 0 {
            continue;
        }
        if !(2..=4).contains(&len) {
            return false;
        }
        let mut code = u32::from(lead & (0x7f >> len));
        for _ in 1..len {
            match rest.next() {
                Some(&b) if b & 0xc0 == 0x80 => code = code << 6 | u32::from(b & 0x3f),
                _ => return false,
            }
        }
        // The shortest form (for 2 bytes: above the C1 controls), not a
        // surrogate (D800..DFFF), at most 10FFFF.
        let min = match len {
            2 => 0xa0,
            3 => 0x800,
            _ => 0x1_0000,
        };
        if code < min || code >> 11 == 0x1b || code > 0x10_ffff {
            return false;
        }
    }
    true
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
    fn names_must_be_valid_utf8_without_control_characters() {
        for good in [
            "Ünïcode".as_bytes(),
            "名前".as_bytes(),
            "emoji😀".as_bytes(),
            "\u{a0}nbsp".as_bytes(),
            "max\u{10ffff}".as_bytes(),
        ] {
            assert!(check(good).is_ok(), "{good:?}");
            let mut text = good.to_vec();
            text.extend_from_slice(b" u32 a");
            assert_eq!(parse(&text).unwrap(), good);
        }
        for bad in [
            &b"RevUtf\xff\xfe"[..],
            b"Lone\x80",
            b"Cut\xc3",
            b"Cut\xe5\x90",
            b"Overlong\xc0\xaf",
            b"Overlong\xe0\x80\xaf",
            b"Surrogate\xed\xa0\x80",
            b"Above\xf4\x90\x80\x80",
            b"Lead\xf5\x80\x80\x80",
            b"C1\xc2\x85",
            b"C1\xc2\x9f",
        ] {
            assert_eq!(check(bad), Err(libc::EINVAL), "{bad:?}");
            let mut text = bad.to_vec();
            text.extend_from_slice(b" u32 a");
            assert_eq!(parse(&text), Err(libc::EINVAL), "{bad:?}");
            // Rust's own reading agrees.
            let rust = std::str::from_utf8(bad).map(|s| !s.chars().any(char::is_control));
            assert_ne!(rust, Ok(true), "{bad:?}");
        }
        // Only the name is checked: the arguments may hold anything.
        assert_eq!(parse(b"Name u8 \xff").unwrap(), b"Name");
    }

    #[test]
    fn tracefs_control_file_names_are_refused() {
        for bad in [&b"enable"[..], b"filter", b"enable u32 a", b"filter u8 b"] {
            assert_eq!(parse(bad), Err(libc::EINVAL), "{bad:?}");
        }
        assert_eq!(check(b"enable"), Err(libc::EINVAL));
        assert_eq!(check(b"filter"), Err(libc::EINVAL));
        for good in [
            &b"enabled"[..],
            b"Enable",
            b"filter2",
            b"enabl",
            b"my_filter",
        ] {
            assert!(check(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn the_table_is_the_rule() {
        for b in 0..=255u8 {
            assert_eq!(ALLOWED[usize::from(b)], allowed(b), "{b}");
            // Alone, a byte above 0x7f is not UTF-8.
            assert_eq!(check(&[b]).is_ok(), allowed(b) && b < 0x80, "{b}");
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
