//! The "time" of a perf sample as an RFC 3339 UTC date-time with
//! nanoseconds.

use std::cell::RefCell;
use std::fmt::Write as _;

use tracepoint_decode as td;

use super::view::Time;
use super::window::TimeFormat;

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian
/// calendar (H. Hinnant's civil-from-days algorithm).
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Writes `"2024-03-28T00:45:12.640913120Z"` (nanoseconds; the crate's own
/// display rounds to 100 ns) when the sample has a timestamp and the
/// recording gives its wall-clock offset: a year outside 1..=9999 gives
/// `"TIME(seconds.nanoseconds)"`. Returns false when it wrote nothing (no
/// offset: the caller writes seconds).
pub fn push_time(out: &mut String, sample: &td::PerfSampleEventInfo<'_>) -> bool {
    push_time_of(out, sample.session_info, sample.time)
}

/// [`push_time`] of a timestamp `time` of the session.
pub fn push_time_of(out: &mut String, session: &td::PerfSessionInfo, time: u64) -> bool {
    if !session.clock_offset_known() {
        return false;
    }
    let ts = session.time_to_time_spec(time);
    push_civil(out, ts.seconds(), ts.nanoseconds(), true);
    true
}

/// Seconds as the crate writes them (`f64` shortest form, exponent form
/// outside 1e-4..1e17).
pub fn push_seconds(out: &mut String, ns: u64) {
    let v = ns as f64 / 1e9;
    let _ = if v != 0.0 && !(1e-4..1e17).contains(&v) {
        write!(out, "{v:e}")
    } else {
        write!(out, "{v}")
    };
}

/// `"2024-03-28T00:45:12.640913120Z"` of nanoseconds since 1970 (without
/// the quotes unless `quoted`); a year outside 1..=9999 gives
/// `TIME(seconds.nanoseconds)`.
pub fn push_rfc3339(out: &mut String, ns: i64, quoted: bool) {
    let secs = ns.div_euclid(1_000_000_000);
    let nanos = ns.rem_euclid(1_000_000_000) as u32;
    push_civil(out, secs, nanos, quoted);
}

thread_local! {
    /// The last second [`push_civil`] wrote and its text up to the decimal
    /// point (`2024-03-28T00:45:12.`): a recording has many events a second.
    static SECOND: RefCell<(i64, String)> = const { RefCell::new((i64::MIN, String::new())) };
}

/// The date and time of `secs` seconds and `nanos` nanoseconds since 1970,
/// as [`push_rfc3339`] writes them.
fn push_civil(out: &mut String, secs: i64, nanos: u32, quoted: bool) {
    SECOND.with_borrow_mut(|(last, text)| {
        if *last != secs {
            text.clear();
            if !push_date_time(text, secs) {
                // No second's text is kept (no time is i64::MIN seconds).
                *last = i64::MIN;
                let q = if quoted { "\"" } else { "" };
                let _ = write!(out, "{q}TIME({secs}.{nanos:09}){q}");
                return;
            }
            text.push('.');
            *last = secs;
        }
        if quoted {
            out.push('"');
        }
        out.push_str(text);
        // Nine digits: the leading 1 keeps the zeros.
        let mut digits = itoa::Buffer::new();
        out.push_str(&digits.format(nanos % 1_000_000_000 + 1_000_000_000)[1..]);
        out.push('Z');
        if quoted {
            out.push('"');
        }
    });
}

/// `"2024-03-28T00:45:12Z"` of `secs` seconds since 1970 (a time field's
/// JSON, as the decoding crate writes it); false (nothing written) for a
/// year outside 1..=9999.
pub fn push_unix_seconds(out: &mut String, secs: i64) -> bool {
    out.push('"');
    if !push_date_time(out, secs) {
        out.pop();
        return false;
    }
    out.push_str("Z\"");
    true
}

/// `2024-03-28T00:45:12` of `secs` seconds since 1970; false (nothing
/// written) for a year outside 1..=9999.
fn push_date_time(out: &mut String, secs: i64) -> bool {
    let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
    if !(1..=9999).contains(&year) {
        return false;
    }
    let sod = secs.rem_euclid(86_400) as u32;
    let mut b = *b"0000-00-00T00:00:00";
    let mut put = |at: usize, width: usize, mut v: u32| {
        for i in (at..at + width).rev() {
            b[i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    };
    put(0, 4, year as u32);
    put(5, 2, month);
    put(8, 2, day);
    put(11, 2, sod / 3600);
    put(14, 2, sod / 60 % 60);
    put(17, 2, sod % 60);
    // Digits and punctuation: ASCII.
    out.push_str(std::str::from_utf8(&b).unwrap_or_default());
    true
}

/// Seconds with nine decimals (exact).
pub fn push_decimal_seconds(out: &mut String, ns: i64) {
    let sign = if ns < 0 { "-" } else { "" };
    let a = ns.unsigned_abs();
    let _ = write!(out, "{sign}{}.{:09}", a / 1_000_000_000, a % 1_000_000_000);
}

/// Writes a time as `format` says (the default: RFC 3339 for a wall-clock
/// time, else seconds as the JSON output has always written them), quoting
/// strings when `quoted`.
pub fn push_time_as(
    out: &mut String,
    t: Time,
    first: Option<Time>,
    format: Option<TimeFormat>,
    quoted: bool,
) {
    match format {
        None if t.wall => push_rfc3339(out, t.ns, quoted),
        None => push_seconds(out, t.ns.max(0) as u64),
        Some(TimeFormat::Rfc3339) => push_rfc3339(out, t.ns, quoted),
        Some(TimeFormat::Ns) => {
            let _ = write!(out, "{}", t.ns);
        }
        Some(TimeFormat::S) => push_decimal_seconds(out, t.ns),
        Some(TimeFormat::Relative) => {
            push_decimal_seconds(out, t.ns.saturating_sub(first.unwrap_or(t).ns))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(19_810), (2024, 3, 28));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-719_162), (1, 1, 1));
        assert_eq!(civil_from_days(2_932_896), (9999, 12, 31));
    }

    #[test]
    fn a_year_out_of_range_leaves_no_second_cached() {
        let far = 253_402_300_800; // 10000-01-01
        let t = 1_711_586_712;
        let mut s = String::new();
        for (secs, nanos) in [(t, 1), (far, 5), (t, 2), (far, 6), (far, 7), (t, 3)] {
            push_civil(&mut s, secs, nanos, false);
            s.push(' ');
        }
        assert_eq!(
            s,
            "2024-03-28T00:45:12.000000001Z TIME(253402300800.000000005) \
             2024-03-28T00:45:12.000000002Z TIME(253402300800.000000006) \
             TIME(253402300800.000000007) 2024-03-28T00:45:12.000000003Z "
        );
    }

    #[test]
    fn formats() {
        let t = Time {
            ns: 1_711_586_712_640_913_120,
            wall: true,
        };
        let first = Some(Time {
            ns: 1_711_586_710_000_000_000,
            wall: true,
        });
        let mut s = String::new();
        for f in [
            None,
            Some(TimeFormat::Rfc3339),
            Some(TimeFormat::Ns),
            Some(TimeFormat::S),
            Some(TimeFormat::Relative),
        ] {
            push_time_as(&mut s, t, first, f, true);
            s.push(' ');
        }
        assert_eq!(
            s,
            "\"2024-03-28T00:45:12.640913120Z\" \"2024-03-28T00:45:12.640913120Z\" \
             1711586712640913120 1711586712.640913120 2.640913120 "
        );
        s.clear();
        let raw = Time {
            ns: 1_500_000_000,
            wall: false,
        };
        push_time_as(&mut s, raw, None, None, true);
        s.push(' ');
        push_time_as(&mut s, raw, Some(t), Some(TimeFormat::Relative), true);
        s.push(' ');
        push_rfc3339(&mut s, -1, false);
        assert_eq!(
            s,
            "1.5 -1711586711.140913120 1969-12-31T23:59:59.999999999Z"
        );
    }
}
