//! Parsers of the files `doctor` reads: the kernel configuration (plain or
//! gzip, as /proc/config.gz), /proc/self/mountinfo (or /proc/mounts),
//! /proc/self/status, perf_event_paranoid, tracefs' user_events_status, and
//! the strings of a program file. All of it is untrusted input: every parser
//! takes any bytes, never panics and bounds what it keeps (fuzzed by
//! fuzz/fuzz_targets/doctor_parsers.rs).

use std::io::Read;
use std::path::PathBuf;

/// The most a gzip'ed kernel configuration may expand to: real ones are
/// about 300 KiB; a bound keeps a crafted file from filling memory.
pub const CONFIG_MAX: u64 = 16 << 20;

/// A kernel configuration option's setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigValue {
    /// `CONFIG_X=y`.
    Yes,
    /// `CONFIG_X=m`.
    Module,
    /// `# CONFIG_X is not set`.
    NotSet,
    /// The option does not appear (a kernel too old to know it, or one
    /// whose dependencies, e.g. CONFIG_TRACING, are off).
    Absent,
    /// Any other value, as written.
    Other(String),
}

impl std::fmt::Display for ConfigValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigValue::Yes => f.write_str("y"),
            ConfigValue::Module => f.write_str("m"),
            ConfigValue::NotSet => f.write_str("n"),
            ConfigValue::Absent => f.write_str("(absent)"),
            ConfigValue::Other(s) => f.write_str(s),
        }
    }
}

/// The setting of `option` (e.g. `CONFIG_USER_EVENTS`) in a kernel
/// configuration's text. The last mention wins, as in Kconfig.
pub fn config_value(text: &str, option: &str) -> ConfigValue {
    let mut value = ConfigValue::Absent;
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix(option) {
            if let Some(v) = rest.strip_prefix('=') {
                value = match v.trim() {
                    "y" => ConfigValue::Yes,
                    "m" => ConfigValue::Module,
                    "n" => ConfigValue::NotSet,
                    other => ConfigValue::Other(other.chars().take(80).collect()),
                };
            }
        } else if let Some(rest) = line.strip_prefix('#') {
            let rest = rest.trim_start();
            if rest.strip_prefix(option).map(str::trim) == Some("is not set") {
                value = ConfigValue::NotSet;
            }
        }
    }
    value
}

/// The text of a kernel configuration file: gunzipped when it starts with
/// gzip's magic bytes, at most [`CONFIG_MAX`] bytes; None when the gzip
/// stream is damaged. Invalid UTF-8 is replaced, not refused.
pub fn config_text(bytes: &[u8]) -> Option<String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .take(CONFIG_MAX)
            .read_to_end(&mut out)
            .ok()?;
        Some(String::from_utf8_lossy(&out).into_owned())
    } else {
        let end = bytes.len().min(CONFIG_MAX as usize);
        Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
    }
}

/// A mounted file system, from mountinfo or /proc/mounts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    pub point: PathBuf,
    pub fstype: String,
    /// The mount options (per-mount and per-superblock, comma-separated).
    pub options: String,
}

/// Undoes the octal escapes of mountinfo and /proc/mounts (`\040` for a
/// space, `\134` for a backslash); a malformed escape stays as it is.
pub fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = b.get(i + 1..i + 4).filter(|d| {
            d.iter().all(|c| (b'0'..=b'7').contains(c)) && d[0] <= b'3' // at most \377
        });
        match (b[i], octal) {
            (b'\\', Some(d)) => {
                out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
                i += 4;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The mounts of /proc/self/mountinfo's text (`ID PARENT MAJ:MIN ROOT POINT
/// OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS`); lines that do not
/// have that shape are skipped.
pub fn mountinfo(text: &str) -> Vec<Mount> {
    let mut mounts = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some(dash) = words.iter().skip(6).position(|w| *w == "-") else {
            continue;
        };
        let dash = dash + 6;
        let (Some(point), Some(fstype)) = (words.get(4), words.get(dash + 1)) else {
            continue;
        };
        let mut options = words[5].to_string();
        if let Some(sup) = words.get(dash + 3) {
            options.push(',');
            options.push_str(sup);
        }
        mounts.push(Mount {
            point: PathBuf::from(unescape(point)),
            fstype: unescape(fstype),
            options,
        });
    }
    mounts
}

/// The mounts of /proc/mounts' text (`SOURCE POINT FSTYPE OPTIONS ...`).
pub fn proc_mounts(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|line| {
            let mut w = line.split_ascii_whitespace();
            let (_, point, fstype) = (w.next()?, w.next()?, w.next()?);
            Some(Mount {
                point: PathBuf::from(unescape(point)),
                fstype: unescape(fstype),
                options: w.next().unwrap_or("").to_string(),
            })
        })
        .collect()
}

/// The value of a `Key:\tvalue` line of /proc/PID/status.
pub fn status_field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k == key).then(|| v.trim())
    })
}

/// The effective capability set of /proc/self/status (`CapEff:`, hex).
pub fn cap_eff(status: &str) -> Option<u64> {
    let hex = status_field(status, "CapEff")?;
    if hex.is_empty() || hex.len() > 16 {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// The number in /proc/sys/kernel/perf_event_paranoid.
pub fn paranoid(text: &str) -> Option<i32> {
    text.trim().parse().ok()
}

/// A line of tracefs' user_events_status: a registered tracepoint and what
/// has it enabled (the kernel writes `NAME # Used by ftrace perf other`, or
/// the bare name when nothing does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusEntry {
    pub name: String,
    /// `ftrace`, `perf`, `other`, in the kernel's words; empty: not enabled.
    pub users: Vec<String>,
}

/// The tracepoints user_events_status lists (its lines up to the first
/// empty one; the `Active:`/`Busy:` totals that follow are not kept).
pub fn user_events_status(text: &str) -> Vec<StatusEntry> {
    let mut entries = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            break;
        }
        let (name, rest) = match line.split_once('#') {
            Some((n, r)) => (n.trim(), r),
            None => (line.trim(), ""),
        };
        // Any white space ends a name: split_ascii_whitespace would keep a
        // vertical tab inside one.
        let Some(name) = name.split_whitespace().next() else {
            continue;
        };
        let mut words = rest.split_whitespace().peekable();
        if words.peek() == Some(&"Used") {
            words.next();
            if words.peek() == Some(&"by") {
                words.next();
            }
        }
        entries.push(StatusEntry {
            name: name.to_string(),
            users: words.map(str::to_string).collect(),
        });
    }
    entries
}

/// The printable ASCII strings of at least `min` bytes that a NUL ends in a
/// file's bytes (what a C compiler leaves of string literals), at most
/// `limit` of them, each cut at 256 bytes.
pub fn c_strings(bytes: &[u8], min: usize, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut scanner = CStrings::new(min);
    scanner.feed(bytes, |s| {
        if out.len() < limit {
            out.push(s.to_string());
        }
    });
    out
}

/// [`c_strings`] over a file read in pieces: the pieces are fed in order,
/// and each string is handed to the caller as its NUL is seen (a string
/// may span pieces). Its memory is one string's 256 bytes.
pub struct CStrings {
    min: usize,
    /// The current run of printable bytes (its first 256).
    run: Vec<u8>,
    /// The length of the current run.
    len: usize,
}

impl CStrings {
    pub fn new(min: usize) -> CStrings {
        CStrings {
            min,
            run: Vec::with_capacity(256),
            len: 0,
        }
    }

    /// Scans the next piece, calling `found` with each string it ends.
    pub fn feed(&mut self, bytes: &[u8], mut found: impl FnMut(&str)) {
        for &b in bytes {
            if (0x20..0x7f).contains(&b) {
                if self.run.len() < 256 {
                    self.run.push(b);
                }
                self.len += 1;
                continue;
            }
            if b == 0 && self.len >= self.min {
                // Printable ASCII: always UTF-8.
                if let Ok(s) = std::str::from_utf8(&self.run) {
                    found(s);
                }
            }
            self.run.clear();
            self.len = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_values() {
        let text = "# comment\nCONFIG_TRACING=y\n# CONFIG_USER_EVENTS is not set\n\
                    CONFIG_USER_EVENTS_X=y\nCONFIG_FOO=m\nCONFIG_BAR=\"x\"\n";
        assert_eq!(
            config_value(text, "CONFIG_USER_EVENTS"),
            ConfigValue::NotSet
        );
        assert_eq!(config_value(text, "CONFIG_TRACING"), ConfigValue::Yes);
        assert_eq!(config_value(text, "CONFIG_FOO"), ConfigValue::Module);
        assert_eq!(
            config_value(text, "CONFIG_BAR"),
            ConfigValue::Other("\"x\"".into())
        );
        assert_eq!(config_value(text, "CONFIG_NONE"), ConfigValue::Absent);
        assert_eq!(
            config_value("CONFIG_USER_EVENTS=y\r\n", "CONFIG_USER_EVENTS"),
            ConfigValue::Yes
        );
        // The last mention wins; "is not set" must be the whole rest.
        assert_eq!(
            config_value(
                "# CONFIG_USER_EVENTS is not set\nCONFIG_USER_EVENTS=y",
                "CONFIG_USER_EVENTS"
            ),
            ConfigValue::Yes
        );
        assert_eq!(
            config_value("# CONFIG_USER_EVENTS is not settled", "CONFIG_USER_EVENTS"),
            ConfigValue::Absent
        );
    }

    #[test]
    fn gzip_config() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"CONFIG_USER_EVENTS=y\n").unwrap();
        let bytes = gz.finish().unwrap();
        let text = config_text(&bytes).unwrap();
        assert_eq!(config_value(&text, "CONFIG_USER_EVENTS"), ConfigValue::Yes);
        // Damaged: cut short, or garbage after the magic bytes.
        assert_eq!(config_text(&bytes[..bytes.len() / 2]), None);
        assert_eq!(config_text(&[0x1f, 0x8b, 0, 0, 0]), None);
        assert_eq!(
            config_text(b"CONFIG_A=y\xff").unwrap(),
            "CONFIG_A=y\u{fffd}"
        );
    }

    #[test]
    fn gzip_bomb_is_cut() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![b'#'; 1 << 20];
        for _ in 0..20 {
            gz.write_all(&zeros).unwrap();
        }
        let text = config_text(&gz.finish().unwrap()).unwrap();
        assert_eq!(text.len() as u64, CONFIG_MAX);
    }

    #[test]
    fn mountinfo_lines() {
        let text = "22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n\
                    30 22 0:12 / /sys/kernel/tracing rw,relatime shared:9 - tracefs tracefs rw,mode=700\n\
                    31 22 0:7 / /mnt/my\\040trace rw master:1 shared:2 - tracefs nodev rw,gid=1001,mode=750\n\
                    32 22 0:7 / /x rw\n\
                    garbage\n\
                    33 22 0:7 / /y rw - \n";
        let m = mountinfo(text);
        assert_eq!(m.len(), 3, "{m:?}");
        assert_eq!(m[1].point, PathBuf::from("/sys/kernel/tracing"));
        assert_eq!(m[1].fstype, "tracefs");
        assert_eq!(m[1].options, "rw,relatime,rw,mode=700");
        assert_eq!(m[2].point, PathBuf::from("/mnt/my trace"));
        assert!(m[2].options.contains("gid=1001"));
    }

    #[test]
    fn proc_mounts_lines() {
        let m = proc_mounts("tracefs /sys/kernel/tracing tracefs rw 0 0\nshort line\n\n");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].fstype, "tracefs");
        assert_eq!(unescape("a\\134b\\"), "a\\b\\");
        assert_eq!(unescape("\\777\\0"), "\\777\\0");
    }

    #[test]
    fn status_and_paranoid() {
        let status = "Name:\tx\nCapInh:\t0000000000000000\nCapEff:\t000001fffeffffff\n";
        assert_eq!(cap_eff(status), Some(0x1fffeffffff));
        assert_eq!(cap_eff("CapEff:\t\n"), None);
        assert_eq!(cap_eff("CapEff:\tzz\n"), None);
        assert_eq!(cap_eff("CapEff:\t11111111111111111\n"), None);
        assert_eq!(cap_eff("Name: x"), None);
        assert_eq!(paranoid("2\n"), Some(2));
        assert_eq!(paranoid("-1"), Some(-1));
        assert_eq!(paranoid("two"), None);
    }

    #[test]
    fn status_entries() {
        let text = "A_L5K1 # Used by perf\nB u32 x\nC_L4K1 # Used by ftrace perf\n\
                    D # Used by\n\nActive: 4\nBusy: 2\nMax: 32768\n";
        let e = user_events_status(text);
        assert_eq!(e.len(), 4);
        assert_eq!(e[0].name, "A_L5K1");
        assert_eq!(e[0].users, ["perf"]);
        assert_eq!(e[1].name, "B");
        assert!(e[1].users.is_empty());
        assert_eq!(e[2].users, ["ftrace", "perf"]);
        assert!(e[3].users.is_empty());
        assert!(user_events_status("# x\n  \n").is_empty());
        let e = user_events_status("Name::\0\0\x0b\t0001ff\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].name, "Name::\0\0");
    }

    #[test]
    fn strings_of_a_file() {
        let bytes = b"\x7fELF\0\0MyProvider\0ab\0\x01xyzzy\0tail-without-nul";
        assert_eq!(c_strings(bytes, 3, 100), ["ELF", "MyProvider", "xyzzy"]);
        assert_eq!(c_strings(bytes, 4, 1), ["MyProvider"]);
        assert!(c_strings(b"", 1, 10).is_empty());
        // Fed in pieces, a string may span them; long ones are cut at 256.
        let mut long = vec![b'x'; 300];
        long.push(0);
        let mut all = bytes.to_vec();
        all.push(1);
        all.extend_from_slice(&long);
        let mut scanner = CStrings::new(3);
        let mut got = Vec::new();
        for piece in all.chunks(5) {
            scanner.feed(piece, |s| got.push(s.to_string()));
        }
        assert_eq!(got[..3], ["ELF", "MyProvider", "xyzzy"]);
        assert_eq!(got[3], "x".repeat(256));
        assert_eq!(got.len(), 4);
    }
}
