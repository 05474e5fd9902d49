//! What the tracepoint-provider.h test programs (manifest `tpp_*`) declare and
//! write, in one place for the cargo test (`main.rs`, capture mode) and
//! the VM suite's judge ([`crate::checks::tpp`], perf): the registration
//! strings and the values each event must decode to, read off the programs'
//! sources (`c-tests/tpp/`, `samples/tpp/`) and the reference data's
//! `tpp_all.h`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::capture::Record;
use crate::layout::{self, hex, Field, Value};

/// The reference data of tracepoint-provider.h:
/// `tests/data/reference/tpp/` (`tpp_all.*`).
pub fn oracle_dir() -> PathBuf {
    crate::reference_dir().join("tpp")
}

/// The reference's registrations, `tpp_all.cmd`: `flags<TAB>name args`, 18
/// lines, in the reference build's order.
pub fn oracle_registrations() -> Result<Vec<String>, String> {
    let path = oracle_dir().join("tpp_all.cmd");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.len() != 18 {
        return Err(format!("{}: {} lines, not 18", path.display(), lines.len()));
    }
    Ok(lines)
}

/// The reference's records, `tpp_all.dat` (18).
pub fn oracle_records() -> Result<Vec<Record>, String> {
    let records = crate::capture::read(&oracle_dir().join("tpp_all.dat"))?;
    if records.len() != 18 {
        return Err(format!("tpp_all.dat: {} records, not 18", records.len()));
    }
    Ok(records)
}

/// The registration strings of a `c-tests/tpp/*.regs` file (`name args`
/// per line), without comments.
pub fn regs_file(name: &str) -> Result<Vec<String>, String> {
    let path = crate::repo_root().join("c-tests/tpp").join(name);
    Ok(std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect())
}

/// Whether `name` is one of tpp_all's events without fields.
pub fn is_empty_event(name: &str) -> bool {
    name.starts_with("write_empty_") || name.starts_with("fn_empty_")
}

/// What one event must decode to: its tracepoint, its fields' values, and
/// the bytes after the fields (an empty event's padding byte; a field-less
/// layout's payload).
#[derive(Clone, Debug)]
pub struct Expect {
    pub name: String,
    pub values: Vec<(&'static str, Value)>,
    pub rest: Vec<u8>,
}

fn expect(name: &str, values: Vec<(&'static str, Value)>) -> Expect {
    Expect {
        name: name.to_string(),
        values,
        rest: Vec::new(),
    }
}

fn u(v: u64) -> Value {
    Value::U(v)
}
fn s(v: i64) -> Value {
    Value::S(v)
}
fn b(v: &[u8]) -> Value {
    Value::Bytes(v.to_vec())
}

/// tpp_all.h's write_custom event (TPP_CUSTOM_ fields), named `name`:
/// tpp_custom writes it too.
fn custom_write(name: &str) -> Expect {
    let id: Vec<u8> = (1..=16).collect();
    expect(
        name,
        vec![
            ("port", u(8080)),
            ("id", b(&id)),
            ("blob", b(&[0xde, 0xad, 0xbe, 0xef, 0x00])),
            ("none", b(&[])),
            ("text", b(b"rel-loc text\0")),
        ],
    )
}

/// tpp_all.h's fn_custom event, named `name`: tpp_custom writes it too.
fn custom_fn(name: &str) -> Expect {
    let id: Vec<u8> = (1..=16).collect();
    expect(
        name,
        vec![
            ("port", u(443)),
            ("id", b(&id)),
            ("blob", b(&[0xde, 0xad, 0xbe, 0xef])),
            ("text", b(b"custom\0")),
        ],
    )
}

/// The values tpp_all.h writes, for suffix "C" or "CPP", in write order.
fn oracle_provider(suffix: &str) -> Vec<Expect> {
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
        custom_write(&n("write_custom")),
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
        custom_fn(&n("fn_custom")),
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

/// The events tpp_all writes with the library, in order (C provider, then
/// C++): an empty event carries the library's padding byte (the kernel
/// drops a write that has nothing after the write index).
pub fn oracle_expected() -> Vec<Expect> {
    let mut all = oracle_provider("C");
    all.extend(oracle_provider("CPP"));
    for e in &mut all {
        if is_empty_event(&e.name) {
            e.rest = vec![0];
        }
    }
    all
}

/// The values tpp_layouts writes (c-tests/tpp/layouts.c), in order; its
/// layouts are `layouts.regs`.
pub fn layouts_expected() -> Vec<Expect> {
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

/// The values tpp_custom writes (c-tests/tpp/custom.c), in order: those of
/// tpp_all.h's write_custom and fn_custom. Its layouts are `custom.regs`.
pub fn custom_expected() -> Vec<Expect> {
    vec![custom_write("TppCustom_write"), custom_fn("TppCustom_fn")]
}

/// The registrations tpp_multi's events use (multi_main.c).
pub const MULTI_REGISTRATIONS: &[&str] = &[
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

/// The values `tpp_multi capture` writes (multi_main.c run_capture), in
/// order.
pub fn multi_expected() -> Vec<Expect> {
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

/// The registrations of samples/tpp (its source's comments).
pub const SAMPLE_REGISTRATIONS: &[&str] = &[
    "tpp_sample_start __rel_loc char[] greeting; s32 argc;",
    "tpp_sample_request u16 port; __rel_loc char[] path; __rel_loc u8[] body;",
];

/// The values samples/tpp writes when run without arguments.
pub fn sample_expected() -> Vec<Expect> {
    vec![
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
    ]
}

/// Decodes each record with its declared layout and compares it with
/// `want`, values and the bytes after the fields; the differences.
pub fn check_decoded(
    records: &[Record],
    layouts: &BTreeMap<String, Vec<Field>>,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The expectations fit the layouts they are decoded with.
    #[test]
    fn expectations_name_declared_fields() {
        let fits = |layouts: &BTreeMap<String, Vec<Field>>, want: &[Expect]| {
            for e in want {
                let fields = &layouts[&e.name];
                let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                let want: Vec<&str> = e.values.iter().map(|(n, _)| *n).collect();
                assert_eq!(names, want, "{}", e.name);
            }
        };
        let oracle = oracle_registrations().unwrap();
        fits(
            &layout::layouts_of(oracle.iter().map(String::as_str)).unwrap(),
            &oracle_expected(),
        );
        for (file, want) in [
            ("layouts.regs", layouts_expected()),
            ("custom.regs", custom_expected()),
        ] {
            let regs = regs_file(file).unwrap();
            fits(
                &layout::layouts_of(regs.iter().map(String::as_str)).unwrap(),
                &want,
            );
        }
        fits(
            &layout::layouts_of(MULTI_REGISTRATIONS.iter().copied()).unwrap(),
            &multi_expected(),
        );
        fits(
            &layout::layouts_of(SAMPLE_REGISTRATIONS.iter().copied()).unwrap(),
            &sample_expected(),
        );
    }
}
