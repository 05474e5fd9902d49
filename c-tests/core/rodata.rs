//! Arrays of event and definition pointers in read-only memory
//! (`rodata.c`): the library only reads them (docs/format.md §2.4).

use crate::format::{cat, hdr, FLAGS_PLAIN};
use testkit::cargo_tests::{Build, Ran};

/// `rodata` and `rodata_nopie` in capture mode: pointer arrays in read-only
/// memory are only read.
pub fn check(build: &Build, ran: &Ran) {
    assert!(
        ran.stdout.contains("done"),
        "{}: {}",
        build.label,
        ran.stdout
    );
    let mut want: Vec<(String, Vec<u8>)> = Vec::new();
    for array in ["Descending", "Ascending", "Mixed", "Long"] {
        for i in 0..3u8 {
            want.push((
                format!("CoreRo{array}_L4K1"),
                cat(&[&hdr(FLAGS_PLAIN, 0, 0, 0, 0, 4), &[i]]),
            ));
        }
    }
    for array in ["Descending", "Ascending", "Mixed", "Long"] {
        for i in 0..3u8 {
            want.push((format!("CoreRoTp{array}"), vec![i]));
        }
    }
    let got: Vec<(String, Vec<u8>)> = ran
        .records
        .iter()
        .map(|r| (r.name.clone(), r.event.clone()))
        .collect();
    assert_eq!(got, want, "{}", build.label);
    println!(
        "{}: {} events from read-only arrays",
        build.label,
        got.len()
    );
}
