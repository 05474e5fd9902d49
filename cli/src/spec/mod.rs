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

mod gather;
mod names;

pub use gather::gather;
pub use names::{check_eventheader_name, split_eventheader_name, NAME_MAX};
use names::{check_plain_name, is_space, trim};

/// The arg spec of every EventHeader tracepoint (docs/format.md §3.3). Other
/// fields make the kernel refuse a second registration of the same name.
pub const EVENTHEADER_FIELDS: &str =
    "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level";

/// The system of user_events tracepoints.
pub const USER_EVENTS: &str = "user_events";

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
