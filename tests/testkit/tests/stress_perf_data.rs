//! The stress judge on perf.data files (`perf::fields`, then
//! `checks::stress`): every record read once however the reader's 64 KiB
//! buffers and perf's rounds cut the file, and records that `perf record`
//! wrote twice (the same bytes in two places) counted once.

use std::path::PathBuf;

use testkit::{checks, perf, synth};

const WRITERS: u32 = 8;

/// An EventHeader event as stress.c writes it (c-tests/hardening/hcommon.h):
/// level `level`, event `name` with the u32 fields a, b, c.
fn event(name: &str, level: u8, a: u32, b: u32, c: u32) -> Vec<u8> {
    let mut meta = name.as_bytes().to_vec();
    meta.extend_from_slice(b"\0a\0\x04b\0\x04c\0\x04");
    // Flags: 64-bit, little-endian, extension; version, id, tag, opcode 0.
    let mut ev = vec![7u8, 0, 0, 0, 0, 0, 0, level];
    ev.extend_from_slice(&(meta.len() as u16).to_le_bytes());
    ev.extend_from_slice(&1u16.to_le_bytes()); // the metadata extension
    ev.extend_from_slice(&meta);
    for v in [a, b, c] {
        ev.extend_from_slice(&v.to_le_bytes());
    }
    ev
}

/// `per` loop iterations of the 8 writers (a Stable and a Churn write each)
/// and the program's output for them.
fn stress_run(per: u32) -> (Vec<(String, Vec<u8>)>, String) {
    let mut records = Vec::new();
    let mut log = String::new();
    for seq in 0..per {
        for w in 0..WRITERS {
            let stable = event("Stable", 5, w, seq, 0);
            records.push(("HardStress_L5K1".to_string(), stable));
            let churn = event("Churn", 4, w, seq, 1);
            records.push(("HardStress_L4K2".to_string(), churn));
        }
    }
    for w in 0..WRITERS {
        log.push_str(&format!(
            "writer {w} stable_ok {per} churn_ok {per} churn_ebadf 0\n"
        ));
    }
    log.push_str(&format!(
        "churnerA cycles 1\nchurnerB cycles 1 transient_ok 0 raw_ok 0\ntotal_ok {}\n",
        2 * WRITERS * per
    ));
    (records, log)
}

fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn every_record_is_read_once_across_buffers_and_rounds() {
    // 16 000 samples of 96 bytes: 1.5 MB, about 700 records per reader
    // buffer, one FINISHED_ROUND.
    let (records, log) = stress_run(1000);
    let path = file("stress-once.perf.data");
    synth::write_perf_data(&path, &records, records.len(), true);
    let rows = perf::fields(&path, &["a", "b", "c"]).unwrap();
    assert_eq!(rows.len(), records.len());
    let mut offsets: Vec<u64> = rows.iter().map(|r| r.offset).collect();
    offsets.sort_unstable();
    let steps: Vec<u64> = offsets.windows(2).map(|w| w[1] - w[0]).collect();
    // One record after another; the FINISHED_ROUND (8 bytes) once.
    assert_eq!(steps.iter().filter(|&&s| s == 96).count(), steps.len() - 1);
    assert_eq!(steps.iter().filter(|&&s| s == 96 + 8).count(), 1);
    let pass = checks::stress(&log, &rows).unwrap();
    assert!(
        pass.ends_with("; no record written twice by perf"),
        "{pass}"
    );
}

#[test]
fn records_perf_wrote_twice_count_once() {
    // perf's re-read: samples 9990..10010 (across the round's end) again at
    // the end of the file, byte for byte.
    let (records, log) = stress_run(1000);
    let path = file("stress-twice.perf.data");
    synth::write_perf_data_again(&path, &records, records.len(), 9990..10010);
    let rows = perf::fields(&path, &["a", "b", "c"]).unwrap();
    assert_eq!(rows.len(), records.len() + 20);
    let pass = checks::stress(&log, &rows).unwrap();
    assert!(
        pass.contains("; 20 records written twice by perf, counted once"),
        "{pass}"
    );
}
