//! Guards around the decoding crates (`tracepoint_decode` 0.5.0), for input
//! from anywhere:
//!
//! - [`parse_format`]: the crate's tracefs format parser slices its text at
//!   byte positions and panics on a multi-byte character (perf_field_format.rs
//!   line 141); formats are handed over only as ASCII text.
//! - [`contain`]: the last line. A panic in a decoding call (a bug not yet
//!   known) becomes an error for that event or input instead of an abort.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use tracepoint_decode as td;

/// Parses a tracefs format, if its text is ASCII (see the module's
/// documentation) and the parser takes it.
pub fn parse_format(long_is_64: bool, system: &str, text: &[u8]) -> Option<td::PerfEventFormat> {
    if !text.is_ascii() {
        return None;
    }
    let text = std::str::from_utf8(text).ok()?;
    contain(|| td::PerfEventFormat::parse(long_is_64, system, text))
        .ok()
        .flatten()
}

/// Why [`parse_format`] refused `text`.
pub fn format_problem(text: &[u8]) -> String {
    match text.iter().position(|b| !b.is_ascii()) {
        Some(at) => format!(
            "its text is not ASCII (byte 0x{:02x} at offset {at})",
            text[at]
        ),
        None => "it has no name, ID or fields".into(),
    }
}

thread_local! {
    /// Inside [`contain`]: the panic hook keeps the message here instead of
    /// printing it.
    static CONTAINING: Cell<bool> = const { Cell::new(false) };
    static MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CONTAINING.with(Cell::get) {
                let at = info
                    .location()
                    .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
                let what = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".into());
                MESSAGE.with(|m| *m.borrow_mut() = Some(format!("{what}{at}")));
            } else {
                default(info);
            }
        }));
    });
}

/// Runs `f`; a panic inside it becomes `Err(message)` (with where it
/// happened). Builds whose panics abort (the release profile of the
/// library) cannot contain them: the CLI is built with unwinding (see
/// Cargo.toml, profile `cli`).
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let outer = CONTAINING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CONTAINING.with(|c| c.set(outer));
    result.map_err(|_| {
        MESSAGE
            .with(|m| m.borrow_mut().take())
            .unwrap_or_else(|| "panic".into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_ascii_formats_are_refused_not_parsed() {
        let good = "name: e\nID: 7\nformat:\n\tfield:int a;\toffset:0;\tsize:4;\tsigned:1;\n";
        assert!(parse_format(true, "s", good.as_bytes()).is_some());
        // The panic of tracepoint_decode 0.5.0: a multi-byte character in a
        // field declaration.
        let bad =
            "name: e\nID: 7\nformat:\n\tfield:u8\u{d0}version;\toffset:0;\tsize:1;\tsigned:0;\n";
        assert!(parse_format(true, "s", bad.as_bytes()).is_none());
        assert!(format_problem(bad.as_bytes()).contains("byte 0xc3"));
    }

    #[test]
    fn panics_are_contained_with_their_message() {
        assert_eq!(contain(|| 5), Ok(5));
        let e = contain(|| -> u8 { panic!("boom {}", 1) }).unwrap_err();
        assert!(e.starts_with("boom 1 at "), "{e}");
        assert!(e.contains("guard.rs"), "{e}");
        // Nested: the inner one is contained, the outer goes on.
        let r = contain(|| contain(|| -> u8 { panic!("inner") }).is_err());
        assert_eq!(r, Ok(true));
    }
}
