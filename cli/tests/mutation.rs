//! `eventheader decode` over thousands of damaged recordings:
//! mutants of the reference recordings (perf.data, pipe.data, the capture
//! file, and smaller recordings of their events), made by a deterministic
//! mutator (byte flips, overwritten length and id fields, cuts, repeated and
//! inserted spans). Each run must end by itself within a time bound with
//! status 0 or 1 (never a signal, a panic's 101 or another status) and
//! write valid JSON.
//!
//! `cargo test` runs the debug build (overflow checks on: arithmetic errors
//! panic instead of wrapping, and the CLI must contain them);
//! scripts/test.sh runs it again on the optimized build (`cargo test
//! --profile cli`), which is what users run.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{bin, capture_record, reference_dir, reference_records, Rng};
use testkit::json::try_parse;
use testkit::synth::{burst_records, write_perf_data};

/// Mutants of each base recording.
const MUTANTS: usize = 400;
/// A run that takes longer hangs (the largest base decodes in well under a
/// second, even in the debug build).
const TIME_BOUND: Duration = Duration::from_secs(20);

/// Values that break length, count and id fields.
const INTERESTING: &[u64] = &[
    0,
    1,
    7,
    8,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    u64::MAX,
];

/// One to four mutations of `base`.
fn mutate(base: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut m = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        if m.is_empty() {
            m.push(rng.next() as u8);
            continue;
        }
        let at = rng.below(m.len());
        match rng.below(7) {
            // Flip bits of a few bytes.
            0 => {
                for _ in 0..1 + rng.below(8) {
                    let i = rng.below(m.len());
                    m[i] ^= 1 << rng.below(8);
                }
            }
            // A random byte anywhere: non-ASCII in text, odd values in fields.
            1 => m[at] = rng.next() as u8,
            // A length, count or id field (2, 4 or 8 bytes) set to an edge.
            2 => {
                let v = INTERESTING[rng.below(INTERESTING.len())].to_le_bytes();
                let width = [2, 4, 8][rng.below(3)];
                let end = (at + width).min(m.len());
                m[at..end].copy_from_slice(&v[..end - at]);
            }
            // Cut the end off.
            3 => m.truncate(at),
            // Repeat a span.
            4 => {
                let len = rng.below(256).min(m.len() - at);
                let span = m[at..at + len].to_vec();
                m.splice(at..at, span);
            }
            // Insert random bytes.
            5 => {
                let bytes: Vec<u8> = (0..1 + rng.below(16)).map(|_| rng.next() as u8).collect();
                m.splice(at..at, bytes);
            }
            // Remove a span.
            _ => {
                let len = rng.below(64).min(m.len() - at);
                m.drain(at..at + len);
            }
        }
    }
    m
}

/// Runs `eventheader ARGS` on `input` with a time bound: (status, stdout).
fn decode(args: &[&str], input: &Path) -> (i32, Vec<u8>, String) {
    let mut child = bin()
        .args(args)
        .arg(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running eventheader");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut out).unwrap();
        out
    });
    let err_reader = std::thread::spawn(move || {
        let mut err = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut err);
        err
    });
    let started = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if started.elapsed() > TIME_BOUND {
            let _ = child.kill();
            panic!(
                "decode {args:?} {} ran over {TIME_BOUND:?} (kept: a hang)",
                input.display()
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let out = reader.join().unwrap();
    let err = err_reader.join().unwrap();
    let code = status.code().unwrap_or_else(|| {
        panic!(
            "decode {args:?} {} was killed by a signal: {status:?}\n{err}",
            input.display()
        )
    });
    (code, out, err)
}

#[test]
fn damaged_recordings_end_with_status_0_or_1_and_valid_json() {
    let dir = reference_dir();
    let tmp = tempfile::tempdir().unwrap();
    // Small bases mutate into more distinct damage per run than large ones.
    let small_perf = tmp.path().join("small.data");
    write_perf_data(&small_perf, &reference_records()[..40], 40, true);
    let burst = tmp.path().join("burst.data");
    write_perf_data(&burst, &burst_records(16), 16, true);
    let mut small_capture = Vec::new();
    for (name, event) in &reference_records()[..40] {
        capture_record(&mut small_capture, name, event);
    }
    let mut bases: Vec<(String, Vec<u8>)> = Vec::new();
    for name in ["perf.data", "pipe.data", "EventHeaderInterceptorLE64.dat"] {
        bases.push((name.into(), std::fs::read(dir.join(name)).unwrap()));
    }
    bases.push(("small.data".into(), std::fs::read(&small_perf).unwrap()));
    bases.push(("burst.data".into(), std::fs::read(&burst).unwrap()));
    bases.push(("small.dat".into(), small_capture));

    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut counts = [0usize; 2];
    let mut runs = 0;
    let mut contained = Vec::new();
    let started = Instant::now();
    for (name, base) in &bases {
        for k in 0..MUTANTS {
            let mutant = mutate(base, &mut rng);
            let path = tmp.path().join(format!("{name}.{k}"));
            std::fs::write(&path, &mutant).unwrap();
            // Both orders, both output forms, all metadata: alternating.
            let args: &[&str] = match k % 4 {
                0 => &["decode"],
                1 => &["decode", "--jsonl", "--order", "file"],
                2 => &["decode", "--meta", "all"],
                _ => &["decode", "--jsonl", "--meta", "all,common"],
            };
            let (code, out, err) = decode(args, &path);
            assert!(
                code == 0 || code == 1,
                "{name} mutant {k} ({}): status {code}\n{err}",
                path.display()
            );
            counts[code as usize] += 1;
            if err.contains("the decoder failed") || err.contains("a decoder bug") {
                contained.push(format!("{name} mutant {k}: {}", err.trim()));
            }
            let text = String::from_utf8(out)
                .unwrap_or_else(|e| panic!("{name} mutant {k}: output is not UTF-8: {e}"));
            let valid = if args.contains(&"--jsonl") {
                text.lines().try_for_each(|l| try_parse(l).map(drop))
            } else {
                try_parse(&text).map(drop)
            };
            if let Err(e) = valid {
                // Keep the mutant for the report.
                let kept = std::env::temp_dir().join(format!("eventheader-mutant-{name}.{k}"));
                std::fs::copy(&path, &kept).unwrap();
                panic!("{name} mutant {k} (kept at {}): {e}", kept.display());
            }
            std::fs::remove_file(&path).unwrap();
            runs += 1;
        }
    }
    eprintln!(
        "{runs} damaged recordings in {:.1} s: {} exited 0, {} exited 1",
        started.elapsed().as_secs_f64(),
        counts[0],
        counts[1]
    );
    assert_eq!(runs, bases.len() * MUTANTS);
    // A panic the CLI contained is a bug to fix at its cause.
    assert!(
        contained.is_empty(),
        "{} runs hit a contained panic:\n{}",
        contained.len(),
        contained.join("\n")
    );
    // The damage is real: most mutants are reported as malformed.
    assert!(counts[1] > runs / 2, "{counts:?}");
}
