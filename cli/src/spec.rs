//! Tracepoint definitions as users write them, on the command line or one per
//! line in a file (`#` starts a comment line, empty lines are ignored).
//!
//! `register` takes the conventions of the reference's `tracepoint-register`:
//!
//! - `Provider_L5K1Gmygroup[:flags]`: no white space, an EventHeader tracepoint;
//!   the standard EventHeader arg spec is added.
//! - `Name[:flags] field1; field2 ...`: a plain tracepoint with its user_events
//!   arg spec (kernel `Documentation/trace/user_events.rst`). Trailing `;` and
//!   white space are dropped, so `Name ;` registers `Name` without fields.
//!
//! `collect` takes those of the reference's `perf-collect`, where a system name
//! may precede the name (`user_events:` when none is given), plus wildcards:
//!
//! - `[SYSTEM:]NAME`: an existing tracepoint; a user_events EventHeader name
//!   that does not exist yet is pre-registered for the collection.
//! - `[user_events:]NAME[:flags] FIELDS...`: pre-registered if it does not exist.
//! - `:[SYSTEM:]NAME`: an existing tracepoint only.
//! - a NAME with `*` or `?` matches the existing tracepoints of its system.

/// The arg spec of every EventHeader tracepoint (spec-notes §3). Any other
/// spelling makes the kernel refuse a second registration of the same name.
pub const EVENTHEADER_FIELDS: &str =
    "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level";

/// Tracepoint names are shorter than this (`EVENTHEADER_NAME_MAX`; the
/// library refuses longer names with `E2BIG`).
pub const NAME_MAX: usize = 256;

/// The system of user_events tracepoints.
pub const USER_EVENTS: &str = "user_events";

/// ASCII white space as C's `isspace`.
fn is_space(c: char) -> bool {
    c == ' ' || ('\t'..='\r').contains(&c)
}

fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Checks an EventHeader tracepoint name, `Provider_L<level>K<keyword>[options]`
/// with lowercase hexadecimal level and keyword and alphanumeric options.
pub fn check_eventheader_name(name: &str) -> Result<(), String> {
    if name.len() >= NAME_MAX {
        return Err(format!(
            "eventheader name \"{name}\" is too long ({} bytes, at most {})",
            name.len(),
            NAME_MAX - 1
        ));
    }
    if name.contains(':') {
        return Err(format!("eventheader name \"{name}\" contains ':'"));
    }
    if let Some(c) = name.chars().find(|&c| is_space(c) || c.is_control()) {
        return Err(format!(
            "eventheader name \"{name}\" contains the character {c:?}"
        ));
    }
    let is_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
    let Some(us) = name.rfind('_') else {
        return Err(format!(
            "eventheader name \"{name}\" lacks the \"_L<level>K<keyword>\" suffix"
        ));
    };
    if us == 0 {
        return Err(format!(
            "eventheader name \"{name}\" has an empty provider name"
        ));
    }
    let suffix = &name.as_bytes()[us + 1..];
    if suffix.len() < 2 || suffix[0] != b'L' || !is_hex(suffix[1]) {
        return Err(format!(
            "eventheader name \"{name}\" lacks the \"_L<level>\" suffix (level in lowercase hex)"
        ));
    }
    let mut pos = 2;
    while pos < suffix.len() && is_hex(suffix[pos]) {
        pos += 1;
    }
    if suffix.get(pos) != Some(&b'K') || !suffix.get(pos + 1).is_some_and(|&b| is_hex(b)) {
        return Err(format!(
            "eventheader name \"{name}\" lacks the \"K<keyword>\" suffix (keyword in lowercase hex)"
        ));
    }
    if let Some(&b) = suffix[pos + 2..]
        .iter()
        .find(|b| !b.is_ascii_alphanumeric())
    {
        return Err(format!(
            "eventheader name \"{name}\" has {:?} in its options (only letters and digits)",
            b as char
        ));
    }
    Ok(())
}

/// Checks the name of a plain tracepoint (the part before its arg spec).
fn check_plain_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the tracepoint name is empty".into());
    }
    if name.len() >= NAME_MAX {
        return Err(format!(
            "tracepoint name \"{name}\" is too long ({} bytes, at most {})",
            name.len(),
            NAME_MAX - 1
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!("tracepoint name \"{name}\" contains {c:?}"));
    }
    Ok(())
}

/// A tracepoint to register: the string the kernel receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registration {
    /// The name (without flags), as it appears in tracefs.
    pub name: String,
    /// `name[:flags] fields`, as given to `tracepoint_connect2`.
    pub command: String,
    /// True for an EventHeader tracepoint.
    pub eventheader: bool,
}

/// Parses one `register` definition. `Ok(None)` for an empty or comment line.
pub fn parse_registration(line: &str) -> Result<Option<Registration>, String> {
    let def = trim(line);
    if def.is_empty() || def.starts_with('#') {
        return Ok(None);
    }
    match def.find(is_space) {
        None => {
            // EventHeader: NAME[:flags]
            let name = def.rfind(':').map_or(def, |colon| &def[..colon]);
            check_eventheader_name(name)?;
            Ok(Some(Registration {
                name: name.to_string(),
                command: format!("{def} {EVENTHEADER_FIELDS}"),
                eventheader: true,
            }))
        }
        Some(space) => {
            // Plain: NAME[:flags] FIELDS, trailing ';' and white space dropped.
            let head = &def[..space];
            let end = def[space..]
                .rfind(|c: char| c != ';' && !is_space(c))
                .map_or(space, |i| space + i + 1);
            let name = head.split(':').next().unwrap_or(head);
            check_plain_name(name)?;
            Ok(Some(Registration {
                name: name.to_string(),
                command: def[..end].to_string(),
                eventheader: false,
            }))
        }
    }
}

/// A `collect` tracepoint selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CollectSpec {
    /// An existing tracepoint (`:SYSTEM:NAME`, or a plain name without fields).
    Existing { system: String, name: String },
    /// Existing tracepoints whose names match a `*`/`?` pattern.
    Pattern { system: String, pattern: String },
    /// A user_events tracepoint that is pre-registered if it does not exist.
    Register(Registration),
}

fn is_pattern(name: &str) -> bool {
    name.contains(['*', '?'])
}

fn check_system(system: &str) -> Result<(), String> {
    if system.is_empty()
        || !system
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(format!("invalid system name \"{system}\""));
    }
    Ok(())
}

/// Parses one `collect` tracepoint spec. `Ok(None)` for an empty or comment line.
pub fn parse_collect_spec(line: &str) -> Result<Option<CollectSpec>, String> {
    let spec = trim(line);
    if spec.is_empty() || spec.starts_with('#') {
        return Ok(None);
    }
    if let Some(rest) = spec.strip_prefix(':') {
        // :[SYSTEM:]NAME, existing only.
        let rest = rest.trim_start_matches(is_space);
        if rest.contains(is_space) {
            return Err(format!(
                "\"{spec}\": an existing tracepoint takes no fields"
            ));
        }
        let (system, name) = match rest.split_once(':') {
            Some((s, n)) => (s, n),
            None => (USER_EVENTS, rest),
        };
        check_system(system)?;
        if name.contains(':') {
            return Err(format!("\"{spec}\": an existing tracepoint takes no flags"));
        }
        check_plain_name(name)?;
        return Ok(Some(if is_pattern(name) {
            CollectSpec::Pattern {
                system: system.into(),
                pattern: name.into(),
            }
        } else {
            CollectSpec::Existing {
                system: system.into(),
                name: name.into(),
            }
        }));
    }
    let (head, fields) = match spec.find(is_space) {
        Some(i) => (&spec[..i], Some(&spec[i..])),
        None => (spec, None),
    };
    // SYSTEM:NAME[:flags] or NAME
    let (system, name_flags) = match head.split_once(':') {
        Some((s, rest)) => (s, rest),
        None => (USER_EVENTS, head),
    };
    check_system(system)?;
    let name = name_flags.split(':').next().unwrap_or(name_flags);
    if is_pattern(name) {
        if fields.is_some() || name_flags.contains(':') {
            return Err(format!("\"{spec}\": a wildcard takes no fields or flags"));
        }
        return Ok(Some(CollectSpec::Pattern {
            system: system.into(),
            pattern: name.into(),
        }));
    }
    if system != USER_EVENTS {
        if fields.is_some() || name_flags.contains(':') {
            return Err(format!(
                "\"{spec}\": only user_events tracepoints can be defined (system \"{system}\")"
            ));
        }
        check_plain_name(name)?;
        return Ok(Some(CollectSpec::Existing {
            system: system.into(),
            name: name.into(),
        }));
    }
    let definition = match fields {
        Some(f) => format!("{name_flags}{f}"),
        None => name_flags.to_string(),
    };
    if fields.is_none() && check_eventheader_name(name).is_err() {
        // Not an EventHeader name and no fields: it must exist already.
        check_plain_name(name)?;
        if name_flags.contains(':') {
            return Err(format!(
                "\"{spec}\": flags need a definition (give the fields, or \" ;\" for none)"
            ));
        }
        return Ok(Some(CollectSpec::Existing {
            system: system.into(),
            name: name.into(),
        }));
    }
    match parse_registration(&definition)? {
        Some(r) => Ok(Some(CollectSpec::Register(r))),
        None => Err(format!("\"{spec}\": empty tracepoint name")),
    }
}

/// The items of the command line (`items`) and of the files `inputs`, in
/// order, each parsed with `parse`: every malformed command-line item is
/// reported (BadTracepoint) after the files are read, a file's first
/// malformed line at once; none at all is a usage error ("no {what} given").
pub fn gather<T>(
    items: &[String],
    inputs: &[String],
    parse: impl Fn(&str) -> Result<Option<T>, String>,
    what: &str,
) -> Result<Vec<T>, crate::exit::Error> {
    use crate::exit::{Error, Status};
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for item in items {
        match parse(item) {
            Ok(Some(parsed)) => out.push(parsed),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    for path in inputs {
        out.extend(read_lines(path, &parse)?);
    }
    if !errors.is_empty() {
        return Err(Error::new(Status::BadTracepoint, errors.join("\n")));
    }
    if out.is_empty() {
        return Err(Error::new(
            Status::Usage,
            format!("no {what} given (see --help)"),
        ));
    }
    Ok(out)
}

/// Reads definitions from a file, one per line, with the line number in errors.
fn read_lines<T>(
    path: &str,
    parse: impl Fn(&str) -> Result<Option<T>, String>,
) -> Result<Vec<T>, crate::exit::Error> {
    use crate::exit::{Error, Status};
    let text = std::fs::read(path).map_err(|e| Error::io(&e, format!("reading {path}")))?;
    let text = String::from_utf8(text)
        .map_err(|_| Error::new(Status::BadTracepoint, format!("{path}: not UTF-8 text")))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse(line) {
            Ok(Some(item)) => out.push(item),
            Ok(None) => {}
            Err(e) => {
                return Err(Error::new(
                    Status::BadTracepoint,
                    format!("{path}:{}: {e}", i + 1),
                ))
            }
        }
    }
    Ok(out)
}

/// Does `name` match `pattern` (`*` any run of characters, `?` one character)?
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Iterative matching with one backtracking point for the last '*'.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(line: &str) -> Registration {
        parse_registration(line).unwrap().unwrap()
    }

    #[test]
    fn eventheader_names_get_the_standard_fields() {
        let r = reg("  MyProvider_L5K1\n");
        assert_eq!(r.name, "MyProvider_L5K1");
        assert_eq!(
            r.command,
            "MyProvider_L5K1 u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"
        );
        assert!(r.eventheader);
        let r = reg("MyProvider_L5K3ffGmygroup:flag");
        assert_eq!(r.name, "MyProvider_L5K3ffGmygroup");
        assert!(r
            .command
            .starts_with("MyProvider_L5K3ffGmygroup:flag u8 eventheader_flags;"));
        assert_eq!(reg("A_B_L1K0").name, "A_B_L1K0");
        assert_eq!(reg("P_LffKffffffffffffffff").name, "P_LffKffffffffffffffff");
        assert!(parse_registration("P_LffkFF").is_err());
    }

    #[test]
    fn plain_definitions_keep_their_fields() {
        let r = reg("MyEvent2 u32 MyField1");
        assert_eq!(
            (r.name.as_str(), r.command.as_str()),
            ("MyEvent2", "MyEvent2 u32 MyField1")
        );
        assert!(!r.eventheader);
        assert_eq!(reg("MyEvent1 ;").command, "MyEvent1");
        assert_eq!(reg("MyEvent1 ; ; ").command, "MyEvent1");
        assert_eq!(reg("E u32 a; u8 b;  ").command, "E u32 a; u8 b");
        assert_eq!(reg("Semi; ;").command, "Semi;");
        let r = reg("MyEvent3:flag u32 MyField1; struct MyStruct2 MyField2 20");
        assert_eq!(r.name, "MyEvent3");
        assert_eq!(
            r.command,
            "MyEvent3:flag u32 MyField1; struct MyStruct2 MyField2 20"
        );
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        assert_eq!(parse_registration("").unwrap(), None);
        assert_eq!(parse_registration("   \t").unwrap(), None);
        assert_eq!(parse_registration("# MyProvider_L5K1").unwrap(), None);
        assert_eq!(parse_collect_spec("  # x").unwrap(), None);
    }

    #[test]
    fn invalid_eventheader_names_are_refused() {
        for (name, why) in [
            ("MyProvider", "_L<level>K<keyword>"),
            ("MyProvider_K1", "_L<level>"),
            ("MyProvider_L", "_L<level>"),
            ("MyProvider_LAK1", "_L<level>"),
            ("MyProvider_L5", "K<keyword>"),
            ("MyProvider_L5K", "K<keyword>"),
            ("MyProvider_L5KG", "K<keyword>"),
            ("MyProvider_L5K1G-x", "options"),
            ("My:Provider_L5K1:f", "':'"),
            ("_L5K1", "empty provider"),
        ] {
            let e = parse_registration(name).unwrap_err();
            assert!(e.contains(why), "{name}: {e}");
        }
        let long = format!("{}_L5K1", "p".repeat(251));
        assert_eq!(long.len(), 256);
        assert!(parse_registration(&long).unwrap_err().contains("too long"));
        let ok = format!("{}_L5K1", "p".repeat(250));
        assert_eq!(reg(&ok).name.len(), 255);
    }

    #[test]
    fn invalid_plain_names_are_refused() {
        let long = format!("{} u32 a", "n".repeat(256));
        assert!(parse_registration(&long).unwrap_err().contains("too long"));
        assert!(parse_registration(":flag u32 a")
            .unwrap_err()
            .contains("empty"));
    }

    #[test]
    fn collect_specs() {
        use CollectSpec::*;
        let p = |s: &str| parse_collect_spec(s).unwrap().unwrap();
        assert_eq!(p("MyProvider_L5K1"), Register(reg("MyProvider_L5K1")));
        assert_eq!(
            p("user_events:MyProvider_L5K1"),
            Register(reg("MyProvider_L5K1"))
        );
        assert_eq!(
            p("user_events:MyEvent u32 a"),
            Register(reg("MyEvent u32 a"))
        );
        assert_eq!(p("MyEvent ;"), Register(reg("MyEvent ;")));
        assert_eq!(
            p("sched:sched_switch"),
            Existing {
                system: "sched".into(),
                name: "sched_switch".into()
            }
        );
        assert_eq!(
            p(":sched:sched_switch"),
            Existing {
                system: "sched".into(),
                name: "sched_switch".into()
            }
        );
        assert_eq!(
            p(":MyPlain"),
            Existing {
                system: "user_events".into(),
                name: "MyPlain".into()
            }
        );
        assert_eq!(
            p("MyPlain"),
            Existing {
                system: "user_events".into(),
                name: "MyPlain".into()
            }
        );
        assert_eq!(
            p("MyProvider_*"),
            Pattern {
                system: "user_events".into(),
                pattern: "MyProvider_*".into()
            }
        );
        assert_eq!(
            p("sched:sched_?witch"),
            Pattern {
                system: "sched".into(),
                pattern: "sched_?witch".into()
            }
        );
        for bad in [
            ":sched:sched_switch u32 a",
            "sched:foo u32 a",
            "MyProvider_* u32 a",
            "bad-system:x",
            ":sys:name:flags",
        ] {
            assert!(parse_collect_spec(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn globs() {
        assert!(glob_match("MyProvider_*", "MyProvider_L5K1"));
        assert!(glob_match("*", ""));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(glob_match("a?c", "abc"));
        assert!(!glob_match("a?c", "ac"));
        assert!(!glob_match("MyProvider_*", "MyProvide_L5K1"));
        assert!(glob_match("*_L5K*", "P_L5K1Gx"));
        assert!(!glob_match("*_L4K*", "P_L5K1Gx"));
    }
}
