//! The VM runs of the tracepoint-provider.h programs: `c-tests/tpp/guest.sh
//! PROGRAM REGS` pre-registered the registration strings of REGS verbatim
//! (the reference's own for tpp_all, the clients' own for tpp_layouts),
//! copied the tracefs format of each one the kernel accepted, ran the
//! program under `perf record` of them and ran `perf script`. The judges
//! hold that
//! - the kernel accepted every string (and refused the ones it must refuse);
//! - each tracefs format shows the declared fields, packed after the common
//!   fields;
//! - perf recorded one sample per event the program wrote, in order, and
//!   `perf script` printed as many, with the `__rel_loc` strings as written;
//! - each sample's fields, decoded through its tracefs format
//!   ([`crate::perf::read_plain`]), have the values the program wrote, and
//!   its payload is the declared fields' bytes (tpp_all: the reference's
//!   record) followed only by perf's zero padding.
//!
//! Files of run NAME in the results directory: `NAME.regs.log` (`STRING =>
//! ok INDEX | err ERRNO`), `NAME.format/TRACEPOINT`, `NAME.out` and
//! `NAME.rc` (the program's output and exit status), `NAME.perf.data`,
//! `NAME.perf-script.txt`; the judge adds `NAME.decoded` (every sample
//! decoded).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::layout::{self, hex, Field, Kind, Value};
use crate::perf::{self, PlainSample};
use crate::tpp::{self, Expect};

/// What one program must have done in the VM.
struct Expected {
    /// Its registration strings, `name args` (what guest.sh pre-registered).
    regs: Vec<String>,
    /// Substrings of the strings the kernel must refuse with EINVAL.
    rejected: &'static [&'static str],
    /// Its exit status and its whole output.
    status: &'static str,
    out: Option<&'static str>,
    /// The events perf must have recorded, in order.
    events: Vec<Expect>,
    /// Per event, its payload (tpp_all: the reference's record); None: the
    /// declared fields' bytes followed by [`Expect::rest`].
    bytes: Option<Vec<Vec<u8>>>,
    /// How the payloads compare, for the summary.
    bytes_are: &'static str,
}

/// `tpp_all` (the reference data's program, unchanged): the kernel refuses
/// `u8[16] id` (user_events knows no fixed-size arrays other than char[N]
/// and unsigned char[N]), the reference's own string as well as ours, so
/// the 4 custom tracepoints are not registered, their writes return EBADF
/// and each provider's run reports -1 (exit status 1). The other 14 events
/// must arrive byte-identical to the reference's records (the 4 empty ones
/// with the library's padding byte).
pub fn oracle(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    let regs = tpp::oracle_registrations()?
        .iter()
        .map(|l| {
            l.split_once('\t')
                .map_or(l.as_str(), |(_, r)| r)
                .to_string()
        })
        .collect();
    let kept = |n: &str| !n.contains("_custom_");
    let bytes = tpp::oracle_records()?
        .into_iter()
        .filter(|r| kept(&r.name))
        .map(|r| if r.event.is_empty() { vec![0] } else { r.event })
        .collect();
    judge(
        results,
        name,
        &Expected {
            regs,
            rejected: &["u8[16] id"],
            status: "1",
            out: Some("C: register 0, events -1\nCPP: register 0, events -1\n"),
            events: tpp::oracle_expected()
                .into_iter()
                .filter(|e| kept(&e.name))
                .collect(),
            bytes: Some(bytes),
            bytes_are:
                "byte-identical to the reference's records (empty events: + the padding byte)",
        },
    )
}

/// `tpp_layouts`: the clients' own strings (`c-tests/tpp/layouts.regs`,
/// .NET IPC and runtime, OpenTelemetry C++ and Rust) pre-registered, then
/// the program's tracepoint-provider.h spelling of the same layouts (the
/// kernel would answer EADDRINUSE to a different one); each layout written
/// twice and decoded back.
pub fn layouts(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    judge(
        results,
        name,
        &Expected {
            regs: tpp::regs_file("layouts.regs")?,
            rejected: &[],
            status: "0",
            out: None,
            events: tpp::layouts_expected(),
            bytes: None,
            bytes_are: "the declared fields' bytes",
        },
    )
}

/// `tpp_custom`: the four TPP_CUSTOM_ kinds in spellings the kernel accepts
/// (`c-tests/tpp/custom.regs`).
pub fn custom(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    judge(
        results,
        name,
        &Expected {
            regs: tpp::regs_file("custom.regs")?,
            rejected: &[],
            status: "0",
            out: Some("TppCustom_write: 0\nTppCustom_fn: 0\n"),
            events: tpp::custom_expected(),
            bytes: None,
            bytes_are: "the declared fields' bytes",
        },
    )
}

/// A sample's fields as `name: f=v ...`; a `char[]` field that holds
/// printable text and its NUL shows as `"text"`.
fn describe(name: &str, values: &[(String, Value)], fields: &[Field], rest: &[u8]) -> String {
    let mut line = format!("{name}:");
    for (n, v) in values {
        let is_str = fields.iter().any(|f| f.name == *n && f.ty == "char[]");
        match v {
            Value::Bytes(b)
                if is_str
                    && b.last() == Some(&0)
                    && b[..b.len() - 1].iter().all(|c| (b' '..=b'~').contains(c)) =>
            {
                line.push_str(&format!(
                    " {n}={:?}",
                    String::from_utf8_lossy(&b[..b.len() - 1])
                ))
            }
            _ => line.push_str(&format!(" {n}={v}")),
        }
    }
    if !rest.is_empty() {
        line.push_str(&format!(
            " (bytes after the fields: {})",
            Value::Bytes(rest.to_vec())
        ));
    }
    line
}

/// Whether the tracefs format `text` shows `fields`: the same names, sizes,
/// `__rel_loc`-ness and type words, packed from the end of the common
/// fields. (The kernel prints `u16 port`, `char chars[]`, `__rel_loc u8
/// payload[]`, `struct ta_point pt`; array counts in brackets are not
/// compared: 6.12 prints uninitialized ones.)
fn format_shows(text: &str, fields: &[Field]) -> bool {
    let Some(format) = tracepoint_decode::PerfEventFormat::parse(true, "user_events", text) else {
        return false;
    };
    let kernel_fields = &format.fields()[format.common_field_count()..];
    let mut offset = usize::from(format.common_fields_size());
    let mut ok = kernel_fields.len() == fields.len();
    for (k, d) in kernel_fields.iter().zip(fields) {
        let rel = k.field().starts_with("__rel_loc ");
        let type_word = d.ty.split('[').next().unwrap_or("");
        ok &= k.name() == d.name
            && usize::from(k.size()) == d.kind.size()
            && usize::from(k.offset()) == offset
            && rel == (d.kind == Kind::RelLoc)
            && k.field()
                .trim_start_matches("__rel_loc ")
                .starts_with(type_word);
        offset += d.kind.size();
    }
    ok
}

fn judge(results: &Path, name: &str, want: &Expected) -> Result<(String, Vec<String>), String> {
    let file = |suffix: &str| results.join(format!("{name}.{suffix}"));
    // Lossy: perf script prints fixed char arrays raw (e.g. bytes ff 00 7f).
    let read = |suffix: &str| {
        String::from_utf8_lossy(&std::fs::read(file(suffix)).unwrap_or_default()).into_owned()
    };
    let mut errors = Vec::new();

    let rc = read("rc");
    if rc.trim() != want.status {
        errors.push(format!(
            "the program exited with '{}', expected {}",
            rc.trim(),
            want.status
        ));
    }
    if let Some(out) = want.out {
        let got = read("out");
        if got != out {
            errors.push(format!("program output {got:?}, expected {out:?}"));
        }
    }

    // The pre-registrations: each string ok, except the ones the kernel must refuse.
    let regs_log = read("regs.log");
    let mut registered = Vec::new();
    for reg in &want.regs {
        let answer = regs_log.lines().find_map(|l| {
            l.strip_prefix(reg.as_str())
                .and_then(|r| r.strip_prefix(" => "))
        });
        let must_fail = want.rejected.iter().any(|r| reg.contains(r));
        match answer {
            Some(a) if must_fail && a == "err 22" => {}
            Some(a) if !must_fail && a.starts_with("ok ") => registered.push(reg.as_str()),
            other => errors.push(format!(
                "pre-registration of '{reg}': {other:?} (expected {})",
                if must_fail { "err 22" } else { "ok" }
            )),
        }
    }
    let declared = layout::layouts_of(registered.iter().copied())?;
    // Per tracepoint, its registration string (for the summary's one sample per layout).
    let args_of: BTreeMap<&str, &str> = registered
        .iter()
        .map(|r| r.split_once(' ').unwrap_or((r, "")))
        .collect();

    // The tracefs formats.
    for (tracepoint, fields) in &declared {
        let text = read(&format!("format/{tracepoint}"));
        if !format_shows(&text, fields) {
            errors.push(format!(
                "format/{tracepoint} does not show the declared fields {fields:?}:\n{text}"
            ));
        }
    }

    // perf: one sample per event, in order; perf script printed as many.
    let samples = perf::read_plain(&file("perf.data"))?;
    let perf_text = read("perf-script.txt");
    let script_events = perf_text.matches(" user_events:").count();
    if samples.len() != want.events.len() || script_events != samples.len() {
        errors.push(format!(
            "{} samples in perf.data ({script_events} events in perf script's output), expected {}",
            samples.len(),
            want.events.len()
        ));
    }
    // perf's own decoding (libtraceevent) of the __rel_loc strings: each
    // " field=value" as often as it was written. (Not split per line: perf
    // script prints fixed char arrays raw, newlines included.)
    let mut strings: BTreeMap<String, usize> = BTreeMap::new();
    for e in &want.events {
        for (f, v) in &e.values {
            let is_str = declared
                .get(&e.name)
                .is_some_and(|fs| fs.iter().any(|d| d.name == *f && d.ty == "char[]"));
            if let (true, Value::Bytes(bytes)) = (is_str, v) {
                let text = String::from_utf8_lossy(&bytes[..bytes.len().saturating_sub(1)]);
                *strings.entry(format!(" {f}={text}")).or_default() += 1;
            }
        }
    }
    for (needle, count) in &strings {
        let found = perf_text.matches(needle.as_str()).count();
        if found < *count {
            errors.push(format!(
                "perf script printed '{}' {found} times, expected {count}",
                needle.trim_start()
            ));
        }
    }
    let pids: BTreeSet<(u32, u32)> = samples.iter().map(|s| (s.pid, s.tid)).collect();
    if pids.len() != 1 || pids.iter().any(|(p, t)| p != t) {
        errors.push(format!("samples from pid/tid {pids:?}"));
    }

    let mut decoded = String::new();
    let mut shown = Vec::new();
    let mut layouts_shown = BTreeSet::new();
    for (i, (sample, e)) in samples.iter().zip(&want.events).enumerate() {
        if let Err(problem) = check_sample(
            sample,
            e,
            &declared,
            want.bytes
                .as_ref()
                .map(|b| b.get(i).cloned().unwrap_or_default()),
        ) {
            errors.push(format!("sample {i} {}: {problem}", sample.name));
        }
        let rest = if e.rest.is_empty() {
            &[][..]
        } else {
            let payload = sample.payload();
            let end = declared
                .get(&sample.name)
                .and_then(|f| layout::decode(f, payload).ok())
                .map_or(payload.len(), |(_, end)| end);
            &payload[end.min(payload.len())..(end + e.rest.len()).min(payload.len())]
        };
        let fields = declared.get(&sample.name).map_or(&[][..], Vec::as_slice);
        let line = describe(&sample.name, &sample.fields, fields, rest);
        decoded.push_str(&line);
        decoded.push('\n');
        // One sample per layout in the summary.
        if layouts_shown.insert(args_of.get(sample.name.as_str()).copied().unwrap_or("")) {
            shown.push(format!("    {line}"));
        }
    }
    let _ = std::fs::write(file("decoded"), decoded);
    if !errors.is_empty() {
        errors.truncate(20);
        return Err(errors.join("\n"));
    }
    let refused = want.regs.len() - registered.len();
    Ok((
        format!(
            "{} registration strings accepted{}, {} tracefs formats show the declared fields; \
             {}/{} events in perf.data and perf script{}, every field decoded through the \
             tracefs format to the written value, payloads {}; one sample of each of the {} \
             layouts:",
            registered.len(),
            if refused > 0 {
                format!(" ({refused} refused with EINVAL, as they must be)")
            } else {
                String::new()
            },
            declared.len(),
            samples.len(),
            want.events.len(),
            match strings.values().sum::<usize>() {
                0 => String::new(),
                n => format!(" (its text: the {n} __rel_loc strings as written)"),
            },
            want.bytes_are,
            layouts_shown.len()
        ),
        shown,
    ))
}

/// One sample against what was written: its tracepoint, its fields' values
/// and its payload bytes, then only perf's zero padding (the u32 size and
/// the raw data make a multiple of 8 bytes).
fn check_sample(
    sample: &PlainSample,
    want: &Expect,
    declared: &BTreeMap<String, Vec<Field>>,
    bytes: Option<Vec<u8>>,
) -> Result<(), String> {
    if sample.name != want.name {
        return Err(format!("expected {}", want.name));
    }
    let got: Vec<(&str, &Value)> = sample.fields.iter().map(|(n, v)| (n.as_str(), v)).collect();
    let exp: Vec<(&str, &Value)> = want.values.iter().map(|(n, v)| (*n, v)).collect();
    if got != exp {
        return Err(format!("fields {got:?}, expected {exp:?}"));
    }
    let payload = sample.payload();
    let expected = match bytes {
        Some(b) => b,
        None => {
            let fields = declared.get(&sample.name).ok_or("no declared layout")?;
            let (_, end) = layout::decode(fields, payload)?;
            [&payload[..end.min(payload.len())], &want.rest[..]].concat()
        }
    };
    let padded = payload.len() >= expected.len()
        && (4 + sample.raw.len()) % 8 == 0
        && payload.len() - expected.len() < 8
        && payload[expected.len()..].iter().all(|&x| x == 0);
    if !padded || payload[..expected.len().min(payload.len())] != expected[..] {
        return Err(format!(
            "payload {} is not {} + perf's padding",
            hex(payload),
            hex(&expected)
        ));
    }
    Ok(())
}
