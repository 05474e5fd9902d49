//! Runs bindgen (libclang) over the public headers in `include/` and writes
//! their struct definitions to `$OUT_DIR/bindings.rs`.

use std::path::PathBuf;

/// The public headers whose structs the layout test compares with Rust.
const HEADERS: &[&str] = &[
    "tracepoint/tracepoint-state.h",
    "tracepoint/tracepoint.h",
    "tracepoint/tracepoint-capture.h",
    "eventheader/eventheader.h",
    "eventheader/eventheader-tracepoint.h",
    "eventheader/eventheader-dynamic.h",
];

/// The C structs of those headers.
const STRUCTS: &[&str] = &[
    "tracepoint_list_node",
    "tracepoint_provider_state",
    "tracepoint_state",
    "tracepoint_definition",
    "eventheader",
    "eventheader_extension",
    "eventheader_tracepoint",
    "eventheader_provider",
    "_ehd_builder_buffer",
    "_ehd_builder_state",
    "_ehd_event_set_state",
    "ehd_field",
    "ehd_value",
];

fn main() {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let include = manifest.join("../../include");
    let mut wrapper = String::new();
    for h in HEADERS {
        let path = include.join(h);
        println!("cargo:rerun-if-changed={}", path.display());
        wrapper.push_str(&format!("#include <{h}>\n"));
    }
    let mut builder = bindgen::Builder::default()
        .header_contents("abi_layout_wrapper.h", &wrapper)
        .clang_arg(format!("-I{}", include.display()))
        .layout_tests(false)
        .derive_debug(false)
        .derive_copy(false)
        .allowlist_var("EVENTHEADER_.*");
    for s in STRUCTS {
        builder = builder.allowlist_type(s);
    }
    let bindings = builder.generate().unwrap_or_else(|e| {
        panic!(
            "bindgen over {}: {e} (needs libclang: apt-get install libclang-14-dev)",
            include.display()
        )
    });
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("bindings.rs");
    bindings.write_to_file(&out).expect("writing bindings.rs");
}
