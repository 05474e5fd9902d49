//! EventHeader events as text, for tests: every item walked
//! with `tracepoint_decode`. [`items`] and [`json_line`] panic with the
//! event's bytes when it does not decode completely; [`json`] says why.

use std::fmt::Write as _;

use tracepoint_decode::display::EventHeaderJsonIdentityDisplay;
use tracepoint_decode::{
    EventHeaderEnumerator, EventHeaderEnumeratorContext, EventHeaderEnumeratorState,
    EventHeaderItemInfo, PerfConvertOptions, PerfItemValue,
};

use crate::capture::Record;

/// Bytes as space-separated hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The decoder positioned before the record's first field, or why the
/// record is not an EventHeader event (with its bytes).
fn enumerate<'a>(
    ctx: &'a mut EventHeaderEnumeratorContext,
    rec: &'a Record,
) -> Result<EventHeaderEnumerator<'a, 'a, 'a>, String> {
    ctx.enumerate_with_name_and_data(
        &rec.name,
        &rec.event,
        EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
    )
    .map_err(|err| {
        format!(
            "{}: not a decodable EventHeader event ({err}): {}",
            rec.name,
            hex(&rec.event)
        )
    })
}

/// What the decoder says about one event.
#[derive(Debug)]
pub struct Decoded {
    pub event_name: String,
    pub provider: String,
    pub options: String,
    pub flags: u8,
    pub version: u8,
    pub id: u16,
    pub tag: u16,
    pub opcode: u8,
    pub level: u8,
    pub keyword: u64,
    pub activity: Option<[u8; 16]>,
    pub related: Option<[u8; 16]>,
    /// Every item, in order:
    /// - value: `name:encoding/format[#tag]=value` (the value rendered by
    ///   [`render`], independent of the decoder's formatting choices);
    /// - struct begin: `name{member_count[#tag]`, struct end: `}`;
    /// - array begin: `name[c|v element_count[#tag]`, array end: `]`.
    pub items: Vec<String>,
}

/// Decodes an EventHeader record item by item; panics if it does not decode
/// completely or has bytes after its last field.
pub fn items(rec: &Record) -> Decoded {
    let mut ctx = EventHeaderEnumeratorContext::new();
    let mut e = enumerate(&mut ctx, rec).unwrap_or_else(|err| panic!("{err}"));
    let info = e.event_info();
    let header = info.header();
    let mut out = Decoded {
        event_name: String::from_utf8_lossy(info.name_bytes()).into_owned(),
        provider: info.provider_name().to_string(),
        options: info.options().to_string(),
        flags: header.flags.as_int(),
        version: header.version,
        id: header.id,
        tag: header.tag,
        opcode: header.opcode.as_int(),
        level: header.level.as_int(),
        keyword: info.keyword(),
        activity: info.activity_id().copied(),
        related: info.related_activity_id().copied(),
        items: Vec::new(),
    };
    while e.move_next() {
        let item = e.item_info();
        let md = item.metadata();
        let name = String::from_utf8_lossy(item.name_bytes()).into_owned();
        let tag = if md.field_tag() != 0 {
            format!("#{:x}", md.field_tag())
        } else {
            String::new()
        };
        let line = match e.state() {
            EventHeaderEnumeratorState::Value => format!(
                "{name}:{}/{}{tag}={}",
                md.encoding().as_int(),
                md.format().as_int(),
                render(&item)
            ),
            EventHeaderEnumeratorState::StructBegin => {
                format!("{name}{{{}{tag}", md.struct_field_count())
            }
            EventHeaderEnumeratorState::StructEnd => "}".to_string(),
            EventHeaderEnumeratorState::ArrayBegin => {
                let kind = match md.array_flag() {
                    0x20 => "c",
                    0x40 => "v",
                    other => panic!("array flag {other:#x}"),
                };
                format!("{name}[{kind}{}{tag}", md.element_count())
            }
            EventHeaderEnumeratorState::ArrayEnd => "]".to_string(),
            other => panic!("unexpected state {other}"),
        };
        out.items.push(line);
    }
    assert_eq!(
        e.state(),
        EventHeaderEnumeratorState::AfterLastItem,
        "{}/{}: decoding stopped with {} after {:?}: {}",
        rec.name,
        out.event_name,
        e.last_error(),
        out.items,
        hex(&rec.event)
    );
    assert!(
        e.raw_data_position().is_empty(),
        "{}/{}: {} bytes after the last field",
        rec.name,
        out.event_name,
        e.raw_data_position().len()
    );
    out
}

fn int_le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

fn signed_le(bytes: &[u8]) -> i64 {
    let bits = 8 * bytes.len() as u32;
    let v = int_le(bytes);
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

/// A value as text, from its bytes and declared encoding/format.
pub fn render(item: &EventHeaderItemInfo) -> String {
    let value: &PerfItemValue = item.value();
    let md = value.metadata();
    let bytes = value.bytes();
    let encoding = md.encoding().as_int();
    let format = md.format().as_int();
    let string = |v: &PerfItemValue| {
        let mut s = String::new();
        v.write_string_to(&mut s).unwrap();
        s
    };
    match encoding {
        // value8 .. value64
        2..=5 => match format {
            2 | 4..=6 => signed_le(bytes).to_string(),
            3 => format!("0x{:X}", int_le(bytes)),
            8 if bytes.len() == 4 => f32::from_le_bytes(bytes.try_into().unwrap()).to_string(),
            8 if bytes.len() == 8 => f64::from_le_bytes(bytes.try_into().unwrap()).to_string(),
            10 | 11 => string(value),
            16 if bytes.len() == 2 => u16::from_be_bytes(bytes.try_into().unwrap()).to_string(),
            17 if bytes.len() == 4 => {
                std::net::Ipv4Addr::from(<[u8; 4]>::try_from(bytes).unwrap()).to_string()
            }
            _ => int_le(bytes).to_string(),
        },
        // value128
        6 => match format {
            15 => value.to_guid(0).to_string(),
            17 | 18 => std::net::Ipv6Addr::from(<[u8; 16]>::try_from(bytes).unwrap()).to_string(),
            _ => hex(bytes),
        },
        // strings
        7..=12 if format != 9 => string(value),
        // binary, or strings with the hex_bytes format
        7..=13 => hex(bytes),
        _ => format!("?{}", hex(bytes)),
    }
}

/// One line per event: `Provider:Event level=L keyword=0xK opcode=O
/// [activity=HEX] [related=HEX] {fields}`, the fields as tracepoint_decode's
/// JSON. Panics
/// if the record is not a valid EventHeader event.
pub fn json_line(record: &Record) -> String {
    let mut ctx = EventHeaderEnumeratorContext::new();
    let mut e = enumerate(&mut ctx, record).unwrap_or_else(|err| panic!("{err}"));
    let info = e.event_info();
    let header = info.header();
    let mut out = format!(
        "{} level={} keyword={:#x} opcode={}",
        info.identity_display(),
        header.level.as_int(),
        info.keyword(),
        header.opcode.as_int()
    );
    let id_hex = |id: &[u8; 16]| -> String { id.iter().map(|b| format!("{b:02x}")).collect() };
    if let Some(id) = info.activity_id() {
        write!(out, " activity={}", id_hex(id)).unwrap();
    }
    if let Some(id) = info.related_activity_id() {
        write!(out, " related={}", id_hex(id)).unwrap();
    }
    out.push_str(" {");
    e.write_json_item_and_move_next_sibling(&mut out, false, PerfConvertOptions::Default)
        .expect("formatting");
    out.push('}');
    out
}

/// One event as the demo prints it, tracepoint_decode's JSON conventions:
/// `{ "n": "Provider:Event", "field": value, ..., "meta": { "level": 4, ... } }`
/// (`meta` holds the non-default header values and activity ids). Err if
/// the record is not a well-formed EventHeader event.
pub fn json(record: &Record) -> Result<String, String> {
    let mut ctx = EventHeaderEnumeratorContext::new();
    let mut e = enumerate(&mut ctx, record)?;
    let info = e.event_info();
    let identity = EventHeaderJsonIdentityDisplay::new(info.provider_name(), info.name_bytes());
    let mut out = format!("{{ \"n\": \"{identity}\"");
    // Positioned before the first field: writes all fields as
    // `, "name": value, ...` and moves past the last one.
    e.write_json_item_and_move_next_sibling(&mut out, true, PerfConvertOptions::Default)
        .map_err(|err| format!("{}: formatting: {err}", record.name))?;
    if e.state() == EventHeaderEnumeratorState::Error {
        return Err(format!(
            "{}: malformed event: {}",
            record.name,
            e.last_error()
        ));
    }
    write!(out, ", \"meta\": {{ {} }} }}", info.json_meta_display(None)).unwrap();
    Ok(out)
}
