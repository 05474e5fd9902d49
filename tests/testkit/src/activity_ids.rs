//! Activity ids in the comparison of perf's samples with a capture
//! ([`crate::perf::compare`]): the same in both runs, or random (each run has
//! its own, which must correspond one to one).

use std::collections::BTreeMap;

use crate::layout::hex;

/// How [`crate::perf::compare`] treats activity ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActivityIds {
    /// The same in both runs, like every other byte.
    Same,
    /// Random: each run has its own. Each activity id of a capture record
    /// stands for the id at the same place in the sample (activity, then
    /// related id), the same one wherever it occurs, and no two ids of one
    /// run stand for the same id of the other; the capture record with each
    /// id replaced (also inside fields) must then equal the sample.
    Random,
}

/// Capture ids mapped to sample ids, both ways (see [`ActivityIds::Random`]).
#[derive(Default)]
pub struct IdMap {
    to_sample: BTreeMap<[u8; 16], [u8; 16]>,
    to_capture: BTreeMap<[u8; 16], [u8; 16]>,
}

impl IdMap {
    /// Maps the ids of a record to those of its sample; Err if the counts
    /// differ or a mapping would not be one to one.
    pub fn add(&mut self, capture: &[[u8; 16]], sample: &[[u8; 16]]) -> Result<(), String> {
        if capture.len() != sample.len() {
            return Err(format!(
                "{} activity ids in the capture record, {} in the sample",
                capture.len(),
                sample.len()
            ));
        }
        for (c, s) in capture.iter().zip(sample) {
            let known = self.to_sample.get(c).copied().unwrap_or(*s);
            let back = self.to_capture.get(s).copied().unwrap_or(*c);
            if known != *s {
                return Err(format!(
                    "the capture's activity id {} stands for {} of perf's samples, here for {}",
                    hex(c),
                    hex(&known),
                    hex(s)
                ));
            }
            if back != *c {
                return Err(format!(
                    "perf's activity id {} stands for {} of the capture, here for {}",
                    hex(s),
                    hex(&back),
                    hex(c)
                ));
            }
            self.to_sample.insert(*c, *s);
            self.to_capture.insert(*s, *c);
        }
        Ok(())
    }

    /// How many capture ids are mapped to other ids, and how many to
    /// themselves (ids the program gives, the same in both runs).
    pub fn counts(&self) -> (usize, usize) {
        let same = self.to_sample.iter().filter(|(c, s)| c == s).count();
        (self.to_sample.len() - same, same)
    }

    /// `event` with every mapped capture id replaced by its sample id.
    pub fn apply(&self, event: &[u8]) -> Vec<u8> {
        let mut out = event.to_vec();
        for (c, s) in &self.to_sample {
            let mut at = 0;
            while let Some(i) = out[at..].windows(16).position(|w| w == c) {
                out[at + i..at + i + 16].copy_from_slice(s);
                at += i + 16;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_map_one_to_one_and_are_replaced_everywhere() {
        let (a, b, c, x, y) = ([1u8; 16], [2u8; 16], [3u8; 16], [8u8; 16], [9u8; 16]);
        let mut map = IdMap::default();
        map.add(&[a], &[x]).unwrap();
        map.add(&[b, a], &[y, x]).unwrap();
        // An id of the capture standing for another sample id, or two capture
        // ids for one sample id, or another number of ids.
        assert!(IdMap::default().add(&[a, a], &[x, y]).is_err());
        assert!(map.add(&[c], &[x]).is_err());
        assert!(IdMap::default().add(&[a], &[]).is_err());
        let mut event = vec![0xee];
        event.extend(a);
        event.extend(b);
        event.extend(a);
        let mut want = vec![0xee];
        want.extend(x);
        want.extend(y);
        want.extend(x);
        assert_eq!(map.apply(&event), want);
        map.add(&[c], &[c]).unwrap();
        assert_eq!(map.counts(), (2, 1));
    }
}
