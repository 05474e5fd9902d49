//! Definitions and specs from the command line and from files, one per line.

use std::io::Read;

use crate::exit::{Error, Status};

/// The largest definitions file read (a file that is not one, such as
/// /dev/zero, is refused instead of filling memory).
const MAX_FILE: u64 = 4 << 20;

/// The items of the command line (`items`) and of the files `inputs`, in
/// order, each parsed with `parse`: every malformed command-line item is
/// reported (BadTracepoint) after the files are read, a file's first
/// malformed line at once; none at all is a usage error ("no {what} given").
pub fn gather<T>(
    items: &[String],
    inputs: &[String],
    parse: impl Fn(&str) -> Result<Option<T>, String>,
    what: &str,
) -> Result<Vec<T>, Error> {
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

/// Reads definitions from a file (at most [`MAX_FILE`] bytes), one per
/// line, with the line number in errors.
fn read_lines<T>(
    path: &str,
    parse: impl Fn(&str) -> Result<Option<T>, String>,
) -> Result<Vec<T>, Error> {
    let read_error = |e: std::io::Error| Error::io(&e, format!("reading {path}"));
    let mut text = Vec::new();
    std::fs::File::open(path)
        .map_err(read_error)?
        .take(MAX_FILE + 1)
        .read_to_end(&mut text)
        .map_err(read_error)?;
    if text.len() as u64 > MAX_FILE {
        return Err(Error::new(
            Status::Failure,
            format!(
                "{path}: more than {} MiB, not a file of definitions",
                MAX_FILE >> 20
            ),
        ));
    }
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
