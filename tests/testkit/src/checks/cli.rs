//! The command-line tool (`cli/`, binary `eventheader`) against the real
//! kernel: judges what `cli/tests/vm/guest.sh` left in the VM run's
//! directory (`RESULTS/NAME/`), on the host.
//!
//! Expected values come from the programs that wrote the events —
//! `cli/tests/vm/cli_writer.c` and the reference's tracepoint-provider.h test
//! program (`tpp_all.h` in the shared reference data) — and from
//! tracepoint_perf reading the recordings, not from the tool's own output.
//! Recordings made in the VM are decoded here again with the host's build of
//! the tool ([`crate::cli_binary`]): they must decode on another machine.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use tracepoint_decode as td;
use tracepoint_perf as tp;

use super::cli_common::{self as common, Check};
use super::{cli_command, cli_live};
use crate::json::{self, J};
use crate::perf;

/// The guest's steps and the exit statuses each may have.
const STATUSES: &[(&str, &[i32])] = &[
    ("env", &[0]),
    ("collect", &[0]),
    // SIGTERM ends the wait; every definition registered.
    ("register", &[0]),
    ("capture", &[0]),
    ("collect.decode", &[0]),
    ("capture.decode", &[0]),
    ("collect.decode-json", &[0]),
    ("collect.perf-script", &[0]),
    ("single.record", &[0]),
    ("single-pipe.record", &[0]),
    ("single.register", &[0]),
    ("single.decode", &[0]),
    ("single-pipe.decode", &[0]),
    ("persist", &[0]),
    ("gone", &[0]),
    // 6 = events lost; judged against the counts in `bursts`.
    ("burst", &[0, 6]),
    ("burst-small", &[0, 6]),
    ("err.nouser.register", &[4]),
    ("err.nouser.collect", &[4]),
    ("err.perm.register", &[5]),
    ("err.perm.collect", &[5]),
    ("err.badname", &[3]),
    ("err.nosuch", &[3]),
    ("err.usage", &[2]),
    ("err.cmdfail", &[7]),
    ("err.nocmd", &[7]),
    ("live", &[0]),
    ("live.level", &[0]),
    ("live.keyword", &[0]),
    ("live.event", &[0]),
    ("live.pid", &[0]),
    ("err.nofilter", &[3]),
    // 6 = events lost; judged against the counts in `cli_live::live_burst`.
    ("live.burst", &[0, 6]),
    ("pipe.collect", &[0]),
    ("pipe.perf-script", &[0]),
    ("pipe.perf", &[0]),
    // collect ends its command: not the command failing.
    ("cmd.term", &[0]),
    ("cmd.kill", &[0]),
    ("cmd.int", &[0]),
    // 3,000 tracepoints; with too low a hard limit, 1 and a message.
    ("many", &[0]),
    ("many.hard", &[1]),
    ("readme.none", &[3]),
    ("readme.live", &[0]),
];

/// What the error steps must say on stderr.
const ERRORS: &[(&str, &str)] = &[
    (
        "err.nouser.register",
        "user_events is not available: tracefs is not mounted",
    ),
    ("err.nouser.collect", "tracefs is not mounted"),
    (
        "err.perm.register",
        "permission denied opening user_events_data",
    ),
    ("err.perm.collect", "permission denied"),
    ("err.badname", "eventheader name \"Bad_L\""),
    (
        "err.nosuch",
        "no tracepoint user_events:NoSuchPlainTracepoint",
    ),
    ("err.usage", "no tracepoint definitions given"),
    ("err.cmdfail", "collect: false exit status: 1"),
    ("err.nocmd", "cannot run /nonexistent/program"),
];

/// Events each burst writes.
pub(super) const BURST: u64 = 100_000;

/// The metadata guest.sh asks decode and collect --live for when comparing
/// with capture mode.
pub(super) const EH_META: &str = "id,version,level,keyword,opcode,tag,activity,related";

/// The guest script's results and the host's build of the tool.
pub(super) struct Results {
    dir: PathBuf,
    cli: PathBuf,
}

/// Judges the VM run `name` ([`crate::checks::ResultsCheck`]): every check
/// below runs; the pass line counts them, one summary line each.
pub fn judge(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    let r = Results {
        dir: common::finished(results, name)?,
        cli: crate::cli_binary()?,
    };
    let checks: [(&str, Check<Results>); 17] = [
        ("exit statuses", statuses),
        ("errors", errors),
        ("register", register),
        ("collect", collect_like_capture),
        ("plain tracepoints", plain_tracepoints),
        ("perf script", perf_script),
        ("JSON keys", unique_keys),
        ("single-event perf record", single_event),
        ("persist", persist),
        ("bursts", bursts),
        ("live", cli_live::live),
        ("filters", cli_live::filters),
        ("live burst", cli_live::live_burst),
        ("pipes", cli_live::pipes),
        ("command end", cli_command::command_end),
        ("descriptors", cli_command::descriptors),
        ("README live view", cli_command::readme_live),
    ];
    common::run_checks(
        &r,
        &checks,
        "eventheader register/collect/decode against the kernel",
    )
}

impl Results {
    pub(super) fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    pub(super) fn read(&self, file: &str) -> Result<String, String> {
        common::read(&self.dir, file)
    }

    pub(super) fn statuses(&self) -> Result<BTreeMap<String, i32>, String> {
        common::statuses(&self.dir)
    }

    /// `eventheader decode --jsonl --meta META FILE` on this machine:
    /// (events, stderr).
    pub(super) fn decode_here(&self, file: &str, meta: &str) -> Result<(Vec<J>, String), String> {
        common::decode_here(&self.cli, &["--meta", meta], &self.path(file))
    }

    /// collect's report in `file` (its stderr) counts `events` recorded.
    pub(super) fn collect_reported(&self, file: &str, events: u64) -> Result<(), String> {
        let err = self.read(file)?;
        ensure!(
            number_after(&err, "collect: ") == Some(events),
            "collect's report: {}",
            err.trim()
        );
        Ok(())
    }
}

pub(super) fn jsonl(text: &str) -> Result<Vec<J>, String> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(json::try_parse)
        .collect()
}

pub(super) fn int(event: &J, key: &str) -> Option<i128> {
    event.get(key).and_then(J::as_int)
}

pub(super) fn name(event: &J) -> &str {
    event.get("n").and_then(J::as_str).unwrap_or("")
}

/// The number after `prefix` in `text` (e.g. "collect: 116 events").
pub(super) fn number_after(text: &str, prefix: &str) -> Option<u64> {
    text.split(prefix)
        .nth(1)?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn statuses(r: &Results) -> Result<String, String> {
    let got = r.statuses()?;
    let wrong: Vec<String> = STATUSES
        .iter()
        .filter(|(step, ok)| !got.get(*step).is_some_and(|rc| ok.contains(rc)))
        .map(|(step, ok)| format!("{step}: {:?}, expected one of {ok:?}", got.get(*step)))
        .collect();
    ensure!(
        wrong.is_empty(),
        "steps with other statuses: {}",
        wrong.join("; ")
    );
    Ok(format!(
        "{} steps, each with its documented status",
        STATUSES.len()
    ))
}

fn errors(r: &Results) -> Result<String, String> {
    common::errors_say(&r.dir, ERRORS)?;
    Ok(format!(
        "{} error cases (no user_events, no permission, bad names, usage, failing commands) \
         say what is wrong",
        ERRORS.len()
    ))
}

/// `register -i eh.defs -i tpp.defs` pre-registers every definition, prints
/// their names once registered, and unregisters them when signalled.
fn register(r: &Results) -> Result<String, String> {
    let defs = r.read("register.defs")?;
    let want: Vec<&str> = defs.lines().filter_map(|l| l.split(' ').next()).collect();
    ensure!(
        want.len() == 16,
        "{} definitions, expected 2 EventHeader + 14 tracepoint-provider.h ones",
        want.len()
    );
    let names = r.read("register.names")?;
    ensure!(
        names.lines().collect::<Vec<_>>() == want,
        "register printed {names:?}, expected the names of {want:?}"
    );
    let tracefs = r.read("register.tracefs")?;
    for name in &want {
        ensure!(
            tracefs.lines().any(|l| l == *name),
            "{name} not in tracefs while registered"
        );
    }
    let format = r.read("register.format")?;
    for field in [
        "field:u8 eventheader_flags;",
        "field:u8 version;",
        "field:u16 id;",
        "field:u16 tag;",
        "field:u8 opcode;",
        "field:u8 level;",
    ] {
        ensure!(
            format.contains(field),
            "CliTest_L4K1's format lacks {field}:\n{format}"
        );
    }
    let after = r.read("register.after")?;
    let left: Vec<&str> = after.lines().filter(|l| want.contains(l)).collect();
    ensure!(
        left.is_empty(),
        "still registered after register exited: {left:?}"
    );
    Ok(format!(
        "{} tracepoints registered before their program ran, with the EventHeader fields; \
         gone after SIGTERM",
        want.len()
    ))
}

/// `cli_writer eh 50` under `collect`: Start, then 50 x (Hello i, Data 2i
/// i/2), then Stop; decoded exactly as the same program's capture-mode run.
fn collect_like_capture(r: &Results) -> Result<String, String> {
    let eh = |text: String| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("\"CliTest:"))
            .map(str::to_string)
            .collect()
    };
    let collected = eh(r.read("collect.decode.out")?);
    let captured = eh(r.read("capture.decode.out")?);
    ensure!(
        collected.len() == 102,
        "{} CliTest events decoded from the collect recording, expected 102",
        collected.len()
    );
    ensure!(
        collected == captured,
        "decode of the collect recording differs from decode of capture mode"
    );
    let events = jsonl(&collected.join("\n"))?;
    ensure!(
        name(&events[0]) == "CliTest:Start" && name(&events[101]) == "CliTest:Stop",
        "first and last events: {} and {}",
        name(&events[0]),
        name(&events[101])
    );
    let activity = J::Str("01020304-0506-0708-090a-0b0c0d0e0f10".into());
    for e in [&events[0], &events[101]] {
        ensure!(
            e.get("meta").and_then(|m| m.get("activity")) == Some(&activity),
            "{}: activity id {:?}",
            name(e),
            e.get("meta")
        );
    }
    for i in 0..50usize {
        let (hello, data) = (&events[1 + 2 * i], &events[2 + 2 * i]);
        let half = match data.get("half") {
            Some(J::Num(n)) => n.as_f64(),
            _ => None,
        };
        ensure!(
            name(hello) == "CliTest:Hello"
                && int(hello, "i") == Some(i as i128)
                && hello.get("msg").and_then(J::as_str) == Some("hello")
                && hello
                    .get("meta")
                    .and_then(|m| m.get("level"))
                    .and_then(J::as_int)
                    == Some(4),
            "event {}: {hello:?}",
            1 + 2 * i
        );
        ensure!(
            name(data) == "CliTest:Data"
                && int(data, "twice") == Some(2 * i as i128)
                && half == Some(i as f64 / 2.0),
            "event {}: {data:?}",
            2 + 2 * i
        );
    }
    r.collect_reported("collect.err", 116)?;
    Ok(
        "collect recorded 116 events while cli_writer wrote; decode prints its 102 EventHeader \
         events byte-identical to capture mode, with the values cli_writer wrote"
            .into(),
    )
}

/// The 6.12 kernel's format file sometimes shows a random length for a
/// fixed array of a user_events tracepoint (seen: `unsigned char
/// bytes[16595392]; offset:20; size:3;`, another run `bytes[]`). With a
/// length that contradicts the size, tracepoint_decode shows the field's
/// bytes as a hex dump ("FF 00 7F") instead of numbers ([255, 0, 127]): the
/// same bytes, which is what is compared.
fn hex_bytes_as_numbers(event: &J, field: &str) -> J {
    let J::Obj(members) = event else {
        return event.clone();
    };
    let numbers = |hex: &str| -> Option<J> {
        let bytes: Option<Vec<J>> = hex
            .split(' ')
            .map(|b| u8::from_str_radix(b, 16).ok().map(|b| J::Num(b.into())))
            .collect();
        bytes.map(J::Arr)
    };
    J::Obj(
        members
            .iter()
            .map(|(k, v)| match v {
                J::Str(hex) if k == field => (k.clone(), numbers(hex).unwrap_or_else(|| v.clone())),
                _ => (k.clone(), v.clone()),
            })
            .collect(),
    )
}

/// The tracepoint-provider.h events of the recording (values from
/// `tpp_all.h`), decoded on the host through the tracefs formats the file
/// carries.
fn plain_tracepoints(r: &Results) -> Result<String, String> {
    let (events, _) = r.decode_here("collect.data", "none")?;
    let by_name: BTreeMap<String, J> = events
        .into_iter()
        .map(|e| (name(&e).to_string(), e))
        .collect();
    let pt = r#""pt": "FB FF FF FF 4D 00 00 00""#; // ta_point { -5, 77 }
    let mut checked = 0;
    for lang in ["C", "CPP"] {
        let expect = [
            (format!("write_empty_{lang}"), String::new()),
            (
                format!("write_scalars_{lang}"),
                r#", "u8": 200, "s8": -100, "u16": 60000, "s16": -30000, "u32": 4000000000, "s32": -2000000000, "u64": 18000000000000000000, "s64": -9000000000000000000, "uptr": 4660, "sptr": -1"#.into(),
            ),
            (
                format!("write_strings_{lang}"),
                format!(r#", "str": "hello", "empty": "", "chars": "abcd", "bytes": [255, 0, 127], {pt}"#),
            ),
            (format!("fn_empty_{lang}"), String::new()),
            (
                format!("fn_scalars_{lang}"),
                r#", "u8": 1, "s8": -2, "u16": 3, "s16": -4, "u32": 5, "s32": -6, "u64": 7, "s64": -8, "uptr": 9, "sptr": -10"#.into(),
            ),
            (
                format!("fn_strings_{lang}"),
                format!(r#", "str": "from a function", "chars": "wxyz", "bytes": [255, 0, 127], {pt}"#),
            ),
            // The .NET runtime's layout. The kernel's format says signed:1
            // for the u8 arrays of __rel_loc fields, so 0xaa 0xbb 0xcc print
            // as -86 -69 -52.
            (
                format!("dotnet_event_{lang}"),
                r#", "event_id": 7, "payload": [16, 32, 48, 64, 80, 96], "meta": [-86, -69, -52]"#.into(),
            ),
        ];
        for (tracepoint, fields) in expect {
            let full = format!("user_events:{tracepoint}");
            let got = by_name
                .get(&full)
                .ok_or_else(|| format!("no {full} in the recording"))?;
            let got = hex_bytes_as_numbers(got, "bytes");
            let want = json::try_parse(&format!(r#"{{ "n": "{full}"{fields} }}"#))?;
            ensure!(got == want, "{full}: {got:?}, expected {want:?}");
            checked += 1;
        }
    }
    ensure!(
        by_name.len() == 4 + 14,
        "{} event names, expected CliTest's 4 + 14 plain tracepoints",
        by_name.len()
    );
    Ok(format!(
        "{checked} TPP and .NET-layout events decode on the host through the recorded formats, \
         with tpp_all.h's values"
    ))
}

fn perf_script(r: &Results) -> Result<String, String> {
    let out = r.read("collect.perf-script.out")?;
    let count = |what: &str| common::lines_with(&out, what);
    for (what, want) in [
        ("user_events:CliTest_L4K1:", 52),
        ("user_events:CliTest_L5K2:", 50),
        ("user_events:write_scalars_C:", 1),
        ("user_events:", 116),
    ] {
        ensure!(
            count(what) == want,
            "{} lines with {what}, expected {want}",
            count(what)
        );
    }
    ensure!(
        out.contains("u8=200") && out.contains("u32=4000000000") && out.contains("event_id=7"),
        "perf script does not show the plain tracepoints' fields"
    );
    let err = r.read("collect.perf-script.err")?;
    ensure!(!err.contains("Error"), "perf script complained: {err}");
    // The recording decodes the same here as in the VM (its formats and
    // clock data travel with it).
    let here = Command::new(&r.cli)
        .arg("decode")
        .arg(r.path("collect.data"))
        .output()
        .map_err(|e| format!("running {}: {e}", r.cli.display()))?;
    ensure!(
        String::from_utf8_lossy(&here.stdout) == r.read("collect.decode-json.out")?,
        "decode of collect.data on the host differs from decode in the VM"
    );
    Ok(
        "perf script reads the collect recording (116 samples, plain fields shown); \
        decode on the host = decode in the VM"
            .into(),
    )
}

/// Every event object of the default JSON output has unique keys: the .NET
/// layout's field `meta` keeps its name, the metadata object moves to
/// `meta_`.
fn unique_keys(r: &Results) -> Result<String, String> {
    let text = r.read("collect.decode-json.out")?;
    let events = json::try_parse(&text)?;
    let events = match &events {
        J::Arr(events) => events,
        other => return Err(format!("decode's output is no JSON array: {other:?}")),
    };
    ensure!(events.len() == 116, "{} events", events.len());
    for e in events {
        ensure!(
            e.repeated_key().is_none(),
            "{}: key {:?} twice",
            name(e),
            e.repeated_key()
        );
    }
    let mut dotnet = 0;
    for e in events
        .iter()
        .filter(|e| name(e).starts_with("user_events:dotnet_event_"))
    {
        ensure!(
            matches!(e.get("meta"), Some(J::Arr(_)))
                && e.get("meta_").and_then(|m| m.get("time")).is_some(),
            "{}: field meta and the metadata under meta_ expected: {e:?}",
            name(e)
        );
        dotnet += 1;
    }
    ensure!(dotnet == 2, "{dotnet} dotnet_event samples, expected 2");
    Ok(format!(
        "{} events without a repeated key; the {dotnet} .NET-layout events keep their field \
         \"meta\", their metadata is \"meta_\"",
        events.len()
    ))
}

/// Samples and samples without an event id in a perf.data file.
fn attribution(path: &Path) -> Result<(usize, usize), String> {
    let (mut samples, mut unattributed) = (0, 0);
    perf::for_each_record(
        path,
        tp::PerfDataFileEventOrder::File,
        &mut |reader, event| {
            if event.header.ty == td::PerfEventHeaderType::Sample {
                samples += 1;
                unattributed += usize::from(reader.get_sample_event_info(event).is_err());
            }
            Ok(())
        },
    )?;
    Ok((samples, unattributed))
}

/// `perf record` of one event writes samples without ids; every sample is
/// that event. (The reference's decoder prints "GetSampleEventInfo error 61"
/// for each and nothing else.)
fn single_event(r: &Results) -> Result<String, String> {
    for (file, has_ids) in [("single.data", false), ("single-pipe.data", true)] {
        // What makes the file hard: tracepoint_perf cannot attribute its
        // samples by id (normal mode). In pipe mode perf adds PERF_SAMPLE_ID.
        let (samples, unattributed) = attribution(&r.path(file))?;
        ensure!(samples == 100, "{file}: {samples} samples, expected 100");
        ensure!(
            unattributed == if has_ids { 0 } else { 100 },
            "{file}: {unattributed} samples without an id"
        );
        let (events, err) = r.decode_here(file, "default")?;
        ensure!(err.is_empty(), "{file}: decode said {err}");
        ensure!(events.len() == 100, "{file}: {} events", events.len());
        for (i, e) in events.iter().enumerate() {
            ensure!(
                name(e) == "CliSingle:One" && int(e, "i") == Some(i as i128),
                "{file}: event {i}: {e:?}"
            );
        }
        let guest = jsonl(&r.read(&file.replace(".data", ".decode.out"))?)?;
        ensure!(
            guest.len() == 100,
            "{file}: {} events decoded in the VM",
            guest.len()
        );
    }
    Ok(
        "100 of 100 samples decoded from `perf record -e user_events:CliSingle_L5K1` \
         (samples without ids; the reference's decoder decodes none), and from its pipe mode"
            .into(),
    )
}

fn persist(r: &Results) -> Result<String, String> {
    ensure!(
        r.read("persist.out")?.trim() == "CliPersist_L5K1",
        "register --persist printed {:?}",
        r.read("persist.out")?
    );
    ensure!(
        r.read("persist.after")?
            .lines()
            .any(|l| l == "CliPersist_L5K1"),
        "CliPersist_L5K1 is gone after register --persist exited"
    );
    ensure!(
        r.read("persist.format")?
            .contains("field:u8 eventheader_flags;"),
        "CliPersist_L5K1's format lacks the EventHeader fields"
    );
    ensure!(
        r.read("gone.out")?.trim() == "CliGone_L5K1",
        "register --nowait printed {:?}",
        r.read("gone.out")?
    );
    ensure!(
        !r.read("gone.after")?.lines().any(|l| l == "CliGone_L5K1"),
        "without --persist the tracepoint must go with the tool"
    );
    Ok(
        "register --persist: CliPersist_L5K1 stays after the tool exits; without it, \
        CliGone_L5K1 goes"
            .into(),
    )
}

/// Samples of `tracepoint` and the losses (PERF_RECORD_LOST,
/// PERF_RECORD_LOST_SAMPLES) in a perf.data file, read with tracepoint_perf.
fn samples_and_losses(path: &Path, tracepoint: &str) -> Result<(u64, u64), String> {
    let shown = path.display();
    let (mut samples, mut lost) = (0, 0);
    perf::for_each_record(
        path,
        tp::PerfDataFileEventOrder::File,
        &mut |reader, event| {
            if event.header.ty == td::PerfEventHeaderType::Sample {
                let info = reader
                    .get_sample_event_info(event)
                    .map_err(|e| format!("{shown}: a sample without event info: {e}"))?;
                ensure!(
                    info.name() == tracepoint,
                    "{shown}: a sample of {}",
                    info.name()
                );
                samples += 1;
            } else if let Some(at) = perf::lost_at(event.header.ty) {
                let n = event
                    .data
                    .get(at..at + 8)
                    .ok_or_else(|| format!("{shown}: a short lost record"))?;
                lost += reader.byte_reader().read_u64(n);
            }
            Ok(())
        },
    )?;
    Ok((samples, lost))
}

/// Checks one decoded event of a burst (`cli_writer burst`): a Burst with
/// an `i` of the burst, seen once (`seen`: the `i`s so far).
pub(super) fn burst_event(
    seen: &mut BTreeSet<Option<i128>>,
    e: &J,
    run: &str,
) -> Result<(), String> {
    let i = int(e, "i");
    ensure!(
        name(e) == "CliBurst:Burst" && i.is_some_and(|i| (0..BURST as i128).contains(&i)),
        "{run}: {e:?}"
    );
    ensure!(seen.insert(i), "{run}: event {i:?} twice");
    Ok(())
}

/// 10^5 events under `collect`: every one is in the file or counted as lost
/// (by collect, in the file, and as decode reports it), each recorded once;
/// exit status 6 exactly when some were lost.
fn bursts(r: &Results) -> Result<String, String> {
    let statuses = r.statuses()?;
    let mut summary = Vec::new();
    for (run, buffer) in [("burst", "1024 KiB"), ("burst-small", "8 KiB")] {
        let file = format!("{run}.data");
        let (samples, lost) = samples_and_losses(&r.path(&file), "user_events:CliBurst_L5K1")?;
        let (events, err) = r.decode_here(&file, "none")?;
        let mut seen = BTreeSet::new();
        for e in &events {
            burst_event(&mut seen, e, run)?;
        }
        let decoded = events.len() as u64;
        let decode_lost = number_after(&err, "the recording lost ").unwrap_or(0);
        let collect_err = r.read(&format!("{run}.err"))?;
        let said = (
            number_after(&collect_err, "collect: "),
            number_after(&collect_err, "the kernel lost ").unwrap_or(0),
        );
        ensure!(
            samples + lost == BURST,
            "{run}: {samples} samples + {lost} lost != {BURST} written"
        );
        ensure!(
            (decoded, decode_lost) == (samples, lost),
            "{run}: decode found {decoded} events and {decode_lost} lost, the file has {samples} \
             and {lost}"
        );
        ensure!(
            said == (Some(samples), lost),
            "{run}: collect reported {said:?} (recorded, lost), the file has {samples} and {lost}"
        );
        let want_status = if lost > 0 { 6 } else { 0 };
        ensure!(
            statuses.get(run) == Some(&want_status),
            "{run}: exit status {:?}, expected {want_status}",
            statuses.get(run)
        );
        ensure!(
            r.read(&format!("{run}.out"))?
                .contains(&format!("wrote {BURST}")),
            "{run}: cli_writer did not write {BURST} events"
        );
        summary.push(format!(
            "{buffer} buffers: {samples} recorded + {lost} lost (exit {want_status})"
        ));
    }
    Ok(format!(
        "{BURST} events each, all accounted for by collect, the file and decode: {}",
        summary.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_messages() {
        let err = "eventheader: collect: 99000 events in 1.5 s to b.data\n\
                   eventheader: collect: the kernel lost 1000 events (ring buffers full: ...)\n";
        assert_eq!(number_after(err, "collect: "), Some(99000));
        assert_eq!(number_after(err, "the kernel lost "), Some(1000));
        assert_eq!(number_after(err, "the recording lost "), None);
    }

    #[test]
    fn unfinished_results_fail() {
        let dir = std::env::temp_dir().join(format!("testkit-cli-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("cli")).unwrap();
        let verdict = judge(&dir, "cli");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(verdict.unwrap_err().contains("did not finish"));
    }
}
