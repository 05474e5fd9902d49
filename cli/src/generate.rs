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

use clap::{Args, Command};
use clap_complete::Shell;
use roff::{roman, Roff};

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
/// roff source. clap_mangen's pages, except that the text after the options
/// (clap's `after_help`, written for a terminal) becomes the sections NOTES
/// and EXIT STATUS, its indented lines kept as they are.
fn man_pages(cli: Command) -> Vec<(String, Vec<u8>)> {
    fn add(cmd: &Command, source: &str, pages: &mut Vec<(String, Vec<u8>)>) {
        let man = clap_mangen::Man::new(cmd.clone()).source(source.to_owned());
        let mut page = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = man.render(&mut page);
        let page = String::from_utf8_lossy(&page).into_owned();
        let after = cmd.get_after_long_help().or(cmd.get_after_help());
        let page = match after {
            Some(text) => replace_section(&page, "EXTRA", &after_help_sections(&text.to_string())),
            None => page,
        };
        pages.push((man.get_filename(), page.into_bytes()));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            add(sub, source, pages);
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
    let mut pages = Vec::new();
    add(&cli, &source, &mut pages);
    pages
}

/// `text` as the sections NOTES (what comes before a line "Exit status:")
/// and EXIT STATUS (what follows it), in roff. Lines indented by two spaces
/// are kept as they are (tables, examples); the others are filled.
fn after_help_sections(text: &str) -> String {
    let (notes, status) = match text.find("Exit status:\n") {
        Some(at) => (&text[..at], &text[at + "Exit status:\n".len()..]),
        None => (text, ""),
    };
    let mut roff = Roff::new();
    for (title, body) in [("NOTES", notes), ("EXIT STATUS", status)] {
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
