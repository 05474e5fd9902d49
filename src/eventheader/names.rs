//! Tracepoint names ("Provider_L5K1Ggroup") and registration commands
//! ("Provider_L5K1Ggroup u8 eventheader_flags; ..."), formatted without
//! allocation, and the validation of provider names and options.

use core::ffi::c_int;

use super::COMMAND_TYPES;
use crate::abi::eventheader_format::{EVENTHEADER_COMMAND_MAX, EVENTHEADER_NAME_MAX};
use crate::cstr_buf::{CStrBuf, Full};
use crate::tracepoint_name;

/// Checks a provider name and options string. Errors: EINVAL for an empty
/// name, a name with a character a tracepoint name may not have (' ', ':',
/// '/', control characters, invalid UTF-8: [`tracepoint_name::allowed_text`],
/// the rules of the tracepoint name it starts), or options not of the form
/// `([A-Z][0-9a-z]*)*`; E2BIG if even the shortest tracepoint name
/// ("Name_L1K0Options") would not fit in EVENTHEADER_NAME_MAX.
pub fn validate_provider(name: &[u8], options: &[u8]) -> Result<(), c_int> {
    if name.is_empty() || !tracepoint_name::allowed_text(name) {
        return Err(libc::EINVAL);
    }
    if !options_valid(options) {
        return Err(libc::EINVAL);
    }
    // "_L1K0" is the shortest attribute string.
    if name.len() + "_L1K0".len() + options.len() >= EVENTHEADER_NAME_MAX as usize {
        return Err(libc::E2BIG);
    }
    Ok(())
}

/// Options: each an uppercase ASCII letter (the option type) then lowercase
/// letters or digits (its value), sorted by type.
fn options_valid(options: &[u8]) -> bool {
    if options.first().is_some_and(|b| !b.is_ascii_uppercase()) {
        return false;
    }
    let mut last_type = b'A';
    for &b in options {
        if b.is_ascii_uppercase() {
            if b < last_type {
                return false;
            }
            last_type = b;
        } else if !(b.is_ascii_lowercase() || b.is_ascii_digit()) {
            return false;
        }
    }
    true
}

/// A registration command (or tracepoint name) being built: a fixed-capacity,
/// NUL-terminated buffer on the stack.
pub type CommandBuf = CStrBuf<{ EVENTHEADER_COMMAND_MAX as usize }>;

/// Appends `value` in lowercase hex without leading zeros ("0" for 0), as
/// printf's `%x`.
fn push_hex(out: &mut CommandBuf, value: u64) -> Result<(), Full> {
    let mut digits = [0u8; 16];
    let mut start = digits.len();
    let mut rest = value;
    loop {
        start -= 1;
        if let Some(d) = digits.get_mut(start) {
            *d = b"0123456789abcdef"[(rest & 0xf) as usize];
        }
        rest >>= 4;
        if rest == 0 || start == 0 {
            break;
        }
    }
    out.push(digits.get(start..).unwrap_or_default())
}

/// Formats the tracepoint name `printf("%s_L%xK%lx%s", name, level, keyword, options)`
/// into `out`. E2BIG if the name is EVENTHEADER_NAME_MAX bytes or longer.
pub fn format_tracepoint_name(
    out: &mut CommandBuf,
    name: &[u8],
    level: u8,
    keyword: u64,
    options: &[u8],
) -> Result<(), c_int> {
    out.clear();
    let fits = out.push(name).is_ok()
        && out.push(b"_L").is_ok()
        && push_hex(out, level.into()).is_ok()
        && out.push(b"K").is_ok()
        && push_hex(out, keyword).is_ok()
        && out.push(options).is_ok();
    if !fits || out.len() >= EVENTHEADER_NAME_MAX as usize {
        return Err(libc::E2BIG);
    }
    Ok(())
}

/// Formats the registration command "Name_LxKx[Options] COMMAND_TYPES".
pub fn format_command(
    out: &mut CommandBuf,
    name: &[u8],
    level: u8,
    keyword: u64,
    options: &[u8],
) -> Result<(), c_int> {
    format_tracepoint_name(out, name, level, keyword, options)?;
    let fits = out.push(b" ").is_ok() && out.push(COMMAND_TYPES.as_bytes()).is_ok();
    if !fits {
        return Err(libc::E2BIG);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;

    fn name(n: &str, level: u8, keyword: u64, options: &str) -> Result<String, c_int> {
        let mut buf = CommandBuf::default();
        format_tracepoint_name(&mut buf, n.as_bytes(), level, keyword, options.as_bytes())?;
        Ok(String::from_utf8(buf.as_bytes().to_vec()).unwrap())
    }

    /// docs/format.md §3.2: level and keyword in lowercase hex, no leading zeros.
    #[test]
    fn tracepoint_names_use_lowercase_hex() {
        assert_eq!(name("MyProvider", 5, 1, "").unwrap(), "MyProvider_L5K1");
        assert_eq!(
            name("OtherProvider", 3, 2, "Gmygroup").unwrap(),
            "OtherProvider_L3K2Gmygroup"
        );
        assert_eq!(
            name("P", 255, u64::MAX, "").unwrap(),
            "P_LffKffffffffffffffff"
        );
        assert_eq!(
            name("TestProviderC", 1, 0xf123456789abcdef, "").unwrap(),
            "TestProviderC_L1Kf123456789abcdef"
        );
    }

    #[test]
    fn provider_names_must_be_valid_utf8() {
        assert_eq!(validate_provider(b"RevUtf\xff\xfe", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Cut\xc3", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider("Ünïcode".as_bytes(), b""), Ok(()));
        // A provider named like a control file makes no such tracepoint.
        assert_eq!(validate_provider(b"enable", b""), Ok(()));
    }

    /// docs/format.md §3.2: the whole name is shorter than EVENTHEADER_NAME_MAX.
    #[test]
    fn names_at_and_over_the_limit() {
        // "_L5K0" + "Gasdf" = 10 bytes; 245 + 10 = 255 < 256 fits.
        let p = "X".repeat(245);
        assert_eq!(name(&p, 5, 0, "Gasdf").unwrap().len(), 255);
        let p = "X".repeat(246);
        assert_eq!(name(&p, 5, 0, "Gasdf"), Err(libc::E2BIG));
        let p = "X".repeat(1000);
        assert_eq!(name(&p, 5, 0, ""), Err(libc::E2BIG));
    }

    /// docs/format.md §3.3: the command is the name, a space and the types.
    #[test]
    fn command_appends_the_reference_types() {
        let mut buf = CommandBuf::default();
        format_command(&mut buf, b"Prov", 4, 0x10, b"Gg1").unwrap();
        assert_eq!(
            buf.as_c_str().to_str().unwrap(),
            "Prov_L4K10Gg1 u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"
        );
        // The longest legal name still fits with the types.
        let p = "Y".repeat(249);
        format_command(&mut buf, p.as_bytes(), 0xff, 0, b"").unwrap();
        assert_eq!(buf.as_bytes().len(), 255 + 1 + COMMAND_TYPES.len());
    }

    /// docs/format.md §3.1 (the name's characters) and §3.2 (the options).
    #[test]
    fn provider_validation() {
        assert_eq!(validate_provider(b"Good_Name1", b""), Ok(()));
        assert_eq!(validate_provider(b"Good", b"Gmygroup"), Ok(()));
        assert_eq!(validate_provider(b"Good", b"GgroupHx1"), Ok(()));
        assert_eq!(validate_provider(b"", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Bad Name", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Bad:Name", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Bad/Name", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Bad\tName", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Bad\nName", b""), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Dotted.Name-1", b""), Ok(()));
        assert_eq!(validate_provider(b"Good", b"gbad"), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Good", b"G_x"), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Good", b"G x"), Err(libc::EINVAL));
        // Options must be sorted by type: "GMyGroup" is G, My, Group.
        assert_eq!(validate_provider(b"Good", b"GMyGroup"), Err(libc::EINVAL));
        assert_eq!(validate_provider(b"Good", b"HxGy"), Err(libc::EINVAL));
        assert_eq!(validate_provider("N".repeat(250).as_bytes(), b""), Ok(()));
        assert_eq!(
            validate_provider("N".repeat(251).as_bytes(), b""),
            Err(libc::E2BIG)
        );
    }
}
