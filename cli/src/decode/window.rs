//! `--time-format` and `--time START,END`: how times are written, and the
//! time window (for `decode` and for any command that reads recordings).

use clap::ValueEnum;

use super::view::Time;

/// How times are written; one JSON type per format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TimeFormat {
    /// An RFC 3339 UTC date-time with nanoseconds (a string).
    Rfc3339,
    /// Nanoseconds (an integer).
    Ns,
    /// Seconds with nanoseconds (a number).
    S,
    /// Seconds since the input's first event (a number).
    Relative,
}

/// One end of a time window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nanoseconds since 1970 (UTC), from an RFC 3339 date-time.
    Absolute(i64),
    /// Nanoseconds after the input's first event.
    Relative(i64),
}

/// `--time START,END`: events from START to END inclusive; either end may
/// be absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeWindow {
    pub start: Option<Bound>,
    pub end: Option<Bound>,
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn digits(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Nanoseconds since 1970 of `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if !s.is_ascii()
        || b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't' | b' ')
    {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (digits(&s[..4])?, digits(&s[5..7])?, digits(&s[8..10])?);
    let (h, mi, sec) = (
        digits(&s[11..13])?,
        digits(&s[14..16])?,
        digits(&s[17..19])?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut rest = &s[19..];
    let mut frac_ns = 0i64;
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        for (i, c) in r[..n].bytes().take(9).enumerate() {
            frac_ns += i64::from(c - b'0') * 10i64.pow(8 - i as u32);
        }
        rest = &r[n..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && rest.as_bytes()[3] == b':' => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            sign * (digits(&rest[1..3])? * 3600 + digits(&rest[4..6])? * 60)
        }
        _ => return None,
    };
    let secs = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + sec - offset;
    secs.checked_mul(1_000_000_000)?.checked_add(frac_ns)
}

/// Nanoseconds of a number of seconds `[-]S[.frac]`.
fn parse_seconds(s: &str) -> Option<i64> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let whole = if whole.is_empty() { 0 } else { digits(whole)? };
    if !frac.is_empty() && digits(frac).is_none() {
        return None;
    }
    let mut ns = whole.checked_mul(1_000_000_000)?;
    for (i, c) in frac.bytes().take(9).enumerate() {
        ns = ns.saturating_add(i64::from(c - b'0') * 10i64.pow(8 - i as u32));
    }
    Some(if neg { -ns } else { ns })
}

fn parse_bound(s: &str) -> Result<Option<Bound>, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    if let Some(ns) = parse_seconds(s) {
        return Ok(Some(Bound::Relative(ns)));
    }
    parse_rfc3339(s).map(|ns| Some(Bound::Absolute(ns))).ok_or_else(|| {
        format!("{s:?} is neither seconds after the first event (e.g. 1.5) nor an RFC 3339 date-time (e.g. 2024-03-28T00:45:12.5Z)")
    })
}

impl TimeWindow {
    /// Parses `START,END` (clap's value parser).
    pub fn parse(s: &str) -> Result<TimeWindow, String> {
        let Some((a, b)) = s.split_once(',') else {
            return Err(format!("{s:?}: expected START,END (either may be empty)"));
        };
        let w = TimeWindow {
            start: parse_bound(a)?,
            end: parse_bound(b)?,
        };
        Ok(w)
    }

    /// Is an event at `time` inside, the input's first event being at
    /// `first`? An event without a time is outside a window with a bound.
    pub fn contains(&self, time: Option<Time>, first: Option<Time>) -> bool {
        if self.start.is_none() && self.end.is_none() {
            return true;
        }
        let Some(t) = time else {
            return false;
        };
        let at = |b: Bound| match b {
            Bound::Absolute(ns) => ns,
            Bound::Relative(ns) => first.unwrap_or(t).ns.saturating_add(ns),
        };
        self.start.map_or(true, |b| t.ns >= at(b)) && self.end.map_or(true, |b| t.ns <= at(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339("2024-03-28T00:45:12.640913120Z"),
            Some(1_711_586_712_640_913_120)
        );
        assert_eq!(
            parse_rfc3339("2024-03-28T02:45:12.5+02:00"),
            Some(1_711_586_712_500_000_000)
        );
        for bad in [
            "2024-03-28",
            "2024-13-01T00:00:00Z",
            "2024-03-28T00:00:00",
            "x",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn windows() {
        let w = TimeWindow::parse("1.5,").unwrap();
        assert_eq!(w.start, Some(Bound::Relative(1_500_000_000)));
        assert_eq!(w.end, None);
        let w = TimeWindow::parse(",1970-01-01T00:00:10Z").unwrap();
        assert_eq!(w.end, Some(Bound::Absolute(10_000_000_000)));
        assert!(TimeWindow::parse("1").is_err());
        assert!(TimeWindow::parse("abc,").is_err());
        assert!(TimeWindow::parse(".,").is_err());
        let t = |ns| Some(Time { ns, wall: true });
        let w = TimeWindow::parse("1,2").unwrap();
        assert!(!w.contains(t(100), t(100)));
        assert!(w.contains(t(1_000_000_100), t(100)));
        assert!(w.contains(t(2_000_000_100), t(100)));
        assert!(!w.contains(t(2_000_000_101), t(100)));
        assert!(!w.contains(None, t(100)));
        assert!(TimeWindow::default().contains(None, None));
    }
}
