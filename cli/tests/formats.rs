//! `eventheader decode --format text|csv|json|jsonl`, `--fields`,
//! `--time-format`, `--time` and the process names of COMM records, on
//! synthetic recordings (tests/testkit/src/synth.rs: 1 µs between samples,
//! the first at 2024-03-28T00:00:01Z) and the reference files.

mod common;

use common::{reference_dir, run, stdout};
use testkit::json::{parse, J};
use testkit::synth::{burst_records, write_perf_data_comm};

/// A name with a space, a quote and a newline: what a process may call
/// itself (PR_SET_NAME).
const COMM: &str = "a b\"c\n";

/// A perf.data of `n` CliBurst events whose thread is named [`COMM`].
fn burst(dir: &tempfile::TempDir, n: u32) -> String {
    let path = dir.path().join("burst.data");
    write_perf_data_comm(&path, &burst_records(n), n as usize, COMM);
    path.to_str().unwrap().to_string()
}

/// A JSON number's text as serde_json reads it.
fn num(j: &J) -> String {
    match j {
        J::Num(n) => n.to_string(),
        _ => panic!("not a number: {j:?}"),
    }
}

/// Parses RFC 4180 CSV: rows of cells.
fn csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = vec![];
    let mut row = vec![];
    let mut cell = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {
                assert_eq!(chars.next(), Some('\n'), "CRLF line ends");
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => {
                assert!(c != '"' && c != '\n', "a bare {c:?} in a cell");
                cell.push(c);
            }
        }
    }
    assert!(
        !quoted && cell.is_empty() && row.is_empty(),
        "rows end with CRLF"
    );
    rows
}

#[test]
fn jsonl_is_an_alias_and_json_the_default() {
    let dat = reference_dir().join("EventHeaderInterceptorLE64.dat");
    let dat = dat.to_str().unwrap();
    assert_eq!(
        stdout(&["decode", "--format", "jsonl", dat]),
        stdout(&["decode", "--jsonl", dat])
    );
    assert_eq!(
        stdout(&["decode", "--format", "json", dat]),
        stdout(&["decode", dat])
    );
    let out = run(&["decode", "--format", "xml", dat]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["decode", "--fields", "time", dat]);
    assert_eq!(out.status.code(), Some(2), "--fields without csv");
}

/// Text: perf script's line, the process name from the COMM record, and
/// exactly one line per event whatever the strings hold.
#[test]
fn text_lines() {
    let dir = tempfile::tempdir().unwrap();
    let data = burst(&dir, 3);
    let text = stdout(&["decode", "--format", "text", &data]);
    assert_eq!(
        text,
        "\"a b\\\"c\\n\" 4242/4243 [000] 2024-03-28T00:00:01.000000000Z: CliBurst:Burst: level=5 keyword=0x1 i=0\n\
         \"a b\\\"c\\n\" 4242/4243 [001] 2024-03-28T00:00:01.000001000Z: CliBurst:Burst: level=5 keyword=0x1 i=1\n\
         \"a b\\\"c\\n\" 4242/4243 [002] 2024-03-28T00:00:01.000002000Z: CliBurst:Burst: level=5 keyword=0x1 i=2\n"
    );
    // The reference files (strings with control characters, nested
    // structures, raw events): one line per event, no control character.
    for (file, n) in [("EventHeaderInterceptorLE64.dat", 374), ("perf.data", 539)] {
        let path = reference_dir().join(file);
        let text = stdout(&["decode", "--format", "text", path.to_str().unwrap()]);
        assert_eq!(text.lines().count(), n, "{file}");
        assert!(text.ends_with('\n'));
        for line in text.lines() {
            assert!(!line.chars().any(char::is_control), "{file}: {line:?}");
        }
    }
    let path = reference_dir().join("EventHeaderInterceptorLE64.dat");
    let text = stdout(&["decode", "--format", "text", path.to_str().unwrap()]);
    assert!(
        text.contains("- TestProviderC:EventCG: level=5 enabled=true\n"),
        "{text:.2000}"
    );
}

#[test]
fn csv_columns() {
    let dir = tempfile::tempdir().unwrap();
    let data = burst(&dir, 3);
    let rows = csv(&stdout(&[
        "decode",
        "--format",
        "csv",
        "--fields",
        "time,pid,tid,comm,cpu,provider,event,level,keyword,opcode,i,nope,a.b",
        "--time-format",
        "ns",
        &data,
    ]));
    assert_eq!(rows.len(), 4);
    assert_eq!(
        rows[0].join("|"),
        "time|pid|tid|comm|cpu|provider|event|level|keyword|opcode|i|nope|a.b"
    );
    assert_eq!(
        rows[2].join("|"),
        format!("1711584001000001000|4242|4243|{COMM}|1|CliBurst|Burst|5|0x1||1||")
    );
    // The default columns; every event of the reference files is a row of
    // as many cells as the header, and string fields are their text.
    let rows = csv(&stdout(&["decode", "--format", "csv", &data]));
    assert_eq!(
        rows[0].join(","),
        "time,cpu,pid,tid,comm,provider,event,level,keyword,opcode,activity,related,fields"
    );
    assert_eq!(rows[1][12], "{\"i\": 0}");
    for (file, n) in [("EventHeaderInterceptorLE64.dat", 374), ("perf.data", 539)] {
        let path = reference_dir().join(file);
        let rows = csv(&stdout(&[
            "decode",
            "--format",
            "csv",
            path.to_str().unwrap(),
        ]));
        assert_eq!(rows.len(), n + 1, "{file}");
        assert!(rows.iter().all(|r| r.len() == 13), "{file}");
    }
    let perf = reference_dir().join("perf.data");
    let rows = csv(&stdout(&[
        "decode",
        "--format",
        "csv",
        "--fields",
        "event,prev_comm",
        perf.to_str().unwrap(),
    ]));
    assert_eq!(rows[1], ["sched_switch", "perf"]);
    // An empty input: the header only.
    let empty = tempfile::NamedTempFile::new().unwrap();
    assert_eq!(
        stdout(&[
            "decode",
            "--format",
            "csv",
            "--fields",
            "time,x",
            empty.path().to_str().unwrap()
        ]),
        "time,x\r\n"
    );
}

/// Each time format is one JSON type; the window keeps the events inside
/// it, bounds relative to the first event or absolute.
#[test]
fn time_formats_and_windows() {
    let dir = tempfile::tempdir().unwrap();
    let data = burst(&dir, 100);
    let times = |args: &[&str]| -> Vec<J> {
        let mut all = vec!["decode", "--format", "jsonl", "--meta", "time"];
        all.extend_from_slice(args);
        all.push(&data);
        stdout(&all)
            .lines()
            .map(|l| parse(l).get("meta").unwrap().get("time").unwrap().clone())
            .collect()
    };
    let t = times(&[]);
    assert_eq!(t.len(), 100);
    assert_eq!(t[1].as_str(), Some("2024-03-28T00:00:01.000001000Z"));
    assert_eq!(times(&["--time-format", "rfc3339"]), t);
    let ns = times(&["--time-format", "ns"]);
    assert_eq!(ns[1].as_int(), Some(1_711_584_001_000_001_000));
    let s = times(&["--time-format", "s"]);
    assert!(matches!(s[1], J::Num(_)), "{:?}", s[1]);
    assert_eq!(num(&s[1]), "1711584001.000001");
    let rel = times(&["--time-format", "relative"]);
    assert_eq!(num(&rel[0]), "0.0");
    assert_eq!(num(&rel[99]), "0.000099");

    assert_eq!(times(&["--time", "0.00001,0.00002"]).len(), 11);
    assert_eq!(times(&["--time", ",0.000009"]).len(), 10);
    assert_eq!(times(&["--time", "2024-03-28T00:00:01.000050Z,"]).len(), 50);
    assert_eq!(
        times(&["--time", "2024-03-28T01:00:00+01:00,0.000001"]).len(),
        2
    );
    let text = stdout(&["decode", "--format", "text", "--time", "0.00005,", &data]);
    assert_eq!(text.lines().count(), 50);
    for bad in ["1", "x,", ",2024-03-28"] {
        let out = run(&["decode", "--time", bad, &data]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

/// The process name of a COMM record: `--meta comm` (and `all`), not in
/// the default metadata.
#[test]
fn process_names() {
    let dir = tempfile::tempdir().unwrap();
    let data = burst(&dir, 2);
    let first = |meta: &str| {
        let text = stdout(&["decode", "--format", "jsonl", "--meta", meta, &data]);
        parse(text.lines().next().unwrap()).get("meta").cloned()
    };
    let m = first("comm,pid").unwrap();
    assert_eq!(m.get("comm").and_then(J::as_str), Some(COMM));
    assert_eq!(m.get("pid").and_then(J::as_int), Some(4242));
    assert_eq!(
        first("all").unwrap().get("comm").and_then(J::as_str),
        Some(COMM)
    );
    assert!(first("default").unwrap().get("comm").is_none());
}
