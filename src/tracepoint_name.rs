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
/// [`allowed_text`]), and not ':' or '/'.
#[inline]
pub const fn allowed(b: u8) -> bool {
    b > b' ' && b != 0x7f && b != b':' && b != b'/'
}

/// The classes of bytes for [`STEP`]: one load per byte on the
/// registration path, which checks [`allowed`] and UTF-8 (the shortest form,
/// no surrogate, at most U+10FFFF, no C1 control) at once.
const REFUSED: u8 = 1;
static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            0x00..=0x7f if allowed(b as u8) => 0,
            0x00..=0x7f => REFUSED,
            0x80..=0x8f => 2,
            0x90..=0x9f => 3,
            0xa0..=0xbf => 4,
            0xc2 => 5,
            0xc3..=0xdf => 6,
            0xe0 => 7,
            0xe1..=0xec | 0xee..=0xef => 8,
            0xed => 9,
            0xf0 => 10,
            0xf1..=0xf3 => 11,
            0xf4 => 12,
            _ => REFUSED, // C0, C1 (overlong), F5..FF (above U+10FFFF)
        };
        b += 1;
    }
    table
};

/// States of the UTF-8 check, as offsets of their row in [`STEP`] (a
/// multiple of 16, so that a state or'ed with a class indexes it): between
/// characters; expecting 1, 2 or 3 more continuation bytes (any); after C2
/// (A0..BF: no C1 control), E0 (A0..BF: not overlong), ED (80..9F: no
/// surrogate), F0 (90..BF: not overlong), F4 (80..8F: at most U+10FFFF);
/// refused (every other row).
const REJECT: u8 = 9 << 4;
#[rustfmt::skip]
static STEP: [u8; 256] = {
    const R: u8 = REJECT;
    const ROWS: [[u8; 13]; 9] = [
        // ascii refused 80-8f 90-9f a0-bf c2 c3-df e0 e1-ef ed f0 f1-f3 f4
        [0, R, R, R, R, 4 << 4, 1 << 4, 5 << 4, 2 << 4, 6 << 4, 7 << 4, 3 << 4, 8 << 4],
        [R, R, 0, 0, 0, R, R, R, R, R, R, R, R],                   // 1 more
        [R, R, 1 << 4, 1 << 4, 1 << 4, R, R, R, R, R, R, R, R],    // 2 more
        [R, R, 2 << 4, 2 << 4, 2 << 4, R, R, R, R, R, R, R, R],    // 3 more
        [R, R, R, R, 0, R, R, R, R, R, R, R, R],                   // after C2
        [R, R, R, R, 1 << 4, R, R, R, R, R, R, R, R],              // after E0
        [R, R, 1 << 4, 1 << 4, R, R, R, R, R, R, R, R, R],         // after ED
        [R, R, R, 2 << 4, 2 << 4, R, R, R, R, R, R, R, R],         // after F0
        [R, R, 2 << 4, R, R, R, R, R, R, R, R, R, R],              // after F4
    ];
    let mut table = [R; 256];
    let mut state = 0;
    while state < ROWS.len() {
        let mut class = 0;
        while class < ROWS[state].len() {
            table[state << 4 | class] = ROWS[state][class];
            class += 1;
        }
        state += 1;
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
        let mut state = 0;
        for &b in bytes {
            if b == b' ' {
                break;
            }
            state = step(state, b);
            if state == REJECT {
                return Err(libc::EINVAL);
            }
            len += 1;
        }
        let name = bytes.get(..len).unwrap_or_default();
        check_whole(name, state)?;
        Ok(Command { text, name })
    }
}

/// One byte of the check: the next state of [`STEP`].
#[inline(always)]
fn step(state: u8, b: u8) -> u8 {
    STEP[usize::from(state | CLASS[usize::from(b)])]
}

/// Checks a whole tracepoint name (see [`Command::parse`]).
#[cfg(test)]
pub fn check(name: &[u8]) -> Result<(), c_int> {
    let state = name.iter().fold(0, |state, &b| step(state, b));
    check_whole(name, state)
}

/// The rules about the name as a whole, once its bytes left the check in
/// `state`: not empty, whole characters, not reserved, not too long.
fn check_whole(name: &[u8], state: u8) -> Result<(), c_int> {
    if name.is_empty() || state != 0 || reserved(name) {
        Err(libc::EINVAL)
    } else if name.len() > MAX {
        Err(libc::E2BIG)
    } else {
        Ok(())
    }
}

/// Whether every character of `text` may appear in a tracepoint name
/// ([`allowed`] bytes forming valid UTF-8 without C1 controls, as Rust's
/// `str` and `char::is_control` see it, so that the CLI's rule,
/// cli/src/spec/names.rs, is this one): also the rule for the part of a name
/// that something else completes, such as a provider name. A table walk
/// rather than `core::str::from_utf8`, which is in the precompiled `core`
/// that the static library's members may not call.
pub fn allowed_text(text: &[u8]) -> bool {
    let mut state = 0;
    for &b in text {
        state = step(state, b);
        if state == REJECT {
            return false;
        }
    }
    state == 0
}

/// `enable` and `filter`: tracefs's control files in `events/user_events/`.
fn reserved(name: &[u8]) -> bool {
    matches!(name, b"enable" | b"filter")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;

    fn parse(text: &[u8]) -> Result<std::vec::Vec<u8>, c_int> {
        let text = CString::new(text).unwrap();
        Command::parse(&text).map(|c| c.name.to_vec())
    }

    /// The rules of docs/format.md §3.1.
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

    /// The table walk against Rust's own reading, for every sequence of up
    /// to 3 bytes and every 4-byte one with a lead of F0..F7 and
    /// continuation bytes.
    #[test]
    fn the_utf8_check_is_rust_s() {
        let rust = |b: &[u8]| {
            std::str::from_utf8(b)
                .is_ok_and(|s| s.chars().all(|c| !c.is_control() && !" :/".contains(c)))
        };
        let check = |b: &[u8]| assert_eq!(allowed_text(b), rust(b), "{b:x?}");
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
                if a >= 0xc0 {
                    for c in 0..=255u8 {
                        check(&[a, b, c]);
                    }
                }
            }
        }
        for a in 0xf0..=0xf7u8 {
            for b in 0x80..=0xbfu8 {
                for c in 0x80..=0xbfu8 {
                    for d in [0x7fu8, 0x80, 0x9f, 0xbf, 0xc0] {
                        check(&[a, b, c, d]);
                    }
                }
            }
        }
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
            assert_eq!(CLASS[usize::from(b)] == 0, b < 0x80 && allowed(b), "{b}");
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
