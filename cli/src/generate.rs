//! `eventheader generate DIR` (hidden): the man pages and the bash, zsh and
//! fish completions, generated from the clap definition, laid out as under
//! `<prefix>/share`, where the CMake install puts them:
//!
//! ```text
//! DIR/man/man1/eventheader.1, eventheader-SUBCOMMAND.1 (one per subcommand)
//! DIR/bash-completion/completions/eventheader
//! DIR/zsh/site-functions/_eventheader
//! DIR/fish/vendor_completions.d/eventheader.fish
//! ```
//!
//! Hidden, so that it appears in none of them.

use std::fs;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, Args, Command};
use clap_complete::Shell;
use roff::{bold, italic, roman, Inline, Roff};

use eventheader_cli::exit::{Error, Status};

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Directory to write into (created if missing)
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Where the man pages go under DIR.
const MAN_DIR: &str = "man/man1";

/// Each shell's completion script under DIR: the directories each shell (or
/// bash-completion) loads them from, below `<prefix>/share`.
const COMPLETIONS: [(Shell, &str); 3] = [
    (Shell::Bash, "bash-completion/completions/eventheader"),
    (Shell::Zsh, "zsh/site-functions/_eventheader"),
    (Shell::Fish, "fish/vendor_completions.d/eventheader.fish"),
];

/// Writes the man pages and completions of `cli` (the whole command line,
/// this subcommand included) under `args.dir`.
pub fn run(args: &GenerateArgs, cli: Command) -> Result<Status, Error> {
    let man_dir = args.dir.join(MAN_DIR);
    create_dir(&man_dir)?;
    remove_old_pages(&man_dir, cli.get_name())?;
    for (file, page) in man_pages(cli.clone()) {
        let path = man_dir.join(file);
        fs::write(&path, page).map_err(|e| Error::io(&e, path.display()))?;
    }

    let mut public = without_hidden_subcommands(&cli);
    let name = cli.get_name().to_owned();
    for (shell, path) in COMPLETIONS {
        let path = args.dir.join(path);
        if let Some(parent) = path.parent() {
            create_dir(parent)?;
        }
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut public, &name, &mut script);
        fs::write(&path, script).map_err(|e| Error::io(&e, path.display()))?;
    }
    Ok(Status::Success)
}

/// The man pages of `cli` and of each visible subcommand: file name and
/// roff source. clap_mangen's pages, except that the SYNOPSIS shows each
/// option's value and what may be repeated (`...`), the text after the
/// options (clap's `after_help`, written for a terminal) becomes the
/// sections EXIT STATUS, NOTES and EXAMPLES, its indented lines kept as
/// they are, and a SEE ALSO section names the other pages and perf(1).
fn man_pages(cli: Command) -> Vec<(String, Vec<u8>)> {
    fn add(cmd: &Command, source: &str, names: &[String], pages: &mut Vec<(String, Vec<u8>)>) {
        let man = clap_mangen::Man::new(cmd.clone()).source(source.to_owned());
        let mut page = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = man.render(&mut page);
        let page = String::from_utf8_lossy(&page).into_owned();
        let page = replace_section(&page, "SYNOPSIS", &synopsis(cmd));
        let after = cmd.get_after_long_help().or(cmd.get_after_help());
        let mut sections = match after {
            Some(text) => after_help_sections(&text.to_string()),
            None => String::new(),
        };
        let file = man.get_filename();
        sections.push_str(&see_also(file.trim_end_matches(".1"), names));
        let page = if page.contains(".SH EXTRA\n") {
            replace_section(&page, "EXTRA", &sections)
        } else {
            insert_before_section(&page, "VERSION", &sections)
        };
        pages.push((file, page.into_bytes()));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            add(sub, source, names, pages);
        }
    }
    // As clap_mangen::generate_to: built, so that subcommands carry their
    // full names (eventheader-decode), and without the help subcommand.
    let mut cli = cli.disable_help_subcommand(true);
    cli.build();
    // Every page's footer names the tool and its version.
    let source = match cli.get_version() {
        Some(version) => format!("{} {version}", cli.get_name()),
        None => cli.get_name().to_owned(),
    };
    // Every page's name: the tool's and its visible subcommands'.
    let mut names = vec![cli.get_name().to_owned()];
    names.extend(
        cli.get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| format!("{}-{}", cli.get_name(), s.get_name())),
    );
    let mut pages = Vec::new();
    add(&cli, &source, &names, &mut pages);
    pages
}

/// May `arg` be given more than once, or take several values?
fn repeats(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::Append | ArgAction::Count)
        || arg.get_num_args().is_some_and(|r| r.max_values() > 1)
}

/// The SYNOPSIS section: the command, its options with their values
/// (`[-p|--provider NAME]...`), its operands (`FILE...`) and subcommand;
/// `[ ]` around what is optional, `...` after what may be repeated.
fn synopsis(cmd: &Command) -> String {
    let name = cmd.get_bin_name().unwrap_or_else(|| cmd.get_name());
    let mut line: Vec<Inline> = vec![bold(name.to_owned())];
    let value = |arg: &Arg| {
        arg.get_value_names()
            .map(|v| v.join(" "))
            .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
    };
    let mut options: Vec<&Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
        .collect();
    options.sort_by_key(|a| {
        let key = a
            .get_short()
            .map(|c| c.to_ascii_lowercase().to_string())
            .or_else(|| a.get_long().map(str::to_owned))
            .unwrap_or_default();
        (a.get_display_order(), key)
    });
    for arg in options {
        let (open, close) = if arg.is_required_set() {
            ("", "")
        } else {
            ("[", "]")
        };
        line.push(roman(format!(" {open}")));
        match (arg.get_short(), arg.get_long()) {
            (Some(s), Some(l)) => {
                line.push(bold(format!("-{s}")));
                line.push(roman("|"));
                line.push(bold(format!("--{l}")));
            }
            (Some(s), None) => line.push(bold(format!("-{s}"))),
            (None, Some(l)) => line.push(bold(format!("--{l}"))),
            (None, None) => continue,
        }
        if arg.get_num_args().is_some_and(|r| r.takes_values()) {
            line.push(roman(" "));
            line.push(italic(value(arg)));
        }
        line.push(roman(close));
        if repeats(arg) {
            line.push(roman("..."));
        }
    }
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let (open, close) = if arg.is_required_set() {
            ("", "")
        } else {
            ("[", "]")
        };
        line.push(roman(format!(" {open}")));
        line.push(italic(value(arg)));
        line.push(roman(close));
        if repeats(arg) {
            line.push(roman("..."));
        }
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        let (open, close) = if cmd.is_subcommand_required_set() {
            ("", "")
        } else {
            ("[", "]")
        };
        line.push(roman(format!(" {open}")));
        line.push(italic("COMMAND"));
        line.push(roman(close));
    }
    let mut roff = Roff::new();
    roff.control("SH", ["SYNOPSIS"]);
    roff.text(line);
    roff.to_roff()
}

/// The SEE ALSO section of page `me`: the other pages of `names`, then
/// perf(1).
fn see_also(me: &str, names: &[String]) -> String {
    let mut line: Vec<Inline> = Vec::new();
    for name in names.iter().filter(|n| *n != me) {
        line.push(bold(name.clone()));
        line.push(roman("(1), "));
    }
    line.push(bold("perf"));
    line.push(roman("(1)"));
    let mut roff = Roff::new();
    roff.control("SH", ["SEE ALSO"]);
    roff.text(line);
    roff.to_roff()
}

/// `page` with `sections` inserted before its section `.SH NAME`, or at
/// its end when it has none.
fn insert_before_section(page: &str, name: &str, sections: &str) -> String {
    match page.find(&format!(".SH {name}\n")) {
        Some(at) => format!("{}{sections}{}", &page[..at], &page[at..]),
        None => format!("{page}{sections}"),
    }
}

/// `text` as the sections EXIT STATUS (what follows a line "Exit
/// status:"), NOTES (the paragraphs before it) and EXAMPLES (a paragraph
/// that starts with a line "Examples:"), in that order (man-pages(7)'s),
/// in roff. Lines indented by two spaces are kept as they are (tables,
/// examples); the others are filled.
fn after_help_sections(text: &str) -> String {
    let (before, status) = match text.find("Exit status:\n") {
        Some(at) => (&text[..at], &text[at + "Exit status:\n".len()..]),
        None => (text, ""),
    };
    let mut notes = Vec::new();
    let mut examples = Vec::new();
    for paragraph in before.split("\n\n") {
        match paragraph
            .trim_start_matches('\n')
            .strip_prefix("Examples:\n")
        {
            Some(body) => examples.push(body),
            None => notes.push(paragraph),
        }
    }
    let (notes, examples) = (notes.join("\n\n"), examples.join("\n\n"));
    let mut roff = Roff::new();
    for (title, body) in [
        ("EXIT STATUS", status),
        ("NOTES", notes.as_str()),
        ("EXAMPLES", examples.as_str()),
    ] {
        if body.trim().is_empty() {
            continue;
        }
        roff.control("SH", [title]);
        let mut verbatim = false;
        for line in body.trim_matches('\n').lines() {
            let indented = line.starts_with("  ");
            if line.trim().is_empty() {
                if verbatim {
                    roff.control("fi", []);
                    verbatim = false;
                }
                roff.control("PP", []);
                continue;
            }
            if indented != verbatim {
                roff.control(if indented { "nf" } else { "fi" }, []);
                verbatim = indented;
            }
            roff.text([roman(line)]);
        }
        if verbatim {
            roff.control("fi", []);
        }
    }
    roff.to_roff()
}

/// `page` with its section `.SH NAME` (up to the next `.SH`) replaced by
/// `sections`; unchanged if it has no such section.
fn replace_section(page: &str, name: &str, sections: &str) -> String {
    let heading = format!(".SH {name}\n");
    let Some(start) = page.find(&heading) else {
        return page.to_owned();
    };
    let rest = &page[start + heading.len()..];
    let end = rest
        .find("\n.SH ")
        .map_or(page.len(), |i| start + heading.len() + i + 1);
    format!("{}{}{}", &page[..start], sections, &page[end..])
}

/// `cli` without its hidden subcommands (the completion generators would
/// offer them): its arguments and visible subcommands under the same name.
fn without_hidden_subcommands(cli: &Command) -> Command {
    let mut public = Command::new(cli.get_name().to_owned())
        .args(cli.get_arguments().cloned())
        .subcommands(cli.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    if let Some(version) = cli.get_version() {
        public = public.version(version.to_owned());
    }
    public
}

fn create_dir(dir: &Path) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|e| Error::io(&e, dir.display()))
}

/// Removes the pages of an earlier run (`NAME.1`, `NAME-*.1`), so that a
/// subcommand that no longer exists leaves no page behind.
fn remove_old_pages(man_dir: &Path, name: &str) -> Result<(), Error> {
    let entries = fs::read_dir(man_dir).map_err(|e| Error::io(&e, man_dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(&e, man_dir.display()))?;
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let ours = file == format!("{name}.1")
            || (file.starts_with(&format!("{name}-")) && file.ends_with(".1"));
        if ours {
            let path = entry.path();
            fs::remove_file(&path).map_err(|e| Error::io(&e, path.display()))?;
        }
    }
    Ok(())
}
