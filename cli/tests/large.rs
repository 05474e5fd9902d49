//! Decoding large recordings streams: 10^6 events, as a capture file and as
//! a perf.data file, decode with a bounded peak memory (maximum resident set
//! size, measured with wait4), and every event comes out.

mod common;

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use common::{capture_record, reference_records, run_measured};
use testkit::synth::write_perf_data;

const EVENTS: usize = 1_000_000;

/// Peak resident memory allowed to `decode` (KiB). It holds one capture
/// record, or one perf round (10 000 events here) plus the reader's buffers,
/// and its own code; the inputs are 100-130 MB.
const MAX_RSS_KIB: i64 = 32 * 1024;

/// Runs `eventheader ARGS`, counts its output lines, returns (lines, max RSS KiB).
fn decode_counting(args: &[&str]) -> (usize, i64) {
    let (lines, usage) = run_measured(args, |out| BufReader::new(out).lines().count());
    // No progress display: stderr is not a terminal.
    assert!(
        usage.stderr.is_empty(),
        "decode {args:?} wrote to stderr: {}",
        usage.stderr
    );
    assert_eq!(usage.code, 0, "decode {args:?} failed");
    (lines, usage.max_rss_kib)
}

/// Writes `count` records cycling `records`; returns the size of the first
/// `prefix` records.
fn write_capture(path: &Path, records: &[(String, Vec<u8>)], count: usize, prefix: usize) -> u64 {
    let mut w = BufWriter::new(std::fs::File::create(path).unwrap());
    let mut rec = Vec::new();
    let mut size = 0;
    let mut prefix_size = 0;
    for k in 0..count {
        if k == prefix {
            prefix_size = size;
        }
        let (name, event) = &records[k % records.len()];
        rec.clear();
        capture_record(&mut rec, name, event);
        w.write_all(&rec).unwrap();
        size += rec.len() as u64;
    }
    w.flush().unwrap();
    prefix_size
}

#[test]
fn a_million_events_decode_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let records = reference_records();
    let capture = dir.path().join("million.dat");
    // Its first 400 000 records (37 MB) are the progress check's input.
    let prefix = write_capture(&capture, &records, EVENTS, 400_000);
    let perf = dir.path().join("million.data");
    write_perf_data(&perf, &records, EVENTS, true);

    for (path, order) in [(&capture, "time"), (&perf, "time")] {
        let size = std::fs::metadata(path).unwrap().len();
        let (lines, rss) = decode_counting(&[
            "decode",
            "--jsonl",
            "--order",
            order,
            path.to_str().unwrap(),
        ]);
        eprintln!(
            "decode --order {order} {}: {lines} events from {:.1} MB, max RSS {rss} KiB",
            path.file_name().unwrap().to_string_lossy(),
            size as f64 / 1e6
        );
        assert_eq!(lines, EVENTS);
        assert!(
            rss < MAX_RSS_KIB,
            "max RSS {rss} KiB (bound {MAX_RSS_KIB} KiB)"
        );
    }

    // With stderr on a terminal (util-linux `script` provides one), decode
    // shows its progress on large inputs (over 32 MiB) and erases it at the end.
    let part = dir.path().join("part.dat");
    let mut from = std::fs::File::open(&capture).unwrap();
    let mut to = std::fs::File::create(&part).unwrap();
    std::io::copy(&mut std::io::Read::take(&mut from, prefix), &mut to).unwrap();
    assert!(prefix > 32 << 20);
    let command = format!(
        "{} decode {} -o /dev/null",
        env!("CARGO_BIN_EXE_eventheader"),
        part.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) is needed for the progress check");
    let tty = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{tty}");
    assert!(
        tty.starts_with("\rdecode: ") && tty.contains("% (") && tty.ends_with("\r\x1b[K"),
        "progress on a terminal: {tty:?}"
    );
}
