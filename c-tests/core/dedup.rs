//! De-duplication and the plain tracepoint layer (docs/format.md §2.4).

use crate::format::{cat, hdr, meta, FLAGS_EXT};
use testkit::cargo_tests::{decode, Build, Ran, Record};

/// `dedup` in capture mode: opening with arrays de-duplicates, and plain
/// tracepoints write raw payloads.
pub fn check(_: &Build, ran: &Ran) {
    let stdout = &ran.stdout;
    assert!(stdout.contains("tp-dedup ok ref_count 3"), "{stdout}");
    assert!(stdout.contains("eh-dedup ok ref_count 3"), "{stdout}");

    let e = |name: &[u8], level: u8, x: u8| {
        let mut body = name.to_vec();
        body.extend_from_slice(b"\0x\0\x02");
        cat(&[&hdr(FLAGS_EXT, 0, 0, 0, 0, level), &meta(&body), &[x]])
    };
    let expected: Vec<(&str, Vec<u8>)> = vec![
        ("CoreTpA", vec![0x44, 0x33, 0x22, 0x11]),
        ("CoreTpB", vec![0x55]),
        // 0-byte payload: one padding byte.
        ("CoreTpC", vec![0x00]),
        ("CoreTpD", vec![0x66, 0x77]),
        ("CoreTpE", vec![0x88]),
        ("CoreDedup_L5K1Gtest", e(b"E1", 5, 1)),
        ("CoreDedup_L5K1Gtest", e(b"E2", 5, 2)),
        ("CoreDedup_L4K2Gtest", e(b"E3", 4, 3)),
    ];
    let (probe, records): (Vec<Record>, Vec<Record>) = ran
        .records
        .iter()
        .cloned()
        .partition(|r| r.name == "CoreTpEmptyVec");
    let actual: Vec<(&str, Vec<u8>)> = records
        .iter()
        .map(|r| (r.name.as_str(), r.event.clone()))
        .collect();
    // Exactly these records, in order: no duplicate registration produced
    // extra records.
    assert_eq!(actual, expected);

    for r in records.iter().filter(|r| r.name.starts_with("CoreDedup_")) {
        let d = decode::items(r);
        assert_eq!(
            (d.provider.as_str(), d.options.as_str()),
            ("CoreDedup", "Gtest")
        );
    }
    // A write whose only payload vector is empty gets the padding byte too
    // (the kernel drops empty events).
    assert_eq!(probe.len(), 1);
    assert_eq!(probe[0].event, [0x00], "padding of an empty-vector write");
}
