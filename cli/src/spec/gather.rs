//! Definitions and specs from the command line and from files, one per line.

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
