//! `collect --circular`'s readers: the overwrite ring walk (kernel memory
//! read as untrusted bytes: never out of the ring, never more than asked,
//! whole records only), the time ordering of a snapshot's records, and the
//! `--snapshot-on` filter text.
#![no_main]

use eventheader_cli::collect::fuzzing::{copy_records, parse_spec, time_order};
use libfuzzer_sys::fuzz_target;

/// (header size of each record) of a run of whole records.
fn sizes(records: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < records.len() {
        let size = usize::from(u16::from_ne_bytes([records[at + 6], records[at + 7]]));
        assert!(size >= 8 && at + size <= records.len());
        out.push(size);
        at += size;
    }
    out
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 17 {
        return;
    }
    let head = u64::from_le_bytes(data[0..8].try_into().unwrap());
    let avail = u64::from_le_bytes(data[8..16].try_into().unwrap());
    let rest = &data[17..];
    match data[16] % 3 {
        0 => {
            let mut out = vec![0xa5u8; 3];
            let (records, bytes) = copy_records(rest, head, avail, &mut out);
            let copied = &out[3..];
            assert_eq!(copied.len() as u64, bytes);
            assert!(bytes <= avail.min(rest.len() as u64));
            assert_eq!(sizes(copied).len(), records);
        }
        1 => {
            let index = time_order(rest);
            let mut spans: Vec<(usize, usize)> =
                index.iter().map(|&(_, at, len)| (at, len)).collect();
            assert!(index.windows(2).all(|w| w[0].0 <= w[1].0));
            spans.sort_unstable();
            let mut end = 0;
            for (at, len) in spans {
                assert_eq!(at, end, "records are consecutive from the start");
                assert!(len >= 8 && at + len <= rest.len());
                end = at + len;
            }
        }
        _ => {
            if let Ok(text) = std::str::from_utf8(rest) {
                if let Ok(f) = parse_spec(text) {
                    assert!(f.level.is_none_or(|l| l >= 1));
                    assert!(f.keyword != Some(0));
                }
            }
        }
    }
});
