//! `decode`'s filters (--provider, --event, --level, --keyword, --pid,
//! --tid, --cpu, --comm, --where) on the reference recordings: each
//! filtered output is exactly the events of the unfiltered output that pass
//! the filter, judged from that output's names, metadata (`--meta all`)
//! and fields; `stats` counts the same events.

mod common;

use common::{reference_dir, run};
use testkit::json::{parse, J};
use testkit::synth::{burst_records, write_perf_data, write_perf_data_comm};

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
            (&["--comm", "bash", "--comm", "sudo"], &|e| {
                matches!(meta_str(e, "comm"), Some("bash" | "sudo"))
            }),
            (&["--comm", "perf", "--provider", "sched"], &|e| {
                meta_str(e, "comm") == Some("perf") && meta_str(e, "provider") == Some("sched")
            }),
        ],
    );
}

/// The field named by `path` (`a.b`), or each element's for an array on
/// the way.
fn field_values<'a>(e: &'a J, path: &str) -> Vec<&'a J> {
    let mut at = vec![e];
    for part in path.split('.') {
        at = at
            .into_iter()
            .flat_map(|j| match j {
                J::Arr(items) => items.iter().filter_map(|i| i.get(part)).collect(),
                _ => j.get(part).into_iter().collect::<Vec<_>>(),
            })
            .collect();
    }
    at.into_iter()
        .flat_map(|j| match j {
            J::Arr(items) => items.iter().collect(),
            _ => vec![j],
        })
        .collect()
}

/// A field's integer value (hexadecimal ones are strings "0x..." in JSON).
fn int(j: &J) -> Option<i128> {
    j.as_int().or_else(|| {
        j.as_str()
            .and_then(|s| s.strip_prefix("0x"))
            .and_then(|h| i128::from_str_radix(h, 16).ok())
    })
}

fn any_field(e: &J, path: &str, test: impl Fn(&J) -> bool) -> bool {
    field_values(e, path).into_iter().any(test)
}

#[test]
fn field_terms_on_perf_data() {
    check(
        "perf.data",
        &[
            // Signed, unsigned and hexadecimal integers, by value.
            (&["--where", "i8>99"], &|e| {
                any_field(e, "i8", |v| int(v) > Some(99))
            }),
            (&["--where", "(-128)<0"], &|e| {
                any_field(e, "(-128)", |v| v.as_int().is_some_and(|n| n < 0))
            }),
            (&["--where", "u64>=18000000000000000000"], &|e| {
                any_field(e, "u64", |v| int(v) >= Some(18_000_000_000_000_000_000))
            }),
            (&["--where", "u8=0xC8"], &|e| {
                any_field(e, "u8", |v| int(v) == Some(200))
            }),
            // A tracefs field; two terms, both must hold.
            (
                &["--where", "next_prio<=0", "--where", "prev_comm=perf"],
                &|e| {
                    any_field(e, "next_prio", |v| int(v) <= Some(0))
                        && any_field(e, "prev_comm", |v| v.as_str() == Some("perf"))
                },
            ),
            // Strings exactly, nested fields, an array of structs.
            (&["--where", "Struct1.NChar8=hjkl"], &|e| {
                any_field(e, "Struct1.NChar8", |v| v.as_str() == Some("hjkl"))
            }),
            (&["--where", "StructArray.Struct2.K=B"], &|e| {
                any_field(e, "StructArray.Struct2.K", |v| v.as_str() == Some("B"))
            }),
            (&["--where", "enabled=true"], &|e| {
                any_field(e, "enabled", |v| matches!(v, J::Bool(true)))
            }),
            // Field and metadata filters together.
            (&["--where", "prev_prio>100", "--comm", "perf"], &|e| {
                any_field(e, "prev_prio", |v| int(v) > Some(100))
                    && meta_str(e, "comm") == Some("perf")
            }),
        ],
    );
    // A field no event has: nothing matches, and that is no error.
    let p = reference_dir().join("perf.data");
    let p = p.to_str().unwrap();
    assert!(events(&["decode", "--jsonl", "--where", "nope=1", p]).is_empty());
    assert!(events(&["decode", "--jsonl", "--where", "Struct1.NChar8=hjk", p]).is_empty());
}

/// `stats` counts exactly the events `decode` writes with the same filters.
#[test]
fn stats_counts_what_decode_keeps() {
    let p = reference_dir().join("perf.data");
    let p = p.to_str().unwrap();
    for filter in [
        &["--where", "i8>99"][..],
        &[
            "--where",
            "StructArray.Struct2.K=B",
            "--provider",
            "TestProviderC",
        ],
        &["--comm", "bash", "--comm", "sudo"],
        &["--where", "next_prio<1", "--comm", "perf"],
    ] {
        let mut args = vec!["decode", "--jsonl", p];
        args.extend_from_slice(filter);
        let decoded = events(&args).len();
        let mut args = vec!["stats", "--format", "json", p];
        args.extend_from_slice(filter);
        let out = run(&args);
        assert!(out.status.success(), "{filter:?}");
        let counted = parse(&String::from_utf8(out.stdout).unwrap())
            .get("total")
            .and_then(|t| t.get("count"))
            .and_then(J::as_int)
            .unwrap();
        assert!(decoded > 0, "{filter:?}");
        assert_eq!(counted, decoded as i128, "{filter:?}");
    }
}

/// A malformed --where is a usage error (status 2) that names the term.
#[test]
fn malformed_field_terms_are_usage_errors() {
    let p = reference_dir().join("perf.data");
    let p = p.to_str().unwrap();
    for (cmd, term, says) in [
        ("decode", "abc", "is not NAME=VALUE"),
        ("decode", "a<x", "'x' is not a number"),
        ("decode", "a==1", "'==' is not an operator"),
        ("stats", "=1", "no name before '='"),
        ("stats", "a..b=1", "nested fields: a.b"),
        ("stats", "n>=", "'' is not a number"),
    ] {
        let out = run(&[cmd, "--where", term, p]);
        assert_eq!(out.status.code(), Some(2), "{cmd} --where {term}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--where <EXPR>") && err.contains(says),
            "{term}: {err}"
        );
        assert!(out.stdout.is_empty());
    }
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
    // Nor process names: --comm keeps nothing, and says why (decode and
    // stats), once per file.
    for cmd in ["decode", "stats"] {
        let out = run(&[cmd, "--comm", "x", p.to_str().unwrap()]);
        assert!(out.status.success(), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.matches("capture files carry no process names: --comm matches none")
                .count(),
            1,
            "{cmd}: {err}"
        );
    }
    // Field terms hold on a capture's EventHeader events.
    let kept = events(&[
        "decode",
        "--jsonl",
        "--where",
        "u16=60000",
        p.to_str().unwrap(),
    ]);
    assert!(!kept.is_empty());
    assert!(kept
        .iter()
        .all(|e| any_field(e, "u16", |v| int(v) == Some(60000))));
}

/// `--comm` on synthetic recordings: a name with a space, a quote and a
/// newline matches exactly; a recording without COMM records says it has
/// no names (decode and stats) instead of an unexplained empty result.
#[test]
fn comm_names_from_comm_records() {
    let dir = tempfile::tempdir().unwrap();
    let named = dir.path().join("named.data");
    let bare = dir.path().join("bare.data");
    write_perf_data_comm(&named, &burst_records(5), 5, "a b\"c\n");
    write_perf_data(&bare, &burst_records(5), 5, true);
    let (named, bare) = (named.to_str().unwrap(), bare.to_str().unwrap());
    assert_eq!(
        events(&["decode", "--jsonl", "--comm", "a b\"c\n", named]).len(),
        5
    );
    assert!(events(&["decode", "--jsonl", "--comm", "a b", named]).is_empty());
    for cmd in ["decode", "stats"] {
        let out = run(&[cmd, "--comm", "a b", named]);
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("COMM"),
            "{cmd}"
        );
        let out = run(&[cmd, "--comm", "x", bare]);
        assert!(out.status.success(), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no COMM records (no process names): --comm matches none"),
            "{cmd}: {err}"
        );
    }
}
