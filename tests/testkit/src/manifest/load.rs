//! Reads a suite's `programs.toml` into the manifest's types.
//!
//! An entry states only what differs from the defaults: its file's
//! `[defaults]` table (the program keys but `name`, `sources`, `vm` and
//! `pedantic`), else a C11/C++17 executable linked to the shared library,
//! built with every compiler, with no runs (`parse`); a run is the
//! capture-mode run named `capture` without arguments; a VM run checks
//! itself (the `#[serde(default)]`s below). Unknown keys are errors, as are
//! judges missing from [`JUDGES`].
//!
//! The parsed strings and slices are leaked to get the `&'static` data of
//! [`Program`]: a test process reads the manifest once (the callers hold it
//! in a `OnceLock`) and keeps it until it exits.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::{Compilers, Flavour, Link, Output, Program, Run, Standard, VmCheck, VmRun};
use crate::checks;

/// A judge a VM run names by string (`judge = "..."`), by its path under
/// [`crate::checks`].
enum Judge {
    Fields(checks::FieldsCheck),
    Results(checks::ResultsCheck),
}

/// Every judge a `programs.toml` may name.
const JUDGES: &[(&str, Judge)] = &[
    ("stress", Judge::Fields(checks::stress)),
    ("fork_busy", Judge::Fields(checks::fork_busy)),
    ("dlclose", Judge::Fields(checks::dlclose)),
    ("bench", Judge::Results(checks::bench)),
    ("tpp::oracle", Judge::Results(checks::tpp::oracle)),
    ("tpp::layouts", Judge::Results(checks::tpp::layouts)),
    ("tpp::custom", Judge::Results(checks::tpp::custom)),
    ("cli::judge", Judge::Results(checks::cli::judge)),
    (
        "cli_circular::judge",
        Judge::Results(checks::cli_circular::judge),
    ),
    ("cli_perf::judge", Judge::Results(checks::cli_perf::judge)),
    (
        "cli_doctor::judge",
        Judge::Results(checks::cli_doctor::judge),
    ),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// What the file's entries leave out, where it is not the defaults
    /// below (e.g. the real-kernel suite's gnu11 and gcc).
    #[serde(default)]
    defaults: Defaults,
    #[serde(default)]
    program: Vec<RawProgram>,
}

/// The keys of a program a file's `[defaults]` may set.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Defaults {
    output: Option<Output>,
    link: Option<Link>,
    flags: Option<Vec<String>>,
    link_flags: Option<Vec<String>>,
    include_dirs: Option<Vec<String>>,
    standards: Option<Vec<RawStandard>>,
    compilers: Option<Compilers>,
    run: Option<Vec<RawRun>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProgram {
    name: String,
    sources: Vec<String>,
    output: Option<Output>,
    link: Option<Link>,
    flags: Option<Vec<String>>,
    link_flags: Option<Vec<String>>,
    include_dirs: Option<Vec<String>>,
    standards: Option<Vec<RawStandard>>,
    compilers: Option<Compilers>,
    run: Option<Vec<RawRun>>,
    #[serde(default)]
    vm: Vec<RawVmRun>,
    #[serde(default)]
    pedantic: bool,
    #[serde(default)]
    arches: Vec<String>,
    #[serde(default)]
    triple: Option<String>,
}

/// The program's own value of a key, else the file's default, else `or`.
fn pick<T: Clone>(own: Option<T>, file: &Option<T>, or: impl FnOnce() -> T) -> T {
    own.or_else(|| file.clone()).unwrap_or_else(or)
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStandard {
    c: String,
    cxx: String,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRun {
    #[serde(default = "default_run_name")]
    name: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: Pairs<String, String>,
    #[serde(default = "default_true")]
    capture: bool,
    #[serde(default)]
    threads: bool,
    #[serde(default)]
    not_under: Pairs<Flavour, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVmRun {
    name: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: Pairs<String, String>,
    #[serde(default)]
    check: RawCheck,
}

/// [`VmCheck`] as written, `kind` naming the variant.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum RawCheck {
    SelfCheck {
        #[serde(default)]
        perf_summary: Option<(String, String)>,
    },
    Identity {
        #[serde(default)]
        reference: bool,
    },
    IdentityAfterRegistration,
    IdentityAfterRegistrationRandomIds,
    Summary {
        detail: String,
        instances: u32,
    },
    Fields {
        names: Vec<String>,
        #[serde(default)]
        perf_opts: Vec<String>,
        fields: Vec<String>,
        judge: String,
    },
    Script {
        script: String,
        #[serde(default)]
        judge: Option<String>,
    },
}

impl Default for RawCheck {
    fn default() -> Self {
        RawCheck::SelfCheck { perf_summary: None }
    }
}

/// A TOML table read as its (key, value) pairs in the order written.
#[derive(Clone)]
struct Pairs<K, V>(Vec<(K, V)>);

impl<K, V> Default for Pairs<K, V> {
    fn default() -> Self {
        Pairs(Vec::new())
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Pairs<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PairsVisitor<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for PairsVisitor<K, V> {
            type Value = Pairs<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs<K, V>, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    out.push(pair);
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(PairsVisitor(std::marker::PhantomData))
    }
}

fn default_standards() -> Vec<RawStandard> {
    vec![RawStandard {
        c: "c11".into(),
        cxx: "c++17".into(),
    }]
}
fn default_run_name() -> String {
    "capture".into()
}
fn default_true() -> bool {
    true
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn leak_all<T, U>(v: Vec<T>, f: impl FnMut(T) -> U) -> &'static [U] {
    Box::leak(v.into_iter().map(f).collect::<Vec<U>>().into_boxed_slice())
}

fn strs(v: Vec<String>) -> &'static [&'static str] {
    leak_all(v, leak)
}

fn env(p: Pairs<String, String>) -> &'static [(&'static str, &'static str)] {
    leak_all(p.0, |(k, v)| (leak(k), leak(v)))
}

/// The programs of the TOML text `text`, read from `file` (named in errors).
pub(super) fn parse(file: &str, text: &str) -> Result<&'static [Program], String> {
    let parsed: File = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let d = &parsed.defaults;
    let mut out = Vec::with_capacity(parsed.program.len());
    for p in parsed.program {
        let at = |what: &str| format!("{file}: program {:?}: {what}", p.name);
        let mut vm = Vec::with_capacity(p.vm.len());
        for r in p.vm {
            let check = vm_check(r.check).map_err(|e| at(&format!("VM run {:?}: {e}", r.name)))?;
            vm.push(VmRun {
                name: leak(r.name),
                args: strs(r.args),
                env: env(r.env),
                check,
            });
        }
        out.push(Program {
            name: leak(p.name),
            sources: strs(p.sources),
            output: pick(p.output, &d.output, || Output::Executable),
            link: pick(p.link, &d.link, || Link::Shared),
            flags: strs(pick(p.flags, &d.flags, Vec::new)),
            link_flags: strs(pick(p.link_flags, &d.link_flags, Vec::new)),
            include_dirs: strs(pick(p.include_dirs, &d.include_dirs, Vec::new)),
            standards: leak_all(pick(p.standards, &d.standards, default_standards), |s| {
                Standard {
                    c: leak(s.c),
                    cxx: leak(s.cxx),
                }
            }),
            compilers: pick(p.compilers, &d.compilers, || Compilers::All),
            runs: leak_all(pick(p.run, &d.run, Vec::new), |r| Run {
                name: leak(r.name),
                args: strs(r.args),
                env: env(r.env),
                capture: r.capture,
                threads: r.threads,
                not_under: leak_all(r.not_under.0, |(f, why)| (f, leak(why))),
            }),
            vm: Box::leak(vm.into_boxed_slice()),
            pedantic: p.pedantic,
            arches: strs(p.arches),
            triple: p.triple.map(leak),
        });
    }
    Ok(Box::leak(out.into_boxed_slice()))
}

fn judge(name: &str) -> Result<&'static Judge, String> {
    JUDGES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, j)| j)
        .ok_or_else(|| {
            let known: Vec<&str> = JUDGES.iter().map(|(n, _)| *n).collect();
            format!("no judge {name:?} (known: {})", known.join(", "))
        })
}

fn vm_check(raw: RawCheck) -> Result<VmCheck, String> {
    Ok(match raw {
        RawCheck::SelfCheck { perf_summary } => VmCheck::SelfCheck {
            perf_summary: perf_summary.map(|(a, b)| (leak(a), leak(b))),
        },
        RawCheck::Identity { reference } => VmCheck::Identity { reference },
        RawCheck::IdentityAfterRegistration => VmCheck::IdentityAfterRegistration,
        RawCheck::IdentityAfterRegistrationRandomIds => VmCheck::IdentityAfterRegistrationRandomIds,
        RawCheck::Summary { detail, instances } => VmCheck::Summary {
            detail: leak(detail),
            instances,
        },
        RawCheck::Fields {
            names,
            perf_opts,
            fields,
            judge: name,
        } => match judge(&name)? {
            Judge::Fields(check) => VmCheck::Fields {
                names: strs(names),
                perf_opts: strs(perf_opts),
                fields: strs(fields),
                check: *check,
            },
            Judge::Results(_) => {
                return Err(format!(
                    "judge {name:?} judges a script's results, not perf fields"
                ))
            }
        },
        RawCheck::Script {
            script,
            judge: name,
        } => VmCheck::Script {
            script: leak(script),
            judge: match name.as_deref().map(judge).transpose()? {
                None => None,
                Some(Judge::Results(check)) => Some(*check),
                Some(Judge::Fields(_)) => {
                    return Err(format!(
                        "judge {:?} judges perf fields, not a script's results",
                        name.unwrap_or_default()
                    ))
                }
            },
        },
    })
}
