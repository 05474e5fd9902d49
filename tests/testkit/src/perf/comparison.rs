//! The perf samples of a run compared with its capture file, byte for byte,
//! and the capture file with a reference.

use std::path::Path;

use tracepoint_decode as td;

use super::{read_samples, walk, ActivityIds};
use crate::activity_ids::IdMap;
use crate::capture;
use crate::layout::hex;

/// The outcome of [`compare`].
pub struct Comparison {
    pub samples: usize,
    pub records: usize,
    pub identical: usize,
    pub with_reference: bool,
    /// With [`ActivityIds::Random`]: how many activity ids of the capture
    /// stood for other ids in perf's samples, and how many for themselves.
    pub random_ids: Option<(usize, usize)>,
    /// Empty when every check held.
    pub errors: Vec<String>,
}

impl Comparison {
    /// `compare: N perf samples, M capture records, K byte-identical[, capture == reference]`.
    pub fn summary(&self) -> String {
        let ids = match self.random_ids {
            Some((random, same)) => format!(
                " once its {random} random activity ids are replaced, one to one \
                 ({same} given ids the same in both)"
            ),
            None => String::new(),
        };
        format!(
            "compare: {} perf samples, {} capture records, {} byte-identical{ids}{}",
            self.samples,
            self.records,
            self.identical,
            if self.with_reference {
                ", capture == reference"
            } else {
                ""
            }
        )
    }
}

/// Every user_events sample of `perf`, in time order, must carry exactly the
/// bytes of the capture record at the same position (same tracepoint name;
/// only the kernel's zero padding to 8-byte alignment may follow), and both
/// must decode cleanly as EventHeader events; activity ids as `ids` says.
/// With `reference`, the capture file must also equal that capture-format
/// file record for record.
pub fn compare(
    perf: &Path,
    capture: &Path,
    reference: Option<&Path>,
    ids: ActivityIds,
) -> Result<Comparison, String> {
    let samples = read_samples(perf)?;
    let recs = capture::read(capture)?;
    let mut ctx = td::EventHeaderEnumeratorContext::new();
    let mut errors = Vec::new();
    if let Some(reference) = reference {
        let refs = capture::read(reference)?;
        if refs.len() != recs.len() {
            errors.push(format!(
                "capture has {} records, reference {} has {}",
                recs.len(),
                reference.display(),
                refs.len()
            ));
        }
        for (i, (c, r)) in recs.iter().zip(refs.iter()).enumerate() {
            if c != r {
                errors.push(format!(
                    "capture record {i} differs from the reference: {} {} vs {} {}",
                    c.name,
                    hex(&c.event),
                    r.name,
                    hex(&r.event)
                ));
            }
        }
    }
    if samples.len() != recs.len() {
        errors.push(format!(
            "perf recorded {} user_events samples, capture has {} records",
            samples.len(),
            recs.len()
        ));
    }
    let mut identical = 0usize;
    let mut last_time = 0u64;
    let mut id_map = IdMap::default();
    for (i, (s, r)) in samples.iter().zip(recs.iter()).enumerate() {
        if s.time < last_time {
            errors.push(format!("sample {i}: time order broken"));
        }
        last_time = s.time;
        let capture_walk = walk(&mut ctx, &r.name, &r.event)
            .inspect_err(|e| errors.push(format!("capture record {i} ({}): {e}", r.name)));
        let sample_walk = walk(&mut ctx, &s.name, &s.data)
            .inspect_err(|e| errors.push(format!("perf sample {i} ({}): {e}", s.name)));
        let mut expected = r.event.clone();
        if let (ActivityIds::Random, Ok(cw), Ok(sw)) = (ids, &capture_walk, &sample_walk) {
            match id_map.add(&cw.ids, &sw.ids) {
                Ok(()) => expected = id_map.apply(&r.event),
                Err(e) => errors.push(format!("event {i} ({}): {e}", r.name)),
            }
        }
        let pad_ok = s.data.len() >= expected.len()
            && s.data.len() - expected.len() < 8
            && s.data[expected.len()..].iter().all(|&b| b == 0);
        if s.name == r.name && pad_ok && s.data[..expected.len()] == expected[..] {
            identical += 1;
        } else if errors.len() < 20 {
            errors.push(format!(
                "event {i}: perf {} {} != capture {} {}",
                s.name,
                hex(&s.data),
                r.name,
                hex(&r.event)
            ));
        }
    }
    // Every mismatch above left an error (the first 20 with their bytes).
    if recs.is_empty() {
        errors.push("capture file has no records".into());
    }
    Ok(Comparison {
        samples: samples.len(),
        records: recs.len(),
        identical,
        with_reference: reference.is_some(),
        random_ids: (ids == ActivityIds::Random).then(|| id_map.counts()),
        errors,
    })
}
