//! The hardening checks' tests, on made-up rows and logs.

use super::*;

fn row(tp: &str, event: &str, pid: u32, values: &[u32]) -> Row {
    Row {
        tracepoint: tp.into(),
        event: event.into(),
        pid,
        tid: pid,
        values: values.iter().map(|&v| Some(v)).collect(),
        time: 0,
        cpu: 0,
        id: 0,
        offset: 0,
    }
}

#[test]
fn dlclose_finds_a_missing_and_a_duplicate_round() {
    let log = "rounds 1000 fds 5 5 rss_kib 100 101\ndone\n";
    let mut rows: Vec<Row> = (0..1000)
        .map(|i| row("HardDl_L5K1", "Loop", 7, &[i]))
        .collect();
    assert!(dlclose(log, &rows).is_ok());
    rows[10] = row("HardDl_L5K1", "Loop", 7, &[11]);
    let err = dlclose(log, &rows).unwrap_err();
    assert!(
        err.contains("landed twice") && err.contains("no sample with i = 10"),
        "{err}"
    );
}

#[test]
fn stress_counts_per_writer() {
    let (log, mut rows) = stress_run();
    assert!(stress(&log, &rows).is_ok(), "{:?}", stress(&log, &rows));
    rows.pop();
    let err = stress(&log, &rows).unwrap_err();
    assert_eq!(err, "writer 7: 0 Churn samples, churn_ok 1");
}

/// 8 writers with 2 Stable and 1 Churn write each, every sample at its
/// own time, CPU 1, id 11, offset 1000 + 112 * index; and the log.
fn stress_run() -> (String, Vec<Row>) {
    let mut log = String::new();
    let mut rows = Vec::new();
    for w in 0..8 {
        log.push_str(&format!(
            "writer {w} stable_ok 2 churn_ok 1 churn_ebadf 3\n"
        ));
        rows.push(row("HardStress_L5K1", "Stable", 9, &[w, 0, 0]));
        rows.push(row("HardStress_L5K1", "Stable", 9, &[w, 1, 0]));
        rows.push(row("HardStressAlt_L4K2", "Churn", 9, &[w, 0, 1]));
    }
    log.push_str("churnerB cycles 4 transient_ok 2 raw_ok 1\ntotal_ok 27\n");
    for (i, r) in rows.iter_mut().enumerate() {
        r.time = 5000 + i as u64;
        (r.cpu, r.id, r.offset) = (1, 11, 1000 + 112 * i as u64);
    }
    (log, rows)
}

#[test]
fn stress_counts_a_record_perf_wrote_twice_once() {
    let (log, mut rows) = stress_run();
    let pass = stress(&log, &rows).unwrap();
    assert!(
        pass.ends_with("; no record written twice by perf"),
        "{pass}"
    );
    // perf's next read of the buffer starting again at rows 22 and 23.
    let again: Vec<Row> = rows[22..24]
        .iter()
        .map(|r| Row {
            offset: r.offset + 5000,
            ..r.clone()
        })
        .collect();
    rows.extend(again);
    let pass = stress(&log, &rows).unwrap();
    assert!(
        pass.ends_with(
            "; 2 records written twice by perf, counted once (identical in every field, \
             time, CPU and id included; the first at file offsets 3464 and 8464)"
        ),
        "{pass}"
    );
}

#[test]
fn stress_fails_a_write_that_landed_twice_with_both_records() {
    let (log, rows) = stress_run();
    // The same (writer, seq) at another time: a second write, not perf.
    for change in [
        |r: &mut Row| r.time += 1,
        |r: &mut Row| r.cpu = 0,
        |r: &mut Row| r.id = 10,
        |r: &mut Row| r.tid += 1,
    ] {
        let mut rows = rows.clone();
        let mut again = rows[1].clone();
        again.offset = 9000;
        change(&mut again);
        rows.push(again);
        let err = stress(&log, &rows).unwrap_err();
        assert!(
            err.starts_with("landed twice: HardStress_L5K1 Stable 9 ")
                && err.contains(" 0 1 0: time 5001 cpu 1 id 11 at file offset 1112, again time")
                && err.ends_with("at file offset 9000"),
            "{err}"
        );
    }
    // A record perf wrote twice does not hide a write that is missing.
    let mut rows = rows.clone();
    rows[1] = Row {
        offset: 9000,
        ..rows[0].clone()
    };
    let err = stress(&log, &rows).unwrap_err();
    assert_eq!(err, "writer 0: 1 Stable samples, stable_ok 2");
}
