//! The structs of the public C headers, as libclang lays them out (bindgen over
//! `include/`), against the Rust `#[repr(C)]` definitions the library uses:
//! size, alignment, and every field's offset and size (docs/format.md §2.2,
//! §2.3). The field lists are exhaustive on both sides (a struct pattern
//! without `..` fails to compile
//! when either side has a field the list does not name), so a field added,
//! removed, renamed, retyped or reordered on one side only fails this test.

use abi_layout as c;
use eventheader_tracepoint::abi as rust_abi;
use eventheader_tracepoint::abi::{
    eventheader_definitions as rust_eh, tracepoint_definition as rust_tp,
};

use core::mem::{align_of, offset_of, size_of};

/// The size of the field a projection returns.
fn field_size<S, F>(_: fn(&S) -> &F) -> usize {
    size_of::<F>()
}

macro_rules! same_layout {
    ($c:ident, $($rust:ident)::+, [$($field:ident),+ $(,)?]) => {{
        type R = $($rust)::+;
        let name = stringify!($c);
        assert_eq!(size_of::<c::$c>(), size_of::<R>(), "size of {name}");
        assert_eq!(align_of::<c::$c>(), align_of::<R>(), "alignment of {name}");
        $(
            assert_eq!(
                offset_of!(c::$c, $field),
                offset_of!(R, $field),
                "offset of {name}.{}", stringify!($field)
            );
            assert_eq!(
                field_size(|s: &c::$c| &s.$field),
                field_size(|s: &R| &s.$field),
                "size of {name}.{}", stringify!($field)
            );
        )+
        #[allow(dead_code)]
        fn exhaustive(cv: c::$c, rv: R) {
            let c::$c { $($field: _),+ } = cv;
            let $($rust)::+ { $($field: _),+ } = rv;
        }
        [$(stringify!($field)),+].len()
    }};
}

#[test]
fn public_structs_match_the_rust_definitions() {
    let mut fields = 0;
    fields += same_layout!(
        tracepoint_list_node,
        rust_abi::TracepointListNode,
        [next, prev]
    );
    fields += same_layout!(
        tracepoint_provider_state,
        rust_abi::TracepointProviderState,
        [data_file, ref_count, tracepoint_list_head]
    );
    fields += same_layout!(
        tracepoint_state,
        rust_abi::TracepointState,
        [
            status_word,
            write_index,
            provider_state,
            tracepoint_list_link
        ]
    );
    fields += same_layout!(
        tracepoint_definition,
        rust_tp::TracepointDefinition,
        [state, tp_name_args]
    );
    fields += same_layout!(
        eventheader,
        rust_abi::EventHeader,
        [flags, version, id, tag, opcode, level]
    );
    fields += same_layout!(
        eventheader_extension,
        rust_abi::EventHeaderExtension,
        [size, kind]
    );
    fields += same_layout!(
        eventheader_tracepoint,
        rust_eh::EventHeaderTracepoint,
        [state, metadata, header, keyword]
    );
    fields += same_layout!(
        eventheader_provider,
        rust_eh::EventHeaderProvider,
        [state, options, name]
    );
    fields += same_layout!(
        ehd_field,
        eventheader_tracepoint::ffi::dynamic_api::field_array::ehd_field,
        [name, name_len, value, count, encoding, format, tag]
    );
    fields += same_layout!(
        ehd_value,
        eventheader_tracepoint::ffi::dynamic_api::event_def::ehd_value,
        [data, size]
    );
    assert_eq!(fields, 35);
}

#[test]
fn private_dynamic_layouts_match_the_rust_definitions() {
    use eventheader_tracepoint::dynamic::builder as rust_builder;
    use eventheader_tracepoint::dynamic::provider as rust_provider;
    type B = c::_ehd_builder_state;
    type Buf = c::_ehd_builder_buffer;
    let buf = |outer: usize, which: &str| {
        [
            (
                format!("{which}.ptr"),
                outer + offset_of!(Buf, ptr),
                field_size(|b: &Buf| &b.ptr),
            ),
            (
                format!("{which}.len"),
                outer + offset_of!(Buf, len),
                field_size(|b: &Buf| &b.len),
            ),
            (
                format!("{which}.cap"),
                outer + offset_of!(Buf, cap),
                field_size(|b: &Buf| &b.cap),
            ),
            (
                format!("{which}.owned"),
                outer + offset_of!(Buf, owned),
                field_size(|b: &Buf| &b.owned),
            ),
        ]
    };
    let mut builder: Vec<(String, usize, usize)> = Vec::new();
    builder.extend(buf(offset_of!(B, meta), "meta"));
    builder.extend(buf(offset_of!(B, data), "data"));
    builder.extend([
        (
            "error".to_string(),
            offset_of!(B, error),
            field_size(|b: &B| &b.error),
        ),
        (
            "id".to_string(),
            offset_of!(B, id),
            field_size(|b: &B| &b.id),
        ),
        (
            "tag".to_string(),
            offset_of!(B, tag),
            field_size(|b: &B| &b.tag),
        ),
        (
            "version".to_string(),
            offset_of!(B, version),
            field_size(|b: &B| &b.version),
        ),
        (
            "opcode".to_string(),
            offset_of!(B, opcode),
            field_size(|b: &B| &b.opcode),
        ),
        (
            "level".to_string(),
            offset_of!(B, level),
            field_size(|b: &B| &b.level),
        ),
        (
            "fields_mode".to_string(),
            offset_of!(B, fields_mode),
            field_size(|b: &B| &b.fields_mode),
        ),
        (
            "meta_limit".to_string(),
            offset_of!(B, meta_limit),
            field_size(|b: &B| &b.meta_limit),
        ),
        (
            "data_limit".to_string(),
            offset_of!(B, data_limit),
            field_size(|b: &B| &b.data_limit),
        ),
    ]);
    #[allow(dead_code)]
    fn exhaustive(b: B, f: Buf, s: c::_ehd_event_set_state) {
        let B {
            meta: _,
            data: _,
            error: _,
            id: _,
            tag: _,
            version: _,
            opcode: _,
            level: _,
            fields_mode: _,
            meta_limit: _,
            data_limit: _,
        } = b;
        let Buf {
            ptr: _,
            len: _,
            cap: _,
            owned: _,
        } = f;
        let c::_ehd_event_set_state {
            state: _,
            keyword: _,
            error: _,
            level: _,
            refs: _,
            provider: _,
        } = s;
    }
    let rust = |table: &[(&str, usize, usize)]| -> Vec<(String, usize, usize)> {
        table
            .iter()
            .map(|&(n, o, s)| (n.to_string(), o, s))
            .collect()
    };
    assert_eq!(
        (size_of::<B>(), align_of::<B>(), builder),
        (
            size_of::<rust_builder::Builder>(),
            align_of::<rust_builder::Builder>(),
            rust(&rust_builder::LAYOUT)
        ),
        "_ehd_builder_state (size, alignment, fields) against the Rust builder"
    );
    type S = c::_ehd_event_set_state;
    let set = vec![
        (
            "state".to_string(),
            offset_of!(S, state),
            field_size(|s: &S| &s.state),
        ),
        (
            "keyword".to_string(),
            offset_of!(S, keyword),
            field_size(|s: &S| &s.keyword),
        ),
        (
            "error".to_string(),
            offset_of!(S, error),
            field_size(|s: &S| &s.error),
        ),
        (
            "level".to_string(),
            offset_of!(S, level),
            field_size(|s: &S| &s.level),
        ),
        (
            "refs".to_string(),
            offset_of!(S, refs),
            field_size(|s: &S| &s.refs),
        ),
        (
            "provider".to_string(),
            offset_of!(S, provider),
            field_size(|s: &S| &s.provider),
        ),
    ];
    assert_eq!(
        (size_of::<S>(), align_of::<S>(), set),
        (
            size_of::<rust_provider::EventSet>(),
            align_of::<rust_provider::EventSet>(),
            rust(&rust_provider::LAYOUT)
        ),
        "_ehd_event_set_state (size, alignment, fields) against the Rust event set"
    );
}

#[test]
fn public_constants_match_the_rust_definitions() {
    use eventheader_tracepoint::abi::eventheader_format as e;
    assert_eq!(c::EVENTHEADER_NAME_MAX, e::EVENTHEADER_NAME_MAX);
    assert_eq!(c::EVENTHEADER_COMMAND_MAX, e::EVENTHEADER_COMMAND_MAX);
    assert_eq!(
        c::EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA,
        rust_eh::EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA
    );
    assert_eq!(
        c::EVENTHEADER_PREFIX_DATAVEC_COUNT,
        rust_eh::EVENTHEADER_PREFIX_DATAVEC_COUNT
    );
}

/// The reference's public structs where pointers are 4 bytes (i386 and 32-bit
/// arm, built by `scripts/cross/abis.sh`): its declarations laid out by those
/// ABIs, typed in (struct, size, alignment, [(field, offset, size)]). A 64-bit
/// member is 4-aligned in an i386 struct and 8-aligned on arm, which only
/// eventheader_tracepoint's alignment shows (its keyword is at 16 on both).
#[cfg(target_pointer_width = "32")]
#[test]
fn layouts_with_4_byte_pointers_are_the_references() {
    type Layout = (usize, usize, &'static [(usize, usize)]);
    let keyword_align = if cfg!(target_arch = "x86") { 4 } else { 8 };
    let want: [(&str, Layout); 8] = [
        ("tracepoint_list_node", (8, 4, &[(0, 4), (4, 4)])),
        (
            "tracepoint_provider_state",
            (16, 4, &[(0, 4), (4, 4), (8, 8)]),
        ),
        (
            "tracepoint_state",
            (20, 4, &[(0, 4), (4, 4), (8, 4), (12, 8)]),
        ),
        ("tracepoint_definition", (8, 4, &[(0, 4), (4, 4)])),
        (
            "eventheader",
            (8, 2, &[(0, 1), (1, 1), (2, 2), (4, 2), (6, 1), (7, 1)]),
        ),
        ("eventheader_extension", (4, 2, &[(0, 2), (2, 2)])),
        (
            "eventheader_tracepoint",
            (24, keyword_align, &[(0, 4), (4, 4), (8, 8), (16, 8)]),
        ),
        ("eventheader_provider", (12, 4, &[(0, 4), (4, 4), (8, 4)])),
    ];
    macro_rules! got {
        ($c:ident, [$($field:ident),+]) => {
            (
                stringify!($c),
                (
                    size_of::<c::$c>(),
                    align_of::<c::$c>(),
                    vec![$((offset_of!(c::$c, $field), field_size(|s: &c::$c| &s.$field))),+],
                ),
            )
        };
    }
    let got = [
        got!(tracepoint_list_node, [next, prev]),
        got!(
            tracepoint_provider_state,
            [data_file, ref_count, tracepoint_list_head]
        ),
        got!(
            tracepoint_state,
            [
                status_word,
                write_index,
                provider_state,
                tracepoint_list_link
            ]
        ),
        got!(tracepoint_definition, [state, tp_name_args]),
        got!(eventheader, [flags, version, id, tag, opcode, level]),
        got!(eventheader_extension, [size, kind]),
        got!(eventheader_tracepoint, [state, metadata, header, keyword]),
        got!(eventheader_provider, [state, options, name]),
    ];
    for ((name, (size, align, fields)), (got_name, (got_size, got_align, got_fields))) in
        want.iter().zip(&got)
    {
        assert_eq!(name, got_name);
        assert_eq!(
            (*size, *align, fields.to_vec()),
            (*got_size, *got_align, got_fields.clone()),
            "{name}: (size, alignment, [(offset, size)])"
        );
    }
}
