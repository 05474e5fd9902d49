//! Progress on stderr for large inputs, only when stderr is a terminal:
//! `decode: big.data 42% (1234567 events)`, redrawn at most 4 times a second
//! and erased when done.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Inputs smaller than this decode fast enough to need no progress.
pub const LARGE_INPUT: u64 = 32 << 20;

pub struct Progress {
    label: String,
    total: u64,
    active: bool,
    last: Option<Instant>,
}

impl Progress {
    /// Shows progress for `label` if `total` bytes is large and stderr is a terminal.
    pub fn new(label: &str, total: u64, enabled: bool) -> Progress {
        Progress {
            label: label.to_string(),
            total,
            active: enabled && total >= LARGE_INPUT && std::io::stderr().is_terminal(),
            last: None,
        }
    }

    /// Reports `done` of `total` bytes and `events` so far.
    pub fn update(&mut self, done: u64, events: u64) {
        if !self.active {
            return;
        }
        let now = Instant::now();
        if self
            .last
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(250))
        {
            return;
        }
        self.last = Some(now);
        let pct = (done.min(self.total) * 100) / self.total.max(1);
        let mut e = std::io::stderr().lock();
        let _ = write!(
            e,
            "\rdecode: {} {pct}% ({})\x1b[K",
            self.label,
            crate::plural::count(events, "event")
        );
        let _ = e.flush();
    }

    /// Erases the progress line.
    pub fn finish(&mut self) {
        if self.active && self.last.is_some() {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[K");
            let _ = e.flush();
        }
        self.active = false;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
