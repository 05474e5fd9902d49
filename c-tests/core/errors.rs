//! Errors and no-kernel behaviour (docs/format.md §2.4, §6.6).

use crate::format::{cat, hdr, meta, FLAGS_EXT, FLAGS_PLAIN};
use crate::support::{self, decode::hex, errno, Record};

#[test]
fn errno_contract_in_capture_mode() {
    for build in support::builds("errors") {
        let ran = build.run("capture");
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
}

#[test]
fn without_user_events_calls_are_safe_no_ops_and_capture_can_be_selected() {
    for build in support::builds("errors") {
        // nokernel {dir}/set1.dat {dir}/set2.dat: no capture file at first.
        let ran = build.run("nokernel");
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
                support::read_capture(&ran.dir.path().join(file)),
                vec![Record {
                    name: "CoreSet_L5K1".into(),
                    event: cat(&[&h, &[byte]])
                }],
                "{file}"
            );
        }
        eprintln!("no kernel: open returned errno {open}");
    }
}
