//! `testkit::cargo_tests` for the cargo tests that are `#[test]` functions
//! (tests/*.rs and the C/C++ suites on libtest's harness): the same
//! functions, the builds going to this test target's `CARGO_TARGET_TMPDIR`.
// Each test binary uses a part of this module.
#![allow(dead_code, unused_imports)]

pub use testkit::cargo_tests::*;

fn set_tmp_dir() {
    testkit::cargo_tests::set_tmp_dir(env!("CARGO_TARGET_TMPDIR"));
}

/// Program `name` built with `toolchain` in its first standard.
pub fn build(name: &str, toolchain: Toolchain) -> Build {
    set_tmp_dir();
    testkit::cargo_tests::build(name, toolchain)
}

/// Program `name` built with `toolchain` in its first standard and
/// `flavour`.
pub fn build_flavour(name: &str, toolchain: Toolchain, flavour: Flavour) -> Build {
    set_tmp_dir();
    testkit::cargo_tests::build_flavour(name, toolchain, flavour)
}

/// Every build of program `name` the manifest asks of the cargo tests (its
/// compilers times its standards), compiled in parallel.
pub fn builds(name: &str) -> Vec<Build> {
    set_tmp_dir();
    testkit::cargo_tests::builds(name)
}
