//! ABI layout: sizes, offsets and values of the public headers in C and
//! C++ against the reference's, typed in from docs/format.md §2 and §4, and the
//! library's Rust definitions against the same table.

use std::collections::BTreeMap;

use testkit::cargo_tests::{Build, Ran};

/// (struct, size, alignment, [(field, offset, size)])
type StructLayout = (
    &'static str,
    usize,
    usize,
    &'static [(&'static str, usize, usize)],
);

/// The reference ABI on x86_64 Linux, typed in from docs/format.md §2 and §4.
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

    // Names and commands (docs/format.md §3.2, §3.3).
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
    use eventheader_tracepoint::abi::eventheader_definitions::*;
    use eventheader_tracepoint::abi::eventheader_format::*;
    use eventheader_tracepoint::abi::*;

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

/// Whether the table applies to this machine: it is the LP64 one (x86_64,
/// aarch64, in C and in Rust); the checks are compiled on every target so
/// that no branch goes unchecked.
pub const APPLIES: bool = cfg!(target_pointer_width = "64");

/// `abi_layout table`: the C or C++ build's layouts match the reference's.
pub fn check(build: &Build, ran: &Ran) {
    let expected = expected_abi();
    let mut actual: BTreeMap<String, String> = BTreeMap::new();
    for line in ran.stdout.lines() {
        let (k, v) = line.split_once(' ').unwrap_or((line, ""));
        assert!(
            actual.insert(k.to_string(), v.to_string()).is_none(),
            "duplicate key {k}"
        );
    }
    // A C++ standard compiles the C source as C++.
    let lang = if build.config.standard.c.starts_with("c++") {
        "c++"
    } else {
        "c"
    };
    assert_eq!(
        actual.remove("lang").as_deref(),
        Some(lang),
        "{}",
        build.label
    );
    let problems = table_diff(&expected, &actual);
    assert!(
        problems.is_empty(),
        "{}: ABI differs from the reference:\n{}",
        build.label,
        problems.join("\n")
    );
    eprintln!("ABI ({}): {} facts checked", build.label, expected.len());
}

/// The library's Rust definitions agree with the same table.
pub fn check_rust() {
    let expected = expected_abi();
    let mut problems = Vec::new();
    for (k, v) in rust_abi() {
        match expected.get(&k) {
            None => problems.push(format!("rust: no expectation for {k}")),
            Some(e) if *e != v => problems.push(format!("rust: {k}: expected {e}, got {v}")),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    eprintln!("ABI: {} facts checked in Rust", expected.len());
}
