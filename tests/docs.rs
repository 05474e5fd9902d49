//! The documentation's code: the README's C examples are the sample files
//! `samples/c/hello.c` and `samples/dynamic/hello.c` (program `hello_c` and
//! `dyn_hello_c` of the test-program manifest), and each, built with every
//! compiler and run in capture mode, writes the event the README shows.
//! (The links and anchors of README.md and docs/ are checked by
//! `scripts/check-links.sh`; the Quick start's demo by `scripts/front-door.sh`.)

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
