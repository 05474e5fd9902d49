//! The repository itself: `.gitignore` covers what the commands of README.md and docs/
//! leave in the tree (`build/`, the runtime-defined samples,
//! `samples/tpp/tpp-sample*`: `git status` must not list them as untracked),
//! and no tracked file is ignored.
mod support;

use std::process::Command;

/// `git check-ignore` over `paths` (relative to the repository root, which
/// must be a git work tree: a checkout, as CI has): the ones it ignores.
fn ignored(paths: &[&str]) -> Vec<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(support::root())
        .args(["check-ignore", "--no-index", "--"])
        .args(paths)
        .output()
        .expect("running git");
    // 0: some ignored, 1: none, 128: an error (not a work tree).
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "git check-ignore failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn gitignore_covers_what_the_documented_commands_leave() {
    let left = [
        "build/CMakeCache.txt",
        "samples/cmake-consumer/build/Makefile",
        "dyn_sample_c",
        "dyn_sample_cpp",
        "hello",
        "events.dat",
        "trace.data",
        "samples/tpp/tpp-sample",
        "samples/tpp/tpp-sample.dat",
        "samples/pkgconfig-consumer/pkgconfig-consumer",
        "samples/pkgconfig-consumer/.pkgconfig-consumer.flags",
        "samples/dynamic/__pycache__/sample.cpython-311.pyc",
        "target/debug/demo/events.dat",
        "tests/kernel/target/run.log",
    ];
    assert_eq!(ignored(&left), left, "not ignored");
    let sources = [
        "samples/tpp/tpp-sample.c",
        "samples/tpp/Makefile",
        "samples/pkgconfig-consumer/main.c",
        "samples/dynamic/sample.py",
        "samples/dynamic/sample.c",
        "cmake/cargo-build.cmake",
        "tests/data/reference/EventHeaderInterceptorLE64.dat",
    ];
    assert_eq!(ignored(&sources), Vec::<String>::new(), "sources ignored");
}
