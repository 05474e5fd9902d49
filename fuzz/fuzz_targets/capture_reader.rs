//! The capture-file reader the tests use (`tests/support/mod.rs`):
//! arbitrary bytes either parse, and then re-serialize to exactly the input,
//! or are refused with one of its documented assertion messages, never with
//! another panic (an index out of bounds, an overflow).
#![no_main]

#[path = "../../tests/support/mod.rs"]
mod support;

use libfuzzer_sys::fuzz_target;
use std::panic;
use std::sync::Once;

static QUIET: Once = Once::new();

const REFUSALS: &[&str] = &[
    "truncated record size at offset",
    "bad record size",
    "has no NUL-terminated name",
    "name is not UTF-8",
];

fuzz_target!(|data: &[u8]| {
    QUIET.call_once(|| panic::set_hook(Box::new(|_| {})));
    match panic::catch_unwind(|| support::parse_capture(data)) {
        Ok(records) => {
            let mut again = Vec::new();
            for r in &records {
                let size = 4 + r.name.len() + 1 + r.event.len();
                again.extend_from_slice(&(size as u32).to_le_bytes());
                again.extend_from_slice(r.name.as_bytes());
                again.push(0);
                again.extend_from_slice(&r.event);
            }
            assert_eq!(again, data);
        }
        Err(payload) => {
            let text = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            if !REFUSALS.iter().any(|r| text.contains(r)) {
                // Not one of the reader's own refusals: a real bug.
                std::process::abort();
            }
        }
    }
});
