//! `eventheader decode` on arbitrary bytes, seeded with pipe-mode perf.data, read as a pipe
//! (fuzz/run.sh adds the reference recordings to the seeds). See decode/mod.rs.
#![no_main]

mod decode;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::check(data, true);
});
