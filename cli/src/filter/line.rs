//! A filter written as one string (`collect --snapshot-on`): terms
//! separated by commas or spaces, all of which must hold (a metadata name
//! given twice matches either value, as its option does when repeated).
//! A term is `NAME=VALUE` for the metadata names ([`META`], each with the
//! rules of its `decode` option), or a field term of [`super::terms`]
//! (`NAME=VALUE`, `NAME<N`, ... on the event's fields, nested as `a.b`).

use super::terms::{self, Op};
use super::{parse_cpu, parse_level, parse_mask, parse_pid, FilterArgs};

/// The metadata names; every other name is a field's.
pub const META: &[&str] = &[
    "provider", "event", "level", "keyword", "pid", "tid", "cpu", "comm",
];

/// Parses a filter string. An error names the term or field.
pub fn parse_spec(spec: &str) -> Result<FilterArgs, String> {
    let mut f = FilterArgs::default();
    let mut any = false;
    for term in spec
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .filter(|p| !p.is_empty())
    {
        any = true;
        let (key, op, value) = terms::split_term(term)?;
        if !META.contains(&key) {
            f.matching.where_.push(terms::parse_field_term(term)?);
            continue;
        }
        let field = |e: String| format!("field '{key}': {e}");
        if op != Op::Eq {
            return Err(field(format!(
                "'{}' compares fields; {key} takes NAME=VALUE",
                op.as_str()
            )));
        }
        if value.is_empty() {
            return Err(field("no value".into()));
        }
        let once = |given: bool| {
            if given {
                Err(field("given twice (one value only)".into()))
            } else {
                Ok(())
            }
        };
        match key {
            "provider" => f.provider.push(value.to_string()),
            "event" => f.event.push(value.to_string()),
            "comm" => f.matching.comm.push(value.to_string()),
            "level" => {
                once(f.level.is_some())?;
                f.level = Some(parse_level(value).map_err(field)?);
            }
            "keyword" => {
                once(f.keyword.is_some())?;
                f.keyword = Some(parse_mask(value).map_err(field)?);
            }
            "pid" => f.pid.push(parse_pid(value).map_err(field)?),
            "tid" => f.tid.push(parse_pid(value).map_err(field)?),
            _ => f.cpu.push(parse_cpu(value).map_err(field)?),
        }
    }
    if !any {
        return Err(format!(
            "no filter given (NAME=VALUE terms, NAME one of {} or a field's name)",
            META.join(", ")
        ));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_and_field_terms() {
        let f = parse_spec("comm=app,level=2 size>=4096 ok=true,s.t<-1.5").unwrap();
        assert_eq!(f.matching.comm, vec!["app"]);
        assert_eq!(f.level, Some(2));
        let terms: Vec<String> = f.matching.where_.iter().map(|t| t.to_string()).collect();
        assert_eq!(terms, ["size>=4096", "ok=true", "s.t<-1.5"]);
        for (bad, says) in [
            ("pid<5", "field 'pid': '<' compares fields"),
            ("comm=", "field 'comm': no value"),
            ("size>big", "'big' is not a number"),
            ("a==1", "'==' is not an operator"),
        ] {
            let e = parse_spec(bad).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
