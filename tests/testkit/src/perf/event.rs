//! One user_events sample decoded as an EventHeader event: its name, its
//! top-level 4-byte fields and its activity ids; and the check of an event
//! the decoder refuses for want of metadata.

use tracepoint_decode as td;

/// What walking an event found: its EventHeader event name and its top-level
/// 4-byte fields.
#[derive(Default)]
pub struct Walk {
    pub event: String,
    pub values: Vec<(Vec<u8>, u32)>,
    /// The activity id and the related activity id, those the event has.
    pub ids: Vec<[u8; 16]>,
}

impl Walk {
    /// The value of the top-level 4-byte field `name`.
    pub fn value(&self, name: &[u8]) -> Option<u32> {
        self.values
            .iter()
            .find(|(n, _)| n.as_slice() == name)
            .map(|&(_, v)| v)
    }
}

/// Decodes one event completely; Err describes the first problem.
pub fn walk(
    ctx: &mut td::EventHeaderEnumeratorContext,
    name: &str,
    data: &[u8],
) -> Result<Walk, String> {
    let mut e = match ctx.enumerate_with_name_and_data(
        name,
        data,
        td::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
    ) {
        Ok(e) => e,
        Err(td::EventHeaderEnumeratorError::NotSupported) => return check_no_metadata(name, data),
        Err(err) => return Err(format!("not an EventHeader event: {err}")),
    };
    let info = e.event_info();
    let mut w = Walk {
        event: String::from_utf8_lossy(info.name_bytes()).into_owned(),
        ids: [info.activity_id(), info.related_activity_id()]
            .into_iter()
            .flatten()
            .copied()
            .collect(),
        ..Walk::default()
    };
    let mut depth = 0i32;
    while e.move_next() {
        match e.state() {
            td::EventHeaderEnumeratorState::StructBegin
            | td::EventHeaderEnumeratorState::ArrayBegin => depth += 1,
            td::EventHeaderEnumeratorState::StructEnd
            | td::EventHeaderEnumeratorState::ArrayEnd => depth -= 1,
            td::EventHeaderEnumeratorState::Value if depth == 0 => {
                let item = e.item_info();
                let value = item.value();
                if value.bytes().len() == 4 {
                    w.values.push((item.name_bytes().to_vec(), value.to_u32(0)));
                }
            }
            _ => {}
        }
    }
    if e.state() != td::EventHeaderEnumeratorState::AfterLastItem {
        return Err(format!("decoding stopped with {}", e.last_error()));
    }
    Ok(w)
}

/// The decoder refuses events without a metadata extension (they need an
/// external manifest). Such an event is still well formed when its header is
/// valid, its level matches the tracepoint name and its extension chain (if
/// any) is intact and holds no metadata.
fn check_no_metadata(name: &str, data: &[u8]) -> Result<Walk, String> {
    let bad = |why: &str| Err(format!("not an EventHeader event: {why}"));
    if data.len() < 8 {
        return bad("shorter than the 8-byte header");
    }
    if data[0] & !0x07 != 0 {
        return bad("unknown header flags");
    }
    let level = name
        .rfind("_L")
        .and_then(|i| {
            let rest = &name[i + 2..];
            let end = rest.find('K')?;
            u8::from_str_radix(&rest[..end], 16).ok()
        })
        .ok_or("tracepoint name has no _L<level>K<keyword>")?;
    if data[7] != level {
        return bad("header level differs from the tracepoint name's level");
    }
    let mut pos = 8usize;
    let mut more = data[0] & 0x04 != 0;
    while more {
        if data.len() - pos < 4 {
            return bad("truncated extension");
        }
        let size = u16::from_le_bytes([data[pos], data[pos + 1]]) as usize;
        let kind = u16::from_le_bytes([data[pos + 2], data[pos + 3]]);
        if kind & 0x7fff == 1 || kind & 0x7fff == 0 || data.len() - pos - 4 < size {
            return bad("undecodable extension chain");
        }
        pos += 4 + size;
        more = kind & 0x8000 != 0;
    }
    Ok(Walk::default())
}
