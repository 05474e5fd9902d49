//! The names `register` and `collect` accept: EventHeader tracepoint names
//! as the library writes them, and plain tracepoint names.

/// Tracepoint names are shorter than this (`EVENTHEADER_NAME_MAX`; the
/// library refuses longer names with `E2BIG`).
pub const NAME_MAX: usize = 256;

/// ASCII white space as C's `isspace`.
pub(super) fn is_space(c: char) -> bool {
    c == ' ' || ('\t'..='\r').contains(&c)
}

pub(super) fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// A character a tracepoint name may hold: the library's rule
/// (src/tracepoint_name.rs: no white space, control character (C0, DEL,
/// C1), ':' or '/'; the kernel splits names at the first two and makes
/// tracefs unreadable with the others), so the CLI registers no name the
/// library would refuse. The library also requires valid UTF-8, which a
/// `str` is.
fn name_char_allowed(c: char) -> bool {
    !(is_space(c) || c.is_control() || c == ':' || c == '/')
}

/// Checks an EventHeader tracepoint name: one the library can write,
/// `printf("%s_L%xK%lx%s", provider, level, keyword, options)` (docs/format.md
/// §3.2): a provider name of characters the library allows in names (no white
/// space, control character, ':' or '/'), a level 1..=ff
/// and a keyword of at most 16 digits, both lowercase hex without leading
/// zeros, options `([A-Z][0-9a-z]*)*` sorted by their letter, in all less
/// than 256 bytes.
pub fn check_eventheader_name(name: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("eventheader name \"{name}\" {why}"));
    if name.len() >= NAME_MAX {
        return bad(&format!(
            "is too long ({} bytes, at most {})",
            name.len(),
            NAME_MAX - 1
        ));
    }
    if name.contains(':') {
        return bad("contains ':'");
    }
    if let Some(c) = name.chars().find(|&c| !name_char_allowed(c)) {
        return bad(&format!("contains the character {c:?}"));
    }
    let Some(us) = name.rfind('_') else {
        return bad("lacks the \"_L<level>K<keyword>\" suffix");
    };
    if us == 0 {
        return bad("has an empty provider name");
    }
    let suffix = &name.as_bytes()[us + 1..];
    let Some(rest) = suffix.strip_prefix(b"L") else {
        return bad("lacks the \"_L<level>\" suffix (level in lowercase hex)");
    };
    let (level, rest) = hex_number(rest);
    match level {
        None => return bad("lacks the \"_L<level>\" suffix (level in lowercase hex)"),
        Some(Err(why)) => return bad(&format!("has a level {why}")),
        Some(Ok(0)) => return bad("has level 0 (levels are 1 to ff)"),
        Some(Ok(l)) if l > 0xff => return bad(&format!("has level {l:x} (levels are 1 to ff)")),
        Some(Ok(_)) => {}
    }
    let Some(rest) = rest.strip_prefix(b"K") else {
        return bad("lacks the \"K<keyword>\" suffix (keyword in lowercase hex)");
    };
    let (keyword, options) = hex_number(rest);
    match keyword {
        None => return bad("lacks the \"K<keyword>\" suffix (keyword in lowercase hex)"),
        Some(Err(why)) => return bad(&format!("has a keyword {why}")),
        Some(Ok(_)) => {}
    }
    if let Err(why) = check_options(options) {
        return bad(&why);
    }
    Ok(())
}

/// The provider, level and keyword of a valid EventHeader tracepoint name.
pub fn split_eventheader_name(name: &str) -> Option<(&str, u8, u64)> {
    check_eventheader_name(name).ok()?;
    let us = name.rfind('_')?;
    let suffix = name.as_bytes().get(us + 2..)?;
    let (level, rest) = hex_number(suffix);
    let (keyword, _) = hex_number(rest.get(1..)?);
    let level = u8::try_from(level?.ok()?).ok()?;
    Some((&name[..us], level, keyword?.ok()?))
}

/// The lowercase hex number at the start of `b` as printf's `%x` writes it,
/// and the rest: None without digits, Err(why) with a leading zero or more
/// than 16 digits.
fn hex_number(b: &[u8]) -> (Option<Result<u64, String>>, &[u8]) {
    let digits = b
        .iter()
        .take_while(|&&c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
        .count();
    let (number, rest) = b.split_at(digits);
    let text = std::str::from_utf8(number).unwrap_or_default();
    let value = match digits {
        0 => None,
        _ if digits > 1 && number[0] == b'0' => Some(Err(format!(
            "with a leading zero ({text}: the library writes no leading zeros)"
        ))),
        17.. => Some(Err(format!("of {digits} digits (at most 16)"))),
        _ => Some(u64::from_str_radix(text, 16).map_err(|e| e.to_string())),
    };
    (value, rest)
}

/// Options: each an uppercase letter (its type) followed by lowercase
/// letters and digits, sorted by type.
fn check_options(options: &[u8]) -> Result<(), String> {
    let mut last = b'A';
    for (i, &b) in options.iter().enumerate() {
        if b.is_ascii_uppercase() {
            if b < last {
                return Err(format!(
                    "has options out of order ('{}' after '{}'; sorted by their letter)",
                    b as char, last as char
                ));
            }
            last = b;
        } else if i == 0 {
            return Err(format!(
                "has options starting with {:?} (each option is an uppercase letter, then lowercase letters or digits)",
                b as char
            ));
        } else if !(b.is_ascii_lowercase() || b.is_ascii_digit()) {
            return Err(format!(
                "has {:?} in its options (only an uppercase letter, then lowercase letters or digits)",
                b as char
            ));
        }
    }
    Ok(())
}

/// Checks the name of a plain tracepoint (the part before its arg spec).
pub(super) fn check_plain_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the tracepoint name is empty".into());
    }
    if name.len() >= NAME_MAX {
        return Err(format!(
            "tracepoint name \"{name}\" is too long ({} bytes, at most {})",
            name.len(),
            NAME_MAX - 1
        ));
    }
    if let Some(c) = name.chars().find(|&c| !name_char_allowed(c)) {
        return Err(format!("tracepoint name \"{name}\" contains {c:?}"));
    }
    if RESERVED.contains(&name) {
        return Err(format!(
            "tracepoint name \"{name}\" is reserved: tracefs's events/user_events/{name} is a control file"
        ));
    }
    Ok(())
}

/// Names of tracefs's control files in `events/user_events/`, which a
/// tracepoint of that name would hide (the library refuses them too).
const RESERVED: [&str; 2] = ["enable", "filter"];

#[cfg(test)]
mod tests {
    use super::split_eventheader_name;
    use crate::spec::{parse_registration, Registration};

    fn reg(line: &str) -> Registration {
        parse_registration(line).unwrap().unwrap()
    }

    /// The names of docs/format.md §3.2.
    #[test]
    fn invalid_eventheader_names_are_refused() {
        for (name, why) in [
            ("MyProvider", "_L<level>K<keyword>"),
            ("MyProvider_K1", "_L<level>"),
            ("MyProvider_L", "_L<level>"),
            ("MyProvider_LAK1", "_L<level>"),
            ("MyProvider_L5", "K<keyword>"),
            ("MyProvider_L5K", "K<keyword>"),
            ("MyProvider_L5KG", "K<keyword>"),
            ("MyProvider_L5K1G-x", "options"),
            ("MyProvider_L5K1gbad", "options starting with 'g'"),
            ("MyProvider_L5K1GaBb", "out of order"),
            ("MyProvider_L5K1Aa-", "in its options"),
            ("MyProvider_L0K1", "level 0"),
            ("MyProvider_L100K1", "level 100"),
            ("MyProvider_L05K1", "leading zero"),
            ("MyProvider_L5K01", "leading zero"),
            ("MyProvider_L5K1ffffffffffffffff", "17 digits"),
            ("My:Provider_L5K1:f", "':'"),
            ("My/Provider_L5K1", "'/'"),
            ("My\u{7f}Provider_L5K1", "'\\u{7f}'"),
            ("_L5K1", "empty provider"),
        ] {
            let e = parse_registration(name).unwrap_err();
            assert!(e.contains(why), "{name}: {e}");
        }
        let long = format!("{}_L5K1", "p".repeat(251));
        assert_eq!(long.len(), 256);
        assert!(parse_registration(&long).unwrap_err().contains("too long"));
        let ok = format!("{}_L5K1", "p".repeat(250));
        assert_eq!(reg(&ok).name.len(), 255);
    }

    #[test]
    fn names_split() {
        assert_eq!(split_eventheader_name("A_B_L5K1f"), Some(("A_B", 5, 0x1f)));
        assert_eq!(split_eventheader_name("P_LffK0Gx"), Some(("P", 0xff, 0)));
        assert_eq!(split_eventheader_name("P_L0K1"), None);
        assert_eq!(split_eventheader_name("plain"), None);
    }

    #[test]
    fn invalid_plain_names_are_refused() {
        let long = format!("{} u32 a", "n".repeat(256));
        assert!(parse_registration(&long).unwrap_err().contains("too long"));
        assert!(parse_registration(":flag u32 a")
            .unwrap_err()
            .contains("empty"));
        for name in [
            "My/Event u32 a",
            "My\u{7f}Event u32 a",
            "C1\u{85}Event u32 a",
        ] {
            assert!(parse_registration(name).is_err(), "{name}");
        }
        for name in ["enable u32 a", "filter u8 b", "filter ;"] {
            let e = parse_registration(name).unwrap_err();
            assert!(e.contains("reserved"), "{name}: {e}");
        }
        assert!(parse_registration("enabled u32 a").is_ok());
    }
}
