//! TraceLoggingProvider.h: the C/C++ TraceLogging tests (c-tests/tracelogging) and the
//! samples, built from the manifest with every available compiler and several language
//! standards, run in capture mode, and their captured events checked:
//! - byte identity with the reference implementation's 260 TraceLogging events;
//! - provider lifecycle (register/unregister/re-register, unregistered writes,
//!   TraceLoggingProviderEnabled) in C and C++;
//! - TraceLoggingValue in C (_Generic) against the reference's C++ events;
//! - compile-time rejection of misuse;
//! - the samples' events, decoded with tracepoint_decode.
//!
//! One trial per program, build and run (`testkit::trials`), and the
//! compile-time checks once per toolchain.

use testkit::cargo_tests::{self as support, decode::json_line as decode, Build, Ran, Record};
use testkit::trials::{self, judge, judged_elsewhere, Judge};
use testkit::Toolchain;

/// Providers whose reference events belong to this header (the rest are TestProviderDyn's).
fn is_tracelogging_reference(record: &Record) -> bool {
    !record.name.starts_with("TestProviderDyn_")
}

/// The reference's TraceLogging events, in file order.
fn reference_tracelogging() -> Vec<Record> {
    let records: Vec<Record> = support::reference_records()
        .into_iter()
        .filter(is_tracelogging_reference)
        .collect();
    assert_eq!(records.len(), 260, "reference TraceLogging event count");
    records
}

/// Whether the programs are built for x86_64, the one architecture of
/// tl_test's build variants (the manifest's tl_large_*, tl_gc_*) with the
/// large code model and PIE (aarch64 has no large PIC model).
fn large_pie_applies() -> bool {
    let arch = match testkit::cross::target() {
        Some(cross) => cross
            .triple
            .split('-')
            .next()
            .unwrap_or_default()
            .to_string(),
        None => std::env::consts::ARCH.to_string(),
    };
    arch == "x86_64"
}

/// A readable summary of a record for failure messages.
fn describe(record: &Record) -> String {
    format!(
        "{} / {}",
        record.name,
        support::event_name(&record.event).unwrap_or_else(|| "(no metadata)".into())
    )
}

/// Compares `got` with `want` record by record; returns (identical count, differences).
fn compare(got: &[Record], want: &[Record]) -> (usize, Vec<String>) {
    let mut same = 0;
    let mut diffs = Vec::new();
    for i in 0..got.len().max(want.len()) {
        match (got.get(i), want.get(i)) {
            (Some(g), Some(w)) if g == w => same += 1,
            (Some(g), Some(w)) => diffs.push(format!(
                "#{i}: got {} {:02x?}\n      want {} {:02x?}",
                describe(g),
                g.event,
                describe(w),
                w.event
            )),
            (Some(g), None) => diffs.push(format!("#{i}: extra {}", describe(g))),
            (None, Some(w)) => diffs.push(format!("#{i}: missing {}", describe(w))),
            (None, None) => unreachable!(),
        }
    }
    (same, diffs)
}

/// tl_test's reference run (and its build variants'): the reference's events,
/// byte for byte. Prints the count of identical events; fails with the first
/// differences.
fn check_reference(program: &Build, ran: &Ran) {
    let want = reference_tracelogging();
    let got = &ran.records;
    let (same, diffs) = compare(got, &want);
    println!(
        "{}: {same}/{} reference events byte-identical",
        program.label,
        want.len()
    );
    if !diffs.is_empty() {
        panic!(
            "{}: {same}/{} identical, {} captured\n  {}",
            program.label,
            want.len(),
            got.len(),
            diffs
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n  ")
        );
    }
}

/// The call-site entries (section `_tlgSites`) of a build's C++ object: each
/// must be an absolute 8-byte relocation (`reloc`) of a symbol the object
/// defines, what g++'s asm statement must print in every code model (a
/// register name would assemble into an undefined symbol). Returns their
/// number.
fn site_entries(build: &Build, reloc: &str) -> Result<usize, String> {
    let obj = build
        .exe
        .parent()
        .expect("build directory")
        .join(format!(".obj-{}", build.program.name))
        .join("tl_cpp.cpp.o");
    let tool = |name: &str, args: &[&str]| -> String {
        let out = std::process::Command::new(name)
            .args(args)
            .arg(&obj)
            .output()
            .unwrap_or_else(|e| panic!("running {name}: {e}"));
        assert!(out.status.success(), "{name} {}: {:?}", obj.display(), out);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let defined: Vec<String> = tool("nm", &["--defined-only"])
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect();
    let mut entries = 0;
    let mut in_sites = false;
    for line in tool("readelf", &["-rW"]).lines() {
        if line.starts_with("Relocation section") {
            in_sites = line.contains("_tlgSites'");
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if !in_sites || words.len() < 5 || u64::from_str_radix(words[0], 16).is_err() {
            continue;
        }
        let (kind, symbol) = (words[2], words[4]);
        if kind != reloc {
            return Err(format!(
                "{}: an entry with {kind}, not {reloc}: {line}",
                obj.display()
            ));
        }
        if !symbol.starts_with('.') && !defined.iter().any(|d| d == symbol) {
            return Err(format!(
                "{}: an entry names {symbol}, not defined there",
                obj.display()
            ));
        }
        entries += 1;
    }
    if entries == 0 {
        return Err(format!("{}: no _tlgSites entry", obj.display()));
    }
    Ok(entries)
}

/// The reference events again from tl_test's large code model variants:
/// the C++ call-site entry in every code and relocation model (the variants
/// linked with section garbage collection are judged by
/// [`check_reference`]: their call sites survive it).
fn check_large_model(program: &Build, ran: &Ran) {
    let reloc = match testkit::cross::target() {
        Some(cross) if cross.triple.starts_with("aarch64") => "R_AARCH64_ABS64",
        Some(cross) => panic!("no relocation check for {}", cross.triple),
        None => "R_X86_64_64",
    };
    let n = site_entries(program, reloc).unwrap_or_else(|e| panic!("{}: {e}", program.label));
    println!("{}: {n} call-site entries, each an {reloc}", program.label);
    check_reference(program, ran);
}

/// tl_test lifecycle: the provider lifecycle in C and C++.
fn check_lifecycle(program: &Build, ran: &Ran) {
    let got: Vec<String> = ran.records.iter().map(decode).collect();
    let mut want = Vec::new();
    for provider in ["TlLifecycleC", "TlLifecycleCpp"] {
        want.push(format!(
            "{provider}:Registered1 level=5 keyword=0x0 opcode=0 {{\"value\": 1}}"
        ));
        want.push(format!(
            "{provider}:Registered2 level=5 keyword=0x0 opcode=0 {{\"value\": 2}}"
        ));
        want.push(format!(
            "{provider}:NoIds level=5 keyword=0x0 opcode=0 {{\"value\": 3}}"
        ));
        want.push(format!(
            "{provider}:Struct level=2 keyword=0x3 opcode=0 {{\"pair\": {{ \"a\": 7, \"b\": \"b\" }}}}"
        ));
    }
    assert_eq!(got, want, "{}: lifecycle events", program.label);
}

/// tl_test cvalues: C's TraceLoggingValue writes what C++'s does.
fn check_cvalues(program: &Build, ran: &Ran) {
    // The reference's C++ TraceLoggingValue events, minus the char16_t, char32_t and
    // wchar_t values (integer typedefs in C), as written to the C provider.
    let want: Vec<Record> = reference_tracelogging()
        .into_iter()
        .filter(|r| r.name == "TestProviderCpp_L5K0")
        .filter(|r| {
            let name = support::event_name(&r.event).unwrap_or_default();
            name.starts_with("Value:")
                && !["Value:char16", "Value:char32", "Value:wchar"].contains(&name.as_str())
        })
        .map(|r| Record {
            name: "TestProviderC_L5K0".into(),
            event: r.event,
        })
        .collect();
    assert_eq!(want.len(), 24);
    let (same, diffs) = compare(&ran.records, &want);
    assert!(
        diffs.is_empty(),
        "{}: {same}/{} C TraceLoggingValue events identical to C++:\n  {}",
        program.label,
        want.len(),
        diffs.join("\n  ")
    );
}

/// A translation unit that uses the header, with `body` inside a function.
fn misuse_source(provider: &str, body: &str) -> String {
    format!(
        "#include <eventheader/TraceLoggingProvider.h>\n\
         TRACELOGGING_DEFINE_PROVIDER(P, {provider});\n\
         int f(int n);\n\
         int f(int n)\n{{\n    (void)n;\n    {body}\n    return 0;\n}}\n"
    )
}

const GOOD_PROVIDER: &str = "\"P\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)";

/// The message of a TraceLoggingWrite argument that is not a TraceLogging macro.
const NOT_A_MACRO: &str = "an argument is not a TraceLogging macro";

/// Correct uses the misuse test first checks are accepted, so that a rejection
/// below is the header's and not the harness's: each number of arguments
/// (none, one option, one field of each argument count, a macro that expands
/// to several arguments), the activity and Windows forms, optional arguments
/// left out and given.
const GOOD_USES: &[&str] = &[
    "TraceLoggingWrite(P, \"E\");",
    "TraceLoggingWrite(P, \"E\", TraceLoggingLevel(1));",
    "TraceLoggingWrite(P, \"E\", TraceLoggingInt32(n));",
    "TraceLoggingWrite(P, \"E\", TraceLoggingInt32(n, \"n\", \"d\", 7));",
    "int32_t a[2] = { 1, 2 }; TraceLoggingWrite(P, \"E\", TraceLoggingInt32FixedArray(a, 2));",
    "TraceLoggingWrite(P, \"E\", TraceLoggingBinaryEx(&n, sizeof(n), event_field_format_hex_bytes));",
    "TraceLoggingWrite(P, \"E\", TraceLoggingPackedFieldEx(&n, 4, event_field_encoding_value32, \
     event_field_format_hex_int, \"h\"));",
    "#define TWO_ARGS TraceLoggingLevel(1), TraceLoggingInt32(n)\n    TraceLoggingWrite(P, \"E\", TWO_ARGS);",
    "TraceLoggingWrite(P, \"E\", TraceLoggingLevel(1), TraceLoggingStruct(1, \"s\"), TraceLoggingInt32(n));",
    "TraceLoggingWriteActivity(P, \"E\", NULL, NULL);",
    "TraceLoggingWriteEx(P, \"E\", 0, 0, NULL, NULL, TraceLoggingValue(n));",
    "TraceLoggingWrite(P, \"E\", TraceLoggingEventTag(0xFFFF), TraceLoggingInt32(n, \"n\", \"d\", 0xFFFF), \
     TraceLoggingValue(n, \"v\", \"d\", 65535), TraceLoggingStruct(1, \"s\", \"d\", 0), TraceLoggingInt32(n));",
];

/// The message of a field tag over 16 bits.
const FIELD_TAG: &str = "TraceLogging field tag must be a constant 0..65535";

/// Misuse cases: (name, provider arguments, body, C also rejects it, expected message).
const MISUSE: &[(&str, &str, &str, bool, &str)] = &[
    (
        "non-literal event name",
        GOOD_PROVIDER,
        "char const* name = \"E\"; TraceLoggingWrite(P, name);",
        true,
        "",
    ),
    (
        "non-literal field name",
        GOOD_PROVIDER,
        "char const* name = \"x\"; TraceLoggingWrite(P, \"E\", TraceLoggingInt32(n, name));",
        true,
        "",
    ),
    (
        "level 0",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingLevel(0));",
        true,
        "TraceLoggingLevel must be a constant 1..255",
    ),
    (
        "level 256",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingLevel(256));",
        true,
        "TraceLoggingLevel must be a constant 1..255",
    ),
    ("non-constant level", GOOD_PROVIDER, "TraceLoggingWrite(P, \"E\", TraceLoggingLevel(n));", true, ""),
    (
        "channel 256",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingChannel(256));",
        true,
        "TraceLoggingChannel must be a constant 0..255",
    ),
    (
        "custom attribute value with ';'",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingCustomAttribute(\"k\", \"a;b\"));",
        false,
        "must not contain ';'",
    ),
    (
        "FILETIME field given an int",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingFileTime(n));",
        true,
        "the value has the wrong size for this field",
    ),
    (
        "SYSTEMTIME array of ints",
        GOOD_PROVIDER,
        "int a[2] = { 0, 0 }; TraceLoggingWrite(P, \"E\", TraceLoggingSystemTimeArray(a, 2));",
        true,
        "the array has the wrong element type for this field",
    ),
    (
        "struct of 0 fields",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingStruct(0, \"s\"));",
        true,
        "fieldCount must be a constant 1..127",
    ),
    (
        "fixed array of 0 elements",
        GOOD_PROVIDER,
        "int32_t a[1] = { 0 }; TraceLoggingWrite(P, \"E\", TraceLoggingInt32FixedArray(a, 0));",
        true,
        "count must be a constant 1..65535",
    ),
    (
        "event tag over 0xFFFF",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingEventTag(0x10000));",
        true,
        "TraceLoggingEventTag must be a constant 0..65535",
    ),
    // Field tags wider than the format's 16 bits (Windows' are 28): refused, not
    // truncated, whichever kind of field carries them.
    (
        "field tag 0x10005",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingInt32(n, \"n\", \"d\", 0x10005));",
        true,
        FIELD_TAG,
    ),
    (
        "field tag of 28 bits",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingInt32(n, \"n\", \"d\", 0x4000000));",
        true,
        FIELD_TAG,
    ),
    (
        "negative field tag",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingInt32(n, \"n\", \"d\", -1));",
        true,
        FIELD_TAG,
    ),
    (
        "TraceLoggingValue tag over 0xFFFF",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingValue(n, \"n\", \"d\", 0x10000));",
        true,
        FIELD_TAG,
    ),
    (
        "string tag over 0xFFFF",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingString(\"s\", \"s\", \"d\", 0x10000));",
        true,
        FIELD_TAG,
    ),
    (
        "fixed array tag over 0xFFFF",
        GOOD_PROVIDER,
        "int32_t a[1] = { 0 }; TraceLoggingWrite(P, \"E\", TraceLoggingInt32FixedArray(a, 1, \"a\", \"d\", 0x10000));",
        true,
        FIELD_TAG,
    ),
    (
        "struct tag over 0xFFFF",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingStruct(1, \"s\", \"d\", 0x10000), TraceLoggingInt32(n));",
        true,
        FIELD_TAG,
    ),
    (
        "pointer array of ints",
        GOOD_PROVIDER,
        "int a[2] = { 0, 0 }; TraceLoggingWrite(P, \"E\", TraceLoggingPointerArray(a, 2));",
        true,
        "",
    ),
    (
        "provider GUID of 10 values",
        "\"P\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)",
        "",
        true,
        "_tlgGUID_SHAPE",
    ),
    (
        "provider name too long",
        "\"P_123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)",
        "",
        true,
        "provider name + options too long",
    ),
    (
        "provider name with a space",
        "\"My Provider\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)",
        "",
        false,
        "provider name must be non-empty without ' ' or ':'",
    ),
    (
        "provider name with a colon",
        "\"My:Provider\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)",
        "",
        false,
        "provider name must be non-empty without ' ' or ':'",
    ),
    // An argument after the event name that is not a TraceLogging
    // macro, alone (where a "has arguments?" probe could take it for none) and
    // beside a valid one.
    (
        "misspelled field macro",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingInt23(n, \"n\"));",
        true,
        NOT_A_MACRO,
    ),
    (
        "bare expression",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", n + 1);",
        true,
        NOT_A_MACRO,
    ),
    ("bare variable", GOOD_PROVIDER, "TraceLoggingWrite(P, \"E\", n);", true, NOT_A_MACRO),
    (
        "string literal",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", \"text\");",
        true,
        NOT_A_MACRO,
    ),
    (
        "empty argument",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", );",
        true,
        NOT_A_MACRO,
    ),
    (
        "bare expression after a field",
        GOOD_PROVIDER,
        "TraceLoggingWrite(P, \"E\", TraceLoggingInt32(n), n + 1);",
        true,
        NOT_A_MACRO,
    ),
    (
        "bare expression in TraceLoggingWriteActivity",
        GOOD_PROVIDER,
        "TraceLoggingWriteActivity(P, \"E\", NULL, NULL, n + 1);",
        true,
        NOT_A_MACRO,
    ),
    // A parenthesized expression looks like a macro's tuple: refused too (by
    // the dispatch, with the compiler's own message).
    ("parenthesized expression", GOOD_PROVIDER, "TraceLoggingWrite(P, \"E\", (n));", true, ""),
    (
        "group name with uppercase",
        "\"P\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), TraceLoggingOptionGroupName(\"MSFT\")",
        "",
        false,
        "group name must be [a-z0-9] characters",
    ),
];

/// Misuse of the header is rejected at compile time, in C and in C++.
fn misuse_is_rejected_at_compile_time(tc: Toolchain) {
    let dir = support::temp_dir();
    let check =
        |compiler: &str, std: &str, ext: &str, name: &str, source: &str| -> (bool, String) {
            let file = dir.path().join(format!("{}.{ext}", name.replace(' ', "_")));
            std::fs::write(&file, source).unwrap();
            testkit::build::check_syntax(compiler, std, &file)
        };
    for (cc, std, ext, is_c) in [(tc.cc, "gnu11", "c", true), (tc.cxx, "c++17", "cpp", false)] {
        // The harness accepts correct code, so the rejections below are meaningful.
        for (k, body) in GOOD_USES.iter().enumerate() {
            let good = misuse_source(GOOD_PROVIDER, body);
            let (ok, stderr) = check(cc, std, ext, &format!("good{k}"), &good);
            assert!(
                ok,
                "{cc} -std={std}: correct use was rejected: {body}\n{stderr}"
            );
        }
        for &(name, provider, body, c_rejects, message) in MISUSE {
            if is_c && !c_rejects {
                continue;
            }
            let (ok, stderr) = check(cc, std, ext, name, &misuse_source(provider, body));
            assert!(!ok, "{cc} -std={std}: {name} was accepted");
            assert!(
                stderr.contains(message),
                "{cc} -std={std}: {name}: expected {message:?} in:\n{stderr}"
            );
        }
    }
}

/// `TraceLoggingValue` in C where `wchar_t` is the type of `char16_t` or
/// `char32_t` (`-fshort-wchar`: `unsigned short`; on aarch64 and arm,
/// `unsigned int`): its `_Generic` must not name one type twice, whatever
/// the compiler says about `wchar_t`'s signedness, and `wchar_t` strings keep
/// the encoding of their size.
fn value_of_a_wchar_t_string_compiles_where_wchar_t_is_a_char_type(tc: Toolchain) {
    let dir = support::temp_dir();
    let source = dir.path().join("wchar_value.c");
    std::fs::write(
        &source,
        "#include <eventheader/TraceLoggingProvider.h>\n\
         TRACELOGGING_DEFINE_PROVIDER(P, \"WcharValue\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));\n\
         int main(void) {\n\
         \x20   wchar_t const* w = L\"w\"; char16_t const* u = u\"u\"; char32_t const* c = U\"c\";\n\
         \x20   _Static_assert(sizeof(_tlgAUTO_META_STR(w, \"w\")) == 4, \"name, NUL, one encoding byte\");\n\
         \x20   _Static_assert(_tlgAUTO_ENC(w) == _tlgENC_ZWCHAR, \"wchar_t's size\");\n\
         \x20   TraceLoggingWrite(P, \"E\", TraceLoggingValue(w, \"w\"), TraceLoggingValue(u, \"u\"),\n\
         \x20                     TraceLoggingValue(c, \"c\"));\n\
         \x20   return 0;\n\
         }\n",
    )
    .unwrap();
    for flags in [&[][..], &["-fshort-wchar"][..]] {
        let output = testkit::cross::compiler(tc.cc)
            .args([
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fsyntax-only",
                "-I",
            ])
            .arg(support::include_dir())
            .args(flags)
            .arg(&source)
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", tc.cc));
        assert!(
            output.status.success(),
            "{} {flags:?}:\n{}",
            tc.cc,
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// tl_badname: C cannot inspect string literals at compile time, so the
/// library rejects the name (tl_badname.c exits non-zero unless
/// registration fails with EINVAL).
fn c_provider_name_is_checked_at_registration(build: &Build, ran: &Ran) {
    let captured = &ran.records;
    assert!(
        captured.is_empty(),
        "{}: events written for an invalid provider: {captured:?}",
        build.label
    );
}

/// Counted fields (binary, counted strings, variable arrays, converted and
/// GUID arrays, binary buffers) whose run-time count does not fit the format's
/// 16 bits (docs/format.md §5.3): the write returns ERANGE and nothing is
/// captured; at 65535 the field is written whole. A wrapped count would
/// describe other bytes than were written (70000 would become 4464).
fn counted_fields_over_65535_are_refused_not_wrapped(build: &Build, ran: &Ran) {
    let results = [
        ("Binary65535", 0),
        ("UInt8Array65535", 0),
        ("Binary65536", libc::ERANGE),
        ("Binary70000", libc::ERANGE),
        ("CountedString70000", libc::ERANGE),
        ("CountedString16_65536", libc::ERANGE),
        ("Int32Array70000", libc::ERANGE),
        ("UInt8ArrayMinus1", libc::ERANGE),
        ("FileTimeArray70000", libc::ERANGE),
        ("GuidArray70000", libc::ERANGE),
        ("BinaryBuffer70000", libc::ERANGE),
        ("SmallThenOversize", libc::ERANGE),
        ("ActivityOversize", libc::ERANGE),
        ("After", 0),
    ];
    let want: String = results.iter().map(|(n, r)| format!("{n} {r}\n")).collect();
    // The pattern the program fills its buffer with.
    let pattern: Vec<u8> = (0..65535u32).map(|i| (i * 7) as u8).collect();
    assert_eq!(ran.stdout, want, "{}: write results", build.label);
    let names: Vec<_> = ran
        .records
        .iter()
        .map(|r| support::event_name(&r.event).unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        ["Binary65535", "UInt8Array65535", "After"],
        "{}: captured events",
        build.label
    );
    // The two events at the limit end with the u16 count 65535 and the
    // 65535 bytes.
    for record in &ran.records[..2] {
        let tail = &record.event[record.event.len() - 65537..];
        assert_eq!(tail[..2], 65535u16.to_le_bytes(), "{}: count", build.label);
        assert!(tail[2..] == pattern[..], "{}: data", build.label);
    }
    assert_eq!(
        decode(&ran.records[2]),
        "TlOversize:After level=5 keyword=0x0 opcode=0 {\"b\": \"00 07 0E\"}",
        "{}",
        build.label
    );
}

/// c_sample args (`one two`): the C sample's events decode as expected.
fn c_sample_events_decode_as_expected(build: &Build, ran: &Ran) {
    let got: Vec<String> = ran.records.iter().map(decode).collect();
    let act = "activity=112233445566778899aabbccddeeff00";
    let want = vec![
        format!(
            "MySample_C:Started level=4 keyword=0x1 opcode=0 {{\"arg0\": \"{}\", \"argc\": 3}}",
            build.exe.display()
        ),
        format!("MySample_C:WorkStart level=4 keyword=0x0 opcode=1 {act} {{}}"),
        format!("MySample_C:Argument level=5 keyword=0x0 opcode=0 {act} {{\"index\": 1, \"value\": \"one\"}}"),
        format!("MySample_C:Argument level=5 keyword=0x0 opcode=0 {act} {{\"index\": 2, \"value\": \"two\"}}"),
        format!(
            "MySample_C:WorkStop level=4 keyword=0x0 opcode=2 {act} {{\"result\": {{ \"code\": 0, \"text\": \"ok\" }}}}"
        ),
        "MySample_C:Ratios level=3 keyword=0x0 opcode=0 {\"ratios\": [ 0.5, 0.25, 0.125 ]}".to_string(),
    ];
    assert_eq!(got, want, "{}: C sample", build.label);
}

/// cpp_sample: the C++ sample's events decode as expected.
fn cpp_sample_events_decode_as_expected(build: &Build, ran: &Ran) {
    let got: Vec<String> = ran.records.iter().map(decode).collect();
    let want = vec![
        "MySample_Cpp:ItemAdded level=4 keyword=0x0 opcode=0 {\"name\": \"apple\", \"count\": 3, \"first\": true}",
        "MySample_Cpp:ItemAdded level=4 keyword=0x0 opcode=0 {\"name\": \"pear\", \"count\": 12, \"first\": false}",
        "MySample_Cpp:Report level=5 keyword=0x2 opcode=0 {\"lengths\": [ 5, 4 ], \"status\": \"done\", \"score\": 2.5}",
    ];
    assert_eq!(got, want, "{}: C++ sample", build.label);
}

/// tl_autoclose: providers left registered are closed at exit.
fn providers_left_registered_are_closed_at_exit(build: &Build, ran: &Ran) {
    let stdout = &ran.stdout;
    assert!(stdout.contains("register 0"), "{}: {stdout}", build.label);
    assert!(
        stdout.contains("after-auto-close enabled 0"),
        "{}: the provider was still registered after exit: {stdout}",
        build.label
    );
    let names: Vec<_> = ran
        .records
        .iter()
        .map(|r| (r.name.clone(), support::event_name(&r.event)))
        .collect();
    assert_eq!(
        names,
        vec![(
            "TlAutoClose_L5K0".to_string(),
            Some("BeforeExit".to_string())
        )],
        "{}",
        build.label
    );
}

/// The judge of every (program, run) of the suite.
fn judges() -> Vec<Judge> {
    vec![
        judge("tl_test", "reference", check_reference),
        judge("tl_test", "lifecycle", check_lifecycle),
        judge("tl_test", "cvalues", check_cvalues),
        judge("tl_large_pie", "reference", check_large_model).ignored_if(!large_pie_applies()),
        judge("tl_large_nopie", "reference", check_large_model),
        judge("tl_gc_lld", "reference", check_reference),
        judge("tl_gc_bfd", "reference", check_reference),
        judge(
            "tl_autoclose",
            "capture",
            providers_left_registered_are_closed_at_exit,
        ),
        judge(
            "tl_oversize",
            "capture",
            counted_fields_over_65535_are_refused_not_wrapped,
        ),
        judge(
            "tl_badname",
            "capture",
            c_provider_name_is_checked_at_registration,
        ),
        judge("c_sample", "args", c_sample_events_decode_as_expected),
        judge(
            "cpp_sample",
            "capture",
            cpp_sample_events_decode_as_expected,
        ),
        judged_elsewhere(
            "hello_c",
            "capture",
            "tests/docs.rs, with the README's text",
        ),
    ]
}

fn main() {
    let mut extra = trials::per_toolchain(
        "misuse_is_rejected_at_compile_time",
        misuse_is_rejected_at_compile_time,
    );
    extra.extend(trials::per_toolchain(
        "value_of_a_wchar_t_string_compiles_where_wchar_t_is_a_char_type",
        value_of_a_wchar_t_string_compiles_where_wchar_t_is_a_char_type,
    ));
    trials::main(
        env!("CARGO_TARGET_TMPDIR"),
        "tracelogging",
        &judges(),
        extra,
    )
}
