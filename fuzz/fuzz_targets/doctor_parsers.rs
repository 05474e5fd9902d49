//! The parsers of `eventheader doctor` (cli/src/doctor/parse.rs) on
//! arbitrary bytes: the kernel configuration (gzip or plain), mountinfo and
//! /proc/mounts, /proc/self/status, perf_event_paranoid, user_events_status
//! and a program file's strings (whole, and fed in pieces). Each must
//! return, never panic, and keep its documented bounds.
#![no_main]

use eventheader_cli::doctor::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(text) = parse::config_text(data) {
        assert!(
            text.len() as u64 <= parse::CONFIG_MAX * 3,
            "U+FFFD is 3 bytes at most"
        );
        let _ = parse::config_value(&text, "CONFIG_USER_EVENTS");
    }
    let text = String::from_utf8_lossy(data);
    let _ = parse::config_value(&text, "CONFIG_USER_EVENTS");
    for m in parse::mountinfo(&text)
        .iter()
        .chain(&parse::proc_mounts(&text))
    {
        assert!(!m.fstype.is_empty());
    }
    for word in text.split_ascii_whitespace() {
        assert!(parse::unescape(word).len() <= word.len());
    }
    let _ = parse::cap_eff(&text);
    let _ = parse::paranoid(&text);
    for e in parse::user_events_status(&text) {
        assert!(!e.name.is_empty() && !e.name.contains(char::is_whitespace));
    }
    let strings = parse::c_strings(data, 2, 64);
    assert!(strings.len() <= 64);
    for s in &strings {
        assert!((2..=256).contains(&s.len()) && s.bytes().all(|b| (0x20..0x7f).contains(&b)));
    }
    // Fed in two pieces (as doctor reads a program in chunks), the same
    // strings.
    let mut scanner = parse::CStrings::new(2);
    let mut pieces = Vec::new();
    let (a, b) = data.split_at(data.len() / 2);
    for piece in [a, b] {
        scanner.feed(piece, |s| {
            if pieces.len() < 64 {
                pieces.push(s.to_string());
            }
        });
    }
    assert_eq!(pieces, strings);
});
