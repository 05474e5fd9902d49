//! `decode`'s filters (--provider, --event, --level, --keyword, --pid) on
//! the reference recordings: each filtered output is exactly the events of
//! the unfiltered output that pass the filter, judged from that output's
//! names and metadata (`--meta all`).

mod common;

use common::{reference_dir, run};
use testkit::json::{parse, J};

fn events(args: &[&str]) -> Vec<J> {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(parse)
        .collect()
}

fn meta_u64(e: &J, key: &str) -> Option<u64> {
    match e.get("meta")?.get(key)? {
        J::Num(n) => n.as_u64(),
        J::Str(s) => u64::from_str_radix(s.trim_start_matches("0x"), 16).ok(),
        _ => None,
    }
}

fn meta_str<'a>(e: &'a J, key: &str) -> Option<&'a str> {
    e.get("meta")?.get(key)?.as_str()
}

/// A filter's arguments and which unfiltered events it keeps.
type Case<'a> = (&'a [&'a str], &'a dyn Fn(&J) -> bool);

/// Decodes `file` with `--meta all` and each filter; compares with the
/// unfiltered events that `keep` accepts.
fn check(file: &str, filters: &[Case<'_>]) {
    let path = reference_dir().join(file);
    let p = path.to_str().unwrap();
    let all = events(&["decode", "--jsonl", "--meta", "all", "--order", "file", p]);
    for (filter, keep) in filters {
        let mut args = vec!["decode", "--jsonl", "--meta", "all", "--order", "file", p];
        args.extend_from_slice(filter);
        let got = events(&args);
        let want: Vec<J> = all.iter().filter(|e| keep(e)).cloned().collect();
        assert!(
            !want.is_empty() && want.len() < all.len(),
            "{file} {filter:?}: a filter test should keep some and drop some ({} of {})",
            want.len(),
            all.len()
        );
        assert_eq!(got.len(), want.len(), "{file} {filter:?}");
        assert!(got == want, "{file} {filter:?}: other events");
    }
}

#[test]
fn filters_on_perf_data() {
    let eh = |e: &J| meta_u64(e, "level").is_some();
    let pid = meta_u64(
        &events(&[
            "decode",
            "--jsonl",
            "--meta",
            "all",
            reference_dir().join("perf.data").to_str().unwrap(),
        ])[0],
        "pid",
    )
    .unwrap()
    .to_string();
    let pid_n: u64 = pid.parse().unwrap();
    check(
        "perf.data",
        &[
            (&["--provider", "TestProviderC"], &|e| {
                meta_str(e, "provider") == Some("TestProviderC")
            }),
            (&["--provider", "sched", "--event", "sched_switch"], &|e| {
                meta_str(e, "provider") == Some("sched")
                    && meta_str(e, "event") == Some("sched_switch")
            }),
            (&["--event", "Transfer10", "--event", "Transfer11"], &|e| {
                matches!(meta_str(e, "event"), Some("Transfer10" | "Transfer11"))
            }),
            (&["--level", "3"], &|e| {
                !eh(e) || meta_u64(e, "level").unwrap() <= 3
            }),
            (&["--keyword", "0x2"], &|e| {
                !eh(e) || meta_u64(e, "keyword").unwrap_or(0) & 2 != 0
            }),
            (&["--pid", &pid], &|e| meta_u64(e, "pid") == Some(pid_n)),
            // The thread id: "tid", or the pid when they are equal.
            (&["--tid", &pid], &|e| {
                meta_u64(e, "tid").or(meta_u64(e, "pid")) == Some(pid_n)
            }),
            (&["--cpu", "1", "--cpu", "2"], &|e| {
                matches!(meta_u64(e, "cpu"), Some(1 | 2))
            }),
            (&["--cpu", "0", "--provider", "sched"], &|e| {
                meta_u64(e, "cpu") == Some(0) && meta_str(e, "provider") == Some("sched")
            }),
        ],
    );
}

#[test]
fn filters_on_a_capture_file() {
    let file = "EventHeaderInterceptorLE64.dat";
    check(
        file,
        &[
            (&["--provider", "TestProviderCpp"], &|e| {
                meta_str(e, "provider") == Some("TestProviderCpp")
            }),
            (&["--level", "4", "--provider", "TestProviderC"], &|e| {
                meta_str(e, "provider") == Some("TestProviderC")
                    && meta_u64(e, "level").unwrap() <= 4
            }),
        ],
    );
    // A capture file records no process ids: --pid keeps nothing.
    let p = reference_dir().join(file);
    assert!(events(&["decode", "--jsonl", "--pid", "1", p.to_str().unwrap()]).is_empty());
    // Nor thread ids or CPUs.
    assert!(events(&["decode", "--jsonl", "--tid", "1", p.to_str().unwrap()]).is_empty());
    assert!(events(&["decode", "--jsonl", "--cpu", "0", p.to_str().unwrap()]).is_empty());
}

/// `collect` cannot push --cpu into the kernel: a recording refuses it
/// (before touching tracefs), as it refuses --event.
#[test]
fn collect_refuses_cpu_without_live() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("x.data");
    let out = run(&[
        "collect",
        "--cpu",
        "0",
        "-o",
        out_file.to_str().unwrap(),
        "P_*",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--cpu needs --live"), "{err}");
    assert!(!out_file.exists());
}
