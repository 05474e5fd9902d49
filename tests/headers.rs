//! The public headers in include/ are generated from the Rust sources by
//! cbindgen plus the fragments in headers/. This test regenerates them and
//! fails if a checked-in header differs; with UPDATE_HEADERS=1 it rewrites
//! them instead. It also checks that every public header includes what the
//! reference implementation's header of the same name includes, and
//! (arg_tables) the argument-counting tables of the hand-written provider
//! headers, regenerated the same way.

use std::path::{Path, PathBuf};

#[path = "headers/arg_tables.rs"]
mod arg_tables;

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
        sys_includes: &["stddef.h", "stdint.h", "endian.h"],
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
            "src/ffi/dynamic_api/field_array.rs",
            "src/ffi/dynamic_api/event_def.rs",
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

/// The writes, and the activity ids for `TraceLoggingActivity.h`.
#[test]
fn tracelogging_private_declarations_match_the_library() {
    private_declarations_match_the_library(
        &["src/ffi/tracelogging_api.rs", "src/ffi/activity_api.rs"],
        "_eventheader_tlg_",
        5,
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

/// The languages a probe below is compiled in.
#[derive(Clone, Copy, PartialEq)]
enum Lang {
    C,
    Cxx,
    Both,
}

/// What a program may use after including only one public header, because
/// the reference implementation's header of that name includes (directly or
/// through its other headers) the system header providing it. Each probe is
/// (our header, the header it stands for, code that needs it, languages).
const INCLUDED: &[(&str, &str, &str, Lang)] = &[
    (
        "eventheader/eventheader.h",
        "stddef.h",
        PROBE_STDDEF,
        Lang::Both,
    ),
    (
        "eventheader/eventheader.h",
        "stdint.h",
        PROBE_STDINT,
        Lang::Both,
    ),
    (
        "eventheader/eventheader.h",
        "endian.h",
        PROBE_ENDIAN,
        Lang::Both,
    ),
    (
        "eventheader/eventheader-tracepoint.h",
        "endian.h",
        PROBE_ENDIAN,
        Lang::Both,
    ),
    (
        "eventheader/eventheader-tracepoint.h",
        "sys/uio.h",
        PROBE_UIO,
        Lang::Both,
    ),
    (
        "eventheader/eventheader-tracepoint.h",
        "tracepoint/tracepoint-state.h",
        PROBE_STATE,
        Lang::Both,
    ),
    (
        "eventheader/TraceLoggingProvider.h",
        "assert.h",
        PROBE_ASSERT,
        Lang::Both,
    ),
    (
        "eventheader/TraceLoggingProvider.h",
        "assert.h",
        PROBE_STATIC_ASSERT,
        Lang::C,
    ),
    (
        "eventheader/TraceLoggingProvider.h",
        "stdlib.h",
        PROBE_STDLIB,
        Lang::Both,
    ),
    (
        "eventheader/TraceLoggingProvider.h",
        "stdint.h",
        PROBE_STDINT,
        Lang::Both,
    ),
    (
        "eventheader/TraceLoggingProvider.h",
        "string.h",
        PROBE_STRING,
        Lang::Both,
    ),
    (
        "eventheader/TraceLoggingProvider.h",
        "endian.h",
        PROBE_ENDIAN,
        Lang::Both,
    ),
    (
        "eventheader/TraceLoggingProvider.h",
        "sys/uio.h",
        PROBE_UIO,
        Lang::Both,
    ),
    (
        "eventheader/EventHeaderDynamic.h",
        "assert.h",
        PROBE_ASSERT,
        Lang::Cxx,
    ),
    (
        "eventheader/EventHeaderDynamic.h",
        "string.h",
        PROBE_STRING,
        Lang::Cxx,
    ),
    (
        "eventheader/EventHeaderDynamic.h",
        "endian.h",
        PROBE_ENDIAN,
        Lang::Cxx,
    ),
    (
        "eventheader/EventHeaderDynamic.h",
        "memory, string_view, type_traits, unordered_map, vector",
        PROBE_STD,
        Lang::Cxx,
    ),
    (
        "tracepoint/tracepoint.h",
        "sys/uio.h",
        PROBE_UIO,
        Lang::Both,
    ),
    (
        "tracepoint/tracepoint.h",
        "tracepoint/tracepoint-state.h",
        PROBE_STATE,
        Lang::Both,
    ),
    (
        "tracepoint/tracepoint-provider.h",
        "stdint.h",
        PROBE_STDINT,
        Lang::Both,
    ),
    (
        "tracepoint/tracepoint-provider.h",
        "tracepoint/tracepoint.h",
        PROBE_TRACEPOINT,
        Lang::Both,
    ),
];

const PROBE_STDDEF: &str = "struct s { char a; int b; };\n\
                            int probe(void) { return (int)offsetof(struct s, b); }";
const PROBE_STDINT: &str = "int probe(void) { uint16_t v = UINT16_MAX; return v != 0; }";
/// A program that tests the byte order: without <endian.h> both names are
/// undefined, compare equal, and the big-endian branch is taken on a
/// little-endian host.
const PROBE_ENDIAN: &str = "#if __BYTE_ORDER == __BIG_ENDIAN\n\
                            #if __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__\n\
                            #error __BYTE_ORDER == __BIG_ENDIAN on a little-endian host\n\
                            #endif\n\
                            #endif\n\
                            int probe(void) { return __BYTE_ORDER == __LITTLE_ENDIAN; }";
const PROBE_UIO: &str = "int probe(void) { return sizeof(struct iovec) > 0; }";
const PROBE_STATE: &str = "int probe(void) {\n\
                           \x20   tracepoint_state s = TRACEPOINT_STATE_INIT;\n\
                           \x20   return (int)s.status_word;\n}";
const PROBE_ASSERT: &str = "int probe(int n) { assert(n == n); return n; }";
const PROBE_STATIC_ASSERT: &str = "static_assert(1, \"static_assert from <assert.h>\");";
const PROBE_STDLIB: &str = "int probe(void) { return EXIT_SUCCESS; }";
const PROBE_STRING: &str = "int probe(void) { char a[2] = { 1, 2 }; memcpy(a, a + 1, 1);\n\
                            \x20   return (int)strlen(\"ab\") + a[0]; }";
const PROBE_STD: &str = "int probe() {\n\
                         \x20   std::vector<int> v(1);\n\
                         \x20   std::unordered_map<int, int> m;\n\
                         \x20   std::unique_ptr<int> p;\n\
                         \x20   std::string_view s(\"ab\");\n\
                         \x20   return std::is_same<int, int>::value + (int)v.size() + (int)m.size()\n\
                         \x20       + (p ? 1 : 0) + (int)s.size();\n}";
const PROBE_TRACEPOINT: &str = "int probe(void) {\n\
                                \x20   int (*write)(tracepoint_state const*, unsigned, struct iovec*) =\n\
                                \x20       tracepoint_write;\n\
                                \x20   return write != 0;\n}";

/// Programs that rely on what a public header includes compile (gcc, clang,
/// C11 and C++17, `-Wall -Wextra -Werror`); each probe alone, without the
/// header, does not, so it does test the include.
#[test]
fn headers_include_what_the_reference_headers_include() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut failures = Vec::new();
    let mut compiled = 0;
    for tc in testkit::toolchains() {
        for (k, &(header, includes, probe, lang)) in INCLUDED.iter().enumerate() {
            let langs: &[(&str, &str, &str)] = match lang {
                Lang::C => &[("c", "c11", "c")],
                Lang::Cxx => &[("cxx", "c++17", "cpp")],
                Lang::Both => &[("c", "c11", "c"), ("cxx", "c++17", "cpp")],
            };
            for &(which, std, ext) in langs {
                let compiler = if which == "c" { tc.cc } else { tc.cxx };
                let with = dir.path().join(format!("with{k}.{ext}"));
                let alone = dir.path().join(format!("alone{k}.{ext}"));
                std::fs::write(&with, format!("#include <{header}>\n{probe}\n")).unwrap();
                std::fs::write(&alone, format!("{probe}\n")).unwrap();
                let (ok, stderr) = testkit::build::check_syntax(compiler, std, &with);
                if !ok {
                    failures.push(format!(
                        "{compiler} -std={std}: a program relying on <{header}> including \
                         {includes} does not compile:\n{stderr}"
                    ));
                }
                let (alone_ok, _) = testkit::build::check_syntax(compiler, std, &alone);
                if alone_ok {
                    failures.push(format!(
                        "{compiler} -std={std}: the probe for {includes} compiles without any \
                         header: it tests nothing\n{probe}"
                    ));
                }
                compiled += 2;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("{compiled} compilations: every probe needs its header and compiles with it");
}

/// The manifest's -pedantic programs (`manifest::pedantic()`) compile with
/// `-pedantic -Werror`: every source, in every test configuration.
#[test]
fn pedantic_programs_compile_without_warnings() {
    use testkit::manifest::{pedantic, program};
    let jobs: Vec<_> = pedantic()
        .flat_map(|p| {
            testkit::build::test_configs(p)
                .into_iter()
                .flat_map(move |c| p.sources.iter().map(move |s| (p, c, *s)))
        })
        .collect();
    let failures: Vec<String> = testkit::pool::map(&jobs, |_, &(p, config, source)| {
        testkit::build::check_pedantic(p, &config, source)
            .err()
            .map(|e| format!("{} ({}): {e}", p.name, config.label(program(p.name))))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "{} of {} compilations failed:\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n")
    );
    println!("{} compilations with -pedantic -Werror", jobs.len());
}
