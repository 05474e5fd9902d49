//! What the documentation says about the install, done as it says: the
//! README's user-prefix steps run as written, the file list of
//! docs/install.md against CMake's install manifest, and the tool as
//! installed (no debug info; `--strip` strips it).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{command, install, run, stdout_of, support, VERSION};

/// `cmake --install` of the shared build directory rewrites its
/// install_manifest.txt: one at a time.
static INSTALLING: Mutex<()> = Mutex::new(());

/// The lines of the first indented (4 spaces) code block of `text` after
/// the line that starts with `after`, without the indent.
fn indented_block_after<'a>(text: &'a str, after: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(after)).skip(1);
    let block: Vec<&str> = lines
        .by_ref()
        .skip_while(|l| !l.starts_with("    "))
        .take_while(|l| l.starts_with("    ") || l.trim().is_empty())
        .collect();
    let block: Vec<&str> = block
        .iter()
        .map(|l| l.strip_prefix("    ").unwrap_or(""))
        .collect();
    let end = block
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    block[..end].to_vec()
}

/// The README's user-prefix install, its hello build and its capture-mode
/// run, each line as the README writes it, in a shell whose HOME is an
/// empty temporary directory and whose environment names nothing of the
/// install: the program must build against the prefix and run.
#[test]
fn readme_user_prefix_steps_build_and_run_hello() {
    let install = install();
    let readme = fs::read_to_string(support::root().join("README.md")).unwrap();
    let steps = indented_block_after(&readme, "Or, without root, into your home directory");
    assert!(
        steps.first().is_some_and(|l| l.starts_with("cmake --install build --prefix \"$HOME/.local\"")),
        "README.md has no user-prefix install block (after \"Or, without root, into your home directory\"): {steps:?}"
    );
    let build = indented_block_after(&readme, "Build it, run it in capture mode");
    let build_line = build
        .iter()
        .find(|l| l.starts_with("cc hello.c $(pkg-config"))
        .expect("the README's hello build line");
    let run_line = build
        .iter()
        .find(|l| l.starts_with("TRACEPOINT_CAPTURE_FILE="))
        .expect("the README's capture-mode run line");

    let work = install.run_dir.join("readme-user-prefix");
    if work.exists() {
        fs::remove_dir_all(&work).unwrap();
    }
    fs::create_dir_all(work.join("home")).unwrap();
    std::os::unix::fs::symlink(&install.build_dir, work.join("build")).unwrap();
    fs::copy(
        support::root().join("samples/c/hello.c"),
        work.join("hello.c"),
    )
    .unwrap();
    let script = format!("set -e\n{}\n{build_line}\n{run_line}\n", steps.join("\n"));
    let _lock = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let out = run(command("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(&work)
        .env_clear()
        .env("HOME", work.join("home"))
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("LC_ALL", "C"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\"n\": \"MyCompany_MyComponent:Started\"")
            && text.contains("\"program\": \"./hello\""),
        "the README's hello, built and decoded as it says, printed:\n{text}\n(script:\n{script})"
    );
}

/// The file names docs/install.md lists as installed (its block after
/// "What `cmake --install build --prefix P` installs"), with each CMake
/// package's name written `<package>` as the list writes it.
fn listed_in_install_md() -> String {
    let doc = fs::read_to_string(support::root().join("docs/install.md")).unwrap();
    indented_block_after(&doc, "What `cmake --install build --prefix P` installs").join("\n")
}

/// Every file and symlink CMake installs (install_manifest.txt of an
/// install into a fresh prefix) is named in docs/install.md's list.
#[test]
fn install_md_lists_every_installed_file() {
    let install = install();
    let prefix = install.run_dir.join("prefix-manifest");
    if prefix.exists() {
        fs::remove_dir_all(&prefix).unwrap();
    }
    let manifest = {
        let _lock = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
        run(command("cmake")
            .args(["--install"])
            .arg(&install.build_dir)
            .arg("--prefix")
            .arg(&prefix));
        fs::read_to_string(install.build_dir.join("install_manifest.txt")).unwrap()
    };
    let list = listed_in_install_md();
    let packages = [
        "eventheader-tracepoint",
        "tracepoint-headers",
        "eventheader-headers",
        "tracepoint",
    ];
    let mut missing = Vec::new();
    let mut count = 0;
    for file in manifest.lines().filter(|l| !l.is_empty()) {
        count += 1;
        let path = Path::new(file);
        let name = path.file_name().unwrap().to_str().unwrap();
        let generic = packages
            .iter()
            .find(|p| name.starts_with(&format!("{p}-config")))
            .map(|p| name.replacen(p, "<package>", 1));
        let named = list.contains(name) || generic.is_some_and(|g| list.contains(&g));
        if !named {
            missing.push(
                path.strip_prefix(&prefix)
                    .unwrap_or(path)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(
        count > 30,
        "install_manifest.txt lists {count} files:\n{manifest}"
    );
    assert!(
        missing.is_empty(),
        "docs/install.md's list of installed files lacks {missing:?}"
    );
}

/// The `.debug_*` sections of an ELF file (`readelf -S`), and whether it
/// has a symbol table.
fn debug_sections(file: &Path) -> (Vec<String>, bool) {
    let text = stdout_of(command("readelf").args(["-S", "-W"]).arg(file));
    let names: Vec<String> = text
        .lines()
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with('.')))
        .map(str::to_owned)
        .collect();
    let debug = names
        .iter()
        .filter(|n| n.starts_with(".debug_"))
        .cloned()
        .collect();
    (debug, names.iter().any(|n| n == ".symtab"))
}

/// The installed tool (Release, the default build type) has no debug
/// info and names its split-off debug file; `cmake --install --strip`
/// strips its symbol table too; both run.
#[test]
fn the_tool_is_installed_without_debug_info_and_strip_strips_it() {
    let install = install();
    let tool = install.prefix.join("bin/eventheader");
    let (debug, _) = debug_sections(&tool);
    assert!(debug.is_empty(), "{}: {debug:?}", tool.display());
    let sections = stdout_of(command("readelf").args(["-S", "-W"]).arg(&tool));
    assert!(sections.contains(".gnu_debuglink"), "{sections}");
    let split = install.build_dir.join("debug/Release/eventheader.debug");
    assert!(
        !debug_sections(&split).0.is_empty(),
        "{} holds no debug info",
        split.display()
    );
    let prefix = install.run_dir.join("prefix-strip");
    if prefix.exists() {
        fs::remove_dir_all(&prefix).unwrap();
    }
    {
        let _lock = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
        run(command("cmake")
            .arg("--install")
            .arg(&install.build_dir)
            .arg("--prefix")
            .arg(&prefix)
            .arg("--strip"));
    }
    let stripped = prefix.join("bin/eventheader");
    let (debug, symtab) = debug_sections(&stripped);
    assert!(
        debug.is_empty() && !symtab,
        "{}: {debug:?}, symtab {symtab}",
        stripped.display()
    );
    let size = |p: &PathBuf| fs::metadata(p).unwrap().len();
    eprintln!(
        "eventheader: built {} bytes, installed {} bytes, installed with --strip {} bytes",
        size(&super::base_dir().join("cargo-target/cli/eventheader")),
        size(&tool),
        size(&stripped)
    );
    for t in [&tool, &stripped] {
        assert_eq!(
            stdout_of(command(t).arg("--version")).trim(),
            format!("eventheader {VERSION}")
        );
    }
}
