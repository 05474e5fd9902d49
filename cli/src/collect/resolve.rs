//! From `collect`'s tracepoint specs to the tracepoints to record, with their
//! tracefs formats. user_events tracepoints that do not exist yet are
//! registered through the library for the duration of the collection.

use std::sync::Arc;

use tracepoint_decode as td;

use crate::exit::{Error, Status};
use crate::ffi::Provider;
use crate::filter::Filter;
use crate::register;
use crate::spec::{glob_match, CollectSpec, USER_EVENTS};
use crate::tracefs::Tracefs;

/// A tracepoint to record.
#[derive(Clone)]
pub struct Tracepoint {
    pub system: String,
    pub name: String,
    /// Its tracefs format: the text, and parsed.
    pub format_text: String,
    pub format: Arc<td::PerfEventFormat>,
}

impl Tracepoint {
    pub fn full_name(&self) -> String {
        format!("{}:{}", self.system, self.name)
    }
}

fn no_user_events() -> Error {
    Error::new(
        Status::NoUserEvents,
        format!(
            "user_events is not available: tracefs has no user_events_data (kernel without CONFIG_USER_EVENTS); {}",
            register::CAPTURE_MODE_HINT
        ),
    )
}

/// The tracepoints the specs name that the filters can let through, and
/// the provider holding the registrations made for them (keep it until the
/// collection ends).
pub fn resolve(
    tracefs: &Tracefs,
    specs: &[CollectSpec],
    filter: &Filter,
    verbose: bool,
) -> Result<(Vec<Tracepoint>, Option<Provider>), Error> {
    let mut names: Vec<(String, String)> = Vec::new();
    let mut add = |system: &str, name: &str| {
        if filter.tracepoint_may_match(system, name)
            && !names.iter().any(|(s, n)| s == system && n == name)
        {
            names.push((system.to_string(), name.to_string()));
        }
    };
    let mut provider: Option<Provider> = None;
    for spec in specs {
        match spec {
            CollectSpec::Existing { system, name } => {
                if !tracefs.exists(system, name) {
                    if system == USER_EVENTS && !tracefs.has_user_events() {
                        return Err(no_user_events());
                    }
                    return Err(Error::new(
                        Status::BadTracepoint,
                        format!(
                            "no tracepoint {system}:{name} (to register a user_events tracepoint here, give an EventHeader name or a definition with fields)"
                        ),
                    ));
                }
                add(system, name);
            }
            CollectSpec::Pattern { system, pattern } => {
                let all = tracefs.list(system).unwrap_or_default();
                let matched: Vec<_> = all.iter().filter(|n| glob_match(pattern, n)).collect();
                if matched.is_empty() {
                    if system == USER_EVENTS && !tracefs.has_user_events() {
                        return Err(no_user_events());
                    }
                    return Err(Error::new(
                        Status::BadTracepoint,
                        format!("no tracepoint matches {system}:{pattern}"),
                    ));
                }
                for name in matched {
                    add(system, name);
                }
            }
            CollectSpec::Register(r) if !filter.tracepoint_may_match(USER_EVENTS, &r.name) => {}
            CollectSpec::Register(r) => {
                if !tracefs.exists(USER_EVENTS, &r.name) {
                    if !tracefs.has_user_events() {
                        return Err(no_user_events());
                    }
                    if provider.is_none() {
                        std::env::remove_var("TRACEPOINT_CAPTURE_FILE");
                        provider = Some(Provider::open().map_err(register::open_error)?);
                    }
                    if verbose {
                        eprintln!("eventheader: registering \"{}\"", r.command);
                    }
                    let p = provider.as_mut().expect("opened above");
                    p.connect(&r.command, 0).map_err(|errno| {
                        Error::errno(errno, format!("registering \"{}\"", r.command))
                    })?;
                }
                add(USER_EVENTS, &r.name);
            }
        }
    }
    if names.is_empty() {
        return Err(Error::new(
            Status::BadTracepoint,
            "no tracepoint left to record: the filters exclude every one given",
        ));
    }
    let long_is_64 = cfg!(target_pointer_width = "64");
    let mut tracepoints = Vec::new();
    for (system, name) in names {
        let text = tracefs
            .format(&system, &name)
            .map_err(|e| Error::kernel(&e, format!("reading the format of {system}:{name}")))?;
        let format =
            crate::guard::parse_format(long_is_64, &system, text.as_bytes()).ok_or_else(|| {
                Error::new(
                    Status::Failure,
                    format!("cannot parse the tracefs format of {system}:{name}"),
                )
            })?;
        tracepoints.push(Tracepoint {
            system,
            name,
            format_text: text,
            format: Arc::new(format),
        });
    }
    Ok((tracepoints, provider))
}
