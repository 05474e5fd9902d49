//! What the name of an EventHeader event's data says: its provider, event
//! name, level and keyword, read from its header and metadata.

use tracepoint_decode as td;

/// What the name of an event's data says.
pub(super) enum Named<'n, 'd> {
    /// An EventHeader event: provider, event name, level, keyword.
    EventHeader(&'n str, &'d [u8], u8, u64),
    /// Not EventHeader.
    Plain,
    /// An EventHeader tracepoint whose data is not a valid event.
    Malformed,
}

/// The last tracepoint name split into provider (its length) and keyword
/// (checking a name costs more than counting its event).
#[derive(Default)]
pub(super) struct SplitCache {
    name: String,
    split: Option<(usize, u64)>,
}

impl SplitCache {
    pub(super) fn get(&mut self, tracepoint: &str) -> Option<(usize, u64)> {
        if self.name != tracepoint {
            self.name.clear();
            self.name.push_str(tracepoint);
            self.split = crate::spec::split_eventheader_name(tracepoint)
                .map(|(provider, _, keyword)| (provider.len(), keyword));
        }
        self.split
    }
}

/// The event name and level of a well-formed EventHeader event, read from
/// its header and the first metadata extension in its chain: None when
/// anything is unusual (the enumerator then judges the event).
pub(super) fn quick_name(data: &[u8]) -> Option<(&[u8], u8)> {
    // eventheader_flags: pointer64 0x01, little-endian 0x02, extension 0x04.
    let flags = *data.first()?;
    if flags & !0x07 != 0 || flags & 0x04 == 0 {
        return None;
    }
    let read = |b: &[u8]| {
        let b = [b[0], b[1]];
        if flags & 0x02 != 0 {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        }
    };
    let level = *data.get(7)?;
    let mut at = 8;
    loop {
        // Extension: u16 size, u16 kind (0x8000: another follows).
        let head = data.get(at..at + 4)?;
        let (size, kind) = (usize::from(read(&head[..2])), read(&head[2..]));
        let body = data.get(at + 4..at + 4 + size)?;
        if kind & 0x7fff == 1 {
            let nul = body.iter().position(|&b| b == 0)?;
            return Some((&body[..nul], level));
        }
        if kind & 0x8000 == 0 {
            return None;
        }
        at += 4 + size;
    }
}

/// The provider, event name, level and keyword of an EventHeader event,
/// from its header and metadata (no field is decoded).
pub(super) fn eventheader_names<'n, 'd>(
    context: &mut td::EventHeaderEnumeratorContext,
    split: &mut SplitCache,
    tracepoint: &'n str,
    data: &'d [u8],
) -> Result<Named<'n, 'd>, td::EventHeaderEnumeratorError> {
    if let (Some((name, level)), Some((provider_len, keyword))) =
        (quick_name(data), split.get(tracepoint))
    {
        return Ok(Named::EventHeader(
            &tracepoint[..provider_len],
            name,
            level,
            keyword,
        ));
    }
    let e = context.enumerate_with_name_and_data(
        tracepoint,
        data,
        td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
    )?;
    let info = e.event_info();
    Ok(Named::EventHeader(
        info.provider_name(),
        info.name_bytes(),
        info.header().level.as_int(),
        info.keyword(),
    ))
}
