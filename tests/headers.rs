//! The public headers in include/ are generated from the Rust sources by
//! cbindgen plus the fragments in headers/. This test regenerates them and
//! fails if a checked-in header differs; with UPDATE_HEADERS=1 it rewrites
//! them instead.

use std::path::{Path, PathBuf};

struct HeaderSpec {
    /// Output path under include/.
    out: &'static str,
    /// Rust sources whose items form the header.
    sources: &'static [&'static str],
    /// Items to emit even when no function uses them.
    items: &'static [&'static str],
    include_guard: &'static str,
    sys_includes: &'static [&'static str],
    /// Fragment base name in headers/ (NAME.head.h after the includes,
    /// NAME.tail.h at the end, each optional).
    fragment: &'static str,
}

const HEADERS: &[HeaderSpec] = &[
    HeaderSpec {
        out: "tracepoint/tracepoint-state.h",
        sources: &["src/abi/tracepoint_state.rs"],
        items: &[
            "TracepointListNode",
            "TracepointProviderState",
            "TracepointState",
        ],
        include_guard: "_included_tracepoint_state_h",
        sys_includes: &["stddef.h"],
        fragment: "tracepoint-state",
    },
    HeaderSpec {
        out: "tracepoint/tracepoint.h",
        sources: &[
            "src/abi/tracepoint_definition.rs",
            "src/ffi/tracepoint_api.rs",
        ],
        items: &["TracepointDefinition"],
        include_guard: "_included_tracepoint_h",
        sys_includes: &["tracepoint/tracepoint-state.h", "sys/uio.h"],
        fragment: "tracepoint",
    },
    HeaderSpec {
        out: "tracepoint/tracepoint-capture.h",
        sources: &["src/ffi/capture_api.rs"],
        items: &[],
        include_guard: "_included_tracepoint_capture_h",
        sys_includes: &[],
        fragment: "tracepoint-capture",
    },
    HeaderSpec {
        out: "eventheader/eventheader.h",
        sources: &["src/abi/eventheader_format.rs"],
        items: &[
            "EventHeader",
            "EventHeaderExtension",
            "EventHeaderFlags",
            "EventOpcode",
            "EventLevel",
            "EventHeaderExtensionKind",
            "EventFieldEncoding",
            "EventFieldFormat",
            "EVENTHEADER_NAME_MAX",
            "EVENTHEADER_COMMAND_MAX",
        ],
        include_guard: "_included_eventheader_h",
        sys_includes: &["stddef.h", "stdint.h"],
        fragment: "eventheader",
    },
    HeaderSpec {
        out: "eventheader/eventheader-tracepoint.h",
        sources: &[
            "src/abi/eventheader_definitions.rs",
            "src/ffi/eventheader_api.rs",
        ],
        items: &[
            "EventHeaderTracepoint",
            "EventHeaderProvider",
            "EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA",
            "EVENTHEADER_PREFIX_DATAVEC_COUNT",
        ],
        include_guard: "_included_eventheader_tracepoint_h",
        sys_includes: &[
            "tracepoint/tracepoint-state.h",
            "sys/uio.h",
            "eventheader/eventheader.h",
        ],
        fragment: "eventheader-tracepoint",
    },
    HeaderSpec {
        out: "eventheader/eventheader-dynamic.h",
        sources: &[
            "src/ffi/dynamic_api/types.rs",
            "src/ffi/dynamic_api/provider.rs",
            "src/ffi/dynamic_api/builder.rs",
            "src/ffi/dynamic_api/fields.rs",
        ],
        items: &[],
        include_guard: "_included_eventheader_dynamic_h",
        sys_includes: &["stddef.h", "stdint.h", "eventheader/eventheader.h"],
        fragment: "eventheader-dynamic",
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fragment(name: &str, part: &str) -> Option<String> {
    std::fs::read_to_string(root().join("headers").join(format!("{name}.{part}.h"))).ok()
}

fn generate(spec: &HeaderSpec) -> String {
    let mut config =
        cbindgen::Config::from_file(root().join("cbindgen.toml")).expect("cbindgen.toml");
    // The guard is written here rather than by cbindgen so that it also
    // covers the trailer.
    config.include_guard = None;
    config.header = Some(format!(
        "#ifndef {g}\n#define {g} 1",
        g = spec.include_guard
    ));
    config.sys_includes = spec.sys_includes.iter().map(|s| s.to_string()).collect();
    config.export.include = spec.items.iter().map(|s| s.to_string()).collect();
    config.after_includes = fragment(spec.fragment, "head");
    config.trailer = Some(format!(
        "{}\n#endif /* {} */",
        fragment(spec.fragment, "tail").unwrap_or_default(),
        spec.include_guard
    ));
    let mut builder = cbindgen::Builder::new().with_config(config);
    for src in spec.sources {
        builder = builder.with_src(root().join(src));
    }
    let mut out = Vec::new();
    builder.generate().expect("cbindgen").write(&mut out);
    String::from_utf8(out).expect("utf-8 header")
}

#[test]
fn generated_headers_are_current() {
    let update = std::env::var_os("UPDATE_HEADERS").is_some();
    let mut stale = Vec::new();
    for spec in HEADERS {
        let text = generate(spec);
        let path: &Path = &root().join("include").join(spec.out);
        let current = std::fs::read_to_string(path).unwrap_or_default();
        if current != text {
            if update {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, &text).unwrap();
            } else {
                stale.push(spec.out);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated headers {stale:?}: run `UPDATE_HEADERS=1 cargo test --test headers`"
    );
}

/// The library's write entry points private to `TraceLoggingProvider.h`
/// (`src/ffi/tracelogging_api.rs`) are in no generated header: the macro
/// header declares them itself. Each declaration must be the one cbindgen
/// writes for the Rust function, so the two cannot drift apart.
#[test]
fn tracelogging_private_declarations_match_the_library() {
    let mut config =
        cbindgen::Config::from_file(root().join("cbindgen.toml")).expect("cbindgen.toml");
    config.documentation = false;
    config.function.args = cbindgen::Layout::Horizontal;
    config.cpp_compat = false;
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root().join("src/ffi/tracelogging_api.rs"))
        .generate()
        .expect("cbindgen")
        .write(&mut out);
    let generated = String::from_utf8(out).expect("utf-8");
    let declarations: Vec<&str> = generated
        .lines()
        .filter(|l| l.contains(" _eventheader_tlg_"))
        .collect();
    assert_eq!(
        declarations.len(),
        2,
        "declarations generated from src/ffi/tracelogging_api.rs:\n{generated}"
    );
    let header = std::fs::read_to_string(root().join("include/eventheader/TraceLoggingProvider.h"))
        .expect("TraceLoggingProvider.h");
    for declaration in declarations {
        assert!(
            header.lines().any(|l| l == declaration),
            "TraceLoggingProvider.h does not declare\n    {declaration}\n(the function of \
             src/ffi/tracelogging_api.rs): update its declaration"
        );
    }
}
