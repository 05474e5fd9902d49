//! What a recording says about its events (attributes, names, tracefs
//! formats, sample ids, clock), gathered from a perf.data file's metadata or
//! from `collect`'s own session, and the attribution of each sample to its
//! event.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use tracepoint_decode as td;

use super::{headers, sample};
use crate::guard;

type St = td::PerfEventAttrSampleType;

/// Hashes the u64 sample ids of the id map with one multiplication (they
/// are the kernel's counters, not chosen by an adversary who gains by
/// colliding them: the worst a hostile file gets is a slower lookup).
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, id: u64) {
        self.0 = id.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// The events of one recording.
pub struct Events {
    session: td::PerfSessionInfo,
    descs: Vec<td::PerfEventDesc>,
    by_id: HashMap<u64, usize, BuildHasherDefault<IdHasher>>,
    formats: HashMap<u32, Arc<td::PerfEventFormat>>,
    /// Where a sample's id is (bytes from the record's start), from the
    /// first attribute's sample_type, as perf finds it; None: samples carry
    /// no id.
    id_at: Option<Option<usize>>,
    /// The traced kernel's `long` is 64 bits (from TRACING_DATA).
    long_is_64: bool,
    /// Problems with the metadata that do not stop the decoding (a format
    /// that cannot be used, ...), for the user.
    pub notes: Vec<String>,
}

/// Where samples of this sample_type carry their id.
fn id_offset(st: St) -> Option<usize> {
    if st.has_flag(St::Identifier) {
        Some(8)
    } else if st.has_flag(St::Id) {
        let before = [St::IP, St::Tid, St::Time, St::Addr]
            .iter()
            .filter(|&&f| st.has_flag(f))
            .count();
        Some(8 + 8 * before)
    } else {
        None
    }
}

impl Events {
    pub fn new(byte_reader: td::PerfByteReader) -> Events {
        Events {
            session: td::PerfSessionInfo::new(byte_reader),
            descs: Vec::new(),
            by_id: HashMap::default(),
            formats: HashMap::new(),
            id_at: None,
            long_is_64: cfg!(target_pointer_width = "64"),
            notes: Vec::new(),
        }
    }

    pub fn byte_reader(&self) -> td::PerfByteReader {
        self.session.byte_reader()
    }

    pub fn session(&self) -> &td::PerfSessionInfo {
        &self.session
    }

    pub fn descs(&self) -> &[td::PerfEventDesc] {
        &self.descs
    }

    pub fn set_clock_id(&mut self, clock_id: u32) {
        self.session.set_clock_id(clock_id);
    }

    pub fn set_clock_data(&mut self, clock_id: u32, wall_ns: u64, clock_ns: u64) {
        self.session.set_clock_data(clock_id, wall_ns, clock_ns);
    }

    /// Adds an event: from the attribute section or a HEADER_ATTR record
    /// (no name), or from EVENT_DESC (named). A description of the same ids
    /// replaces the earlier one instead of listing the event twice.
    pub fn add(&mut self, attr: td::PerfEventAttr, name: String, ids: Vec<u64>) {
        let st = attr.sample_type;
        match self.id_at {
            None => self.id_at = Some(id_offset(st)),
            Some(at) if at != id_offset(st) => self.notes.push(format!(
                "event {name:?} places its sample id differently from the first event: its samples cannot be attributed"
            )),
            Some(_) => {}
        }
        let format = (attr.attr_type == td::PerfEventAttrType::Tracepoint)
            .then(|| self.formats.get(&(attr.config as u32)))
            .flatten();
        let desc = td::PerfEventDesc::new(attr, name, format, ids.into_boxed_slice());
        let same = desc
            .ids()
            .first()
            .and_then(|id| self.by_id.get(id))
            .copied();
        let index = match same {
            Some(i) if self.descs[i].ids() == desc.ids() => {
                self.descs[i] = desc;
                i
            }
            _ => {
                self.descs.push(desc);
                self.descs.len() - 1
            }
        };
        for &id in self.descs[index].ids() {
            self.by_id.insert(id, index);
        }
    }

    /// Adds the tracefs formats of a TRACING_DATA section (and gives them to
    /// the events already described).
    pub fn add_tracing_data(&mut self, data: &[u8]) {
        match headers::tracing_data(data) {
            Ok(t) => {
                self.long_is_64 = t.long_is_64;
                for (system, text) in t.formats {
                    self.add_format(&system, &text);
                }
            }
            Err(e) => self.notes.push(e),
        }
    }

    /// Adds one tracefs format (`system`, the text of its `format` file).
    /// Text the format parser cannot take is refused with a note: it must be
    /// ASCII (tracepoint_decode 0.5.0 panics on other text).
    pub fn add_format(&mut self, system: &str, text: &[u8]) -> Option<Arc<td::PerfEventFormat>> {
        let Some(format) = guard::parse_format(self.long_is_64, system, text) else {
            self.notes.push(format!(
                "a tracefs format of system {system:?} cannot be used: {}",
                guard::format_problem(text)
            ));
            return None;
        };
        let format = Arc::new(format);
        let id = format.id();
        self.formats.insert(id, Arc::clone(&format));
        for desc in &mut self.descs {
            if desc.format().is_none()
                && desc.attr().attr_type == td::PerfEventAttrType::Tracepoint
                && desc.attr().config as u32 == id
            {
                desc.set_format(&format);
            }
        }
        Some(format)
    }

    /// The one event of the recording, if its descriptions name a single
    /// event (perf writes the samples of a single-event recording without
    /// ids), preferring a description with a format.
    fn single_event(&self) -> Option<&td::PerfEventDesc> {
        let first = self.descs.first()?;
        let same = |d: &td::PerfEventDesc| {
            let (a, b) = (d.attr(), first.attr());
            (a.attr_type, a.config, a.sample_type) == (b.attr_type, b.config, b.sample_type)
        };
        if !self.descs.iter().all(same) {
            return None;
        }
        self.descs
            .iter()
            .find(|d| d.format().is_some())
            .or(Some(first))
    }

    /// The event of a PERF_RECORD_SAMPLE (`bytes`, header included).
    fn desc_of(&self, bytes: &[u8]) -> Result<&td::PerfEventDesc, String> {
        let Some(Some(at)) = self.id_at else {
            return self.single_event().ok_or_else(|| {
                format!(
                    "sample without an event id in a recording of {}",
                    crate::plural::count(self.descs.len() as u64, "event")
                )
            });
        };
        let Some(b) = bytes.get(at..at + 8) else {
            return Err("sample too short to hold its event id".into());
        };
        let id = self.byte_reader().read_u64(b);
        let Some(&i) = self.by_id.get(&id) else {
            return Err(format!("sample of an unknown event id {id}"));
        };
        let desc = &self.descs[i];
        if id_offset(desc.attr().sample_type) != Some(at) {
            return Err(format!(
                "event id {id} places its sample id differently from the first event"
            ));
        }
        Ok(desc)
    }

    /// Attributes a PERF_RECORD_SAMPLE (`bytes`, header included) to its
    /// event and parses it.
    pub fn sample_info<'a>(
        &'a self,
        bytes: &'a [u8],
    ) -> Result<td::PerfSampleEventInfo<'a>, String> {
        let desc = self.desc_of(bytes)?;
        sample::parse(bytes, self.byte_reader(), &self.session, desc).map_err(str::to_string)
    }

    /// The timestamp of a sample (0 if it has none), to sort by, without
    /// parsing the rest of it.
    pub fn sample_time(&self, bytes: &[u8]) -> u64 {
        let Ok(desc) = self.desc_of(bytes) else {
            return 0;
        };
        let st = desc.attr().sample_type;
        if !st.has_flag(St::Time) {
            return 0;
        }
        let before = [St::Identifier, St::IP, St::Tid]
            .iter()
            .filter(|&&f| st.has_flag(f))
            .count();
        let at = 8 + 8 * before;
        bytes
            .get(at..at + 8)
            .map_or(0, |b| self.byte_reader().read_u64(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr(config: u64, sample_type: u64) -> td::PerfEventAttr {
        td::PerfEventAttr {
            attr_type: td::PerfEventAttrType::Tracepoint,
            config,
            sample_type: td::PerfEventAttrSampleType(sample_type),
            ..Default::default()
        }
    }

    const FORMAT: &[u8] =
        b"name: e\nID: 7\nformat:\n\tfield:int a;\toffset:0;\tsize:4;\tsigned:1;\n";

    #[test]
    fn an_event_described_twice_is_one_event() {
        let mut e = Events::new(td::PerfByteReader::new(false));
        e.add(attr(7, St::Raw.0), String::new(), vec![1, 2]);
        e.add_format("s", FORMAT).unwrap();
        // EVENT_DESC names the same event: it replaces the unnamed one.
        e.add(attr(7, St::Raw.0), "s:e".into(), vec![1, 2]);
        assert_eq!(e.descs().len(), 1);
        assert_eq!(e.descs()[0].name(), "s:e");
        assert!(e.descs()[0].format().is_some());
        assert!(e.single_event().is_some());
        e.add(attr(8, St::Raw.0), String::new(), vec![3]);
        assert!(e.single_event().is_none());
        assert!(e.notes.is_empty());
    }

    #[test]
    fn samples_are_attributed_by_id() {
        let mut e = Events::new(td::PerfByteReader::new(false));
        let st = St::Identifier.0 | St::Raw.0;
        e.add(attr(7, st), String::new(), vec![42]);
        e.add_format("s", FORMAT).unwrap();
        // header, identifier, raw size 4 + 4 bytes.
        let mut s = vec![9, 0, 0, 0, 0, 0, 24, 0];
        s.extend_from_slice(&42u64.to_le_bytes());
        s.extend_from_slice(&4u32.to_le_bytes());
        s.extend_from_slice(&5i32.to_le_bytes());
        let info = e.sample_info(&s).unwrap();
        assert_eq!((info.id, info.raw_data()), (42, &5i32.to_le_bytes()[..]));
        s[8] = 43;
        assert!(e
            .sample_info(&s)
            .unwrap_err()
            .contains("unknown event id 43"));
        assert!(e.sample_info(&s[..12]).is_err());
        // A second event whose samples place the id elsewhere.
        e.add(
            attr(8, St::Id.0 | St::Tid.0 | St::Raw.0),
            String::new(),
            vec![43],
        );
        assert_eq!(e.notes.len(), 1);
        assert!(e.sample_info(&s).unwrap_err().contains("differently"));
    }

    #[test]
    fn unusable_formats_are_noted() {
        let mut e = Events::new(td::PerfByteReader::new(false));
        assert!(e.add_format("s", b"name: \xd0\nID: 1\n").is_none());
        assert!(e.notes[0].contains("not ASCII"), "{:?}", e.notes);
    }
}
