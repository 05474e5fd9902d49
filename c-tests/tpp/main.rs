//! tracepoint-provider.h, the TPP_ macros for plain (non-EventHeader) tracepoints. The programs
//! are the manifest's `tpp_*` entries (`programs.toml` in this folder), built with gcc and clang
//! at C11/gnu11/gnu17 and C++11/17/20; what they declare and write is in `testkit::tpp` (`tests/testkit/src/tpp.rs`).
//!
//! - The reference data's program (`tests/data/reference/tpp/`, every macro, C and C++),
//!   compiled unchanged:
//!   - linked with `c-tests/tpp/recorder.c` (`tpp_all_rec`, a test-only `tracepoint.h` that
//!     writes down what the header hands to the tracepoint layer), it must register the 18
//!     strings of `tpp_all.cmd` and write the 18 records of `tpp_all.dat`;
//!   - linked with the library (`tpp_all`) and run in capture mode, it must write the 18 records
//!     of `tpp_all.dat`, except that the library pads each of the 4 empty events with one 0 byte
//!     (the kernel drops a write without payload).
//! - The header compiles at every C and C++ language level, -O0 and -O2, gcc and clang.
//! - `tpp_multi`: providers across C and C++ translation units; registration of every tracepoint
//!   at TPP_REGISTER_PROVIDER; no evaluation while disabled; func_enabled(); errno.
//! - `tpp_layouts` (the client layouts), `tpp_custom` and `tpp_sample`: their captured payloads,
//!   decoded against the declared layouts (`testkit::layout`).
//!
//! The real-kernel part (tracefs formats, perf, the client layouts decoded from perf) is the VM
//! suite's (`tests/kernel/run.sh`; judged by `testkit::checks::tpp`).
//!
//! One trial per program, build and run (`testkit::trials`), and the checks
//! that are not about one build once per toolchain.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use testkit::cargo_tests::{self as support, Build, Ran, Record};
use testkit::layout::{self, hex, Field};
use testkit::tpp::{self, Expect};
use testkit::trials::{self, judge, Judge};
use testkit::Toolchain;

/// The language levels of the compile matrix.
const C_STANDARDS: &[&str] = &["c11", "gnu11", "c17", "gnu17", "c2x"];
const CXX_STANDARDS: &[&str] = &["c++11", "gnu++11", "c++14", "c++17", "c++20", "gnu++20"];

/// The programs whose sources include the header.
const HEADER_USERS: &[&str] = &[
    "tpp_all",
    "tpp_multi",
    "tpp_layouts",
    "tpp_custom",
    "tpp_sample",
];

fn layouts_of<'a>(lines: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, Vec<Field>> {
    layout::layouts_of(lines).unwrap_or_else(|e| panic!("{e}"))
}

fn ok<T>(r: Result<T, String>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

/// Counts the lines of `got` found in `want` (as multisets).
fn multiset_matches(got: &[String], want: &[String]) -> usize {
    let mut left: Vec<&String> = want.iter().collect();
    got.iter()
        .filter(|g| {
            left.iter()
                .position(|w| w == g)
                .map(|p| left.remove(p))
                .is_some()
        })
        .count()
}

/// A build's run, decoded with `layouts` and compared with `want`.
fn decode_build(
    b: &Build,
    ran: &Ran,
    layouts: &BTreeMap<String, Vec<Field>>,
    want: &[Expect],
) -> Vec<String> {
    tpp::check_decoded(&ran.records, layouts, want)
        .into_iter()
        .map(|e| format!("{}: {e}", b.label))
        .collect()
}

/// What a build linked with the recorder registered and wrote in `ran`
/// (see `support::recorded`), and its stdout.
fn recorder_of(ran: &Ran) -> (String, Vec<String>, Vec<Record>) {
    let (cmd, records) = support::recorded(ran);
    (ran.stdout.clone(), cmd, records)
}

/// tpp_all_rec record: the reference's registrations and bytes, through the
/// recorder.
fn oracle_registrations_and_bytes_match_the_reference_through_the_recorder(b: &Build, ran: &Ran) {
    let want_cmd = ok(tpp::oracle_registrations());
    let want_dat = ok(tpp::oracle_records());
    let mut failures = Vec::new();
    let label = &b.label;
    let (stdout, cmd, dat) = recorder_of(ran);
    assert_eq!(
        stdout, "C: register 0, events 9\nCPP: register 0, events 9\n",
        "{label}"
    );
    // The same 18 strings. The order is the library's (and the recorder's): descending
    // address of the static tracepoint definitions, i.e. where the compiler put them.
    // clang puts them in source order, as in the reference's build of tpp_all.cmd; gcc
    // orders a C translation unit's TPP_WRITE definitions differently (the reference's
    // own header does the same under gcc), so gcc is held to the same strings per
    // provider, registered provider by provider.
    let same = multiset_matches(&cmd, &want_cmd);
    let (c_got, cpp_got) = cmd.split_at(cmd.len().min(9));
    let per_provider = multiset_matches(c_got, &want_cmd[..9]) == 9
        && multiset_matches(cpp_got, &want_cmd[9..]) == 9;
    let in_order = cmd == want_cmd;
    let identical = dat.iter().zip(&want_dat).filter(|(a, b)| a == b).count();
    println!(
        "{label}: registration strings {same}/18 identical ({}), records through the \
         recorder {identical}/18 byte-identical",
        if in_order {
            "same order"
        } else {
            "same strings per provider, compiler's order"
        }
    );
    let clang = b.config.toolchain.cc == "clang";
    if same != 18 || cmd.len() != 18 || !per_provider || (clang && !in_order) {
        failures.push(format!(
            "{label}: registrations {same}/18 (per provider: {per_provider}, in order: \
             {in_order}):\n  got  {cmd:?}\n  want {want_cmd:?}"
        ));
    }
    // The recorder writes what the header hands to tracepoint_write, unpadded: the
    // reference's bytes exactly, the 4 empty events included.
    if identical != 18 || dat.len() != 18 {
        failures.push(format!(
            "{label}: {identical}/18 records identical through the recorder ({} records)",
            dat.len()
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// tpp_all in capture mode, as built by default and linked with section
/// garbage collection (its tracepoints must all survive): the reference's
/// records.
fn oracle_records_match_the_reference_in_capture_mode(b: &Build, ran: &Ran) {
    let want = ok(tpp::oracle_records());
    let empties: Vec<&str> = want
        .iter()
        .filter(|r| tpp::is_empty_event(&r.name))
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(empties.len(), 4, "empty events in tpp_all.dat");
    let registrations = ok(tpp::oracle_registrations());
    let layouts = layouts_of(registrations.iter().map(String::as_str));
    let mut failures = Vec::new();
    let label = &b.label;
    let got = &ran.records;
    let mut identical = 0;
    let mut padded = Vec::new();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        if g == w {
            identical += 1;
        } else if g.name == w.name && w.event.is_empty() && g.event == [0] {
            // The library pads an event without payload with one 0 byte: the kernel
            // drops a write that carries nothing after the write index.
            padded.push(g.name.clone());
        } else {
            failures.push(format!(
                "{label} #{i}: got {} {}, want {} {}",
                g.name,
                hex(&g.event),
                w.name,
                hex(&w.event)
            ));
        }
    }
    println!(
        "{label}: {identical}/18 records byte-identical; {}/18 differ only by the padding \
         byte of an empty event: {padded:?}",
        padded.len()
    );
    if got.len() != 18 || identical != 14 || padded != empties {
        failures.push(format!(
            "{label}: {} records, {identical} identical, padded {padded:?} (expected \
             exactly {empties:?})",
            got.len()
        ));
    }
    // And decoded against the reference's declared layouts.
    for e in tpp::check_decoded(got, &layouts, &tpp::oracle_expected()) {
        failures.push(format!("{label}: {e}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The header, alone and in every source of the programs that use it,
/// compiles at every C and C++ language level, -O0 and -O2.
fn header_compiles_at_every_language_level(tc: Toolchain) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tpp-matrix-{}", tc.cc));
    std::fs::create_dir_all(&dir).unwrap();
    // The header on its own, then every source of the programs that use it.
    let alone_c = dir.join("alone.c");
    let alone_cpp = dir.join("alone.cpp");
    std::fs::write(&alone_c, "#include <tracepoint/tracepoint-provider.h>\n").unwrap();
    std::fs::write(&alone_cpp, "#include <tracepoint/tracepoint-provider.h>\n").unwrap();
    let mut sources = vec![alone_c, alone_cpp];
    for name in HEADER_USERS {
        for s in testkit::manifest::program(name).sources {
            let path = support::root().join(s);
            if !sources.contains(&path) {
                sources.push(path);
            }
        }
    }
    let mut jobs = Vec::new();
    for source in &sources {
        let (compiler, stds) = if source.extension().is_some_and(|e| e == "cpp") {
            (tc.cxx, CXX_STANDARDS)
        } else {
            (tc.cc, C_STANDARDS)
        };
        for std in stds {
            for opt in ["-O0", "-O2"] {
                jobs.push((compiler, *std, opt, source.clone()));
            }
        }
    }
    let done = testkit::pool::map(&jobs, |worker, (compiler, std, opt, source)| {
        let obj = dir.join(format!("matrix{worker}.o"));
        ok(testkit::build::compile_object(
            compiler,
            std,
            &[opt],
            source,
            &obj,
        ));
    })
    .len();
    let compilers = [tc.cc, tc.cxx];
    println!(
        "compile matrix: {done} compilations ({compilers:?} x C {C_STANDARDS:?} / C++ \
         {CXX_STANDARDS:?} x -O0/-O2 x {} sources), all clean with {}",
        sources.len(),
        testkit::build::STRICT.join(" ")
    );
}

/// Correct uses, each of which must compile (so that the rejections below are
/// the header's): no field, one, two; TPP_FUNCTION likewise.
const TPP_GOOD: &[&str] = &[
    "int f(int n) { return TPP_WRITE(P, \"w0\") + n; }",
    "int f(int n) { return TPP_WRITE(P, \"w1\", TPP_INT32(\"n\", n)); }",
    "int f(int n) { return TPP_WRITE(P, \"w2\", TPP_INT32(\"n\", n), TPP_STRING(\"s\", \"s\")); }",
    "TPP_FUNCTION(P, \"f0\", f0);",
    "TPP_FUNCTION(P, \"f1\", f1, TPP_INT32(\"n\", n));",
    "TPP_FUNCTION(P, \"f2\", f2, TPP_INT32(\"n\", n), TPP_STRING(\"s\", s));",
];

/// Field arguments that are not field macros, alone and beside a valid one
/// (the misuse `c-tests/tracelogging/main.rs` refuses for TraceLogging), for TPP.
const TPP_NOT_A_FIELD: &[&str] = &[
    "int f(int n) { return TPP_WRITE(P, \"w\", n + 1); }",
    "int f(int n) { return TPP_WRITE(P, \"w\", TPP_INT33(\"n\", n)); }",
    "int f(int n) { return TPP_WRITE(P, \"w\", \"n\") + n; }",
    "int f(int n) { return TPP_WRITE(P, \"w\", TPP_INT32(\"n\", n), n); }",
    "TPP_FUNCTION(P, \"f\", f, TPP_INT33(\"n\", n));",
    "TPP_FUNCTION(P, \"f\", f, TPP_INT32(\"n\", n), n);",
];

fn a_field_argument_that_is_not_a_field_macro_does_not_compile(tc: Toolchain) {
    let dir = support::temp_dir();
    let source = |k: &str, body: &str, ext: &str| {
        let path = dir.path().join(format!("{k}.{ext}"));
        let text = format!(
            "#include <tracepoint/tracepoint-provider.h>\nTPP_DEFINE_PROVIDER(P);\n\
             int f(int n);\n{body}\n"
        );
        std::fs::write(&path, text).unwrap();
        path
    };
    for (compiler, std, ext) in [(tc.cc, "c11", "c"), (tc.cxx, "c++17", "cpp")] {
        for (k, body) in TPP_GOOD.iter().enumerate() {
            let (ok, stderr) = testkit::build::check_syntax(
                compiler,
                std,
                &source(&format!("good{k}"), body, ext),
            );
            assert!(ok, "{compiler} -std={std}: rejected {body}\n{stderr}");
        }
        for (k, body) in TPP_NOT_A_FIELD.iter().enumerate() {
            let (ok, stderr) =
                testkit::build::check_syntax(compiler, std, &source(&format!("bad{k}"), body, ext));
            assert!(
                !ok && stderr.contains("a field argument is not a TPP field macro"),
                "{compiler} -std={std}: {body}: {}\n{stderr}",
                if ok {
                    "accepted"
                } else {
                    "not refused for the right reason"
                }
            );
        }
    }
}

/// tpp_multi in capture mode: providers across C and C++ translation units.
fn multi_provider_program(b: &Build, ran: &Ran) {
    let layouts = layouts_of(tpp::MULTI_REGISTRATIONS.iter().copied());
    let failures = decode_build(b, ran, &layouts, &tpp::multi_expected());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// tpp_multi without a capture file: registration fails with an errno where
/// the kernel has no user_events (or succeeds where it has); nothing is
/// enabled, written or evaluated.
fn multi_provider_program_without_capture(b: &Build, ran: &Ran) {
    let stdout = &ran.stdout;
    assert!(
        stdout.contains("tpp_multi plain: ok"),
        "{}: {stdout}",
        b.label
    );
    if b.config.standard == b.program.standards[0] {
        print!("{}: {stdout}", b.label);
    }
}

/// tpp_multi_rec, linked with the recorder: right after each
/// TPP_REGISTER_PROVIDER, the recorder holds exactly that provider's
/// registrations (checked by the program), 13 in all.
fn multi_provider_program_through_the_recorder(b: &Build, ran: &Ran) {
    let (stdout, cmd, _) = recorder_of(ran);
    assert!(
        stdout == "tpp_multi recorder: ok\n" && cmd.len() == 13,
        "{}: {stdout:?}, {cmd:?}",
        b.label
    );
}

/// tpp_layouts in capture mode: the client layouts decode.
fn client_layouts_decode_in_capture_mode(b: &Build, ran: &Ran) {
    let layouts = ok(tpp::regs_file("layouts.regs"));
    let failures = decode_build(
        b,
        ran,
        &layouts_of(layouts.iter().map(String::as_str)),
        &tpp::layouts_expected(),
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// tpp_custom in capture mode: the custom kinds decode.
fn custom_kinds_decode_in_capture_mode(b: &Build, ran: &Ran) {
    let custom = ok(tpp::regs_file("custom.regs"));
    let failures = decode_build(
        b,
        ran,
        &layouts_of(custom.iter().map(String::as_str)),
        &tpp::custom_expected(),
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// samples/tpp: its records decode to the values it wrote.
fn sample_decodes_in_capture_mode(b: &Build, ran: &Ran) {
    let layouts = layouts_of(tpp::SAMPLE_REGISTRATIONS.iter().copied());
    let failures = decode_build(b, ran, &layouts, &tpp::sample_expected());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// samples/tpp built the way its README section tells a newcomer to (`make
/// -C samples/tpp run`, here on a copy against this build's include/ and
/// library) writes the records of its manifest build.
fn sample_makefile_runs(tc: Toolchain) {
    let sample = support::root().join("samples/tpp");
    let want = support::build("tpp_sample", tc).run("capture").records;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tpp-sample-make-{}", tc.cc));
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["Makefile", "tpp-sample.c"] {
        std::fs::copy(sample.join(file), dir.join(file)).unwrap();
    }
    let output = Command::new("make")
        .arg("-C")
        .arg(&dir)
        .args(["-B", "run"])
        .arg(format!(
            "CC={}",
            testkit::cross::compiler_words(tc.cc).join(" ")
        ))
        .arg(format!("RUN={}", runner_words()))
        .arg("CFLAGS=-O2 -Wall -Wextra -Werror")
        .arg(format!("INCDIR={}", support::include_dir().display()))
        .arg(format!("LIBDIR={}", support::lib_dir().display()))
        .env_remove("TRACEPOINT_CAPTURE_FILE")
        .output()
        .expect("running make");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "make run with {}:\n{stdout}{}",
        tc.cc,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("TPP_REGISTER_PROVIDER: 0\ntpp_sample_start: 0\ntpp_sample_request: 0\n"),
        "{}: {stdout}",
        tc.cc
    );
    let records = support::read_capture(&dir.join("tpp-sample.dat"));
    assert_eq!(records, want, "{}: make run's records", tc.cc);
}

/// The cross runner's words as one make variable value (empty on the host).
fn runner_words() -> String {
    let words: Vec<String> = testkit::cross::runner()
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    words.join(" ")
}

/// The judge of every (program, run) of the suite.
const JUDGES: &[Judge] = &[
    judge(
        "tpp_all",
        "capture",
        oracle_records_match_the_reference_in_capture_mode,
    ),
    judge(
        "tpp_all_gc_lld",
        "capture",
        oracle_records_match_the_reference_in_capture_mode,
    ),
    judge(
        "tpp_all_gc_bfd",
        "capture",
        oracle_records_match_the_reference_in_capture_mode,
    ),
    judge(
        "tpp_all_rec",
        "record",
        oracle_registrations_and_bytes_match_the_reference_through_the_recorder,
    ),
    judge("tpp_multi", "capture", multi_provider_program),
    judge("tpp_multi", "plain", multi_provider_program_without_capture),
    judge(
        "tpp_multi_rec",
        "recorder",
        multi_provider_program_through_the_recorder,
    ),
    judge(
        "tpp_layouts",
        "capture",
        client_layouts_decode_in_capture_mode,
    ),
    judge("tpp_custom", "capture", custom_kinds_decode_in_capture_mode),
    judge("tpp_sample", "capture", sample_decodes_in_capture_mode),
];

fn main() {
    let mut extra = trials::per_toolchain(
        "header_compiles_at_every_language_level",
        header_compiles_at_every_language_level,
    );
    extra.extend(trials::per_toolchain(
        "a_field_argument_that_is_not_a_field_macro_does_not_compile",
        a_field_argument_that_is_not_a_field_macro_does_not_compile,
    ));
    extra.extend(trials::per_toolchain(
        "samples_tpp_makefile_runs",
        sample_makefile_runs,
    ));
    trials::main(env!("CARGO_TARGET_TMPDIR"), "tpp", JUDGES, extra)
}
