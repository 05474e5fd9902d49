//! The documentation's code: the README's C examples are the sample files
//! `samples/c/hello.c` and `samples/dynamic/hello.c` (program `hello_c` and
//! `dyn_hello_c` of the test-program manifest), and each, built with every
//! compiler and run in capture mode, writes the event the README shows.
//! (The links and anchors of README.md and docs/ are checked by
//! `scripts/check-links.sh`; the Quick start's demo by `scripts/front-door.sh`.)
//! No Markdown table cell is longer than [`MAX_CELL`] characters: longer
//! text goes into a list or a section.

mod support;

use support::decode::json_line as decode;

/// The fenced code blocks of `markdown` whose info string is `lang`, in order.
fn fenced_blocks(markdown: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    // Inside a block: its text, or None when it is of another language.
    let mut inside: Option<Option<String>> = None;
    for line in markdown.lines() {
        let fence = line.starts_with("```");
        match (inside.take(), fence) {
            (None, true) => {
                let wanted = line.trim_start_matches('`').trim() == lang;
                inside = Some(wanted.then(String::new));
            }
            (None, false) => {}
            (Some(block), true) => blocks.extend(block),
            (Some(mut block), false) => {
                if let Some(text) = block.as_mut() {
                    text.push_str(line);
                    text.push('\n');
                }
                inside = Some(block);
            }
        }
    }
    assert!(inside.is_none(), "unclosed code block in the Markdown");
    blocks
}

#[test]
fn fenced_blocks_are_found_by_language() {
    let md = "text\n```c\nint a;\n```\n```sh\nls\n```\n    ```c\n```c\nint b;\n\nint c;\n```\n";
    assert_eq!(
        fenced_blocks(md, "c"),
        vec!["int a;\n".to_string(), "int b;\n\nint c;\n".to_string()]
    );
    assert_eq!(fenced_blocks(md, "sh"), vec!["ls\n".to_string()]);
}

#[test]
fn readme_c_examples_are_the_samples() {
    let root = support::root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let blocks = fenced_blocks(&readme, "c");
    let samples = ["samples/c/hello.c", "samples/dynamic/hello.c"];
    assert_eq!(
        blocks.len(),
        samples.len(),
        "README.md has {} C examples, expected one per sample of {samples:?}",
        blocks.len()
    );
    for (block, sample) in blocks.iter().zip(samples) {
        let file = std::fs::read_to_string(root.join(sample)).expect(sample);
        assert_eq!(
            block, &file,
            "README.md's C example differs from {sample}: change both"
        );
    }
}

#[test]
fn readme_tracelogging_example_writes_its_event() {
    for build in support::builds("hello_c") {
        let records = build.run("capture").records;
        let got: Vec<(String, String)> = records
            .iter()
            .map(|r| (r.name.clone(), decode(r)))
            .collect();
        let want = vec![(
            "MyCompany_MyComponent_L4K1".to_string(),
            format!(
                "MyCompany_MyComponent:Started level=4 keyword=0x1 opcode=0 {{\"program\": \"{}\", \"argc\": 1}}",
                build.exe.display()
            ),
        )];
        assert_eq!(got, want, "{}", build.label);
    }
}

#[test]
fn readme_runtime_defined_example_writes_its_event() {
    for build in support::builds("dyn_hello_c") {
        let records = build.run("capture").records;
        let got: Vec<(String, String)> = records
            .iter()
            .map(|r| (r.name.clone(), decode(r)))
            .collect();
        let want = vec![(
            "MyCompany_MyComponent_L4K1".to_string(),
            "MyCompany_MyComponent:Request level=4 keyword=0x1 opcode=0 {\"url\": \"/index.html\", \"status\": 200}"
                .to_string(),
        )];
        assert_eq!(got, want, "{}", build.label);
    }
}

/// `*` and `?` over `name`.
fn glob_matches(pattern: &[u8], name: &[u8]) -> bool {
    match (pattern.split_first(), name.split_first()) {
        (None, None) => true,
        (Some((b'*', rest)), _) => {
            glob_matches(rest, name) || (!name.is_empty() && glob_matches(pattern, &name[1..]))
        }
        (Some((b'?', rest)), Some((_, tail))) => glob_matches(rest, tail),
        (Some((p, rest)), Some((n, tail))) => p == n && glob_matches(rest, tail),
        _ => false,
    }
}

/// The README's command-line examples, run in the order shown, work: a
/// `collect` of a wildcard matches only tracepoints registered by then
/// (docs/cli.md; otherwise status 3, measured in the VM suite, run `cli`,
/// check "README live view"), so it needs an `eventheader register` of a
/// matching name still running, in the background (`&`), on an earlier line:
/// a `register` in the foreground runs until Ctrl-C, and its tracepoints go
/// with it. Before, the README ran `register` in the foreground, then
/// `collect --live 'MyCompany_*'`, which exits 3.
#[test]
fn readme_wildcard_collect_follows_a_running_register() {
    let readme = std::fs::read_to_string(support::root().join("README.md")).expect("README.md");
    let section = readme
        .split("### The command-line tool")
        .nth(1)
        .expect("README.md has a section \"The command-line tool\"");
    let section = section.split("\n#").next().unwrap_or(section);
    let mut running: Vec<String> = Vec::new();
    let mut wildcards = 0;
    for line in section.lines().filter(|l| l.starts_with("    ")) {
        let command = line.split('#').next().unwrap_or("").trim();
        let words: Vec<String> = command
            .split_whitespace()
            .map(|w| w.trim_matches('\'').trim_matches('"').to_string())
            .collect();
        let Some(at) = words.iter().position(|w| w == "eventheader") else {
            continue;
        };
        let args = &words[at + 1..];
        match args.first().map(String::as_str) {
            Some("register") if command.ends_with('&') => running.extend(
                args[1..]
                    .iter()
                    .filter(|a| !a.starts_with('-') && *a != "&")
                    .cloned(),
            ),
            Some("collect") => {
                for pattern in args[1..]
                    .iter()
                    .take_while(|a| *a != "--")
                    .filter(|a| a.contains(['*', '?']))
                {
                    wildcards += 1;
                    assert!(
                        running
                            .iter()
                            .any(|name| glob_matches(pattern.as_bytes(), name.as_bytes())),
                        "README.md: `{command}` matches no tracepoint registered by an earlier \
                         line still running (registered in the background: {running:?}); \
                         it would exit 3"
                    );
                }
            }
            _ => {}
        }
    }
    assert!(
        wildcards > 0,
        "README.md's command-line examples show no wildcard collect"
    );
}

#[test]
fn globs_match_as_collect_does() {
    assert!(glob_matches(b"MyCompany_*", b"MyCompany_MyComponent_L4K1"));
    assert!(glob_matches(b"*_L?K1", b"A_L4K1"));
    assert!(!glob_matches(b"MyCompany_*", b"Other_L4K1"));
    assert!(!glob_matches(b"A?", b"A"));
}

/// The longest a Markdown table cell may be, in characters.
const MAX_CELL: usize = 400;

/// The cells of a Markdown table row (`|` inside a code span or escaped
/// does not separate cells); None for a line that is not a row.
fn table_cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    let (mut cells, mut cell, mut code, mut chars) =
        (Vec::new(), String::new(), false, inner.chars());
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cell.push(c);
                cell.extend(chars.next());
            }
            '`' => {
                code = !code;
                cell.push(c);
            }
            '|' if !code => cells.push(std::mem::take(&mut cell).trim().to_string()),
            _ => cell.push(c),
        }
    }
    cells.push(cell.trim().to_string());
    Some(cells)
}

/// "FILE:LINE: N characters" for each cell of `markdown` over [`MAX_CELL`].
fn long_cells(file: &str, markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_fence = false;
    for (n, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence {
            continue;
        }
        for cell in table_cells(line).unwrap_or_default() {
            let chars = cell.chars().count();
            if chars > MAX_CELL {
                found.push(format!("{file}:{}: {chars} characters", n + 1));
            }
        }
    }
    found
}

#[test]
fn long_cells_are_found() {
    let long = "x".repeat(MAX_CELL + 1);
    let doc = format!("| a | b |\n|---|---|\n| `a | b` | {long} |\n```\n| {long} |\n```\n");
    assert_eq!(long_cells("d.md", &doc), ["d.md:3: 401 characters"]);
    assert_eq!(
        table_cells("| `a | b` | c \\| d |").unwrap(),
        ["`a | b`", "c \\| d"]
    );
    let fits = format!("| {} |", "x".repeat(MAX_CELL));
    assert!(long_cells("d.md", &fits).is_empty());
}

#[test]
fn markdown_table_cells_are_short() {
    let root = support::root();
    let output = std::process::Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["ls-files", "*.md"])
        .output()
        .expect("running git");
    assert!(output.status.success(), "git ls-files failed");
    let files = String::from_utf8_lossy(&output.stdout);
    let mut found = Vec::new();
    for file in files.lines() {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        found.extend(long_cells(file, &text));
    }
    assert!(
        found.is_empty(),
        "table cells over {MAX_CELL} characters (make them a list or a section):\n{}",
        found.join("\n")
    );
}
