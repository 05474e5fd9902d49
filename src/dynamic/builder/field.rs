//! The EventHeader field encoding as the builder writes it: encoding and
//! format values, element sizes, names, and the metadata of one field.
//!
//! Metadata layout (docs/format.md §5.2), byte for byte the reference's
//! `EventHeaderDynamic.h`: `name\0`, then `encoding` alone when format and
//! tag are 0, `encoding|0x80, format` when only the format is set,
//! `encoding|0x80, format|0x80, tag` when a tag is set, then a `u16` count
//! for constant-count arrays. Integers are in the target's byte order, as
//! the header's flags announce.

use crate::dynamic::layers_below::find_nul;

/// Encoding values (low 5 bits of the encoding byte, docs/format.md §4.5).
pub mod encoding {
    pub const STRUCT: u8 = 1;
    pub const VALUE8: u8 = 2;
    pub const VALUE128: u8 = 6;
    pub const ZSTRING_CHAR8: u8 = 7;
    pub const ZSTRING_CHAR32: u8 = 9;
    pub const STRING_LENGTH16_CHAR8: u8 = 10;
    pub const STRING_LENGTH16_CHAR32: u8 = 12;
    pub const BINARY_LENGTH16_CHAR8: u8 = 13;
    /// The encoding bits of the byte.
    pub const VALUE_MASK: u8 = 0x1f;
    /// Constant-count array: `u16` count in the metadata.
    pub const CARRAY: u8 = 0x20;
    /// Variable-count array: `u16` count in the payload.
    pub const VARRAY: u8 = 0x40;
    /// A format byte follows the encoding byte.
    pub const CHAIN: u8 = 0x80;
}

use encoding as enc;

/// The largest format value; 0x80 in the format byte means a tag follows.
pub const FORMAT_MAX: u8 = 0x7f;
pub const FORMAT_CHAIN: u8 = 0x80;

/// Size in bytes of one value of a value encoding (value8 ... value128).
#[inline(always)]
pub fn value_size(encoding: u8) -> Option<usize> {
    match encoding & enc::VALUE_MASK {
        2 => Some(1),
        3 => Some(2),
        4 => Some(4),
        5 => Some(8),
        6 => Some(16),
        _ => None,
    }
}

/// Size in bytes of one character of a string or binary encoding
/// (zstring_char*, string_length16_char*, binary_length16_char8).
#[inline(always)]
pub fn char_size(encoding: u8) -> Option<usize> {
    match encoding & enc::VALUE_MASK {
        7 | 10 | 13 => Some(1),
        8 | 11 => Some(2),
        9 | 12 => Some(4),
        _ => None,
    }
}

/// The array flags of an array field: `CARRAY` keeps it, anything else
/// (`VARRAY` or no flag) is a variable-count array. None if both are set or
/// the chain bit is.
pub fn array_flag(encoding: u8) -> Option<u8> {
    match encoding & !enc::VALUE_MASK {
        enc::CARRAY => Some(enc::CARRAY),
        0 | enc::VARRAY => Some(enc::VARRAY),
        _ => None,
    }
}

/// Whether `encoding` (bits VALUE_MASK) is a NUL-terminated string.
#[inline(always)]
pub fn is_zstring(encoding: u8) -> bool {
    (enc::ZSTRING_CHAR8..=enc::ZSTRING_CHAR32).contains(&(encoding & enc::VALUE_MASK))
}

/// An event or field name: bytes without a NUL (it may carry attributes,
/// "Name;attr=value"). Checked once where it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name<'a>(&'a [u8]);

impl<'a> Name<'a> {
    /// The empty name.
    pub const EMPTY: Name<'static> = Name(&[]);

    /// `bytes` as a name; None if they contain a NUL.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Option<Name<'a>> {
        if has_nul(bytes) {
            None
        } else {
            Some(Name(bytes))
        }
    }

    /// A C string's bytes (never a NUL among them).
    #[inline]
    pub fn from_c_str(text: &'a core::ffi::CStr) -> Name<'a> {
        Name(text.to_bytes())
    }

    /// The bytes of the name.
    #[inline(always)]
    pub fn bytes(self) -> &'a [u8] {
        self.0
    }
}

/// Whether `bytes` contain a zero byte. Names are short: up to 16 bytes
/// are tested as two overlapping words (the "has a zero byte" bit trick),
/// longer ones by `memchr`.
#[inline(always)]
pub fn has_nul(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero64 = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS != 0;
    let zero32 = |w: u32| w.wrapping_sub(ONES as u32) & !w & HIGHS as u32 != 0;
    let len = bytes.len();
    let tail = |n: usize| bytes.get(len.saturating_sub(n)..).unwrap_or(&[]);
    let head = |n: usize| bytes.get(..n).unwrap_or(&[]);
    match len {
        8..=16 => match (<[u8; 8]>::try_from(head(8)), <[u8; 8]>::try_from(tail(8))) {
            (Ok(h), Ok(t)) => zero64(u64::from_ne_bytes(h)) || zero64(u64::from_ne_bytes(t)),
            _ => find_nul(bytes).is_some(),
        },
        4..=7 => match (<[u8; 4]>::try_from(head(4)), <[u8; 4]>::try_from(tail(4))) {
            (Ok(h), Ok(t)) => zero32(u32::from_ne_bytes(h)) || zero32(u32::from_ne_bytes(t)),
            _ => find_nul(bytes).is_some(),
        },
        0..=3 => [0, 1, 2].iter().any(|&i| bytes.get(i) == Some(&0)),
        _ => find_nul(bytes).is_some(),
    }
}

/// Bytes of `chars` before its first all-zero character of `unit` bytes (all
/// of it if it has none).
#[inline]
pub fn zstring_len(chars: &[u8], unit: usize) -> usize {
    match unit {
        1 => find_nul(chars).unwrap_or(chars.len()),
        _ => {
            let mut at: usize = 0;
            while let Some(ch) = chars.get(at..at.saturating_add(unit)) {
                if ch.len() < unit || ch.iter().all(|&b| b == 0) {
                    return at;
                }
                at = at.saturating_add(unit);
            }
            chars.len()
        }
    }
}

/// The bytes after a field's name in its metadata: NUL, encoding, [format,
/// [tag]], [constant count]; as an 8-byte block (stored in one go) and the
/// number of its bytes that count.
#[inline(always)]
pub fn meta_tail(encoding: u8, format: u8, tag: u16, count: Option<u16>) -> ([u8; 8], usize) {
    let t = tag.to_ne_bytes();
    let c = count.unwrap_or(0).to_ne_bytes();
    let (tail, len) = if tag != 0 {
        let tail = [
            0,
            encoding | enc::CHAIN,
            format | FORMAT_CHAIN,
            t[0],
            t[1],
            c[0],
            c[1],
            0,
        ];
        (tail, 5)
    } else if format != 0 {
        ([0, encoding | enc::CHAIN, format, c[0], c[1], 0, 0, 0], 3)
    } else {
        ([0, encoding, c[0], c[1], 0, 0, 0, 0], 2)
    };
    (tail, if count.is_some() { len + 2 } else { len })
}

/// Bytes a field's metadata takes: name, then meta_tail's bytes.
#[inline(always)]
pub fn meta_len(name: Name<'_>, format: u8, tag: u16, carray: bool) -> usize {
    let tail = if tag != 0 {
        5
    } else if format != 0 {
        3
    } else {
        2
    };
    let count = if carray { 2 } else { 0 };
    name.bytes().len().saturating_add(tail + count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_detection_in_names_of_every_length() {
        for len in 0..40usize {
            let name = vec![b'n'; len];
            assert!(!has_nul(&name), "length {len}");
            for at in 0..len {
                let mut with = name.clone();
                with[at] = 0;
                assert!(has_nul(&with), "length {len}, NUL at {at}");
                // High bytes next to a zero must not hide it or fake one.
                let mut high = vec![0x80u8; len];
                assert!(!has_nul(&high));
                high[at] = 0;
                assert!(has_nul(&high), "0x80 bytes, length {len}, NUL at {at}");
                let mut one = vec![0x01u8; len];
                assert!(!has_nul(&one));
                one[at] = 0;
                assert!(has_nul(&one));
            }
        }
    }

    #[test]
    fn zstring_lengths() {
        assert_eq!(zstring_len(b"ab\0c", 1), 2);
        assert_eq!(zstring_len(b"abc", 1), 3);
        assert_eq!(zstring_len(&[], 1), 0);
        assert_eq!(zstring_len(&[1, 0, 0, 0, 2, 0], 2), 2);
        assert_eq!(zstring_len(&[1, 0, 0, 0, 0, 0, 0, 0], 4), 4);
        assert_eq!(zstring_len(&[1, 0, 0, 0], 4), 4);
        assert_eq!(zstring_len(&[], 2), 0);
        let mut long = vec![b'x'; 5000];
        assert_eq!(zstring_len(&long, 1), 5000);
        long[4321] = 0;
        assert_eq!(zstring_len(&long, 1), 4321);
    }

    /// The field definition of docs/format.md §5.2.
    #[test]
    fn meta_tails_and_lengths_agree() {
        let name = Name::new(b"abc").unwrap();
        for (format, tag, count) in [(0, 0, None), (8, 0, None), (0, 7, None), (3, 0, Some(4))] {
            let (_, len) = meta_tail(4, format, tag, count);
            assert_eq!(meta_len(name, format, tag, count.is_some()), 3 + len);
        }
        assert_eq!(meta_tail(4, 0, 0, None), ([0, 4, 0, 0, 0, 0, 0, 0], 2));
        assert_eq!(meta_tail(4, 8, 0, None).0[..3], [0, 0x84, 8]);
    }
}
