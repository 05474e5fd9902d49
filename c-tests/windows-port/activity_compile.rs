//! Compile-time behaviour of `<TraceLoggingActivity.h>` (C++11 and C++17, g++
//! and clang++, `-Wall -Wextra -Werror`): correct uses compile; an argument of
//! an activity macro that is not a TraceLogging macro does not, with the
//! message of TraceLoggingWrite; and the class-member case of
//! docs/porting-from-windows.md ("With g++, class members").

use testkit::Toolchain;

/// The message of an argument that is not a TraceLogging macro
/// (TraceLoggingProvider.h's `_tlgD_DATA_tlgK_BAD`).
const NOT_A_MACRO: &str = "an argument is not a TraceLogging macro";

/// g++'s -Wattributes message for a class whose field has a hidden type.
const GREATER_VISIBILITY: &str = "declared with greater visibility than the type of its field";

/// A translation unit with the activity header, a provider symbol `P`, and
/// `body` inside a function of an int `n`.
fn source(body: &str) -> String {
    format!(
        "#include <windows-compat/TraceLoggingActivity.h>\n\
         TRACELOGGING_DEFINE_PROVIDER(P, \"P\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));\n\
         int f(int n);\n\
         int f(int n)\n{{\n    {body}\n    return n;\n}}\n"
    )
}

/// Correct uses: each macro without and with arguments (options, fields, a
/// macro that expands to several arguments).
const GOOD: &[&str] = &[
    "TraceLoggingActivity<P> a; TraceLoggingWriteStart(a, \"S\"); \
     TraceLoggingWriteTagged(a, \"T\"); TraceLoggingWriteStop(a, \"E\");",
    "TraceLoggingActivity<P, 1, 4> a; TraceLoggingWriteStart(a, \"S\", TraceLoggingInt32(n)); \
     TraceLoggingWriteTagged(a, \"T\", TraceLoggingLevel(2), TraceLoggingInt32(n, \"n\")); \
     TraceLoggingWriteStop(a, \"E\", TraceLoggingHResult(S_OK, \"hr\"));",
    "#define TWO TraceLoggingOpcode(9), TraceLoggingInt32(n)\n    \
     TraceLoggingThreadActivity<P> a; TraceLoggingWriteStart(a, \"S\", TWO);",
    "TraceLoggingFunction(P);",
    "TraceLoggingFunction(P, TraceLoggingLevel(4), TraceLoggingKeyword(2), TraceLoggingInt32(n));",
];

/// Misuse: (name, body); each must be rejected with [`NOT_A_MACRO`].
const MISUSE: &[(&str, &str)] = &[
    (
        "start with an expression",
        "TraceLoggingActivity<P> a; TraceLoggingWriteStart(a, \"S\", n);",
    ),
    (
        "tagged with a misspelled field",
        "TraceLoggingActivity<P> a; TraceLoggingWriteTagged(a, \"T\", TraceLoggingInt23(n));",
    ),
    (
        "stop with a string",
        "TraceLoggingActivity<P> a; TraceLoggingWriteStop(a, \"E\", \"x\");",
    ),
    ("function with an expression", "TraceLoggingFunction(P, n);"),
];

/// `Session` holds an activity; `attrs` goes between `class` and its name.
fn member_source(attrs: &str) -> String {
    format!(
        "#include <windows-compat/TraceLoggingActivity.h>\n\
         TRACELOGGING_DEFINE_PROVIDER(P, \"P\", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));\n\
         class {attrs}Session {{\n\
         public:\n\
         \x20   Session() {{ TraceLoggingWriteStart(m_activity, \"SessionStart\"); }}\n\
         private:\n\
         \x20   TraceLoggingActivity<P> m_activity;\n\
         }};\n\
         int f();\n\
         int f() {{ Session s; return 0; }}\n"
    )
}

/// Writes `text` to `dir/NAME.cpp` and checks its syntax with `cxx -std=STD`
/// ([`testkit::build::check_syntax`]): (accepted, stderr).
fn check_source(
    dir: &std::path::Path,
    cxx: &str,
    std: &str,
    name: &str,
    text: &str,
) -> (bool, String) {
    let file = dir.join(format!("{name}.cpp"));
    std::fs::write(&file, text).unwrap();
    testkit::build::check_syntax(cxx, std, &file)
}

/// Correct uses of the activity macros compile with `tc`'s C++ compiler;
/// other arguments are refused.
pub fn activity_macros_accept_fields_and_refuse_other_arguments(tc: Toolchain) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut compiled = 0;
    for std in ["c++11", "c++17"] {
        let check = |name: &str, text: &str| check_source(dir.path(), tc.cxx, std, name, text);
        for (k, body) in GOOD.iter().enumerate() {
            let (ok, stderr) = check(&format!("good{k}"), &source(body));
            assert!(ok, "{} -std={std}: rejected: {body}\n{stderr}", tc.cxx);
            compiled += 1;
        }
        for &(name, body) in MISUSE {
            let (ok, stderr) = check(&name.replace(' ', "_"), &source(body));
            assert!(!ok, "{} -std={std}: {name} was accepted", tc.cxx);
            assert!(
                stderr.contains(NOT_A_MACRO),
                "{} -std={std}: {name}: expected {NOT_A_MACRO:?} in:\n{stderr}",
                tc.cxx
            );
            compiled += 1;
        }
    }
    println!("{compiled} compilations as expected");
}

/// The class-member case the porting page documents: g++ gives a class
/// holding `TraceLoggingActivity<P>` -Wattributes unless the class is hidden
/// (the provider symbol is hidden, and so, for g++, is every template
/// instance naming it); clang does not warn. The hidden class compiles with
/// both.
pub fn activity_class_members_compile_in_a_hidden_class(tc: Toolchain) {
    let dir = tempfile::tempdir().expect("temporary directory");
    for std in ["c++11", "c++17"] {
        let check = |name: &str, text: &str| check_source(dir.path(), tc.cxx, std, name, text);
        let hidden = member_source("__attribute__((visibility(\"hidden\"))) ");
        let (ok, stderr) = check("hidden", &hidden);
        assert!(ok, "{} -std={std}: the hidden class:\n{stderr}", tc.cxx);
        let (ok, stderr) = check("default", &member_source(""));
        if tc.cxx == testkit::Toolchain::GCC.cxx {
            assert!(
                !ok && stderr.contains(GREATER_VISIBILITY),
                "{} -std={std}: the class without visibility no longer gets -Wattributes \
                 (docs/porting-from-windows.md says it does):\n{stderr}",
                tc.cxx
            );
        } else {
            assert!(
                ok,
                "{} -std={std}: the class without visibility:\n{stderr}",
                tc.cxx
            );
        }
    }
}
