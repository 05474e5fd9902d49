//! Threads: concurrent writes and reconnects.

use std::collections::{BTreeMap, HashSet};

use testkit::cargo_tests::{decode, Build, Ran};

/// `threads` in capture mode: concurrent writes and reconnects produce only
/// well-formed records.
pub fn check(_: &Build, ran: &Ran) {
    let elapsed = ran.elapsed;
    let (stdout, records) = (&ran.stdout, &ran.records);

    // Per-thread successes as the program counted them.
    let mut ok_eh: BTreeMap<u32, usize> = BTreeMap::new();
    let mut ok_raw: BTreeMap<u32, usize> = BTreeMap::new();
    for line in stdout.lines().filter(|l| l.starts_with("thread ")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!((f[2], f[5]), ("ok", "ebadf"), "{line}");
        let t: u32 = f[1].parse().unwrap();
        ok_eh.insert(t, f[3].parse().unwrap());
        ok_raw.insert(t, f[4].parse().unwrap());
    }
    assert_eq!(ok_eh.len(), 8, "{stdout}");
    let total = ran.words("total ok").join(" ");
    let f = ran.words("total ok");
    let toggles: usize = f[5].parse().unwrap();
    assert!(toggles >= 1, "the toggler never ran: {total}");

    // Every record parses (read_capture checks the framing) and decodes.
    let mut seen_eh: BTreeMap<u32, usize> = BTreeMap::new();
    let mut seen_raw: BTreeMap<u32, usize> = BTreeMap::new();
    let mut seqs: HashSet<(bool, u32, u32)> = HashSet::new();
    for rec in records {
        match rec.name.as_str() {
            "CoreThreads_L5K1" => {
                let d = decode::items(rec);
                assert_eq!(d.items.len(), 3, "{d:?}");
                let thread: u32 = d.items[0]
                    .strip_prefix("thread:2/0=")
                    .unwrap()
                    .parse()
                    .unwrap();
                let seq: u32 = d.items[1]
                    .strip_prefix("seq:4/0=")
                    .unwrap()
                    .parse()
                    .unwrap();
                assert_eq!(d.items[2], format!("text:10/0=t{thread}-{seq}"));
                // Even sequence numbers go to event A, odd to B.
                assert_eq!(d.event_name, if seq.is_multiple_of(2) { "A" } else { "B" });
                assert!(thread < 8);
                assert!(seqs.insert((true, thread, seq)), "duplicate {thread}/{seq}");
                *seen_eh.entry(thread).or_default() += 1;
            }
            "CoreThreadsRaw" => {
                assert_eq!(rec.event.len(), 8);
                let thread = u32::from_le_bytes(rec.event[0..4].try_into().unwrap());
                let seq = u32::from_le_bytes(rec.event[4..8].try_into().unwrap());
                assert!(thread < 8);
                assert!(
                    seqs.insert((false, thread, seq)),
                    "duplicate raw {thread}/{seq}"
                );
                *seen_raw.entry(thread).or_default() += 1;
            }
            other => panic!("unexpected tracepoint {other}"),
        }
    }
    let fill = |m: &mut BTreeMap<u32, usize>| {
        for t in 0..8 {
            m.entry(t).or_default();
        }
    };
    fill(&mut seen_eh);
    fill(&mut seen_raw);
    assert_eq!(
        seen_eh, ok_eh,
        "eventheader records per thread vs successful writes"
    );
    assert_eq!(
        seen_raw, ok_raw,
        "raw records per thread vs successful writes"
    );
    let n_eh: usize = ok_eh.values().sum();
    let n_raw: usize = ok_raw.values().sum();
    assert!(n_eh > 0 && n_raw > 0, "no write succeeded: {total}");
    eprintln!(
        "threads: {} records = {n_eh} eventheader + {n_raw} raw successful writes; {} ({:?})",
        records.len(),
        total,
        elapsed
    );
}
