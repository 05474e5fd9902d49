//! tracepoint-provider.h, the TPP_ macros for plain (non-EventHeader) tracepoints:
//!
//! - The reference data's program (`../shared/testdata/reference/tpp/`, every macro, C and C++),
//!   compiled unchanged against our headers with gcc and clang:
//!   - linked with `c-tests/tpp/recorder.c` (a test-only `tracepoint.h` that writes down what the
//!     header hands to the tracepoint layer), it must register the 18 strings of `tpp_all.cmd`
//!     and write the 18 records of `tpp_all.dat`;
//!   - linked with the library and run in capture mode, it must write the 18 records of
//!     `tpp_all.dat`, except that the library pads each of the 4 empty events with one 0 byte
//!     (the kernel drops a write without payload).
//! - The header compiles at every C and C++ language level, -O0 and -O2, gcc and clang.
//! - `c-tests/tpp/multi_*`: providers across C and C++ translation units; registration of every
//!   tracepoint at TPP_REGISTER_PROVIDER; no evaluation while disabled; func_enabled(); errno.
//! - `c-tests/tpp/layouts.c` (the client layouts) and `custom.c`: their captured payloads,
//!   decoded here against the declared layouts.
//! - `kernel_results_decode_to_the_written_values`: with `TPP_KERNEL_RESULTS=DIR`, what
//!   `c-tests/tpp/vm/guest.sh` recorded in a user_events VM.
//!
//! Payloads are decoded by `layout` below from the registration strings (the kernel's syntax),
//! independently of the header's code; `perf_data` reads the samples of a perf.data file.

mod support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::{Record, Toolchain};

/// The C/C++ programs this test builds, in one place. A source's language follows from its
/// extension (`.c` C, `.cpp` C++); programs with C++ sources link with the C++ compiler.
mod programs {
    use std::path::PathBuf;

    pub struct Program {
        pub name: &'static str,
        pub sources: Vec<PathBuf>,
    }

    fn tpp(file: &str) -> PathBuf {
        super::support::c_test(&format!("tpp/{file}"))
    }

    /// The reference data's program, unchanged.
    pub fn oracle() -> Program {
        let dir = super::oracle_dir();
        Program {
            name: "tpp_all",
            sources: ["tpp_all_c.c", "tpp_all_cpp.cpp", "tpp_all_main.c"]
                .iter()
                .map(|f| dir.join(f))
                .collect(),
        }
    }

    /// Three providers over three translation units (C, C++).
    pub fn multi() -> Program {
        Program {
            name: "tpp_multi",
            sources: vec![tpp("multi_a.c"), tpp("multi_b.cpp"), tpp("multi_main.c")],
        }
    }

    /// The client layouts.
    pub fn layouts() -> Program {
        Program {
            name: "tpp_layouts",
            sources: vec![tpp("layouts.c")],
        }
    }

    /// The TPP_CUSTOM_ kinds in kernel-accepted spellings.
    pub fn custom() -> Program {
        Program {
            name: "tpp_custom",
            sources: vec![tpp("custom.c")],
        }
    }

    /// The test-only tracepoint.h implementation, linked instead of the library.
    pub fn recorder() -> PathBuf {
        tpp("recorder.c")
    }

    /// Every source that includes the header, for the compile matrix.
    pub fn all_sources() -> Vec<PathBuf> {
        [oracle(), multi(), layouts(), custom()]
            .into_iter()
            .flat_map(|p| p.sources)
            .collect()
    }
}

/// (C standard, C++ standard) pairs the programs are built and run with.
const STANDARDS: &[(&str, &str)] = &[("gnu11", "c++11"), ("c11", "c++17"), ("gnu17", "c++20")];

/// The language levels of the compile matrix.
const C_STANDARDS: &[&str] = &["c11", "gnu11", "c17", "gnu17", "c2x"];
const CXX_STANDARDS: &[&str] = &["c++11", "gnu++11", "c++14", "c++17", "c++20", "gnu++20"];

fn oracle_dir() -> PathBuf {
    support::reference_dir().join("tpp")
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

fn is_cxx(source: &Path) -> bool {
    source.extension().is_some_and(|e| e == "cpp")
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

#[derive(Clone, Copy, Debug, PartialEq)]
enum Backend {
    /// The library (run in capture mode, or plain).
    Library,
    /// c-tests/tpp/recorder.c.
    Recorder,
}

#[derive(Clone, Copy, Debug)]
struct Config {
    tc: Toolchain,
    c_std: &'static str,
    cxx_std: &'static str,
}

impl Config {
    fn label(&self) -> String {
        format!(
            "{}+{} -std={} -std={}",
            self.tc.cc, self.tc.cxx, self.c_std, self.cxx_std
        )
    }
}

/// Every toolchain x STANDARDS.
fn configs() -> Vec<Config> {
    support::toolchains()
        .into_iter()
        .flat_map(|tc| {
            STANDARDS
                .iter()
                .map(move |&(c_std, cxx_std)| Config { tc, c_std, cxx_std })
        })
        .collect()
}

/// Compiles and links `program` for `config` against `backend`; returns the executable.
fn build(program: &programs::Program, config: Config, backend: Backend) -> PathBuf {
    let label = format!("{} {} {backend:?}", program.name, config.label());
    let dir = support::lib_dir().join("tpp-tests").join(format!(
        "{}-{}-{}-{}-{backend:?}",
        program.name, config.tc.cc, config.c_std, config.cxx_std
    ));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    let include = support::include_dir();
    let mut sources = program.sources.clone();
    if backend == Backend::Recorder {
        sources.push(programs::recorder());
    }
    let mut objects = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        let (compiler, std) = if is_cxx(source) {
            (config.tc.cxx, config.cxx_std)
        } else {
            (config.tc.cc, config.c_std)
        };
        let obj = dir.join(format!("{i}.o"));
        let std_flag = format!("-std={std}");
        let mut args = vec![std_flag.as_str()];
        args.extend_from_slice(support::STRICT);
        args.extend_from_slice(&["-g", "-I", path_str(&include), "-c", path_str(source)]);
        args.extend_from_slice(&["-o", path_str(&obj)]);
        compile(compiler, &args, &label);
        objects.push(obj);
    }
    let linker = if program.sources.iter().any(|s| is_cxx(s)) {
        config.tc.cxx
    } else {
        config.tc.cc
    };
    let exe = dir.join(program.name);
    let lib = support::lib_dir();
    // DT_RPATH outranks the LD_LIBRARY_PATH cargo sets for tests (see support::build).
    let rpath = format!("-Wl,--disable-new-dtags,-rpath,{}", lib.display());
    let mut args: Vec<&str> = objects.iter().map(|o| path_str(o)).collect();
    args.extend_from_slice(&["-o", path_str(&exe)]);
    if backend == Backend::Library {
        args.extend_from_slice(&["-L", path_str(&lib), &rpath, "-leventheader_tracepoint"]);
    }
    compile(linker, &args, &label);
    exe
}

/// Builds `program` for every config, in parallel.
fn build_all(program: &programs::Program, backend: Backend) -> Vec<(Config, PathBuf)> {
    let configs = configs();
    std::thread::scope(|scope| {
        let handles: Vec<_> = configs
            .iter()
            .map(|&c| scope.spawn(move || (c, build(program, c, backend))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Runs a program built against the recorder; returns (stdout, registration lines, records).
fn run_recorder(exe: &Path, args: &[&str]) -> (String, Vec<String>, Vec<Record>) {
    let dir = support::temp_dir();
    let prefix = dir.path().join("rec");
    let cmd_file = dir.path().join("rec.cmd");
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("{cmd}", path_str(&cmd_file)))
        .collect();
    let output = Command::new(exe)
        .args(&args)
        .env("TPP_RECORD_PREFIX", &prefix)
        .env_remove("TRACEPOINT_CAPTURE_FILE")
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    assert!(
        output.status.success(),
        "{} {args:?} failed ({}):\n{}{}",
        exe.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let lines = std::fs::read_to_string(&cmd_file)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    let dat = dir.path().join("rec.dat");
    let records = if dat.exists() {
        support::read_capture(&dat)
    } else {
        Vec::new()
    };
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        lines,
        records,
    )
}

/// Runs `exe` in capture mode and returns the records.
fn run_and_capture(exe: &Path, args: &[&str]) -> Vec<Record> {
    let dir = support::temp_dir();
    let capture = dir.path().join("capture.dat");
    support::run_capture(exe, &capture, args);
    if !capture.exists() {
        return Vec::new();
    }
    support::read_capture(&capture)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Decodes payloads against a layout written in the kernel's user_events syntax
/// ("u16 port; u8[16] id; __rel_loc u8[] blob; struct T name 8; ..."): fields are packed in
/// declaration order, a `__rel_loc` field is a u32 `size << 16 | offset` whose offset counts from
/// the end of that word. Written from the kernel's documentation, not from the header.
mod layout {
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Value {
        U(u64),
        S(i64),
        Bytes(Vec<u8>),
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Kind {
        Unsigned(usize),
        Signed(usize),
        /// Fixed-size bytes: char[N], unsigned char[N], u8[N], struct T name N.
        Fixed(usize),
        RelLoc,
    }

    impl Kind {
        /// Bytes in the fixed part of the event.
        pub fn size(self) -> usize {
            match self {
                Kind::Unsigned(n) | Kind::Signed(n) | Kind::Fixed(n) => n,
                Kind::RelLoc => 4,
            }
        }
    }

    #[derive(Clone, Debug)]
    pub struct Field {
        pub name: String,
        /// The declared type ("u16", "char[4]", "struct ta_point", "u8[]" for __rel_loc u8[]).
        pub ty: String,
        pub kind: Kind,
    }

    /// Parses the argument part of a registration string.
    pub fn parse(args: &str) -> Result<Vec<Field>, String> {
        let mut fields = Vec::new();
        for decl in args.split(';').map(str::trim).filter(|d| !d.is_empty()) {
            let words: Vec<&str> = decl.split_whitespace().collect();
            let field = match words.as_slice() {
                ["__rel_loc", ty @ .., name] if !ty.is_empty() => Field {
                    name: name.to_string(),
                    ty: ty.join(" "),
                    kind: Kind::RelLoc,
                },
                ["struct", ty, name, size] => Field {
                    name: name.to_string(),
                    ty: format!("struct {ty}"),
                    kind: Kind::Fixed(size.parse().map_err(|_| format!("bad size in '{decl}'"))?),
                },
                [ty @ .., name] if !ty.is_empty() => {
                    let ty = ty.join(" ");
                    let kind = match ty.as_str() {
                        "u8" => Kind::Unsigned(1),
                        "u16" => Kind::Unsigned(2),
                        "u32" => Kind::Unsigned(4),
                        "u64" => Kind::Unsigned(8),
                        "s8" | "char" => Kind::Signed(1),
                        "s16" => Kind::Signed(2),
                        "s32" => Kind::Signed(4),
                        "s64" => Kind::Signed(8),
                        _ => {
                            let count = ty
                                .strip_suffix(']')
                                .and_then(|t| t.split_once('['))
                                .filter(|(elem, _)| {
                                    matches!(*elem, "char" | "unsigned char" | "u8")
                                })
                                .and_then(|(_, n)| n.parse::<usize>().ok())
                                .ok_or_else(|| format!("unknown type in '{decl}'"))?;
                            Kind::Fixed(count)
                        }
                    };
                    Field {
                        name: name.to_string(),
                        ty,
                        kind,
                    }
                }
                _ => return Err(format!("cannot parse field '{decl}'")),
            };
            fields.push(field);
        }
        Ok(fields)
    }

    /// Reads a little-endian field of `size` bytes at `at`.
    pub fn read(kind: Kind, bytes: &[u8], at: usize) -> Result<Value, String> {
        let get = |n: usize| {
            bytes
                .get(at..at + n)
                .ok_or_else(|| format!("field at {at}+{n} beyond {} bytes", bytes.len()))
        };
        Ok(match kind {
            Kind::Unsigned(n) => {
                let mut v = [0u8; 8];
                v[..n].copy_from_slice(get(n)?);
                Value::U(u64::from_le_bytes(v))
            }
            Kind::Signed(n) => {
                let mut v = [0u8; 8];
                v[..n].copy_from_slice(get(n)?);
                let shift = 64 - 8 * n as u32;
                Value::S((i64::from_le_bytes(v) << shift) >> shift)
            }
            Kind::Fixed(n) => Value::Bytes(get(n)?.to_vec()),
            Kind::RelLoc => {
                let word = u32::from_le_bytes(get(4)?.try_into().unwrap());
                let size = (word >> 16) as usize;
                let start = at + 4 + (word & 0xffff) as usize;
                let data = bytes.get(start..start + size).ok_or_else(|| {
                    format!(
                        "__rel_loc word {word:#010x} at {at} points beyond {} bytes",
                        bytes.len()
                    )
                })?;
                Value::Bytes(data.to_vec())
            }
        })
    }

    /// Decodes `payload`: the value of each field, and the end of the bytes the fields use
    /// (the fixed part, or the end of the furthest __rel_loc data).
    pub fn decode(
        fields: &[Field],
        payload: &[u8],
    ) -> Result<(Vec<(String, Value)>, usize), String> {
        let mut values = Vec::new();
        let mut pos = 0;
        let mut end = 0;
        for f in fields {
            let value = read(f.kind, payload, pos)?;
            if let (Kind::RelLoc, Value::Bytes(data)) = (f.kind, &value) {
                let word = u32::from_le_bytes(payload[pos..pos + 4].try_into().unwrap());
                end = end.max(pos + 4 + (word & 0xffff) as usize + data.len());
            }
            pos += f.kind.size();
            values.push((f.name.clone(), value));
        }
        Ok((values, end.max(pos)))
    }
}

use layout::Value;

fn u(v: u64) -> Value {
    Value::U(v)
}
fn s(v: i64) -> Value {
    Value::S(v)
}
fn b(v: &[u8]) -> Value {
    Value::Bytes(v.to_vec())
}

/// What one event must decode to: its tracepoint, its fields' values, and the bytes after
/// the fields (an empty event's padding byte; a field-less layout's payload).
#[derive(Clone, Debug)]
struct Expect {
    name: String,
    values: Vec<(&'static str, Value)>,
    rest: Vec<u8>,
}

fn expect(name: &str, values: Vec<(&'static str, Value)>) -> Expect {
    Expect {
        name: name.to_string(),
        values,
        rest: Vec::new(),
    }
}

/// The values tpp_all.h writes (read off its source), for suffix "C" or "CPP", in write order.
fn oracle_expected(suffix: &str) -> Vec<Expect> {
    let id: Vec<u8> = (1..=16).collect();
    let pt: Vec<u8> = [(-5i32).to_le_bytes(), 77i32.to_le_bytes()].concat();
    let n = |base: &str| format!("{base}_{suffix}");
    vec![
        expect(&n("write_empty"), vec![]),
        expect(
            &n("write_scalars"),
            vec![
                ("u8", u(200)),
                ("s8", s(-100)),
                ("u16", u(60000)),
                ("s16", s(-30000)),
                ("u32", u(4_000_000_000)),
                ("s32", s(-2_000_000_000)),
                ("u64", u(18_000_000_000_000_000_000)),
                ("s64", s(-9_000_000_000_000_000_000)),
                ("uptr", u(0x1234)),
                ("sptr", s(-1)),
            ],
        ),
        expect(
            &n("write_strings"),
            vec![
                ("str", b(b"hello\0")),
                ("empty", b(b"\0")),
                ("chars", b(b"abcd")),
                ("bytes", b(&[0xff, 0x00, 0x7f])),
                ("pt", b(&pt)),
            ],
        ),
        expect(
            &n("write_custom"),
            vec![
                ("port", u(8080)),
                ("id", b(&id)),
                ("blob", b(&[0xde, 0xad, 0xbe, 0xef, 0x00])),
                ("none", b(&[])),
                ("text", b(b"rel-loc text\0")),
            ],
        ),
        expect(&n("fn_empty"), vec![]),
        expect(
            &n("fn_scalars"),
            vec![
                ("u8", u(1)),
                ("s8", s(-2)),
                ("u16", u(3)),
                ("s16", s(-4)),
                ("u32", u(5)),
                ("s32", s(-6)),
                ("u64", u(7)),
                ("s64", s(-8)),
                ("uptr", u(9)),
                ("sptr", s(-10)),
            ],
        ),
        expect(
            &n("fn_strings"),
            vec![
                ("str", b(b"from a function\0")),
                ("chars", b(b"wxyz")),
                ("bytes", b(&[0xff, 0x00, 0x7f])),
                ("pt", b(&pt)),
            ],
        ),
        expect(
            &n("fn_custom"),
            vec![
                ("port", u(443)),
                ("id", b(&id)),
                ("blob", b(&[0xde, 0xad, 0xbe, 0xef])),
                ("text", b(b"custom\0")),
            ],
        ),
        expect(
            &n("dotnet_event"),
            vec![
                ("event_id", u(7)),
                ("payload", b(&[0x10, 0x20, 0x30, 0x40, 0x50, 0x60])),
                ("meta", b(&[0xaa, 0xbb, 0xcc])),
            ],
        ),
    ]
}

/// The events tpp_all writes, in order (C provider, then C++).
fn oracle_expected_all() -> Vec<Expect> {
    let mut all = oracle_expected("C");
    all.extend(oracle_expected("CPP"));
    all
}

/// The reference's registration strings, `tpp_all.cmd` without the flags.
fn oracle_registrations() -> Vec<String> {
    let text = std::fs::read_to_string(oracle_dir().join("tpp_all.cmd")).expect("tpp_all.cmd");
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 18, "tpp_all.cmd lines");
    lines
}

/// Name -> declared fields, from "flags<TAB>name args" or "name args" lines.
fn layouts_of<'a>(
    lines: impl IntoIterator<Item = &'a str>,
) -> BTreeMap<String, Vec<layout::Field>> {
    lines
        .into_iter()
        .map(|line| {
            let name_args = line.split_once('\t').map_or(line, |(_, r)| r);
            let (name, args) = name_args.split_once(' ').unwrap_or((name_args, ""));
            let fields = layout::parse(args).unwrap_or_else(|e| panic!("{line}: {e}"));
            (name.to_string(), fields)
        })
        .collect()
}

/// The lines of a registration list file (c-tests/tpp/vm/*.regs), without comments.
fn regs_file(name: &str) -> Vec<String> {
    let path = support::c_test(&format!("tpp/vm/{name}"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// The values tpp_layouts writes (c-tests/tpp/layouts.c), in order.
fn layouts_expected() -> Vec<Expect> {
    let big: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
    let otlp_cpp = |payload: &[u8]| Expect {
        name: "TppLayout_otlp_cpp".into(),
        values: vec![],
        rest: payload.to_vec(),
    };
    vec![
        expect(
            "TppLayout_dotnet_ipc",
            vec![
                ("event_id", u(1)),
                ("payload", b(&[0x01, 0, 0, 0, b'H', 0, b'i', 0, 0, 0])),
                ("meta", b(&[0x0a, 0, 0, 0, 0xfe, 0xff])),
            ],
        ),
        expect(
            "TppLayout_dotnet_ipc",
            vec![
                ("event_id", u(65535)),
                ("payload", b(&[])),
                ("meta", b(&[0x11, 0x22, 0x33])),
            ],
        ),
        expect(
            "TppLayout_dotnet_runtime",
            vec![
                ("version", u(1)),
                ("event_id", u(300)),
                ("extension", b(&[0x01, 0x10, 0x00, 0x00])),
                ("payload", b(&[7, 6, 5, 4, 3, 2, 1])),
            ],
        ),
        expect(
            "TppLayout_dotnet_runtime",
            vec![
                ("version", u(2)),
                ("event_id", u(0)),
                ("extension", b(&[])),
                ("payload", b(&[0x99])),
            ],
        ),
        otlp_cpp(&[0x0a, 0x07, 0x12, 0x05, b'h', b'e', b'l', b'l', b'o']),
        otlp_cpp(&big),
        expect(
            "TppLayout_otlp_rust",
            vec![
                ("protocol", u(0)),
                ("version", b(b"0.29.0\0\0")),
                ("buffer", b(b"\x0a\x0a\x0a\x08\x0a\x06server")),
            ],
        ),
        expect(
            "TppLayout_otlp_rust",
            vec![
                ("protocol", u(1)),
                ("version", b(b"abcdefgh")),
                ("buffer", b(&[])),
            ],
        ),
    ]
}

/// The values tpp_custom writes (c-tests/tpp/custom.c), in order.
fn custom_expected() -> Vec<Expect> {
    let id: Vec<u8> = (1..=16).collect();
    vec![
        expect(
            "TppCustom_write",
            vec![
                ("port", u(8080)),
                ("id", b(&id)),
                ("blob", b(&[0xde, 0xad, 0xbe, 0xef, 0x00])),
                ("none", b(&[])),
                ("text", b(b"rel-loc text\0")),
            ],
        ),
        expect(
            "TppCustom_fn",
            vec![
                ("port", u(443)),
                ("id", b(&id)),
                ("blob", b(&[0xde, 0xad, 0xbe, 0xef])),
                ("text", b(b"custom\0")),
            ],
        ),
    ]
}

/// The registrations tpp_multi's C code expects (multi_main.c), as layouts for decoding.
const MULTI_REGISTRATIONS: &[&str] = &[
    "multi_a_fn u32 n; __rel_loc char[] s;",
    "multi_a_probe s32 v; __rel_loc char[] s;",
    "multi_a_write s32 v;",
    "shared_name u32 id; __rel_loc char[] who;",
    "multi_a_from_cpp s32 v;",
    "multi_main_inline s32 v;",
    "multi_b_from_c u8 x;",
    "multi_b_fn s64 v;",
    "multi_b_cpp_linkage u8 u;",
    "multi_b_write __rel_loc char[] s;",
];

/// The values tpp_multi capture writes (multi_main.c run_capture), in order.
fn multi_expected() -> Vec<Expect> {
    vec![
        expect("multi_a_probe", vec![("v", s(100)), ("s", b(b"probe\0"))]),
        expect("multi_main_inline", vec![("v", s(5))]),
        expect("multi_a_fn", vec![("n", u(7)), ("s", b(b"seven\0"))]),
        expect("multi_b_fn", vec![("v", s(-7))]),
        expect("multi_a_write", vec![("v", s(-1))]),
        expect("multi_b_from_c", vec![("x", u(2))]),
        expect("shared_name", vec![("id", u(0xA)), ("who", b(b"c\0"))]),
        // A std::string temporary, alive until the write completed.
        expect("multi_b_write", vec![("s", b(b"tmp-string\0"))]),
        expect("multi_a_from_cpp", vec![("v", s(4))]),
        expect("shared_name", vec![("id", u(0xB)), ("who", b(b"cpp\0"))]),
        expect("multi_b_cpp_linkage", vec![("u", u(200))]),
        expect("multi_b_fn", vec![("v", s(8))]),
        // NULL string: "".
        expect("multi_a_fn", vec![("n", u(9)), ("s", b(b"\0"))]),
    ]
}

/// Decodes each record with its layout and compares with `want`; returns the differences.
fn check_decoded(
    records: &[Record],
    layouts: &BTreeMap<String, Vec<layout::Field>>,
    want: &[Expect],
) -> Vec<String> {
    let mut errors = Vec::new();
    if records.len() != want.len() {
        errors.push(format!(
            "{} records, expected {}",
            records.len(),
            want.len()
        ));
    }
    for (i, (r, w)) in records.iter().zip(want).enumerate() {
        if r.name != w.name {
            errors.push(format!("#{i}: tracepoint {}, expected {}", r.name, w.name));
            continue;
        }
        let Some(fields) = layouts.get(&r.name) else {
            errors.push(format!("#{i}: no declared layout for {}", r.name));
            continue;
        };
        match layout::decode(fields, &r.event) {
            Err(e) => errors.push(format!("#{i} {}: {e}", r.name)),
            Ok((values, end)) => {
                let got: Vec<(&str, &Value)> =
                    values.iter().map(|(n, v)| (n.as_str(), v)).collect();
                let exp: Vec<(&str, &Value)> = w.values.iter().map(|(n, v)| (*n, v)).collect();
                if got != exp || r.event[end..] != w.rest[..] {
                    errors.push(format!(
                        "#{i} {}: decoded {got:?} + rest {}, expected {exp:?} + rest {}",
                        r.name,
                        hex(&r.event[end..]),
                        hex(&w.rest)
                    ));
                }
            }
        }
    }
    errors
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

fn is_empty_event(name: &str) -> bool {
    name.starts_with("write_empty_") || name.starts_with("fn_empty_")
}

#[test]
fn oracle_registrations_and_bytes_match_the_reference_through_the_recorder() {
    let want_cmd = oracle_registrations();
    let want_dat = support::read_capture(&oracle_dir().join("tpp_all.dat"));
    assert_eq!(want_dat.len(), 18, "tpp_all.dat records");
    let mut failures = Vec::new();
    for (config, exe) in build_all(&programs::oracle(), Backend::Recorder) {
        let label = config.label();
        let (stdout, cmd, dat) = run_recorder(&exe, &[]);
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
        if same != 18 || cmd.len() != 18 || !per_provider || (config.tc.cc == "clang" && !in_order)
        {
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
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn oracle_records_match_the_reference_in_capture_mode() {
    let want = support::read_capture(&oracle_dir().join("tpp_all.dat"));
    let empties: Vec<&str> = want
        .iter()
        .filter(|r| is_empty_event(&r.name))
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(empties.len(), 4, "empty events in tpp_all.dat");
    let mut failures = Vec::new();
    for (config, exe) in build_all(&programs::oracle(), Backend::Library) {
        let label = config.label();
        let got = run_and_capture(&exe, &[]);
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
        let layouts = layouts_of(oracle_registrations().iter().map(String::as_str));
        let mut expected = oracle_expected_all();
        for e in &mut expected {
            if is_empty_event(&e.name) {
                e.rest = vec![0];
            }
        }
        for e in check_decoded(&got, &layouts, &expected) {
            failures.push(format!("{label}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn header_compiles_at_every_language_level() {
    let include = support::include_dir();
    let dir = support::lib_dir().join("tpp-tests").join("matrix");
    std::fs::create_dir_all(&dir).unwrap();
    // The header on its own, then every source that uses it.
    let alone_c = dir.join("alone.c");
    let alone_cpp = dir.join("alone.cpp");
    std::fs::write(&alone_c, "#include <tracepoint/tracepoint-provider.h>\n").unwrap();
    std::fs::write(&alone_cpp, "#include <tracepoint/tracepoint-provider.h>\n").unwrap();
    let mut sources = vec![alone_c, alone_cpp];
    sources.extend(programs::all_sources());
    let mut jobs = Vec::new();
    for tc in support::toolchains() {
        for source in &sources {
            let (compiler, stds) = if is_cxx(source) {
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
    }
    let done = std::thread::scope(|scope| {
        let chunks: Vec<_> = jobs.chunks(jobs.len().div_ceil(4)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .enumerate()
            .map(|(t, chunk)| {
                let dir = &dir;
                let include = &include;
                scope.spawn(move || {
                    let obj = dir.join(format!("matrix{t}.o"));
                    for (compiler, std, opt, source) in chunk {
                        let std_flag = format!("-std={std}");
                        let mut args = vec![std_flag.as_str(), opt];
                        args.extend_from_slice(support::STRICT);
                        args.extend_from_slice(&["-I", path_str(include), "-c", path_str(source)]);
                        args.extend_from_slice(&["-o", path_str(&obj)]);
                        compile(compiler, &args, "compile matrix");
                    }
                    chunk.len()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .sum::<usize>()
    });
    let compilers: Vec<&str> = support::toolchains()
        .iter()
        .flat_map(|t| [t.cc, t.cxx])
        .collect();
    println!(
        "compile matrix: {done} compilations ({compilers:?} x C {C_STANDARDS:?} / C++ \
         {CXX_STANDARDS:?} x -O0/-O2 x {} sources), all clean with {}",
        sources.len(),
        support::STRICT.join(" ")
    );
}

#[test]
fn multi_provider_program() {
    let program = programs::multi();
    let layouts = layouts_of(MULTI_REGISTRATIONS.iter().copied());
    let mut failures = Vec::new();
    for (config, exe) in build_all(&program, Backend::Library) {
        let label = config.label();
        let records = run_and_capture(&exe, &["capture"]);
        for e in check_decoded(&records, &layouts, &multi_expected()) {
            failures.push(format!("{label}: {e}"));
        }
        // Without a capture file: registration fails with an errno where the kernel has no
        // user_events (or succeeds where it has); nothing is enabled, written or evaluated.
        let out = support::run_plain(&exe, &["plain"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("tpp_multi plain: ok"), "{label}: {stdout}");
        if config.c_std == STANDARDS[0].0 {
            print!("{label}: {stdout}");
        }
    }
    for (config, exe) in build_all(&program, Backend::Recorder) {
        let (stdout, cmd, _) = run_recorder(&exe, &["recorder", "{cmd}"]);
        assert_eq!(stdout, "tpp_multi recorder: ok\n", "{}", config.label());
        assert_eq!(cmd.len(), 13, "{}: {cmd:?}", config.label());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn client_layouts_and_custom_kinds_decode_in_capture_mode() {
    let layouts = layouts_of(regs_file("layouts.regs").iter().map(String::as_str));
    let custom = layouts_of(regs_file("custom.regs").iter().map(String::as_str));
    let mut failures = Vec::new();
    for (config, exe) in build_all(&programs::layouts(), Backend::Library) {
        let records = run_and_capture(&exe, &[]);
        for e in check_decoded(&records, &layouts, &layouts_expected()) {
            failures.push(format!("{} layouts: {e}", config.label()));
        }
    }
    for (config, exe) in build_all(&programs::custom(), Backend::Library) {
        let records = run_and_capture(&exe, &[]);
        for e in check_decoded(&records, &custom, &custom_expected()) {
            failures.push(format!("{} custom: {e}", config.label()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Reads the samples of a perf.data file (the documented file format: header, attributes with
/// their sample ids, data records), enough for tracepoint samples: PERF_RECORD_SAMPLE with
/// IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, CALLCHAIN and RAW.
mod perf_data {
    use std::collections::HashMap;

    pub struct Sample {
        /// The attribute's config: the tracepoint's tracefs ID.
        pub config: u64,
        pub pid: u32,
        pub tid: u32,
        pub time: u64,
        /// The trace entry (common fields, then the event), padded by perf.
        pub raw: Vec<u8>,
    }

    const SAMPLE_IP: u64 = 1 << 0;
    const SAMPLE_TID: u64 = 1 << 1;
    const SAMPLE_TIME: u64 = 1 << 2;
    const SAMPLE_ADDR: u64 = 1 << 3;
    const SAMPLE_READ: u64 = 1 << 4;
    const SAMPLE_CALLCHAIN: u64 = 1 << 5;
    const SAMPLE_ID: u64 = 1 << 6;
    const SAMPLE_CPU: u64 = 1 << 7;
    const SAMPLE_PERIOD: u64 = 1 << 8;
    const SAMPLE_STREAM_ID: u64 = 1 << 9;
    const SAMPLE_RAW: u64 = 1 << 10;
    const SAMPLE_IDENTIFIER: u64 = 1 << 16;
    const RECORD_LOST: u32 = 2;
    const RECORD_SAMPLE: u32 = 9;
    const RECORD_LOST_SAMPLES: u32 = 13;

    fn u64_at(d: &[u8], at: usize) -> Result<u64, String> {
        d.get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            .ok_or_else(|| format!("truncated at {at}"))
    }
    fn u32_at(d: &[u8], at: usize) -> Result<u32, String> {
        d.get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .ok_or_else(|| format!("truncated at {at}"))
    }

    /// Every sample, sorted by time; fails when perf lost events.
    pub fn read(bytes: &[u8]) -> Result<Vec<Sample>, String> {
        if bytes.get(..8) != Some(b"PERFILE2") {
            return Err("not a perf.data file (magic)".into());
        }
        let attr_size = u64_at(bytes, 16)? as usize;
        let (attrs_off, attrs_size) = (u64_at(bytes, 24)? as usize, u64_at(bytes, 32)? as usize);
        let (data_off, data_size) = (u64_at(bytes, 40)? as usize, u64_at(bytes, 48)? as usize);
        if attr_size < 16 + 32 {
            return Err(format!("attr_size {attr_size}"));
        }
        // id -> (config, sample_type)
        let mut by_id = HashMap::new();
        let mut attrs = Vec::new();
        for i in 0..attrs_size / attr_size {
            let a = attrs_off + i * attr_size;
            let config = u64_at(bytes, a + 8)?;
            let sample_type = u64_at(bytes, a + 24)?;
            let ids_off = u64_at(bytes, a + attr_size - 16)? as usize;
            let ids_size = u64_at(bytes, a + attr_size - 8)? as usize;
            for j in 0..ids_size / 8 {
                by_id.insert(u64_at(bytes, ids_off + 8 * j)?, (config, sample_type));
            }
            attrs.push((config, sample_type));
        }
        let mut out = Vec::new();
        let mut pos = data_off;
        let end = data_off + data_size;
        while pos + 8 <= end {
            let ty = u32_at(bytes, pos)?;
            let size = u16::from_le_bytes([bytes[pos + 6], bytes[pos + 7]]) as usize;
            if size < 8 || pos + size > end {
                return Err(format!("bad record size {size} at {pos}"));
            }
            let rec = &bytes[pos + 8..pos + size];
            pos += size;
            match ty {
                RECORD_LOST | RECORD_LOST_SAMPLES => return Err("perf lost events".into()),
                RECORD_SAMPLE => {}
                _ => continue,
            }
            let (config, st) = if attrs.len() == 1 {
                attrs[0]
            } else {
                let id = u64_at(rec, 0)?;
                *by_id
                    .get(&id)
                    .ok_or_else(|| format!("sample with unknown id {id}"))?
            };
            if st & SAMPLE_RAW == 0 {
                continue;
            }
            if st & SAMPLE_READ != 0 {
                return Err("PERF_SAMPLE_READ is not supported".into());
            }
            // The fields in the kernel's order; the ones not needed are skipped.
            let has = |bit: u64| st & bit != 0;
            let mut at = 0;
            for bit in [SAMPLE_IDENTIFIER, SAMPLE_IP] {
                at += if has(bit) { 8 } else { 0 };
            }
            let (mut pid, mut tid, mut time) = (0, 0, 0);
            if has(SAMPLE_TID) {
                pid = u32_at(rec, at)?;
                tid = u32_at(rec, at + 4)?;
                at += 8;
            }
            if has(SAMPLE_TIME) {
                time = u64_at(rec, at)?;
                at += 8;
            }
            for bit in [
                SAMPLE_ADDR,
                SAMPLE_ID,
                SAMPLE_STREAM_ID,
                SAMPLE_CPU,
                SAMPLE_PERIOD,
            ] {
                at += if has(bit) { 8 } else { 0 };
            }
            if has(SAMPLE_CALLCHAIN) {
                at += 8 + 8 * u64_at(rec, at)? as usize;
            }
            let raw_size = u32_at(rec, at)? as usize;
            let raw = rec
                .get(at + 4..at + 4 + raw_size)
                .ok_or("truncated raw data")?
                .to_vec();
            out.push(Sample {
                config,
                pid,
                tid,
                time,
                raw,
            });
        }
        out.sort_by_key(|s| s.time);
        Ok(out)
    }
}

/// One program's results in the VM (c-tests/tpp/vm/guest.sh).
struct KernelRun<'a> {
    program: &'a str,
    /// Registration strings, "name args" (what uev_raw pre-registered).
    regs: Vec<String>,
    /// Substrings of the strings the kernel must refuse with EINVAL.
    rejected: &'a [&'a str],
    expected: Vec<Expect>,
    /// The program's whole expected output.
    log: Option<&'a str>,
    /// Per sample, the payload the capture-format file holds for it (tpp_all: the reference's).
    bytes: Option<Vec<Vec<u8>>>,
}

/// Checks one program's results; returns (summary lines, errors).
fn check_kernel_run(dir: &Path, run: &KernelRun) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let pdir = dir.join(run.program);
    // Lossy: perf script prints fixed char arrays raw (e.g. bytes ff 00 7f).
    let read = |name: &str| {
        String::from_utf8_lossy(&std::fs::read(pdir.join(name)).unwrap_or_default()).into_owned()
    };

    // Pre-registrations: each string ok, except the ones the kernel must refuse.
    let regs_log = read("regs.log");
    let mut registered = Vec::new();
    for reg in &run.regs {
        let answer = regs_log.lines().find_map(|l| {
            l.strip_prefix(reg.as_str())
                .and_then(|r| r.strip_prefix(" => "))
        });
        let must_fail = run.rejected.iter().any(|r| reg.contains(r));
        match answer {
            Some(a) if must_fail && a == "err 22" => {}
            Some(a) if !must_fail && a.starts_with("ok ") => registered.push(reg.clone()),
            other => errors.push(format!(
                "{}: pre-registration of '{reg}': {other:?} (expected {})",
                run.program,
                if must_fail { "err 22" } else { "ok" }
            )),
        }
    }
    if let Some(log) = run.log {
        let got = read("program.log");
        if got != log {
            errors.push(format!(
                "{}: program output {got:?}, expected {log:?}",
                run.program
            ));
        }
    }

    // tracefs formats: the declared fields, packed after the common fields.
    let declared = layouts_of(registered.iter().map(String::as_str));
    let mut formats = BTreeMap::new(); // tracefs ID -> (name, declared fields, tracefs format)
    for (name, fields) in &declared {
        let text = read(&format!("format/{name}"));
        let Some(format) = tracepoint_decode::PerfEventFormat::parse(true, "user_events", &text)
        else {
            errors.push(format!(
                "{}: format/{name} missing or unparsable",
                run.program
            ));
            continue;
        };
        let common = format.common_field_count();
        let kernel_fields = &format.fields()[common..];
        let mut offset = format.common_fields_size() as usize;
        let mut ok = kernel_fields.len() == fields.len();
        for (k, d) in kernel_fields.iter().zip(fields) {
            let rel = k.field().starts_with("__rel_loc ");
            // The kernel prints "u16 port", "char chars[]", "__rel_loc u8 payload[]",
            // "struct ta_point pt" (array counts in brackets are unreliable: 6.12 prints
            // uninitialized ones), so compare name, size, offset, __rel_loc and the type word.
            let type_word = d.ty.split('[').next().unwrap_or("");
            ok &= k.name() == d.name
                && k.size() as usize == d.kind.size()
                && k.offset() as usize == offset
                && rel == (d.kind == layout::Kind::RelLoc)
                && k.field()
                    .trim_start_matches("__rel_loc ")
                    .starts_with(type_word);
            offset += d.kind.size();
        }
        if !ok {
            errors.push(format!(
                "{}: format/{name} does not show the declared fields {fields:?}:\n{text}",
                run.program
            ));
        }
        formats.insert(format.id(), (name.clone(), fields.clone(), format));
    }

    out.push(format!(
        "{} of {} registration strings accepted ({} refused as expected), {} format files \
         checked",
        registered.len(),
        run.regs.len(),
        run.regs.len() - registered.len(),
        formats.len()
    ));

    // perf: one sample per expected event, in order, decoding to the written values.
    let samples = match std::fs::read(pdir.join("perf.data"))
        .map_err(|e| e.to_string())
        .and_then(|b| perf_data::read(&b))
    {
        Ok(s) => s,
        Err(e) => {
            errors.push(format!("{}: perf.data: {e}", run.program));
            return (out, errors);
        }
    };
    let perf_text = read("perf-script.txt");
    let perf_events = perf_text.matches(" user_events:").count();
    if samples.len() != run.expected.len() || perf_events != samples.len() {
        errors.push(format!(
            "{}: {} samples in perf.data ({} events in perf script's output), expected {}",
            run.program,
            samples.len(),
            perf_events,
            run.expected.len()
        ));
    }
    // perf's own decoding (libtraceevent) of the __rel_loc strings: each "field=value" must
    // be in its output as often as it was written. (Its output is not split per line: it
    // prints fixed char arrays raw, newlines included.)
    let mut strings = BTreeMap::new();
    for want in &run.expected {
        let fields = declared.get(&want.name);
        for (f, v) in &want.values {
            let is_str =
                fields.is_some_and(|fs| fs.iter().any(|d| d.name == *f && d.ty == "char[]"));
            if let (true, Value::Bytes(bytes)) = (is_str, v) {
                let text = String::from_utf8_lossy(&bytes[..bytes.len() - 1]);
                *strings.entry(format!(" {f}={text}")).or_insert(0) += 1;
            }
        }
    }
    for (needle, count) in &strings {
        let found = perf_text.matches(needle.as_str()).count();
        if found < *count {
            errors.push(format!(
                "{}: perf script printed '{}' {found} times, expected {count}",
                run.program,
                needle.trim_start()
            ));
        }
    }
    let pids: std::collections::BTreeSet<(u32, u32)> =
        samples.iter().map(|s| (s.pid, s.tid)).collect();
    if pids.len() != 1 || pids.iter().any(|(p, t)| p != t) {
        errors.push(format!("{}: samples from pid/tid {pids:?}", run.program));
    }
    for (i, (sample, want)) in samples.iter().zip(&run.expected).enumerate() {
        let Some((name, fields, format)) = formats.get(&(sample.config as u32)) else {
            errors.push(format!(
                "{}: sample {i}: unknown tracefs id {}",
                run.program, sample.config
            ));
            continue;
        };
        let payload = sample
            .raw
            .get(format.common_fields_size() as usize..)
            .unwrap_or(&[]);
        if *name != want.name {
            errors.push(format!(
                "{}: sample {i} is {name}, expected {}",
                run.program, want.name
            ));
            continue;
        }
        // Decode through the kernel's format: offsets and sizes from tracefs (the kind, for
        // __rel_loc and signedness, from the declaration).
        let mut values = Vec::new();
        for k in &format.fields()[format.common_field_count()..] {
            let kind = fields
                .iter()
                .find(|f| f.name == k.name())
                .map(|f| f.kind)
                .unwrap_or(layout::Kind::Fixed(k.size() as usize));
            match layout::read(kind, &sample.raw, k.offset() as usize) {
                Ok(v) => values.push((k.name().to_string(), v)),
                Err(e) => errors.push(format!(
                    "{}: sample {i} {name}.{}: {e}",
                    run.program,
                    k.name()
                )),
            }
        }
        let got: Vec<(&str, &Value)> = values.iter().map(|(n, v)| (n.as_str(), v)).collect();
        let exp: Vec<(&str, &Value)> = want.values.iter().map(|(n, v)| (*n, v)).collect();
        if got != exp {
            errors.push(format!(
                "{}: sample {i} {name}: {got:?}, expected {exp:?}",
                run.program
            ));
        }
        // The payload bytes: the fields' bytes, then only perf's zero padding (to 8-byte
        // alignment of its u32 size + raw data).
        let (_, end) = layout::decode(fields, payload).unwrap_or((vec![], payload.len()));
        let expected_bytes = match &run.bytes {
            Some(all) => all.get(i).cloned().unwrap_or_default(),
            None => [&payload[..end.min(payload.len())], &want.rest[..]].concat(),
        };
        let pad_ok = payload.len() >= expected_bytes.len()
            && (4 + sample.raw.len()) % 8 == 0
            && payload.len() - expected_bytes.len() < 8
            && payload[expected_bytes.len()..].iter().all(|&x| x == 0);
        if !pad_ok || payload[..expected_bytes.len().min(payload.len())] != expected_bytes[..] {
            errors.push(format!(
                "{}: sample {i} {name}: payload {} is not {} + perf's padding",
                run.program,
                hex(payload),
                hex(&expected_bytes)
            ));
        }
        let mut line = format!("{name}:");
        for (n, v) in &values {
            match v {
                Value::U(x) => write!(line, " {n}={x}").unwrap(),
                Value::S(x) => write!(line, " {n}={x}").unwrap(),
                Value::Bytes(x) => write!(line, " {n}=[{}]", hex(x)).unwrap(),
            }
        }
        if !want.rest.is_empty() {
            let rest = payload.get(end..end + want.rest.len()).unwrap_or(&[]);
            write!(line, " (bytes after the fields: [{}])", hex(rest)).unwrap();
        }
        out.push(line);
    }
    (out, errors)
}

/// What c-tests/tpp/vm/guest.sh recorded in a user_events VM, when TPP_KERNEL_RESULTS names its
/// results directory (run `c-tests/tpp/vm/build.sh BIN` on the host and
/// `guest.sh BIN RESULTS` in the VM first). Without the variable this test only says so.
#[test]
fn kernel_results_decode_to_the_written_values() {
    let Some(dir) = std::env::var_os("TPP_KERNEL_RESULTS").map(PathBuf::from) else {
        println!(
            "TPP_KERNEL_RESULTS is not set: no real-kernel results to check (c-tests/tpp/vm/)"
        );
        return;
    };
    let status = std::fs::read_to_string(dir.join("status")).unwrap_or_default();
    assert!(
        dir.join("done").exists() && !dir.join("guest_env").exists(),
        "TPP_KERNEL_RESULTS={}: incomplete results (no 'done', or the guest had no user_events)",
        dir.display()
    );
    let mut errors = Vec::new();
    // status: "PROGRAM program_rc perf_rc regs_rc script_rc". tpp_all exits 1 (see below).
    for (program, rc) in [("tpp_all", "1"), ("tpp_layouts", "0"), ("tpp_custom", "0")] {
        let line = status
            .lines()
            .find(|l| l.split(' ').next() == Some(program));
        let ok = line.is_some_and(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            f.len() == 5
                && f[1] == rc
                && (f[2] == "0" || f[2] == "130")
                && f[3] == "0"
                && f[4] == "0"
        });
        if !ok {
            errors.push(format!(
                "status of {program}: {line:?} (program must exit {rc})"
            ));
        }
    }

    // tpp_multi plain: registered with the kernel, nobody listening.
    let multi_log = std::fs::read_to_string(dir.join("tpp_multi.log")).unwrap_or_default();
    if !status.lines().any(|l| l == "tpp_multi 0")
        || !multi_log.contains("register without a capture file: 0 ")
        || !multi_log.contains("tpp_multi plain: ok")
    {
        errors.push(format!("tpp_multi plain in the VM: {multi_log:?}"));
    }

    // tpp_all: the kernel refuses "u8[16] id" (user_events knows no fixed-size arrays other
    // than char[N] and unsigned char[N]), the reference's own string as well as ours, so the
    // 4 custom tracepoints are not registered, their writes return EBADF and ta_run reports
    // -1; the other 14 events must arrive, byte-identical to the reference's records (the
    // empty ones with the library's padding byte) and decoding to the written values.
    let reference = support::read_capture(&oracle_dir().join("tpp_all.dat"));
    let kept: Vec<&Record> = reference
        .iter()
        .filter(|r| !r.name.contains("_custom_"))
        .collect();
    let oracle = KernelRun {
        program: "tpp_all",
        regs: oracle_registrations()
            .iter()
            .map(|l| l.split_once('\t').unwrap().1.to_string())
            .collect(),
        rejected: &["u8[16] id"],
        expected: oracle_expected_all()
            .into_iter()
            .filter(|e| !e.name.contains("_custom_"))
            .map(|mut e| {
                if is_empty_event(&e.name) {
                    e.rest = vec![0];
                }
                e
            })
            .collect(),
        log: Some("C: register 0, events -1\nCPP: register 0, events -1\n"),
        bytes: Some(
            kept.iter()
                .map(|r| {
                    if r.event.is_empty() {
                        vec![0]
                    } else {
                        r.event.clone()
                    }
                })
                .collect(),
        ),
    };
    let layouts = KernelRun {
        program: "tpp_layouts",
        regs: regs_file("layouts.regs"),
        rejected: &[],
        expected: layouts_expected(),
        log: None,
        bytes: None,
    };
    let custom = KernelRun {
        program: "tpp_custom",
        regs: regs_file("custom.regs"),
        rejected: &[],
        expected: custom_expected(),
        log: Some("TppCustom_write: 0\nTppCustom_fn: 0\n"),
        bytes: None,
    };
    for run in [&oracle, &layouts, &custom] {
        let (lines, errs) = check_kernel_run(&dir, run);
        println!("{}:", run.program);
        for l in lines {
            println!("  {l}");
        }
        errors.extend(errs);
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// samples/tpp built with its Makefile against this build (INCDIR, LIBDIR) with every C
/// compiler, run by `make run` in capture mode: its records decode to the values it wrote.
#[test]
fn sample_builds_and_runs_in_capture_mode() {
    let layouts = layouts_of([
        "tpp_sample_start __rel_loc char[] greeting; s32 argc;",
        "tpp_sample_request u16 port; __rel_loc char[] path; __rel_loc u8[] body;",
    ]);
    let want = vec![
        expect(
            "tpp_sample_start",
            vec![("greeting", b(b"hello\0")), ("argc", s(1))],
        ),
        expect(
            "tpp_sample_request",
            vec![
                ("port", u(8080)),
                ("path", b(b"/index.html\0")),
                ("body", b(&[0xca, 0xfe, 0xba, 0xbe])),
            ],
        ),
    ];
    let sample = support::root().join("samples/tpp");
    for tc in support::toolchains() {
        // A copy, as a user would build it: make builds in place.
        let dir = support::lib_dir()
            .join("tpp-tests")
            .join(format!("sample-{}", tc.cc));
        std::fs::create_dir_all(&dir).unwrap();
        for file in ["Makefile", "tpp-sample.c"] {
            std::fs::copy(sample.join(file), dir.join(file)).unwrap();
        }
        let output = Command::new("make")
            .arg("-C")
            .arg(&dir)
            .arg("-B")
            .arg("run")
            .arg(format!("CC={}", tc.cc))
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
            stdout
                .contains("TPP_REGISTER_PROVIDER: 0\ntpp_sample_start: 0\ntpp_sample_request: 0\n"),
            "{}: {stdout}",
            tc.cc
        );
        let records = support::read_capture(&dir.join("tpp-sample.dat"));
        let errors = check_decoded(&records, &layouts, &want);
        assert!(errors.is_empty(), "{}: {}", tc.cc, errors.join("\n"));
    }
}
