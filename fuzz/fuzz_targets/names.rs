//! Provider name/options validation and tracepoint name / command
//! formatting, against a straightforward model of the rules (docs/format.md §3).
#![no_main]

use eventheader_tracepoint::eventheader::names::{
    format_command, format_tracepoint_name, validate_provider, CommandBuf,
};
use libfuzzer_sys::fuzz_target;

const TYPES: &str = "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level";

fn options_ok(options: &[u8]) -> bool {
    let mut last = 0u8;
    for (i, &b) in options.iter().enumerate() {
        if b.is_ascii_uppercase() {
            if b < last {
                return false;
            }
            last = b;
        } else if i == 0 || !(b.is_ascii_lowercase() || b.is_ascii_digit()) {
            return false;
        }
    }
    true
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 10 {
        return;
    }
    let level = data[0];
    let keyword = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let split = usize::from(data[9]).min(data.len() - 10);
    let (name, options) = data[10..].split_at(split);

    // Validation against the model.
    // The tracepoint name rules (docs/bad-input.md#tracepoint-names): valid
    // UTF-8 without a control character (C0, DEL, C1), ' ', ':' or '/'.
    let name_ok = !name.is_empty()
        && std::str::from_utf8(name)
            .is_ok_and(|s| s.chars().all(|c| !c.is_control() && !" :/".contains(c)));
    let expected = if !name_ok || !options_ok(options) {
        Err(libc::EINVAL)
    } else if name.len() + 5 + options.len() >= 256 {
        Err(libc::E2BIG)
    } else {
        Ok(())
    };
    assert_eq!(validate_provider(name, options), expected);

    // Formatting: any bytes (validation is separate), exact text and limit.
    let mut model = name.to_vec();
    model.extend_from_slice(format!("_L{level:x}K{keyword:x}").as_bytes());
    model.extend_from_slice(options);
    let mut buf = CommandBuf::default();
    match format_tracepoint_name(&mut buf, name, level, keyword, options) {
        Ok(()) => {
            assert!(model.len() < 256);
            assert_eq!(buf.as_bytes(), &model[..]);
            if !model.contains(&0) {
                assert_eq!(buf.as_c_str().to_bytes(), &model[..]);
            }
        }
        Err(e) => {
            assert_eq!(e, libc::E2BIG);
            assert!(model.len() >= 256);
        }
    }
    match format_command(&mut buf, name, level, keyword, options) {
        Ok(()) => {
            let mut full = model.clone();
            full.push(b' ');
            full.extend_from_slice(TYPES.as_bytes());
            assert!(model.len() < 256);
            assert_eq!(buf.as_bytes(), &full[..]);
        }
        Err(e) => {
            assert_eq!(e, libc::E2BIG);
            assert!(model.len() >= 256);
        }
    }
    // A validated provider always formats with any level and keyword, as
    // long as the level and keyword digits fit.
    if expected.is_ok() && model.len() < 256 {
        assert!(format_command(&mut buf, name, level, keyword, options).is_ok());
    }
});
