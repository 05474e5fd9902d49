//! Counts with their noun, singular for one: "1 event", "2 events".

/// `n` and `noun` (a regular noun, singular), with an `s` unless `n` is 1.
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular() {
        assert_eq!(count(0u32, "event"), "0 events");
        assert_eq!(count(1u32, "event"), "1 event");
        assert_eq!(count(2u64, "byte"), "2 bytes");
    }
}
