//! `eventheader generate DIR` (hidden): the man pages and the bash, zsh and
//! fish completions the CMake install ships (c-tests/install/main.rs checks the
//! installed ones and `man eventheader`). Every subcommand that `--help`
//! lists has its page and is in every completion script, with every long
//! option its `--help` lists; the hidden subcommand is in none of them. The
//! pages render without a groff warning, the scripts parse in their shells,
//! and bash completes subcommands and options with its script.
//!
//! man, groff, zsh and fish: the tests fail without them when
//! `REQUIRE_DOC_TOOLS` is set (scripts/test.sh sets it), else they skip that
//! check and say so.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::run;

/// The subcommands the tool has today: `--help` must list at least these.
const KNOWN_SUBCOMMANDS: [&str; 4] = ["register", "collect", "decode", "stats"];

const COMPLETIONS: [(&str, &str); 3] = [
    ("bash", "bash-completion/completions/eventheader"),
    ("zsh", "zsh/site-functions/_eventheader"),
    ("fish", "fish/vendor_completions.d/eventheader.fish"),
];

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn succeeded(what: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        stdout(out),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The subcommands `eventheader --help` lists (without `help`).
fn subcommands() -> Vec<String> {
    let out = run(&["--help"]);
    succeeded("eventheader --help", &out);
    let text = stdout(&out);
    let list: Vec<String> = text
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    for known in KNOWN_SUBCOMMANDS {
        assert!(
            list.iter().any(|s| s == known),
            "`eventheader --help` does not list {known}:\n{text}"
        );
    }
    list
}

/// The long options `eventheader SUBCOMMAND --help` lists.
fn long_options(subcommand: &str) -> Vec<String> {
    let out = run(&[subcommand, "--help"]);
    succeeded("eventheader SUBCOMMAND --help", &out);
    let text = stdout(&out);
    let options: Vec<String> = text
        .lines()
        .skip_while(|l| *l != "Options:")
        .skip(1)
        // Short layout: one line per option; long layout (clap's when a
        // value has its own help): the option's line, then its indented help
        // and blank lines.
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with('-') && !t.starts_with("- ")
        })
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| w.trim_end_matches(',').to_owned())
        .collect();
    assert!(
        options.iter().any(|o| o == "--help"),
        "no options found in `eventheader {subcommand} --help`:\n{text}"
    );
    options
}

/// Runs `eventheader generate DIR/share` and returns DIR/share.
fn generate(dir: &Path) -> PathBuf {
    let share = dir.join("share");
    let out = run(&["generate", share.to_str().expect("UTF-8 temporary path")]);
    succeeded("eventheader generate", &out);
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    share
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether `tool` runs (`tool --version`); see the module's documentation.
fn have(tool: &str) -> bool {
    testkit::optional(
        testkit::available(tool),
        "REQUIRE_DOC_TOOLS",
        &format!("{tool} (checking the man pages and completions with it)"),
    )
}

/// A man page as `man` shows it: plain ASCII, wide enough that no option or
/// subcommand line breaks.
fn man_text(page: &Path) -> String {
    let out = Command::new("man")
        .args(["-P", "cat", "-l"])
        .arg(page)
        .env("LC_ALL", "C")
        .env("MANWIDTH", "250")
        .output()
        .expect("running man");
    succeeded("man -l", &out);
    stdout(&out)
}

#[test]
fn generate_writes_a_man_page_per_subcommand_and_the_completions() {
    let tmp = tempfile::tempdir().unwrap();
    let share = generate(tmp.path());
    let mut expected: Vec<String> = vec!["eventheader.1".into()];
    expected.extend(subcommands().iter().map(|s| format!("eventheader-{s}.1")));
    expected.sort();
    let mut pages: Vec<String> = fs::read_dir(share.join("man/man1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert_eq!(pages, expected, "man/man1: one page per subcommand");
    for (_, script) in COMPLETIONS {
        let text = read(&share.join(script));
        assert!(text.len() > 100, "{script} is almost empty:\n{text}");
    }

    // Again into the same directory: a page left by an earlier run that
    // names no subcommand any more goes; other files stay.
    let man1 = share.join("man/man1");
    fs::write(man1.join("eventheader-gone.1"), "old").unwrap();
    fs::write(man1.join("other.1"), "not ours").unwrap();
    generate(tmp.path());
    assert!(!man1.join("eventheader-gone.1").exists());
    assert!(man1.join("other.1").exists());

    // An unwritable directory is an I/O error: status 1, said on stderr.
    let out = run(&["generate", "/dev/null/share"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/dev/null/share"), "{err}");
}

/// The section `name` of a page as `man` shows it: the lines after its
/// heading up to the next heading.
fn section<'a>(page: &'a str, name: &str) -> Vec<&'a str> {
    page.lines()
        .skip_while(|l| *l != name)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect()
}

/// The pages use the usual sections: a SYNOPSIS that shows what repeats
/// (`FILE...`, `[-p|--provider NAME]...`), EXIT STATUS, NOTES, EXAMPLES
/// (not examples under NOTES) and SEE ALSO naming the other pages and
/// perf(1), in man-pages(7)'s order.
#[test]
fn man_pages_have_the_usual_sections() {
    let tmp = tempfile::tempdir().unwrap();
    let man1 = generate(tmp.path()).join("man/man1");
    let roff = read(&man1.join("eventheader-collect.1"));
    for heading in [
        ".SH SYNOPSIS",
        ".SH \"EXIT STATUS\"",
        ".SH NOTES",
        ".SH EXAMPLES",
        ".SH \"SEE ALSO\"",
    ] {
        assert!(
            roff.contains(heading),
            "no {heading} in eventheader-collect.1:\n{roff}"
        );
    }
    let order: Vec<usize> = ["EXIT STATUS", "NOTES", "EXAMPLES", "SEE ALSO"]
        .iter()
        .map(|h| {
            roff.find(&format!(".SH \"{h}\""))
                .or_else(|| roff.find(&format!(".SH {h}")))
                .unwrap()
        })
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "section order {order:?}"
    );
    if !have("man") || !have("groff") {
        return;
    }
    let mut names = vec!["eventheader".to_string()];
    names.extend(subcommands().iter().map(|s| format!("eventheader-{s}")));
    for name in &names {
        let page = man_text(&man1.join(format!("{name}.1")));
        let see: String = section(&page, "SEE ALSO").join(" ");
        for other in names.iter().filter(|n| *n != name) {
            assert!(
                see.contains(&format!("{other}(1)")),
                "{name}(1)'s SEE ALSO lacks {other}(1):\n{page}"
            );
        }
        assert!(
            see.contains("perf(1)"),
            "{name}(1)'s SEE ALSO lacks perf(1):\n{page}"
        );
        let notes = section(&page, "NOTES").join("\n");
        assert!(
            !notes.contains("Examples:"),
            "{name}(1) has examples under NOTES:\n{page}"
        );
    }
    let decode = man_text(&man1.join("eventheader-decode.1"));
    let synopsis = section(&decode, "SYNOPSIS").join(" ");
    assert!(synopsis.trim_end().ends_with("FILE..."), "{synopsis}");
    assert!(synopsis.contains("[--provider NAME]..."), "{synopsis}");
    for name in [
        "eventheader-collect",
        "eventheader-decode",
        "eventheader-doctor",
    ] {
        let page = man_text(&man1.join(format!("{name}.1")));
        let examples = section(&page, "EXAMPLES").join("\n");
        assert!(
            examples.contains(&format!("{} ", name.replace('-', " "))),
            "{name}(1) has no EXAMPLES of itself:\n{page}"
        );
    }
    let doctor = section(&man_text(&man1.join("eventheader-doctor.1")), "SYNOPSIS").join(" ");
    assert!(
        doctor.contains("[-p|--provider NAME]... ") && doctor.contains("[PROGRAM]"),
        "{doctor}"
    );
}

#[test]
fn man_pages_name_every_subcommand_and_option() {
    let tmp = tempfile::tempdir().unwrap();
    let man1 = generate(tmp.path()).join("man/man1");
    if !have("man") || !have("groff") {
        return;
    }
    let top = man_text(&man1.join("eventheader.1"));
    assert!(top.contains("eventheader - Pre-register"), "{top}");
    assert!(top.contains("EXIT STATUS"), "{top}");
    assert!(
        !top.contains("generate"),
        "the hidden subcommand is shown:\n{top}"
    );
    for sub in subcommands() {
        assert!(
            top.contains(&format!("eventheader-{sub}(1)")),
            "eventheader(1) does not name eventheader-{sub}(1):\n{top}"
        );
        let page = man_text(&man1.join(format!("eventheader-{sub}.1")));
        assert!(
            page.contains(&format!("eventheader-{sub} - ")),
            "eventheader-{sub}(1) has no NAME line:\n{page}"
        );
        for option in long_options(&sub) {
            assert!(
                page.contains(&option),
                "eventheader-{sub}(1) does not document {option}:\n{page}"
            );
        }
    }
    for entry in fs::read_dir(&man1).unwrap() {
        let page = entry.unwrap().path();
        let out = Command::new("groff")
            .args(["-ww", "-z", "-man", "-Tutf8"])
            .arg(&page)
            .output()
            .expect("running groff");
        succeeded("groff", &out);
        assert!(
            out.stderr.is_empty(),
            "groff warns about {}:\n{}",
            page.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn completions_name_every_subcommand_and_option_and_parse() {
    let tmp = tempfile::tempdir().unwrap();
    let share = generate(tmp.path());
    let subcommands = subcommands();
    for (shell, script) in COMPLETIONS {
        let path = share.join(script);
        let text = read(&path);
        assert!(
            !text.contains("generate"),
            "{script} offers the hidden subcommand"
        );
        for sub in &subcommands {
            assert!(text.contains(sub.as_str()), "{script} lacks {sub}");
            for option in long_options(sub) {
                assert!(
                    text.contains(option.trim_start_matches('-')),
                    "{script} lacks {sub} {option}"
                );
            }
        }
        let check: &[&str] = match shell {
            "fish" => &["--no-execute"],
            _ => &["-n"],
        };
        if shell == "bash" || have(shell) {
            let out = Command::new(shell).args(check).arg(&path).output().unwrap();
            succeeded(&format!("{shell} {} {script}", check[0]), &out);
            assert!(
                out.stderr.is_empty(),
                "{shell} on {script}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// What bash offers for the words `line` with the installed function
/// (`_eventheader`, as bash-completion would call it).
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'
COMP_WORDS=({})
COMP_CWORD={}
COMP_LINE=\"${{COMP_WORDS[*]}}\"
COMP_POINT=${{#COMP_LINE}}
_eventheader eventheader \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"
printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let out = Command::new("bash")
        .args(["-c", &program])
        .output()
        .unwrap();
    succeeded("bash completion", &out);
    stdout(&out).lines().map(str::to_owned).collect()
}

#[test]
fn bash_completes_subcommands_and_options() {
    let tmp = tempfile::tempdir().unwrap();
    let script = generate(tmp.path()).join(COMPLETIONS[0].1);
    let offered = bash_complete(&script, &["eventheader", ""]);
    for sub in subcommands() {
        assert!(offered.contains(&sub), "{sub} not offered: {offered:?}");
    }
    assert!(!offered.iter().any(|w| w == "generate"), "{offered:?}");
    assert_eq!(
        bash_complete(&script, &["eventheader", "decode", "--jso"]),
        ["--jsonl"]
    );
    assert_eq!(
        bash_complete(&script, &["eventheader", "reg"]),
        ["register"]
    );
}
