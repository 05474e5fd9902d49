//! TraceLoggingProvider.h: builds the C/C++ TraceLogging tests (c-tests/tracelogging)
//! and the samples with every available compiler and several language standards,
//! runs them in capture mode, and checks the captured events:
//! - byte identity with the reference implementation's 260 TraceLogging events;
//! - provider lifecycle (register/unregister/re-register, unregistered writes,
//!   TraceLoggingProviderEnabled) in C and C++;
//! - TraceLoggingValue in C (_Generic) against the reference's C++ events;
//! - compile-time rejection of misuse;
//! - the samples' events, decoded with tracepoint_decode.

mod support;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use support::{Record, Toolchain};
use tracepoint_decode::{EventHeaderEnumeratorContext, PerfConvertOptions};

/// (C standard, C++ standard) pairs each toolchain builds the tests with.
const STANDARDS: &[(&str, &str)] = &[("gnu11", "c++11"), ("c11", "c++17"), ("gnu17", "c++20")];

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

/// One build of the test program.
struct TestProgram {
    label: String,
    exe: PathBuf,
}

fn out_dir(name: &str) -> PathBuf {
    let dir = support::lib_dir().join("tracelogging-tests").join(name);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    dir
}

/// Runs a compiler; panics with its output if it fails.
fn compile(compiler: &str, args: &[&str], what: &str) {
    let output = Command::new(compiler)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {compiler}: {e}"));
    assert!(
        output.status.success(),
        "{what}: {compiler} {} failed:\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// Compiles tl_c.c and tl_main.c as C, tl_cpp.cpp as C++, and links them.
fn build_test_program(tc: Toolchain, c_std: &str, cxx_std: &str) -> TestProgram {
    let label = format!("{}+{} -std={c_std} -std={cxx_std}", tc.cc, tc.cxx);
    let dir = out_dir(&format!("{}-{c_std}-{cxx_std}", tc.cc));
    let include = support::include_dir();
    let include = path_str(&include);
    let mut objects = Vec::new();
    for (compiler, std, source) in [
        (tc.cc, c_std, "tl_c.c"),
        (tc.cc, c_std, "tl_main.c"),
        (tc.cxx, cxx_std, "tl_cpp.cpp"),
    ] {
        let src = support::c_test(&format!("tracelogging/{source}"));
        let obj = dir.join(format!("{source}.o"));
        let std_flag = format!("-std={std}");
        let mut args = vec![std_flag.as_str()];
        args.extend_from_slice(support::STRICT);
        args.extend_from_slice(&["-I", include, "-c", path_str(&src), "-o", path_str(&obj)]);
        compile(compiler, &args, &label);
        objects.push(obj);
    }
    let exe = dir.join("tl_test");
    let lib = support::lib_dir();
    // DT_RPATH outranks the LD_LIBRARY_PATH cargo sets for tests (see support::build).
    let rpath = format!("-Wl,--disable-new-dtags,-rpath,{}", lib.display());
    let mut args: Vec<&str> = objects.iter().map(|o| path_str(o)).collect();
    args.extend_from_slice(&["-o", path_str(&exe), "-L", path_str(&lib), &rpath]);
    args.push("-leventheader_tracepoint");
    compile(tc.cxx, &args, &label);
    TestProgram { label, exe }
}

/// Every toolchain x standard build, compiled once (in parallel) for all tests.
fn test_programs() -> &'static [TestProgram] {
    static PROGRAMS: OnceLock<Vec<TestProgram>> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let configs: Vec<(Toolchain, &str, &str)> = support::toolchains()
            .into_iter()
            .flat_map(|tc| STANDARDS.iter().map(move |&(c, cxx)| (tc, c, cxx)))
            .collect();
        std::thread::scope(|scope| {
            let handles: Vec<_> = configs
                .iter()
                .map(|&(tc, c, cxx)| scope.spawn(move || build_test_program(tc, c, cxx)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    })
}

/// Runs `exe args` in capture mode and returns the captured records.
fn run_and_capture(exe: &Path, args: &[&str]) -> Vec<Record> {
    let dir = support::temp_dir();
    let capture = dir.path().join("capture.dat");
    support::run_capture(exe, &capture, args);
    if !capture.exists() {
        return Vec::new();
    }
    support::read_capture(&capture)
}

/// Decodes one captured event to "Provider:Event level=L keyword=0xK opcode=O {fields}",
/// with the fields as tracepoint_decode's JSON.
fn decode(record: &Record) -> String {
    let mut ctx = EventHeaderEnumeratorContext::new();
    let mut e = ctx
        .enumerate_with_name_and_data(
            &record.name,
            &record.event,
            EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
        )
        .unwrap_or_else(|err| panic!("{}: not a valid EventHeader event: {err:?}", record.name));
    let info = e.event_info();
    let header = info.header();
    let mut out = format!(
        "{} level={} keyword={:#x} opcode={}",
        info.identity_display(),
        header.level.as_int(),
        info.keyword(),
        header.opcode.as_int()
    );
    if let Some(id) = info.activity_id() {
        let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
        write!(out, " activity={hex}").unwrap();
    }
    out.push_str(" {");
    e.write_json_item_and_move_next_sibling(&mut out, false, PerfConvertOptions::Default)
        .expect("formatting");
    out.push('}');
    out
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

#[test]
fn reference_events_are_byte_identical() {
    let want = reference_tracelogging();
    let mut failures = Vec::new();
    for program in test_programs() {
        let got = run_and_capture(&program.exe, &["reference"]);
        let (same, diffs) = compare(&got, &want);
        println!(
            "{}: {same}/{} reference events byte-identical",
            program.label,
            want.len()
        );
        if !diffs.is_empty() || got.len() != want.len() {
            failures.push(format!(
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
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn provider_lifecycle_in_c_and_cpp() {
    for program in test_programs() {
        let got: Vec<String> = run_and_capture(&program.exe, &["lifecycle"])
            .iter()
            .map(decode)
            .collect();
        let mut want = Vec::new();
        for provider in ["TlLifecycleC", "TlLifecycleCpp"] {
            want.push(format!(
                "{provider}:Registered1 level=5 keyword=0x0 opcode=0 {{\"value\": 1}}"
            ));
            want.push(format!(
                "{provider}:Registered2 level=5 keyword=0x0 opcode=0 {{\"value\": 2}}"
            ));
            want.push(format!(
                "{provider}:Struct level=2 keyword=0x3 opcode=0 {{\"pair\": {{ \"a\": 7, \"b\": \"b\" }}}}"
            ));
        }
        assert_eq!(got, want, "{}: lifecycle events", program.label);
    }
}

#[test]
fn c_value_matches_cpp_value() {
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
    for program in test_programs() {
        let got = run_and_capture(&program.exe, &["cvalues"]);
        let (same, diffs) = compare(&got, &want);
        assert!(
            diffs.is_empty(),
            "{}: {same}/{} C TraceLoggingValue events identical to C++:\n  {}",
            program.label,
            want.len(),
            diffs.join("\n  ")
        );
    }
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
    (
        "group name with uppercase",
        "\"P\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), TraceLoggingOptionGroupName(\"MSFT\")",
        "",
        false,
        "group name must be [a-z0-9] characters",
    ),
];

#[test]
fn misuse_is_rejected_at_compile_time() {
    let dir = support::temp_dir();
    let include = support::include_dir();
    let check =
        |compiler: &str, std: &str, ext: &str, name: &str, source: &str| -> (bool, String) {
            let file = dir.path().join(format!("{}.{ext}", name.replace(' ', "_")));
            std::fs::write(&file, source).unwrap();
            let std_flag = format!("-std={std}");
            let mut args = vec![std_flag.as_str()];
            args.extend_from_slice(support::STRICT);
            args.extend_from_slice(&["-fsyntax-only", "-I", path_str(&include), path_str(&file)]);
            let output = Command::new(compiler)
                .args(&args)
                .output()
                .expect("running compiler");
            (
                output.status.success(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        };
    for tc in support::toolchains() {
        for (cc, std, ext, is_c) in [(tc.cc, "gnu11", "c", true), (tc.cxx, "c++17", "cpp", false)] {
            // The harness accepts correct code, so the rejections below are meaningful.
            let good = misuse_source(
                GOOD_PROVIDER,
                "TraceLoggingWrite(P, \"E\", TraceLoggingLevel(1), TraceLoggingStruct(1, \"s\"), TraceLoggingInt32(n));",
            );
            let (ok, stderr) = check(cc, std, ext, "good", &good);
            assert!(ok, "{cc}: correct use was rejected:\n{stderr}");
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
}

#[test]
fn c_provider_name_is_checked_at_registration() {
    // C cannot inspect string literals at compile time: the library rejects the name.
    let dir = support::temp_dir();
    let source = dir.path().join("badname.c");
    std::fs::write(
        &source,
        "#include <eventheader/TraceLoggingProvider.h>\n\
         #include <errno.h>\n\
         TRACELOGGING_DEFINE_PROVIDER(P, \"My Provider\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));\n\
         int main(void)\n{\n\
             int const err = TraceLoggingRegister(P);\n\
             int const written = TraceLoggingWrite(P, \"E\", TraceLoggingInt32(1, \"one\"));\n\
             TraceLoggingUnregister(P);\n\
             return err == EINVAL && written == 0 ? 0 : 1;\n\
         }\n",
    )
    .unwrap();
    let exe = dir.path().join("badname");
    support::build("gcc", "gnu11", &[source], &exe, &[]);
    let captured = run_and_capture(&exe, &[]);
    assert!(
        captured.is_empty(),
        "events written for an invalid provider: {captured:?}"
    );
}

/// Builds a sample with each toolchain.
fn build_sample(tc: Toolchain, cxx: bool) -> PathBuf {
    let (compiler, std, source, name) = if cxx {
        (tc.cxx, "c++17", "samples/cpp/sample.cpp", "cpp_sample")
    } else {
        (tc.cc, "c11", "samples/c/sample.c", "c_sample")
    };
    let exe = out_dir("samples").join(format!("{name}-{}", tc.cc));
    support::build(compiler, std, &[support::root().join(source)], &exe, &[]);
    exe
}

#[test]
fn c_sample_events_decode_as_expected() {
    for tc in support::toolchains() {
        let exe = build_sample(tc, false);
        let got: Vec<String> = run_and_capture(&exe, &["one", "two"])
            .iter()
            .map(decode)
            .collect();
        let act = "activity=112233445566778899aabbccddeeff00";
        let want = vec![
            format!(
                "MySample_C:Started level=4 keyword=0x1 opcode=0 {{\"arg0\": \"{}\", \"argc\": 3}}",
                exe.display()
            ),
            format!("MySample_C:WorkStart level=4 keyword=0x0 opcode=1 {act} {{}}"),
            format!("MySample_C:Argument level=5 keyword=0x0 opcode=0 {act} {{\"index\": 1, \"value\": \"one\"}}"),
            format!("MySample_C:Argument level=5 keyword=0x0 opcode=0 {act} {{\"index\": 2, \"value\": \"two\"}}"),
            format!(
                "MySample_C:WorkStop level=4 keyword=0x0 opcode=2 {act} {{\"result\": {{ \"code\": 0, \"text\": \"ok\" }}}}"
            ),
            "MySample_C:Ratios level=3 keyword=0x0 opcode=0 {\"ratios\": [ 0.5, 0.25, 0.125 ]}".to_string(),
        ];
        assert_eq!(got, want, "{}: C sample", tc.cc);
    }
}

#[test]
fn cpp_sample_events_decode_as_expected() {
    for tc in support::toolchains() {
        let exe = build_sample(tc, true);
        let got: Vec<String> = run_and_capture(&exe, &[]).iter().map(decode).collect();
        let want = vec![
            "MySample_Cpp:ItemAdded level=4 keyword=0x0 opcode=0 {\"name\": \"apple\", \"count\": 3, \"first\": true}",
            "MySample_Cpp:ItemAdded level=4 keyword=0x0 opcode=0 {\"name\": \"pear\", \"count\": 12, \"first\": false}",
            "MySample_Cpp:Report level=5 keyword=0x2 opcode=0 {\"lengths\": [ 5, 4 ], \"status\": \"done\", \"score\": 2.5}",
        ];
        assert_eq!(got, want, "{}: C++ sample", tc.cxx);
    }
}

#[test]
fn providers_left_registered_are_closed_at_exit() {
    for toolchain in support::toolchains() {
        let dir = support::temp_dir();
        let exe = dir.path().join("tl_autoclose");
        support::build(
            toolchain.cc,
            "c11",
            &[support::c_test("tracelogging/tl_autoclose.c")],
            &exe,
            &[],
        );
        let capture = dir.path().join("capture.dat");
        let output = support::run_capture(&exe, &capture, &[]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("register 0"), "{}: {stdout}", toolchain.cc);
        assert!(
            stdout.contains("after-auto-close enabled 0"),
            "{}: the provider was still registered after exit: {stdout}",
            toolchain.cc
        );
        let names: Vec<_> = support::read_capture(&capture)
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
            toolchain.cc
        );
    }
}
