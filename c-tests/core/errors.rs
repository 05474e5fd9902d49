//! Errors and no-kernel behaviour (docs/format.md §2.4, §6.6).

use crate::format::{cat, hdr, meta, FLAGS_EXT, FLAGS_PLAIN};
use testkit::cargo_tests::{self, decode::hex, errno, Build, Ran, Record};

/// `errors` in capture mode: the errno contract.
pub fn check_capture(_: &Build, ran: &Ran) {
    for line in [
        "tracepoint errors ok",
        "provider errors ok",
        "event errors ok",
        "done",
    ] {
        assert!(ran.has_line(line), "{line:?} missing:\n{}", ran.stdout);
    }
    // Exactly the one good write; every failed call wrote nothing.
    let want = cat(&[
        &hdr(FLAGS_EXT, 0, 0, 0, 0, 5),
        &meta(b"Ok\0v\0\x02"),
        &[0x11],
    ]);
    let records = &ran.records;
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].name, "CoreErr_L5K1");
    assert_eq!(hex(&records[0].event), hex(&want));
}

/// `errors nokernel {dir}/set1.dat {dir}/set2.dat` (no capture file at
/// first): without user_events, calls are safe no-ops and a capture file
/// can be selected.
pub fn check_nokernel(_: &Build, ran: &Ran) {
    let open = ran.number("open-errno") as i32;
    assert!(
        [errno::EOPNOTSUPP, errno::ENOENT, errno::EACCES].contains(&open),
        "open without user_events returned errno {open}"
    );
    for line in ["nokernel ok", "setfile ok", "done"] {
        assert!(ran.has_line(line), "{line:?} missing:\n{}", ran.stdout);
    }
    let h = hdr(FLAGS_PLAIN, 0, 0, 0, 0, 5);
    for (file, byte) in [("set1.dat", 1), ("set2.dat", 2)] {
        assert_eq!(
            cargo_tests::read_capture(&ran.dir.path().join(file)),
            vec![Record {
                name: "CoreSet_L5K1".into(),
                event: cat(&[&h, &[byte]])
            }],
            "{file}"
        );
    }
    eprintln!("no kernel: open returned errno {open}");
}
