//! The keys `decode` itself writes in an event object: `"n"` (the event's
//! name, first) and `"meta"` (the metadata object, last). An event may have a
//! top-level field of the same name (the .NET runtime's tracepoints have a
//! field `meta`); the decoder's key then steps aside: it gets `_` appended
//! until no top-level field of the event has that name (`"meta_"`,
//! `"meta__"`, ...). Field names are never changed, and no key the decoder
//! writes repeats another key of its object.

/// The decoder's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Name,
    Meta,
}

impl Key {
    fn base(self) -> &'static str {
        match self {
            Key::Name => "n",
            Key::Meta => "meta",
        }
    }
}

/// The top-level field keys of one event that the decoder's keys could
/// collide with, as the number of `_` after `n` or `meta`. Reused from event
/// to event (no allocation once warm).
#[derive(Default)]
pub struct Taken {
    name: Vec<usize>,
    meta: Vec<usize>,
}

impl Taken {
    pub fn clear(&mut self) {
        self.name.clear();
        self.meta.clear();
    }

    /// Notes a top-level field key (as written, JSON-escaped, without quotes).
    pub fn note(&mut self, key: &str) {
        if let Some(k) = underscores(key, Key::Name.base()) {
            self.name.push(k);
        } else if let Some(k) = underscores(key, Key::Meta.base()) {
            self.meta.push(k);
        }
    }

    /// How many `_` `key` needs: the fewest that no noted field has.
    pub fn underscores(&self, key: Key) -> usize {
        let taken = match key {
            Key::Name => &self.name,
            Key::Meta => &self.meta,
        };
        (0..).find(|k| !taken.contains(k)).unwrap_or(0)
    }

    /// Appends `"KEY": ` for `key` with the underscores it needs.
    pub fn push(&self, out: &mut String, key: Key) {
        out.push('"');
        out.push_str(key.base());
        for _ in 0..self.underscores(key) {
            out.push('_');
        }
        out.push_str("\": ");
    }
}

/// `Some(k)` if `key` is `base` followed by `k` underscores.
fn underscores(key: &str, base: &str) -> Option<usize> {
    let rest = key.strip_prefix(base)?;
    rest.bytes().all(|b| b == b'_').then_some(rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_step_aside_for_fields_of_their_name() {
        let mut t = Taken::default();
        let mut out = String::new();
        t.push(&mut out, Key::Name);
        t.push(&mut out, Key::Meta);
        assert_eq!(out, r#""n": "meta": "#);
        for field in ["meta", "n", "meta_", "metadata", "nn", "n__", "meta\\\""] {
            t.note(field);
        }
        assert_eq!(t.underscores(Key::Name), 1);
        assert_eq!(t.underscores(Key::Meta), 2);
        out.clear();
        t.push(&mut out, Key::Meta);
        assert_eq!(out, r#""meta__": "#);
        t.clear();
        assert_eq!(t.underscores(Key::Meta), 0);
    }
}
