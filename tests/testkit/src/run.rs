//! Preparing a run of a build: its arguments and environment values with
//! the placeholders of [`crate::manifest`] replaced, and its capture file.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::manifest::Run;

/// The placeholder values that depend on who runs the program.
#[derive(Clone, Debug)]
pub struct Vars {
    /// `{stress_seconds}`: how long the stress program runs.
    pub stress_seconds: String,
    /// `{stress_rate}`: its writes per second per writer and event.
    pub stress_rate: String,
    /// `{dl_loops}`: the dlopen/dlclose rounds.
    pub dl_loops: String,
}

/// The environment variable `name`, or `default` if it is not set.
pub(crate) fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

impl Vars {
    /// The cargo tests': `HARDENING_STRESS_SECONDS` (default 3; CI sets 30),
    /// `HARDENING_STRESS_RATE` (default 2000, 0 = unlimited), 1000 rounds.
    pub fn cargo() -> Vars {
        Vars {
            stress_seconds: env_or("HARDENING_STRESS_SECONDS", "3"),
            stress_rate: env_or("HARDENING_STRESS_RATE", "2000"),
            dl_loops: "1000".into(),
        }
    }
}

/// Replaces every `{KEY}` of `arg` with `lookup(KEY)`.
pub fn expand(
    arg: &str,
    lookup: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = arg;
    while let Some(start) = rest.find('{') {
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| format!("unclosed placeholder in {arg:?}"))?;
        out.push_str(&rest[..start]);
        out.push_str(&lookup(&rest[start + 1..start + end])?);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A run ready to start.
#[derive(Debug)]
pub struct Prepared {
    /// The program and its arguments.
    pub argv: Vec<OsString>,
    pub env: Vec<(String, String)>,
    /// The capture file (removed if it existed), or None: then
    /// TRACEPOINT_CAPTURE_FILE is removed from the environment.
    pub capture: Option<PathBuf>,
}

impl Prepared {
    /// The command, behind `prefix` (e.g. `timeout ... valgrind ...`) and
    /// the cross runner ([`crate::cross`]).
    pub fn command(&self, prefix: &[OsString]) -> Command {
        let runner = crate::cross::runner();
        let mut words = prefix.iter().chain(&runner).chain(&self.argv);
        let mut cmd = Command::new(words.next().expect("a program"));
        cmd.args(words);
        if crate::cross::target().is_some() {
            cmd.envs(crate::cross::RUN_ENV.iter().map(|(k, v, _)| (k, v)));
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        match &self.capture {
            Some(path) => cmd.env("TRACEPOINT_CAPTURE_FILE", path),
            None => cmd.env_remove("TRACEPOINT_CAPTURE_FILE"),
        };
        cmd
    }
}

/// Prepares `run` of the build `exe` with scratch directory `dir` (the
/// capture file goes there too). `path_of(NAME)` gives the build of program
/// NAME in the same configuration.
pub fn prepare(
    exe: &Path,
    run: &Run,
    dir: &Path,
    vars: &Vars,
    path_of: &mut dyn FnMut(&str) -> Result<PathBuf, String>,
) -> Result<Prepared, String> {
    let mut lookup = |key: &str| -> Result<String, String> {
        Ok(match key {
            "dir" => dir.display().to_string(),
            "stress_seconds" => vars.stress_seconds.clone(),
            "stress_rate" => vars.stress_rate.clone(),
            "dl_loops" => vars.dl_loops.clone(),
            "reference" => crate::reference_capture().display().to_string(),
            _ => match key.strip_prefix("path:") {
                Some(name) => path_of(name)?.display().to_string(),
                None => return Err(format!("run {}: unknown placeholder {{{key}}}", run.name)),
            },
        })
    };
    let mut argv: Vec<OsString> = vec![exe.into()];
    for arg in run.args {
        argv.push(expand(arg, &mut lookup)?.into());
    }
    let mut env = Vec::new();
    for (key, value) in run.env {
        env.push((key.to_string(), expand(value, &mut lookup)?));
    }
    let capture = if run.capture {
        let path = dir.join("capture.dat");
        let _ = std::fs::remove_file(&path);
        Some(path)
    } else {
        None
    };
    Ok(Prepared { argv, env, capture })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expand_replaces_every_placeholder() {
        let mut lookup = |k: &str| match k {
            "dir" => Ok("/d".to_string()),
            other => Err(other.to_string()),
        };
        assert_eq!(expand("{dir}/a/{dir}", &mut lookup).unwrap(), "/d/a//d");
        assert_eq!(expand("plain", &mut lookup).unwrap(), "plain");
        assert_eq!(expand("{nope}", &mut lookup).unwrap_err(), "nope");
        assert!(expand("{dir", &mut lookup).is_err());
    }
}
