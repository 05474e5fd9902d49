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
        sys_includes: &[
            "stddef.h",
            "stdint.h",
            "string.h",
            "tracepoint/tracepoint-state.h",
            "eventheader/eventheader.h",
        ],
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

/// The library's entry points private to a header (`sources`, the last
/// one holding them) are in no generated header: `header` declares them
/// itself. Each of its declarations must be the one cbindgen writes for the
/// Rust function, so the two cannot drift apart; `count` of them, their
/// names starting with `prefix`.
fn private_declarations_match_the_library(
    sources: &[&str],
    prefix: &str,
    count: usize,
    header: &str,
) {
    let mut config =
        cbindgen::Config::from_file(root().join("cbindgen.toml")).expect("cbindgen.toml");
    config.documentation = false;
    config.function.args = cbindgen::Layout::Horizontal;
    config.cpp_compat = false;
    let mut builder = cbindgen::Builder::new().with_config(config);
    for src in sources {
        builder = builder.with_src(root().join(src));
    }
    let mut out = Vec::new();
    builder.generate().expect("cbindgen").write(&mut out);
    let generated = String::from_utf8(out).expect("utf-8");
    let declarations: Vec<&str> = generated
        .lines()
        .filter(|l| l.contains(&format!(" {prefix}")) || l.contains(&format!("*{prefix}")))
        .collect();
    assert_eq!(
        declarations.len(),
        count,
        "declarations generated from {sources:?}:\n{generated}"
    );
    let text = std::fs::read_to_string(root().join("include").join(header)).expect(header);
    for declaration in declarations {
        assert!(
            text.lines().any(|l| l == declaration),
            "{header} does not declare\n    {declaration}\n(the function of {}): update its \
             declaration",
            sources.last().unwrap()
        );
    }
}

#[test]
fn tracelogging_private_declarations_match_the_library() {
    private_declarations_match_the_library(
        &["src/ffi/tracelogging_api.rs"],
        "_eventheader_tlg_",
        2,
        "eventheader/TraceLoggingProvider.h",
    );
}

#[test]
fn dynamic_private_declarations_match_the_library() {
    private_declarations_match_the_library(
        &["src/ffi/dynamic_api/types.rs", "src/ffi/dynamic_api/cpp.rs"],
        "_ehd_builder_",
        4,
        "eventheader/EventHeaderDynamic.h",
    );
}
