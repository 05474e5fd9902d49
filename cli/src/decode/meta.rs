//! The members of an event's `"meta"` object, written here rather than with
//! tracepoint_decode's meta displays (which format every number through
//! `core::fmt` and were a third of decode's instructions, and write the
//! tracepoint name's options without JSON escaping). The items, their order
//! and their spelling are the crate's:
//!
//! time, cpu, pid, tid (when it differs from pid, or pid is not selected),
//! provider, event, then for EventHeader events id, version, level, keyword
//! (`"0x1"`), opcode, tag (`"0x..."`), activity, relatedActivity, options,
//! flags (`"0x..."`); items without a value (zero, absent) are left out.

use tracepoint_decode as td;

use super::json::{push_escaped_char, push_json_content, push_json_str};
use super::time;

type M = td::PerfMetaOptions;
type St = td::PerfEventAttrSampleType;

/// Writes `"name": value` items separated by `, `.
pub struct Items<'o> {
    out: &'o mut String,
    /// Whether an item was written (the next needs a comma).
    pub any: bool,
}

impl<'o> Items<'o> {
    pub fn new(out: &'o mut String) -> Items<'o> {
        Items { out, any: false }
    }

    /// Inlined, so that the copies of a literal `name` are of a known size.
    #[inline(always)]
    pub(crate) fn key(&mut self, name: &str) -> &mut String {
        self.out.reserve(name.len() + 6);
        if self.any {
            self.out.push_str(", ");
        }
        self.any = true;
        self.out.push('"');
        self.out.push_str(name);
        self.out.push_str("\": ");
        self.out
    }

    #[inline]
    fn number(&mut self, name: &str, value: u64) {
        push_u64(self.key(name), value);
    }

    #[inline]
    fn hex(&mut self, name: &str, value: u64) {
        let out = self.key(name);
        out.push_str("\"0x");
        push_hex_upper(out, value);
        out.push('"');
    }
}

/// Appends a decimal number.
pub fn push_u64(out: &mut String, value: u64) {
    out.push_str(itoa::Buffer::new().format(value));
}

pub(crate) fn push_hex_upper(out: &mut String, value: u64) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let digits = (64 - value.leading_zeros()).div_ceil(4).max(1);
    for i in (0..digits).rev() {
        out.push(HEX[((value >> (4 * i)) & 15) as usize] as char);
    }
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` of 16 bytes in order.
pub(crate) fn push_uuid(out: &mut String, b: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for (i, &byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(HEX[(byte >> 4) as usize] as char);
        out.push(HEX[(byte & 15) as usize] as char);
    }
    out.push('"');
}

/// A JSON string of bytes that are UTF-8 where valid, Latin-1 elsewhere.
fn push_utf8_or_latin1(out: &mut String, bytes: &[u8]) {
    out.push('"');
    push_utf8_or_latin1_escaped(out, bytes);
    out.push('"');
}

/// The content of [`push_utf8_or_latin1`]'s string, without its quotes.
pub(crate) fn push_utf8_or_latin1_escaped(out: &mut String, bytes: &[u8]) {
    for chunk in bytes.utf8_chunks() {
        push_json_content(out, chunk.valid());
        for &b in chunk.invalid() {
            push_escaped_char(out, b as char);
        }
    }
}

/// The content of an EventHeader event's `"n"` string, `Provider:Event`,
/// as the crate's `EventHeaderJsonIdentityDisplay` writes it.
pub(crate) fn push_identity(out: &mut String, provider: &str, event: &[u8]) {
    push_json_content(out, provider);
    out.push(':');
    push_utf8_or_latin1_escaped(out, event);
}

/// time, cpu, pid, tid of a sample.
fn sample_basics(items: &mut Items<'_>, s: &td::PerfSampleEventInfo<'_>, meta: M) {
    let st = s.sample_type();
    if st.has_flag(St::Time) && meta.has_flag(M::Time) {
        let out = items.key("time");
        if !time::push_time(out, s) {
            // No wall-clock offset in the recording: seconds, as a number.
            time::push_seconds(out, s.time);
        }
    }
    if st.has_flag(St::Cpu) && meta.has_flag(M::Cpu) {
        items.number("cpu", s.cpu.into());
    }
    if st.has_flag(St::Tid) {
        if meta.has_flag(M::Pid) {
            items.number("pid", s.pid.into());
        }
        if meta.has_flag(M::Tid) && (s.pid != s.tid || !meta.has_flag(M::Pid)) {
            items.number("tid", s.tid.into());
        }
    }
}

/// pid and tid of a capture record of the timed layout (its time, in
/// CLOCK_MONOTONIC nanoseconds, is the event's time: see `EventMeta`).
pub fn stamp(items: &mut Items<'_>, pid: u32, tid: u32, meta: M) {
    if meta.has_flag(M::Pid) {
        items.number("pid", pid.into());
    }
    if meta.has_flag(M::Tid) && (pid != tid || !meta.has_flag(M::Pid)) {
        items.number("tid", tid.into());
    }
}
/// The items of a sample itself (an event decoded through its tracefs
/// format, or written raw): time, cpu, pid, tid, then provider and event
/// (the system and name of its event).
pub fn sample(items: &mut Items<'_>, s: &td::PerfSampleEventInfo<'_>, meta: M) {
    sample_basics(items, s, meta);
    if !meta.has_flag(M::Provider.or(M::Event)) {
        return;
    }
    let name = s.name();
    let (provider, event) = match s.format() {
        Some(f) if name.is_empty() => (f.system_name(), f.name()),
        _ => {
            let mut parts = name.split(':');
            (parts.next().unwrap_or(""), parts.next().unwrap_or(""))
        }
    };
    if meta.has_flag(M::Provider) && !provider.is_empty() {
        push_json_str(items.key("provider"), provider);
    }
    if meta.has_flag(M::Event) && !event.is_empty() {
        push_json_str(items.key("event"), event);
    }
}

/// The items of an EventHeader event (and of its sample, if any).
pub fn eventheader(
    items: &mut Items<'_>,
    info: &td::EventHeaderEventInfo<'_, '_>,
    s: Option<&td::PerfSampleEventInfo<'_>>,
    meta: M,
) {
    if let Some(s) = s {
        sample_basics(items, s, meta);
    }
    let header = info.header();
    if meta.has_flag(M::Provider) {
        push_json_str(items.key("provider"), info.provider_name());
    }
    if meta.has_flag(M::Event) {
        push_utf8_or_latin1(items.key("event"), info.name_bytes());
    }
    if meta.has_flag(M::Id) && header.id != 0 {
        items.number("id", header.id.into());
    }
    if meta.has_flag(M::Version) && header.version != 0 {
        items.number("version", header.version.into());
    }
    if meta.has_flag(M::Level) && header.level.as_int() != 0 {
        items.number("level", header.level.as_int().into());
    }
    if meta.has_flag(M::Keyword) && info.keyword() != 0 {
        items.hex("keyword", info.keyword());
    }
    if meta.has_flag(M::Opcode) && header.opcode.as_int() != 0 {
        items.number("opcode", header.opcode.as_int().into());
    }
    if meta.has_flag(M::Tag) && header.tag != 0 {
        items.hex("tag", header.tag.into());
    }
    let ids = info.activity_id_section();
    if meta.has_flag(M::Activity) && ids.len() >= 16 {
        push_uuid(items.key("activity"), &ids[..16]);
    }
    if meta.has_flag(M::RelatedActivity) && ids.len() >= 32 {
        push_uuid(items.key("relatedActivity"), &ids[16..32]);
    }
    if meta.has_flag(M::Options) && !info.options().is_empty() {
        push_json_str(items.key("options"), info.options());
    }
    if meta.has_flag(M::Flags) {
        items.hex("flags", header.flags.as_int().into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::input;
    use crate::decode::json::JsonText;

    #[test]
    fn identities_as_the_crate_writes_them() {
        let providers = ["P", "", "a\"b\\c", "tab\tnl\n\u{1}", "caf\u{e9}"];
        let events: [&[u8]; 6] = [
            b"E",
            b"",
            b"q\"",
            b"caf\xc3\xa9\xe9",
            b"\xf0\x90\x80",
            b"\x7f\x1f",
        ];
        for provider in providers {
            for event in events {
                let mut ours = String::new();
                push_identity(&mut ours, provider, event);
                let mut theirs = String::new();
                td::display::EventHeaderJsonIdentityDisplay::new(provider, event)
                    .write_to(&mut JsonText(&mut theirs))
                    .unwrap();
                assert_eq!(ours, theirs, "{provider:?} {event:?}");
            }
        }
    }

    /// Our items equal tracepoint_decode's meta displays for every event of
    /// the reference perf.data files (EventHeader and tracefs events), for
    /// every item but time (the crate rounds it to 100 ns).
    #[test]
    fn same_items_as_the_crate() {
        let dir = testkit::reference_dir();
        let mut checked = 0;
        for file in ["perf.data", "pipe.data"] {
            let bytes = std::fs::read(dir.join(file)).unwrap();
            let opened = input::open(input::Source::Bytes(&bytes)).unwrap();
            let input::Recording::Perf(mut reader) = opened.recording else {
                panic!("{file} is a perf.data file");
            };
            let mut ctx = td::EventHeaderEnumeratorContext::new();
            while reader.move_next().unwrap() {
                let event = reader.current();
                if event.header.ty != td::PerfEventHeaderType::Sample {
                    continue;
                }
                let s = reader.events().sample_info(event.data).unwrap();
                for options in [M::All.and_not(M::Time), M::Default.and_not(M::Time)] {
                    let (mut ours, mut theirs) = (String::new(), String::new());
                    let eh = ctx.enumerate(&s);
                    match eh {
                        Ok(e) => {
                            let info = e.event_info();
                            eventheader(&mut Items::new(&mut ours), &info, Some(&s), options);
                            info.json_meta_display(Some(&s))
                                .meta_options(options)
                                .write_to(&mut JsonText(&mut theirs))
                                .unwrap();
                        }
                        Err(_) => {
                            sample(&mut Items::new(&mut ours), &s, options);
                            s.json_meta_display()
                                .meta_options(options)
                                .write_to(&mut JsonText(&mut theirs))
                                .unwrap();
                        }
                    }
                    assert_eq!(ours, theirs, "{file}: {}", s.name());
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn numbers() {
        let mut s = String::new();
        for v in [0, 7, 10, 4242, u64::MAX] {
            push_u64(&mut s, v);
            s.push(' ');
            push_hex_upper(&mut s, v);
            s.push(' ');
        }
        assert_eq!(
            s,
            "0 0 7 7 10 A 4242 1092 18446744073709551615 FFFFFFFFFFFFFFFF "
        );
        s.clear();
        push_uuid(
            &mut s,
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff],
        );
        assert_eq!(s, "\"01020304-0506-0708-090a-0b0c0d0e0fff\"");
        s.clear();
        push_utf8_or_latin1(&mut s, b"a\"\xe9\xc3\xa9\\");
        assert_eq!(s, "\"a\\\"\u{e9}\u{e9}\\\\\"");
        s.clear();
        for ns in [0, 1_000_001_000, 12_345, u64::MAX] {
            time::push_seconds(&mut s, ns);
            s.push(' ');
        }
        assert_eq!(s, "0 1.000001 1.2345e-5 18446744073.709553 ");
    }
}
