//! C tests of the core library (issue 2): C programs in `c-tests/core/`,
//! built against `include/` and the built library with every available
//! toolchain, run in capture mode (or with no capture and no kernel
//! support), their captures decoded with `tracepoint_decode` and compared
//! with values typed in here from the spec (spec-notes §2, §4, §5) or with
//! the reference implementation's own capture.
//!
//! Run with `cargo test --test core_c` (add `-- --nocapture` for the counts).
mod support;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Output;

use support::Record;
use tracepoint_decode::{
    EventHeaderEnumeratorContext, EventHeaderEnumeratorError, EventHeaderEnumeratorState,
    EventHeaderItemInfo, PerfItemValue,
};

// ---------------------------------------------------------------------------
// Building and running
// ---------------------------------------------------------------------------

/// Builds `c-tests/core/<name>.c` into `dir` with `compiler` and `std`
/// (`-x c++` for C++ standards), against `include/` and the library.
fn build_core(dir: &Path, name: &str, compiler: &str, std: &str) -> PathBuf {
    let out = dir.join(format!("{name}-{compiler}-{std}"));
    let extra: &[&str] = if std.starts_with("c++") {
        &["-x", "c++"]
    } else {
        &[]
    };
    support::build(
        compiler,
        std,
        &[support::c_test(&format!("core/{name}.c"))],
        &out,
        extra,
    );
    out
}

fn stdout_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs `exe` in capture mode into a fresh file and returns its stdout and
/// the records it captured.
fn run_captured(dir: &Path, exe: &Path, args: &[&str]) -> (String, Vec<Record>) {
    let capture = dir.join(format!(
        "{}.capture",
        exe.file_name().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_file(&capture);
    let output = support::run_capture(exe, &capture, args);
    let records = if capture.exists() {
        support::read_capture(&capture)
    } else {
        Vec::new()
    };
    (stdout_of(&output), records)
}

/// The value after `key` on the first stdout line starting with `key`.
fn stdout_value(stdout: &str, key: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} line in output:\n{stdout}"))
        .trim()
        .to_string()
}

// ---------------------------------------------------------------------------
// Expected bytes, built here from the format description
// ---------------------------------------------------------------------------

/// An eventheader: flags, version, id, tag, opcode, level (little-endian).
fn hdr(flags: u8, version: u8, id: u16, tag: u16, opcode: u8, level: u8) -> Vec<u8> {
    let mut v = vec![flags, version];
    v.extend_from_slice(&id.to_le_bytes());
    v.extend_from_slice(&tag.to_le_bytes());
    v.push(opcode);
    v.push(level);
    v
}

/// An extension block header.
fn ext(size: usize, kind: u16) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&u16::try_from(size).unwrap().to_le_bytes());
    v.extend_from_slice(&kind.to_le_bytes());
    v
}

/// A complete metadata extension (kind 1, no chain) with `body` = event name,
/// NUL, field definitions.
fn meta(body: &[u8]) -> Vec<u8> {
    let mut v = ext(body.len(), 0x0001);
    v.extend_from_slice(body);
    v
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Flags of an event with extensions, 64-bit little-endian.
const FLAGS_EXT: u8 = 0x07;
/// Flags of an event without extensions.
const FLAGS_PLAIN: u8 = 0x03;

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/// What the decoder says about one event.
#[derive(Debug)]
struct Decoded {
    event_name: String,
    provider: String,
    options: String,
    flags: u8,
    version: u8,
    id: u16,
    tag: u16,
    opcode: u8,
    level: u8,
    keyword: u64,
    activity: Option<[u8; 16]>,
    related: Option<[u8; 16]>,
    items: Vec<String>,
}

/// Decodes an EventHeader record, walking every item:
/// - value: `name:encoding/format[#tag]=value`
/// - struct begin: `name{member_count[#tag]`, struct end: `}`
/// - array begin: `name[c|v element_count[#tag]`, array end: `]`
///
/// Panics if the event does not decode completely or has trailing bytes.
fn decode(rec: &Record) -> Decoded {
    let mut ctx = EventHeaderEnumeratorContext::new();
    let mut e = ctx
        .enumerate_with_name_and_data(
            &rec.name,
            &rec.event,
            EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
        )
        .unwrap_or_else(|err| {
            panic!(
                "{}: not a decodable EventHeader event ({err}): {}",
                rec.name,
                hex(&rec.event)
            )
        });
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

/// A value as text, from its bytes and declared encoding/format (our own
/// rendering, so that the expectations below do not depend on the
/// decoder's formatting choices).
fn render(item: &EventHeaderItemInfo) -> String {
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

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

// ---------------------------------------------------------------------------
// 1. ABI layout
// ---------------------------------------------------------------------------

/// (struct, size, alignment, [(field, offset, size)])
type StructLayout = (
    &'static str,
    usize,
    usize,
    &'static [(&'static str, usize, usize)],
);

/// The reference ABI on x86_64 Linux, typed in from spec-notes §2 and §4.
fn expected_abi() -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    let mut put = |k: &str, v: &str| {
        m.insert(k.to_string(), v.to_string());
    };
    let structs: &[StructLayout] = &[
        (
            "tracepoint_list_node",
            16,
            8,
            &[("next", 0, 8), ("prev", 8, 8)],
        ),
        (
            "tracepoint_provider_state",
            24,
            8,
            &[
                ("data_file", 0, 4),
                ("ref_count", 4, 4),
                ("tracepoint_list_head", 8, 16),
            ],
        ),
        (
            "tracepoint_state",
            32,
            8,
            &[
                ("status_word", 0, 4),
                ("write_index", 4, 4),
                ("provider_state", 8, 8),
                ("tracepoint_list_link", 16, 16),
            ],
        ),
        (
            "tracepoint_definition",
            16,
            8,
            &[("state", 0, 8), ("tp_name_args", 8, 8)],
        ),
        (
            "eventheader",
            8,
            2,
            &[
                ("flags", 0, 1),
                ("version", 1, 1),
                ("id", 2, 2),
                ("tag", 4, 2),
                ("opcode", 6, 1),
                ("level", 7, 1),
            ],
        ),
        (
            "eventheader_extension",
            4,
            2,
            &[("size", 0, 2), ("kind", 2, 2)],
        ),
        (
            "eventheader_tracepoint",
            32,
            8,
            &[
                ("state", 0, 8),
                ("metadata", 8, 8),
                ("header", 16, 8),
                ("keyword", 24, 8),
            ],
        ),
        (
            "eventheader_provider",
            24,
            8,
            &[("state", 0, 8), ("options", 8, 8), ("name", 16, 8)],
        ),
    ];
    for (name, size, align, fields) in structs {
        put(&format!("sizeof.{name}"), &size.to_string());
        put(&format!("alignof.{name}"), &align.to_string());
        for (field, offset, fsize) in *fields {
            put(&format!("offsetof.{name}.{field}"), &offset.to_string());
            put(&format!("sizeof.{name}.{field}"), &fsize.to_string());
        }
    }
    for e in [
        "eventheader_flags",
        "event_opcode",
        "event_level",
        "eventheader_extension_kind",
        "event_field_encoding",
        "event_field_format",
    ] {
        put(&format!("sizeof.{e}"), "4");
    }
    let values: &[(&str, i64)] = &[
        ("eventheader_flag_none", 0),
        ("eventheader_flag_pointer64", 0x01),
        ("eventheader_flag_little_endian", 0x02),
        ("eventheader_flag_extension", 0x04),
        ("eventheader_flag_default", 0x03),
        ("eventheader_flag_default_with_extension", 0x07),
        ("event_opcode_info", 0),
        ("event_opcode_activity_start", 1),
        ("event_opcode_activity_stop", 2),
        ("event_opcode_collection_start", 3),
        ("event_opcode_collection_stop", 4),
        ("event_opcode_extension", 5),
        ("event_opcode_reply", 6),
        ("event_opcode_resume", 7),
        ("event_opcode_suspend", 8),
        ("event_opcode_send", 9),
        ("event_opcode_receive", 0xf0),
        ("event_level_invalid", 0),
        ("event_level_critical_error", 1),
        ("event_level_error", 2),
        ("event_level_warning", 3),
        ("event_level_information", 4),
        ("event_level_verbose", 5),
        ("eventheader_extension_kind_value_mask", 0x7fff),
        ("eventheader_extension_kind_chain_flag", 0x8000),
        ("eventheader_extension_kind_invalid", 0),
        ("eventheader_extension_kind_metadata", 1),
        ("eventheader_extension_kind_activity_id", 2),
        ("event_field_encoding_value_mask", 0x1f),
        ("event_field_encoding_flag_mask", 0xe0),
        ("event_field_encoding_carray_flag", 0x20),
        ("event_field_encoding_varray_flag", 0x40),
        ("event_field_encoding_chain_flag", 0x80),
        ("event_field_encoding_invalid", 0),
        ("event_field_encoding_struct", 1),
        ("event_field_encoding_value8", 2),
        ("event_field_encoding_value16", 3),
        ("event_field_encoding_value32", 4),
        ("event_field_encoding_value64", 5),
        ("event_field_encoding_value128", 6),
        ("event_field_encoding_zstring_char8", 7),
        ("event_field_encoding_zstring_char16", 8),
        ("event_field_encoding_zstring_char32", 9),
        ("event_field_encoding_string_length16_char8", 10),
        ("event_field_encoding_string_length16_char16", 11),
        ("event_field_encoding_string_length16_char32", 12),
        ("event_field_encoding_binary_length16_char8", 13),
        // Size-dependent aliases, x86_64 Linux: long 8, pointer 8, float 4,
        // double 8, wchar_t 4.
        ("event_field_encoding_value_long", 5),
        ("event_field_encoding_value_ptr", 5),
        ("event_field_encoding_value_float", 4),
        ("event_field_encoding_value_double", 5),
        ("event_field_encoding_value_wchar", 4),
        ("event_field_encoding_zstring_wchar", 9),
        ("event_field_encoding_string_length16_wchar", 12),
        ("event_field_format_value_mask", 0x7f),
        ("event_field_format_chain_flag", 0x80),
        ("event_field_format_default", 0),
        ("event_field_format_unsigned_int", 1),
        ("event_field_format_signed_int", 2),
        ("event_field_format_hex_int", 3),
        ("event_field_format_errno", 4),
        ("event_field_format_pid", 5),
        ("event_field_format_time", 6),
        ("event_field_format_boolean", 7),
        ("event_field_format_float", 8),
        ("event_field_format_hex_bytes", 9),
        ("event_field_format_string8", 10),
        ("event_field_format_string_utf", 11),
        ("event_field_format_string_utf_bom", 12),
        ("event_field_format_string_xml", 13),
        ("event_field_format_string_json", 14),
        ("event_field_format_uuid", 15),
        ("event_field_format_port", 16),
        ("event_field_format_ip_address", 17),
        ("event_field_format_ip_address_obsolete", 18),
        ("event_field_format_ipv4", 17),
        ("event_field_format_ipv6", 18),
        ("EVENTHEADER_NAME_MAX", 256),
        ("EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA", 2),
        ("EVENTHEADER_PREFIX_DATAVEC_COUNT", 3),
        ("provider_init.data_file", -1),
        ("provider_init.ref_count", 0),
        ("provider_init.head_null", 1),
        ("state_init.status_word", 0),
        ("state_init.write_index", -1),
        ("state_init.provider_null", 1),
        ("state_init.link_null", 1),
        ("enabled_init", 0),
        ("enabled_set", 1),
        ("prototypes_linked", 1),
    ];
    for (k, v) in values {
        put(&format!("value.{k}"), &v.to_string());
    }

    // Names and commands (spec-notes §3).
    let types = "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level";
    put("str.EVENTHEADER_COMMAND_TYPES", types);
    put(
        "value.sizeof_EVENTHEADER_COMMAND_TYPES",
        &(types.len() + 1).to_string(),
    );
    put(
        "value.EVENTHEADER_COMMAND_MAX",
        &(256 + types.len() + 1).to_string(),
    );
    let names = [
        ("name1", "MyProvider_L5K1".to_string()),
        ("name2", "OtherProvider_L3K2Gmygroup".to_string()),
        ("name3", "P_LffKf123456789abcdef".to_string()),
        ("command1", format!("MyProvider_L5K1 {types}")),
        ("command2", format!("OtherProvider_L3K2Gmygroup {types}")),
    ];
    for (k, text) in &names {
        put(&format!("str.{k}"), text);
        put(&format!("value.{k}_ret"), &text.len().to_string());
    }
    // Truncated to a 4-byte buffer; returns the full length.
    put("str.name_trunc", "MyP");
    put("value.name_trunc_ret", "15");
    m
}

fn field_size<T, F>(_: fn(&T) -> &F) -> usize {
    core::mem::size_of::<F>()
}

macro_rules! rust_struct {
    ($out:ident, $cname:literal, $t:ty, [$($f:ident),*]) => {
        $out.push((format!("sizeof.{}", $cname), core::mem::size_of::<$t>().to_string()));
        $out.push((format!("alignof.{}", $cname), core::mem::align_of::<$t>().to_string()));
        $(
            $out.push((
                format!("offsetof.{}.{}", $cname, stringify!($f)),
                core::mem::offset_of!($t, $f).to_string(),
            ));
            $out.push((
                format!("sizeof.{}.{}", $cname, stringify!($f)),
                field_size(|s: &$t| &s.$f).to_string(),
            ));
        )*
    };
}

/// The same facts as the library's Rust definitions see them.
fn rust_abi() -> Vec<(String, String)> {
    use eventheader_tracepoint::abi::eventheader::*;
    use eventheader_tracepoint::abi::*;
    use eventheader_tracepoint::ffi::eventheader::*;
    use eventheader_tracepoint::ffi::tracepoint::TracepointDefinition;

    let mut out: Vec<(String, String)> = Vec::new();
    rust_struct!(
        out,
        "tracepoint_list_node",
        TracepointListNode,
        [next, prev]
    );
    rust_struct!(
        out,
        "tracepoint_provider_state",
        TracepointProviderState,
        [data_file, ref_count, tracepoint_list_head]
    );
    rust_struct!(
        out,
        "tracepoint_state",
        TracepointState,
        [
            status_word,
            write_index,
            provider_state,
            tracepoint_list_link
        ]
    );
    rust_struct!(
        out,
        "tracepoint_definition",
        TracepointDefinition,
        [state, tp_name_args]
    );
    rust_struct!(
        out,
        "eventheader",
        EventHeader,
        [flags, version, id, tag, opcode, level]
    );
    rust_struct!(
        out,
        "eventheader_extension",
        EventHeaderExtension,
        [size, kind]
    );
    rust_struct!(
        out,
        "eventheader_tracepoint",
        EventHeaderTracepoint,
        [state, metadata, header, keyword]
    );
    rust_struct!(
        out,
        "eventheader_provider",
        EventHeaderProvider,
        [state, options, name]
    );
    for (name, size) in [
        (
            "eventheader_flags",
            core::mem::size_of::<EventHeaderFlags>(),
        ),
        ("event_opcode", core::mem::size_of::<EventOpcode>()),
        ("event_level", core::mem::size_of::<EventLevel>()),
        (
            "eventheader_extension_kind",
            core::mem::size_of::<EventHeaderExtensionKind>(),
        ),
        (
            "event_field_encoding",
            core::mem::size_of::<EventFieldEncoding>(),
        ),
        (
            "event_field_format",
            core::mem::size_of::<EventFieldFormat>(),
        ),
    ] {
        out.push((format!("sizeof.{name}"), size.to_string()));
    }
    macro_rules! values {
        ($($t:ident :: $v:ident),* $(,)?) => {
            $( out.push((format!("value.{}", stringify!($v)), ($t::$v as i64).to_string())); )*
        };
    }
    values!(
        EventHeaderFlags::eventheader_flag_none,
        EventHeaderFlags::eventheader_flag_pointer64,
        EventHeaderFlags::eventheader_flag_little_endian,
        EventHeaderFlags::eventheader_flag_extension,
        EventOpcode::event_opcode_info,
        EventOpcode::event_opcode_activity_start,
        EventOpcode::event_opcode_activity_stop,
        EventOpcode::event_opcode_collection_start,
        EventOpcode::event_opcode_collection_stop,
        EventOpcode::event_opcode_extension,
        EventOpcode::event_opcode_reply,
        EventOpcode::event_opcode_resume,
        EventOpcode::event_opcode_suspend,
        EventOpcode::event_opcode_send,
        EventOpcode::event_opcode_receive,
        EventLevel::event_level_invalid,
        EventLevel::event_level_critical_error,
        EventLevel::event_level_error,
        EventLevel::event_level_warning,
        EventLevel::event_level_information,
        EventLevel::event_level_verbose,
        EventHeaderExtensionKind::eventheader_extension_kind_value_mask,
        EventHeaderExtensionKind::eventheader_extension_kind_chain_flag,
        EventHeaderExtensionKind::eventheader_extension_kind_invalid,
        EventHeaderExtensionKind::eventheader_extension_kind_metadata,
        EventHeaderExtensionKind::eventheader_extension_kind_activity_id,
        EventFieldEncoding::event_field_encoding_value_mask,
        EventFieldEncoding::event_field_encoding_flag_mask,
        EventFieldEncoding::event_field_encoding_carray_flag,
        EventFieldEncoding::event_field_encoding_varray_flag,
        EventFieldEncoding::event_field_encoding_chain_flag,
        EventFieldEncoding::event_field_encoding_invalid,
        EventFieldEncoding::event_field_encoding_struct,
        EventFieldEncoding::event_field_encoding_value8,
        EventFieldEncoding::event_field_encoding_value16,
        EventFieldEncoding::event_field_encoding_value32,
        EventFieldEncoding::event_field_encoding_value64,
        EventFieldEncoding::event_field_encoding_value128,
        EventFieldEncoding::event_field_encoding_zstring_char8,
        EventFieldEncoding::event_field_encoding_zstring_char16,
        EventFieldEncoding::event_field_encoding_zstring_char32,
        EventFieldEncoding::event_field_encoding_string_length16_char8,
        EventFieldEncoding::event_field_encoding_string_length16_char16,
        EventFieldEncoding::event_field_encoding_string_length16_char32,
        EventFieldEncoding::event_field_encoding_binary_length16_char8,
        EventFieldFormat::event_field_format_value_mask,
        EventFieldFormat::event_field_format_chain_flag,
        EventFieldFormat::event_field_format_default,
        EventFieldFormat::event_field_format_unsigned_int,
        EventFieldFormat::event_field_format_signed_int,
        EventFieldFormat::event_field_format_hex_int,
        EventFieldFormat::event_field_format_errno,
        EventFieldFormat::event_field_format_pid,
        EventFieldFormat::event_field_format_time,
        EventFieldFormat::event_field_format_boolean,
        EventFieldFormat::event_field_format_float,
        EventFieldFormat::event_field_format_hex_bytes,
        EventFieldFormat::event_field_format_string8,
        EventFieldFormat::event_field_format_string_utf,
        EventFieldFormat::event_field_format_string_utf_bom,
        EventFieldFormat::event_field_format_string_xml,
        EventFieldFormat::event_field_format_string_json,
        EventFieldFormat::event_field_format_uuid,
        EventFieldFormat::event_field_format_port,
        EventFieldFormat::event_field_format_ip_address,
        EventFieldFormat::event_field_format_ip_address_obsolete,
    );
    out.push((
        "value.EVENTHEADER_NAME_MAX".into(),
        EVENTHEADER_NAME_MAX.to_string(),
    ));
    out.push((
        "value.EVENTHEADER_COMMAND_MAX".into(),
        EVENTHEADER_COMMAND_MAX.to_string(),
    ));
    out.push((
        "value.EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA".into(),
        EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA.to_string(),
    ));
    out.push((
        "value.EVENTHEADER_PREFIX_DATAVEC_COUNT".into(),
        EVENTHEADER_PREFIX_DATAVEC_COUNT.to_string(),
    ));
    out.push((
        "str.EVENTHEADER_COMMAND_TYPES".into(),
        eventheader_tracepoint::eventheader::COMMAND_TYPES.to_string(),
    ));
    out
}

/// Differences between an expected table and actual `key value` pairs.
fn table_diff(
    expected: &BTreeMap<String, String>,
    actual: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (k, v) in expected {
        match actual.get(k) {
            None => problems.push(format!("missing {k} (expected {v})")),
            Some(a) if a != v => problems.push(format!("{k}: expected {v}, got {a}")),
            _ => {}
        }
    }
    for k in actual.keys() {
        if !expected.contains_key(k) {
            problems.push(format!("unexpected key {k}"));
        }
    }
    problems
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn abi_layout_matches_the_reference_in_c_cpp_and_rust() {
    let expected = expected_abi();
    let dir = support::temp_dir();
    let mut builds = 0;
    for tc in support::toolchains() {
        for (compiler, std, lang) in [(tc.cc, "c11", "c"), (tc.cxx, "c++17", "c++")] {
            let exe = build_core(dir.path(), "abi_layout", compiler, std);
            let output = support::run_plain(&exe, &[]);
            let mut actual: BTreeMap<String, String> = BTreeMap::new();
            for line in stdout_of(&output).lines() {
                let (k, v) = line.split_once(' ').unwrap_or((line, ""));
                assert!(
                    actual.insert(k.to_string(), v.to_string()).is_none(),
                    "duplicate key {k}"
                );
            }
            assert_eq!(actual.remove("lang").as_deref(), Some(lang));
            let problems = table_diff(&expected, &actual);
            assert!(
                problems.is_empty(),
                "{compiler} -std={std}: ABI differs from the reference:\n{}",
                problems.join("\n")
            );
            builds += 1;
        }
    }
    assert!(builds >= 2);

    // The Rust definitions agree with the same table.
    let mut problems = Vec::new();
    for (k, v) in rust_abi() {
        match expected.get(&k) {
            None => problems.push(format!("rust: no expectation for {k}")),
            Some(e) if *e != v => problems.push(format!("rust: {k}: expected {e}, got {v}")),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    eprintln!(
        "ABI: {} facts checked in {builds} C/C++ builds and in Rust",
        expected.len()
    );
}

// ---------------------------------------------------------------------------
// 2. Every field encoding
// ---------------------------------------------------------------------------

fn expected_encodings() -> Vec<(&'static str, &'static str, Vec<String>)> {
    vec![
        (
            "CoreEnc_L5K1",
            "Scalars",
            s(&[
                "u8:2/0=200",
                "i8:2/2=-100",
                "x16:3/3=0xBEEF",
                "u16:3/0=65000",
                "i32:4/2=-2000000000",
                "f32:4/8=3.5",
                "b32:4/7=1",
                "errno:4/4=2",
                "pid:4/5=4242",
                "t32:4/6=86400",
                "ip4:4/17=192.168.1.20",
                "port:3/16=8080",
                "u64:5/0=18000000000000000001",
                "i64:5/2=-9000000000000000001",
                "f64:5/8=-6.25",
                "x64:5/3=0x123456789ABCDEF",
                "t64:5/6=1700000000",
                "u32:4/1=4000000000",
                "v128:6/0=00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f",
                "guid:6/15=10325476-98ba-dcfe-0123-456789abcdef",
                "ip6:6/17=2001:db8::1",
                "ch8:2/10=Z",
                "ch16:3/11=\u{e9}",
                "ch32:4/11=\u{1f600}",
            ]),
        ),
        (
            "CoreEnc_L5K1",
            "Strings",
            s(&[
                "z8:7/0=hello",
                "z16:8/0=wide16",
                "z32:9/0=wide32",
                "zjson:7/14={\"a\":1}",
                "s8:10/0=counted",
                "s16:11/0=c16",
                "s32:12/0=c32!",
                "bin:13/0=de ad be ef 00",
                "empty:7/0=",
                "s8empty:10/0=",
                "hexstr:7/9=41 42",
            ]),
        ),
        (
            "CoreEnc_L5K1",
            "Arrays",
            s(&[
                "ca32[c3",
                "ca32:4/0=1",
                "ca32:4/0=2",
                "ca32:4/0=3",
                "]",
                "va16[v4",
                "va16:3/2=-1",
                "va16:3/2=2",
                "va16:3/2=-3",
                "va16:3/2=4",
                "]",
                "vaz[v3",
                "vaz:7/0=a",
                "vaz:7/0=",
                "vaz:7/0=bc",
                "]",
                "ca8hex[c2",
                "ca8hex:2/3=0xA",
                "ca8hex:2/3=0xFF",
                "]",
                "va0[v0",
                "]",
                "cas16[c2",
                "cas16:11/0=xy",
                "cas16:11/0=z",
                "]",
            ]),
        ),
        (
            "CoreEnc_L5K1",
            "Structs",
            s(&[
                "outer{3",
                "a:2/0=7",
                "inner{2",
                "x:3/0=300",
                "s:7/0=in",
                "}",
                "b:4/2=-1",
                "}",
                "after:2/0=9",
                "sarr[v2",
                "sarr{2",
                "k:2/10=A",
                "v:3/0=1",
                "}",
                "sarr{2",
                "k:2/10=B",
                "v:3/0=2",
                "}",
                "]",
                "holder{2",
                "cv[c2",
                "cv:3/0=5",
                "cv:3/0=6",
                "]",
                "vs[v2",
                "vs:7/0=p",
                "vs:7/0=q",
                "]",
                "}",
            ]),
        ),
        (
            "CoreEnc_L4K10",
            "Tags",
            s(&[
                "tagged:4/3#1234=0xCAFE",
                "tstruct{1#beef",
                "m:2/0=1",
                "}",
                "ztag:7/11#1=t",
                "catag[c2#7777",
                "catag:3/1#7777=10",
                "catag:3/1#7777=20",
                "]",
            ]),
        ),
    ]
}

#[test]
fn every_field_encoding_decodes_to_the_values_written() {
    let dir = support::temp_dir();
    let expected = expected_encodings();
    for tc in support::toolchains() {
        let exe = build_core(dir.path(), "encodings", tc.cc, "c11");
        let (stdout, records) = run_captured(dir.path(), &exe, &[]);
        assert_eq!(stdout_value(&stdout, "written"), "5");
        assert_eq!(
            records.len(),
            expected.len(),
            "{}: records {records:?}",
            tc.cc
        );
        for (rec, (tp, event, items)) in records.iter().zip(&expected) {
            assert_eq!(rec.name, *tp);
            let d = decode(rec);
            assert_eq!(d.event_name, *event);
            assert_eq!(d.provider, "CoreEnc");
            assert_eq!(d.options, "");
            assert_eq!(d.flags, FLAGS_EXT, "{event}: flags");
            assert_eq!(d.activity, None);
            assert_eq!(&d.items, items, "{}: {event}", tc.cc);
            if *event == "Tags" {
                assert_eq!(
                    (d.version, d.id, d.tag, d.opcode, d.level, d.keyword),
                    (3, 77, 0xABCD, 1, 4, 0x10)
                );
            } else {
                assert_eq!(
                    (d.version, d.id, d.tag, d.opcode, d.level, d.keyword),
                    (0, 0, 0, 0, 5, 1)
                );
            }
        }
        let n: usize = expected.iter().map(|(_, _, items)| items.len()).sum();
        eprintln!(
            "encodings ({}): {} events, {n} items decoded",
            tc.cc,
            records.len()
        );
    }
}

// ---------------------------------------------------------------------------
// 3. Activity ids and extension chaining
// ---------------------------------------------------------------------------

const ACT_A: [u8; 16] = [
    0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
];
const ACT_R: [u8; 16] = [
    0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf,
];

#[test]
fn activity_ids_chain_with_metadata_and_empty_payloads() {
    let dir = support::temp_dir();
    let exe = build_core(dir.path(), "activity", "gcc", "c11");
    let (stdout, records) = run_captured(dir.path(), &exe, &[]);
    assert_eq!(stdout_value(&stdout, "written"), "9");

    let h = hdr(FLAGS_EXT, 0, 0, 0, 0, 5);
    let act16_chain = cat(&[&ext(16, 0x8002), &ACT_A]);
    let act32_chain = cat(&[&ext(32, 0x8002), &ACT_A, &ACT_R]);
    let expected: Vec<Vec<u8>> = vec![
        // 1 NoAct: metadata only, 0-byte payload.
        cat(&[&h, &meta(b"NoAct\0")]),
        // 2 Act16: activity (chained to the metadata), header fields kept.
        cat(&[
            &hdr(FLAGS_EXT, 2, 5, 0x0102, 1, 5),
            &act16_chain,
            &meta(b"Act16\0v\0\x02"),
            &[0x2a],
        ]),
        // 3 Act32: activity + related, chained to the metadata.
        cat(&[&h, &act32_chain, &meta(b"Act32\0")]),
        // 4 activity only: last extension, no chain flag.
        cat(&[&h, &ext(16, 0x0002), &ACT_A, &[1, 2, 3]]),
        // 5 activity + related only, no payload.
        cat(&[&h, &ext(32, 0x0002), &ACT_A, &ACT_R]),
        // 6 no extension at all.
        cat(&[&hdr(FLAGS_PLAIN, 0, 0, 0, 0, 5), &[9]]),
        // 7 header only.
        hdr(FLAGS_PLAIN, 0, 0, 0, 0, 5),
        // 8 the header announces extensions in the payload: activity chains.
        cat(&[
            &h,
            &act16_chain,
            &meta(b"InPayload\0w\0\x03"),
            &[0x34, 0x12],
        ]),
        // 9 empty payload vectors.
        cat(&[&h, &meta(b"Empty\0")]),
    ];
    assert_eq!(records.len(), expected.len(), "{records:?}");
    for (i, (rec, want)) in records.iter().zip(&expected).enumerate() {
        assert_eq!(rec.name, "CoreAct_L5K1");
        assert_eq!(
            hex(&rec.event),
            hex(want),
            "event {} bytes differ from the format",
            i + 1
        );
    }

    // Decoding: ids and fields.
    let d = decode(&records[0]);
    assert_eq!(
        (d.event_name.as_str(), d.activity, d.related),
        ("NoAct", None, None)
    );
    assert!(d.items.is_empty());
    let d = decode(&records[1]);
    assert_eq!(d.event_name, "Act16");
    assert_eq!((d.activity, d.related), (Some(ACT_A), None));
    assert_eq!((d.version, d.id, d.tag, d.opcode), (2, 5, 0x0102, 1));
    assert_eq!(d.items, s(&["v:2/0=42"]));
    let d = decode(&records[2]);
    assert_eq!(d.event_name, "Act32");
    assert_eq!((d.activity, d.related), (Some(ACT_A), Some(ACT_R)));
    assert!(d.items.is_empty());
    let d = decode(&records[7]);
    assert_eq!(d.event_name, "InPayload");
    assert_eq!((d.activity, d.related), (Some(ACT_A), None));
    assert_eq!(d.items, s(&["w:3/0=4660"]));
    let d = decode(&records[8]);
    assert_eq!(d.event_name, "Empty");
    assert!(d.items.is_empty());
    // Without metadata the decoder walks the (well-terminated) extension
    // chain and then reports "no metadata".
    for (i, rec) in records.iter().enumerate().take(7).skip(3) {
        let mut ctx = EventHeaderEnumeratorContext::new();
        let err = ctx
            .enumerate_with_name_and_data(&rec.name, &rec.event, 100)
            .err();
        assert_eq!(
            err,
            Some(EventHeaderEnumeratorError::NotSupported),
            "event {}",
            i + 1
        );
    }
}

// ---------------------------------------------------------------------------
// 4. De-duplication and the plain tracepoint layer
// ---------------------------------------------------------------------------

#[test]
fn open_with_arrays_deduplicates_and_plain_tracepoints_write_raw_payloads() {
    let dir = support::temp_dir();
    let exe = build_core(dir.path(), "dedup", "gcc", "c11");
    let (stdout, records) = run_captured(dir.path(), &exe, &[]);
    assert!(stdout.contains("tp-dedup ok ref_count 3"), "{stdout}");
    assert!(stdout.contains("eh-dedup ok ref_count 3"), "{stdout}");

    let e = |name: &[u8], level: u8, x: u8| {
        let mut body = name.to_vec();
        body.extend_from_slice(b"\0x\0\x02");
        cat(&[&hdr(FLAGS_EXT, 0, 0, 0, 0, level), &meta(&body), &[x]])
    };
    let expected: Vec<(&str, Vec<u8>)> = vec![
        ("CoreTpA", vec![0x44, 0x33, 0x22, 0x11]),
        ("CoreTpB", vec![0x55]),
        // 0-byte payload: one padding byte.
        ("CoreTpC", vec![0x00]),
        ("CoreTpD", vec![0x66, 0x77]),
        ("CoreTpE", vec![0x88]),
        ("CoreDedup_L5K1Gtest", e(b"E1", 5, 1)),
        ("CoreDedup_L5K1Gtest", e(b"E2", 5, 2)),
        ("CoreDedup_L4K2Gtest", e(b"E3", 4, 3)),
    ];
    let (probe, records): (Vec<Record>, Vec<Record>) = records
        .into_iter()
        .partition(|r| r.name == "CoreTpEmptyVec");
    let actual: Vec<(&str, Vec<u8>)> = records
        .iter()
        .map(|r| (r.name.as_str(), r.event.clone()))
        .collect();
    assert_eq!(actual, expected);

    // Each distinct tracepoint name written once per event: no duplicate
    // registration produced extra records.
    let mut per_name: HashMap<&str, usize> = HashMap::new();
    for r in &records {
        *per_name.entry(r.name.as_str()).or_default() += 1;
    }
    assert_eq!(per_name.len(), 7);
    assert_eq!(per_name["CoreDedup_L5K1Gtest"], 2);

    for r in records.iter().filter(|r| r.name.starts_with("CoreDedup_")) {
        let d = decode(r);
        assert_eq!(
            (d.provider.as_str(), d.options.as_str()),
            ("CoreDedup", "Gtest")
        );
    }
    // A write whose only payload vector is empty gets the padding byte too
    // (the kernel drops empty events).
    assert_eq!(probe.len(), 1);
    assert_eq!(probe[0].event, [0x00], "padding of an empty-vector write");
}

// ---------------------------------------------------------------------------
// 5. Byte-level oracle against the reference capture
// ---------------------------------------------------------------------------

/// The number of events oracle.c reproduces: 114 events both reference
/// providers log (x2), EventCG, EventCppG, the long-name provider's event,
/// and 6 events only the C++ provider logs.
const ORACLE_EVENTS: usize = 114 * 2 + 3 + 6;

#[test]
fn reference_events_are_reproduced_byte_for_byte() {
    let reference = support::reference_records();
    let mut by_key: HashMap<(String, String), Vec<&Record>> = HashMap::new();
    for r in &reference {
        let name = support::event_name(&r.event).expect("reference event has metadata");
        by_key.entry((r.name.clone(), name)).or_default().push(r);
    }

    let dir = support::temp_dir();
    for tc in support::toolchains() {
        let exe = build_core(dir.path(), "oracle", tc.cc, "c11");
        let (stdout, ours) = run_captured(dir.path(), &exe, &[]);
        let written: usize = stdout_value(&stdout, "written").parse().unwrap();
        assert_eq!(written, ORACLE_EVENTS);
        assert_eq!(ours.len(), written, "{}: records captured", tc.cc);

        let mut occurrence: HashMap<(String, String), usize> = HashMap::new();
        let mut matched = 0;
        let mut problems = Vec::new();
        let mut reference_used = HashSet::new();
        for rec in &ours {
            let name = support::event_name(&rec.event)
                .unwrap_or_else(|| panic!("our {} event has no metadata", rec.name));
            let key = (rec.name.clone(), name);
            let n = occurrence.entry(key.clone()).or_default();
            let Some(want) = by_key.get(&key).and_then(|v| v.get(*n)) else {
                problems.push(format!("{key:?} #{n}: no such reference record"));
                continue;
            };
            *n += 1;
            if want.event == rec.event {
                matched += 1;
                reference_used.insert(*want as *const Record);
            } else {
                problems.push(format!(
                    "{key:?}:\n  ours      {}\n  reference {}",
                    hex(&rec.event),
                    hex(&want.event)
                ));
            }
        }
        assert!(
            problems.is_empty(),
            "{}: {} of {} events differ from the reference:\n{}",
            tc.cc,
            problems.len(),
            ours.len(),
            problems.join("\n")
        );
        assert_eq!(
            reference_used.len(),
            matched,
            "a reference record matched twice"
        );
        assert!(matched >= 20);
        assert_eq!(matched, ORACLE_EVENTS);
        eprintln!(
            "oracle ({}): N = {matched} of {} reference records reproduced byte for byte",
            tc.cc,
            reference.len()
        );
    }
}

// ---------------------------------------------------------------------------
// 6. Errors and no-kernel behaviour
// ---------------------------------------------------------------------------

#[test]
fn errno_contract_in_capture_mode() {
    let dir = support::temp_dir();
    let exe = build_core(dir.path(), "errors", "gcc", "c11");
    let (stdout, records) = run_captured(dir.path(), &exe, &["capture"]);
    for line in [
        "tracepoint errors ok",
        "provider errors ok",
        "event errors ok",
        "done",
    ] {
        assert!(
            stdout.lines().any(|l| l == line),
            "{line:?} missing:\n{stdout}"
        );
    }
    // Exactly the one good write; every failed call wrote nothing.
    let want = cat(&[
        &hdr(FLAGS_EXT, 0, 0, 0, 0, 5),
        &meta(b"Ok\0v\0\x02"),
        &[0x11],
    ]);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].name, "CoreErr_L5K1");
    assert_eq!(hex(&records[0].event), hex(&want));
}

#[test]
fn without_user_events_calls_are_safe_no_ops_and_capture_can_be_selected() {
    let dir = support::temp_dir();
    let exe = build_core(dir.path(), "errors", "gcc", "c11");
    let p1 = dir.path().join("set1.dat");
    let p2 = dir.path().join("set2.dat");
    let output = support::run_plain(
        &exe,
        &["nokernel", p1.to_str().unwrap(), p2.to_str().unwrap()],
    );
    let stdout = stdout_of(&output);
    let errno: i32 = stdout_value(&stdout, "open-errno").parse().unwrap();
    assert!(
        [
            libc_errno::EOPNOTSUPP,
            libc_errno::ENOENT,
            libc_errno::EACCES
        ]
        .contains(&errno),
        "open without user_events returned errno {errno}"
    );
    for line in ["nokernel ok", "setfile ok", "done"] {
        assert!(
            stdout.lines().any(|l| l == line),
            "{line:?} missing:\n{stdout}"
        );
    }
    let h = hdr(FLAGS_PLAIN, 0, 0, 0, 0, 5);
    let r1 = support::read_capture(&p1);
    let r2 = support::read_capture(&p2);
    assert_eq!(
        r1,
        vec![Record {
            name: "CoreSet_L5K1".into(),
            event: cat(&[&h, &[1]])
        }]
    );
    assert_eq!(
        r2,
        vec![Record {
            name: "CoreSet_L5K1".into(),
            event: cat(&[&h, &[2]])
        }]
    );
    eprintln!("no kernel: open returned errno {errno}");
}

/// errno values of Linux (x86_64 and the generic ABI).
mod libc_errno {
    pub const ENOENT: i32 = 2;
    pub const EACCES: i32 = 13;
    pub const EOPNOTSUPP: i32 = 95;
}

// ---------------------------------------------------------------------------
// 7. Threads
// ---------------------------------------------------------------------------

#[test]
fn concurrent_writes_and_reconnects_produce_only_well_formed_records() {
    let dir = support::temp_dir();
    let exe = build_core(dir.path(), "threads", "gcc", "c11");
    let started = std::time::Instant::now();
    let (stdout, records) = run_captured(dir.path(), &exe, &[]);
    let elapsed = started.elapsed();

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
    let total = stdout_value(&stdout, "total ok");
    let f: Vec<&str> = total.split_whitespace().collect();
    let toggles: usize = f[5].parse().unwrap();
    assert!(toggles >= 1, "the toggler never ran: {total}");

    // Every record parses (read_capture checks the framing) and decodes.
    let mut seen_eh: BTreeMap<u32, usize> = BTreeMap::new();
    let mut seen_raw: BTreeMap<u32, usize> = BTreeMap::new();
    let mut seqs: HashSet<(bool, u32, u32)> = HashSet::new();
    for rec in &records {
        match rec.name.as_str() {
            "CoreThreads_L5K1" => {
                let d = decode(rec);
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
                assert_eq!(d.event_name, if seq % 2 == 0 { "A" } else { "B" });
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
    assert_eq!(records.len(), n_eh + n_raw);
    assert!(n_eh > 0 && n_raw > 0, "no write succeeded: {total}");
    eprintln!(
        "threads: {} records = {n_eh} eventheader + {n_raw} raw successful writes; {} ({:?})",
        records.len(),
        total,
        elapsed
    );
}
