//! The capture-file reader the tests use (`capture_file::parse`, the crate
//! `tests/capture-file`, which testkit re-exports as `testkit::capture`):
//! arbitrary bytes either parse, and then
//! re-serialize to exactly the input, or are refused with an error, never
//! with a panic (an index out of bounds, an overflow).
#![no_main]

use capture_file as capture;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(records) = capture::parse(data) {
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
});
