//! The terms of the filter language: `NAME OP VALUE`, OP one of `=`, `<`,
//! `>`, `<=`, `>=`. A field term (`--where`, or a name that is not a
//! metadata name in `--snapshot-on`) names an event field, nested ones as
//! `a.b`; `=` compares strings exactly and numbers by value, the others
//! compare numbers only. Each term is parsed once, its number too.

use std::fmt;

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Lt,
    Gt,
    Le,
    Ge,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Lt => "<",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Ge => ">=",
        }
    }
}

/// A number of a term or a field: an integer (signed or unsigned 64-bit
/// values fit) or a float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    /// `self OP other`: integers exactly, a float with either as floats
    /// (NaN satisfies no comparison).
    pub fn compare(self, op: Op, other: Num) -> bool {
        use std::cmp::Ordering;
        let order = match (self, other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
            (Num::Int(a), Num::Float(b)) => (a as f64).partial_cmp(&b),
            (Num::Float(a), Num::Int(b)) => a.partial_cmp(&(b as f64)),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b),
        };
        match (order, op) {
            (None, _) => false,
            (Some(o), Op::Eq) => o == Ordering::Equal,
            (Some(o), Op::Lt) => o == Ordering::Less,
            (Some(o), Op::Gt) => o == Ordering::Greater,
            (Some(o), Op::Le) => o != Ordering::Greater,
            (Some(o), Op::Ge) => o != Ordering::Less,
        }
    }
}

/// A term's value as a number: a decimal integer (an optional sign), a
/// hexadecimal one (`0x`, an optional `-`), or a finite decimal float
/// (`1.5`, `-2e3`).
pub fn parse_number(s: &str) -> Option<Num> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let sign = |v: i128| if negative { -v } else { v };
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        return u64::from_str_radix(hex, 16)
            .ok()
            .map(|v| Num::Int(sign(i128::from(v))));
    }
    if digits.is_empty()
        || !digits
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(v) = digits.parse::<i128>() {
            return Some(Num::Int(sign(v)));
        }
    }
    // Digits, a point and an exponent only: no "inf", "nan" or "_".
    if !digits
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    s.parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
        .map(Num::Float)
}

/// One field term of the filter language.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldTerm {
    /// The field's name, nested ones as `a.b`.
    pub path: String,
    pub op: Op,
    /// The value as written (an `=` term compares it with strings).
    pub text: String,
    /// The value as a number, if it is one (always, for `<`, `>`, `<=`, `>=`).
    pub num: Option<Num>,
}

impl fmt::Display for FieldTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.path, self.op.as_str(), self.text)
    }
}

/// Splits `NAME OP VALUE` at its first operator character: the name, the
/// operator and the value, or why it is not a term.
pub fn split_term(s: &str) -> Result<(&str, Op, &str), String> {
    let at = s.find(['=', '<', '>']).ok_or_else(|| {
        format!("\"{s}\" is not NAME=VALUE (or NAME<N, NAME>N, NAME<=N, NAME>=N)")
    })?;
    let (name, rest) = s.split_at(at);
    let (op, value) = if let Some(v) = rest.strip_prefix("<=") {
        (Op::Le, v)
    } else if let Some(v) = rest.strip_prefix(">=") {
        (Op::Ge, v)
    } else if let Some(v) = rest.strip_prefix('<') {
        (Op::Lt, v)
    } else if let Some(v) = rest.strip_prefix('>') {
        (Op::Gt, v)
    } else {
        (Op::Eq, &rest[1..])
    };
    if name.is_empty() {
        return Err(format!("\"{s}\": no name before '{}'", op.as_str()));
    }
    if value.starts_with(['=', '<', '>']) {
        return Err(format!(
            "\"{s}\": '{}{}' is not an operator (=, <, >, <=, >=)",
            op.as_str(),
            &value[..1]
        ));
    }
    Ok((name, op, value))
}

/// Parses a field term (`--where EXPR`).
pub fn parse_field_term(s: &str) -> Result<FieldTerm, String> {
    let (name, op, value) = split_term(s)?;
    if name.starts_with('-') {
        return Err(format!("\"{s}\": \"{name}\" is no field name"));
    }
    if name.split('.').any(str::is_empty) {
        return Err(format!(
            "\"{s}\": \"{name}\" is no field name (nested fields: a.b)"
        ));
    }
    let num = parse_number(value);
    if op != Op::Eq && num.is_none() {
        return Err(format!(
            "\"{s}\": '{value}' is not a number ('{}' compares numbers)",
            op.as_str()
        ));
    }
    Ok(FieldTerm {
        path: name.to_string(),
        op,
        text: value.to_string(),
        num,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number("12"), Some(Num::Int(12)));
        assert_eq!(parse_number("-12"), Some(Num::Int(-12)));
        assert_eq!(parse_number("0x10"), Some(Num::Int(16)));
        assert_eq!(
            parse_number("18446744073709551615"),
            Some(Num::Int(u64::MAX.into()))
        );
        assert_eq!(parse_number("1.5"), Some(Num::Float(1.5)));
        assert_eq!(parse_number("-2e3"), Some(Num::Float(-2000.0)));
        for bad in [
            "", "-", "x", "inf", "nan", "1_0", "0x", "0xg", "1.2.3", "e5",
        ] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
        assert!(Num::Int(-1).compare(Op::Lt, Num::Int(0)));
        assert!(Num::Int(u64::MAX.into()).compare(Op::Gt, Num::Int(i64::MAX.into())));
        assert!(Num::Float(1.5).compare(Op::Ge, Num::Int(1)));
        assert!(Num::Int(2).compare(Op::Eq, Num::Float(2.0)));
        assert!(!Num::Float(f64::NAN).compare(Op::Le, Num::Int(1)));
    }

    #[test]
    fn terms() {
        let t = parse_field_term("a.b<=-3").unwrap();
        assert_eq!(
            (t.path.as_str(), t.op, t.num),
            ("a.b", Op::Le, Some(Num::Int(-3)))
        );
        let t = parse_field_term("msg=hello world").unwrap();
        assert_eq!(
            (t.op, t.text.as_str(), t.num),
            (Op::Eq, "hello world", None)
        );
        assert_eq!(parse_field_term("s=").unwrap().text, "");
        assert_eq!(parse_field_term("x>1.5").unwrap().to_string(), "x>1.5");
        for (bad, says) in [
            ("abc", "is not NAME=VALUE"),
            ("=5", "no name before '='"),
            ("a==5", "'==' is not an operator"),
            ("a<>5", "'<>' is not an operator"),
            ("a<x", "'x' is not a number"),
            ("a>=", "'' is not a number"),
            ("a..b=1", "nested fields: a.b"),
            (".a=1", "no field name"),
            ("--level=1", "no field name"),
        ] {
            let e = parse_field_term(bad).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
