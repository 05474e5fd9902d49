//! Install-and-consume test: builds and installs the library with CMake
//! (`CMakeLists.txt`) into a temporary prefix, then builds the samples against
//! that prefix the way users of the reference do — `samples/cmake-consumer`
//! with `find_package` and `samples/pkgconfig-consumer` with pkg-config, each
//! linked shared and static, with every available C compiler — runs them in
//! capture mode and checks their decoded events. The command-line tool
//! `eventheader` is installed too, with its man pages and shell completions,
//! unless `-DEVENTHEADER_BUILD_CLI=OFF`.
//!
//! Needs cmake, pkg-config, make and binutils (readelf). The CMake build runs
//! its own cargo with a separate target directory
//! (`target/tmp/install-test/cargo-target`), so it does not wait on the build
//! lock of the `cargo test` running it; the prefix is installed once
//! (`target/tmp/install-test/run/prefix`, left for inspection) and shared by
//! the tests here.

mod steps;
mod subproject;
#[path = "../../tests/support/mod.rs"]
mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use support::{Build, Flavour, Toolchain};
use testkit::build::Config;
use testkit::manifest;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The decoded events `samples/cmake-consumer` writes: (tracepoint, JSON).
const CMAKE_CONSUMER_EVENTS: &[(&str, &str)] = &[
    (
        "CMakeConsumer_L4K1",
        r#"{ "n": "CMakeConsumer:Hello", "message": "Hello from CMake", "count": 1, "meta": { "level": 4, "keyword": "0x1" } }"#,
    ),
    (
        "CMakeConsumer_L4K1",
        r#"{ "n": "CMakeConsumer:Hello", "message": "Hello again", "count": 2, "meta": { "level": 4, "keyword": "0x1" } }"#,
    ),
    (
        "CMakeConsumer_L5K2",
        r#"{ "n": "CMakeConsumer:Measurement", "celsius": 21.5, "samples": [ 215, 217, 220 ], "meta": { "level": 5, "keyword": "0x2" } }"#,
    ),
    (
        "CMakeConsumer_L4K4",
        r#"{ "n": "CMakeConsumer:RequestStart", "path": "/index.html", "meta": { "level": 4, "keyword": "0x4", "opcode": 1, "activity": "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0", "relatedActivity": "6b3c2f10-8a41-4e5d-9c01-223344556677" } }"#,
    ),
    (
        "CMakeConsumer_L4K4",
        r#"{ "n": "CMakeConsumer:RequestStop", "status": 200, "bytes": 5120, "meta": { "level": 4, "keyword": "0x4", "opcode": 2, "activity": "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0" } }"#,
    ),
];

/// The decoded events `samples/pkgconfig-consumer` writes.
const PKGCONFIG_CONSUMER_EVENTS: &[(&str, &str)] = &[
    (
        "PkgConfigConsumer_L4K1",
        r#"{ "n": "PkgConfigConsumer:Counter", "label": "one", "value": 1, "meta": { "level": 4, "keyword": "0x1" } }"#,
    ),
    (
        "PkgConfigConsumer_L4K1",
        r#"{ "n": "PkgConfigConsumer:Counter", "label": "two", "value": 2, "meta": { "level": 4, "keyword": "0x1" } }"#,
    ),
    (
        "PkgConfigConsumer_L4K1",
        r#"{ "n": "PkgConfigConsumer:Counter", "label": "three", "value": 3, "meta": { "level": 4, "keyword": "0x1" } }"#,
    ),
];

const SONAME: &str = "libeventheader_tracepoint.so.1";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Linkage {
    Shared,
    Static,
}

impl Linkage {
    fn name(self) -> &'static str {
        match self {
            Linkage::Shared => "shared",
            Linkage::Static => "static",
        }
    }
}

/// The installed prefix shared by the tests.
struct Install {
    /// `target/tmp/install-test/run`: scratch space of this test run.
    run_dir: PathBuf,
    /// The CMake build directory of the library.
    build_dir: PathBuf,
    /// The install prefix.
    prefix: PathBuf,
    /// What `cmake --build` printed (cargo's output included).
    build_log: String,
}

/// A command with the environment `cargo test` adds for test binaries
/// removed where it would change the outcome: LD_LIBRARY_PATH points at
/// target/<profile>, which must not satisfy the consumers' library lookups.
fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    cmd.env_remove("LD_LIBRARY_PATH");
    cmd
}

/// Runs `cmd`; panics with its output unless it succeeds.
fn run(cmd: &mut Command) -> Output {
    let output = cmd.output().unwrap_or_else(|e| {
        panic!("cannot run {cmd:?}: {e} (are cmake, pkg-config, make and binutils installed?)")
    });
    assert!(
        output.status.success(),
        "{cmd:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8(run(cmd).stdout).expect("UTF-8 output")
}

fn install() -> &'static Install {
    static INSTALL: OnceLock<Result<Install, String>> = OnceLock::new();
    installed(&INSTALL, "run", &[])
}

/// The Debug build type (cargo's dev profile, as docs/install.md says), in a
/// prefix of its own, without the command-line tool (the library's build
/// type is what matters here; the tool's dev build is cargo's usual one).
fn debug_install() -> &'static Install {
    static INSTALL: OnceLock<Result<Install, String>> = OnceLock::new();
    installed(
        &INSTALL,
        "run-debug",
        &["-DCMAKE_BUILD_TYPE=Debug", "-DEVENTHEADER_BUILD_CLI=OFF"],
    )
}

/// The install in `base_dir()/run_name`, built once with `options`.
fn installed(
    cell: &'static OnceLock<Result<Install, String>>,
    run_name: &str,
    options: &[&str],
) -> &'static Install {
    let result = cell.get_or_init(|| {
        std::panic::catch_unwind(|| build_and_install(run_name, options)).map_err(|panic| {
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "build_and_install panicked".to_string())
        })
    });
    match result {
        Ok(install) => install,
        Err(message) => {
            panic!("building and installing with CMake ({options:?}) failed:\n{message}")
        }
    }
}

/// The directory of the install runs.
fn base_dir() -> PathBuf {
    let name = match testkit::cross::target() {
        Some(cross) => format!("install-test-{}", cross.triple),
        None => "install-test".into(),
    };
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// In cross mode (`testkit::cross`), the CMake arguments of the target's
/// toolchain file, `cmake/toolchains/TRIPLE.cmake`.
fn toolchain_args() -> Vec<String> {
    match testkit::cross::target() {
        Some(cross) => vec![
            "--toolchain".into(),
            support::root()
                .join(format!("cmake/toolchains/{}.cmake", cross.triple))
                .display()
                .to_string(),
        ],
        None => Vec::new(),
    }
}

/// The CMake arguments that select the C compiler `cc` (gcc or clang) of a
/// consumer build, for the target in cross mode.
fn c_compiler_args(cc: &str) -> Vec<String> {
    let mut args = toolchain_args();
    match (testkit::cross::target(), cc) {
        (Some(cross), "clang") => {
            args.push("-DCMAKE_C_COMPILER=clang".into());
            args.push(format!("-DCMAKE_C_COMPILER_TARGET={}", cross.triple));
        }
        _ => args.push(format!(
            "-DCMAKE_C_COMPILER={}",
            testkit::cross::compiler_words(cc)[0]
        )),
    }
    args
}

/// A built program as a command ([`command`]), behind the runner in cross
/// mode.
fn program_command(program: &Path) -> Command {
    let mut cmd = testkit::cross::command(program);
    cmd.env_remove("LD_LIBRARY_PATH");
    cmd
}

fn build_and_install(run_name: &str, options: &[&str]) -> Install {
    let run_dir = base_dir().join(run_name);
    if run_dir.exists() {
        fs::remove_dir_all(&run_dir).expect("removing the previous run's directory");
    }
    fs::create_dir_all(&run_dir).expect("creating the run directory");
    let build_dir = run_dir.join("build");
    let prefix = run_dir.join("prefix");
    let build_log = cmake_build_and_install(&build_dir, &prefix, options);
    Install {
        run_dir,
        build_dir,
        prefix,
        build_log,
    }
}

/// Configures the repository in `build_dir` with `options` (cargo's target
/// directory shared by every configuration here), builds, installs to
/// `prefix` (scripts/install-prefix.sh); returns what the build printed.
fn cmake_build_and_install(build_dir: &Path, prefix: &Path, options: &[&str]) -> String {
    // The cargo running the tests; in cross mode the toolchain file's.
    let cargo = match testkit::cross::target() {
        Some(_) => Vec::new(),
        None => {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            vec![format!(
                "-DCARGO_EXECUTABLE={}",
                Path::new(&cargo).display()
            )]
        }
    };
    // No CMAKE_BUILD_TYPE unless `options` name one: the default (Release,
    // cargo's release profile) is what a user gets.
    run(command("bash")
        .arg(support::root().join("scripts/install-prefix.sh"))
        .arg(build_dir)
        .arg(prefix)
        .args(toolchain_args())
        .args(cargo)
        .arg(format!(
            "-DTRACEPOINT_CARGO_TARGET_DIR={}",
            base_dir().join("cargo-target").display()
        ))
        .args(options));
    fs::read_to_string(build_dir.join("install-prefix.log")).expect("the build's log")
}

/// `readelf -d` lines of `file` with `tag` (NEEDED, SONAME, RUNPATH), values only.
fn dynamic_entries(file: &Path, tag: &str) -> Vec<String> {
    let text = stdout_of(command("readelf").arg("-d").arg(file));
    let marker = format!("({tag})");
    text.lines()
        .filter(|line| line.contains(&marker))
        .filter_map(|line| {
            let start = line.find('[')?;
            let end = line.rfind(']')?;
            Some(line[start + 1..end].to_string())
        })
        .collect()
}

/// Checks a consumer's dynamic section: linked against the installed shared
/// library (found through its RUNPATH) or not at all (static).
fn check_linkage(program: &Path, linkage: Linkage, prefix: &Path) {
    let needed = dynamic_entries(program, "NEEDED");
    match linkage {
        Linkage::Shared => {
            assert_eq!(
                needed.iter().filter(|n| n.as_str() == SONAME).count(),
                1,
                "{} should need {SONAME} once: {needed:?}",
                program.display()
            );
            let runpath = [
                dynamic_entries(program, "RUNPATH"),
                dynamic_entries(program, "RPATH"),
            ]
            .concat();
            let libdir = prefix.join("lib");
            assert!(
                runpath
                    .iter()
                    .any(|r| r.split(':').any(|p| Path::new(p) == libdir)),
                "{} should have {} in its RUNPATH: {runpath:?}",
                program.display(),
                libdir.display()
            );
        }
        Linkage::Static => assert!(
            !needed.iter().any(|n| n.contains("eventheader_tracepoint")),
            "{} should not need the shared library: {needed:?}",
            program.display()
        ),
    }
}

/// Runs `program` in capture mode in `dir` and checks its decoded events.
fn run_and_check_events(program: &Path, dir: &Path, expected: &[(&str, &str)]) {
    let capture = dir.join("events.dat");
    let output = run(program_command(program).env("TRACEPOINT_CAPTURE_FILE", &capture));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("wrote ")).count(),
        expected.len(),
        "{} output:\n{stdout}",
        program.display()
    );

    let bytes = fs::read(&capture)
        .unwrap_or_else(|e| panic!("{} wrote no capture file: {e}", program.display()));
    let records = support::parse_capture(&bytes);
    let decoded: Vec<String> = records
        .iter()
        .map(|r| {
            support::decode::json(r)
                .unwrap_or_else(|e| panic!("decoding {}: {e}", capture.display()))
        })
        .collect();
    let actual: Vec<(&str, &str)> = records
        .iter()
        .zip(&decoded)
        .map(|(r, j)| (r.name.as_str(), j.as_str()))
        .collect();
    assert_eq!(actual, expected, "events of {}", program.display());
}

fn check_files_equal(a: &Path, b: &Path) {
    let left = fs::read(a).unwrap_or_else(|e| panic!("reading {}: {e}", a.display()));
    let right = fs::read(b).unwrap_or_else(|e| panic!("reading {}: {e}", b.display()));
    assert!(
        left == right,
        "{} differs from {}",
        a.display(),
        b.display()
    );
}

/// The package files name every system library rustc reported for the
/// static library during this build (rustc leaves the C library to the C
/// toolchain, so they may name more): pkg-config's Libs.private and the CMake
/// static target's usage requirements.
fn check_system_libraries(install: &Install) {
    let lib = install.prefix.join("lib");
    let reported = install
        .build_log
        .lines()
        .find_map(|l| {
            l.split_once("native-static-libs: ")
                .map(|(_, libs)| libs.trim().to_string())
        })
        .unwrap_or_else(|| {
            panic!(
                "no native-static-libs in the build log:\n{}",
                install.build_log
            )
        });
    let tracepoint_pc =
        fs::read_to_string(lib.join("pkgconfig/tracepoint.pc")).expect("tracepoint.pc");
    let private = tracepoint_pc
        .lines()
        .find_map(|l| l.strip_prefix("Libs.private: "))
        .unwrap_or_else(|| panic!("no Libs.private in tracepoint.pc:\n{tracepoint_pc}"));
    let native_cmake = lib.join("cmake/tracepoint/tracepoint-native-libs.cmake");
    let cmake_libs = fs::read_to_string(&native_cmake)
        .unwrap_or_else(|e| panic!("{}: {e}", native_cmake.display()));
    let cmake_list = cmake_libs
        .lines()
        .find_map(|l| l.strip_prefix("set(_tracepoint_native_libs \""))
        .and_then(|l| l.strip_suffix("\")"))
        .unwrap_or_else(|| panic!("no list in {}:\n{cmake_libs}", native_cmake.display()));
    for flag in reported.split_whitespace() {
        assert!(
            private.split_whitespace().any(|p| p == flag),
            "tracepoint.pc Libs.private ({private}) lacks {flag}, which rustc reported"
        );
        let name = flag.strip_prefix("-l").unwrap_or(flag);
        assert!(
            cmake_list.split(';').any(|l| l == name),
            "{} ({cmake_list}) lacks {name}, which rustc reported",
            native_cmake.display()
        );
    }
}

#[test]
fn installs_headers_libraries_and_package_files() {
    let install = install();
    let prefix = &install.prefix;

    // Every header of include/, byte for byte.
    let include = support::include_dir();
    let mut headers = 0;
    for dir in ["tracepoint", "eventheader"] {
        for entry in fs::read_dir(include.join(dir)).expect("include dir") {
            let path = entry.expect("dir entry").path();
            if path.extension().is_some_and(|e| e == "h") {
                check_files_equal(
                    &path,
                    &prefix
                        .join("include")
                        .join(dir)
                        .join(path.file_name().unwrap()),
                );
                headers += 1;
            }
        }
    }
    assert!(headers >= 5, "only {headers} headers under include/");

    // Real files and symlinks of lib/.
    let lib = prefix.join("lib");
    let real_name = format!("libeventheader_tracepoint.so.{VERSION}");
    for file in [real_name.as_str(), "libeventheader_tracepoint.a"] {
        let meta = fs::symlink_metadata(lib.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(meta.is_file(), "{file} should be a regular file");
    }
    for (link, target) in [
        (SONAME, real_name.as_str()),
        ("libeventheader_tracepoint.so", SONAME),
        ("libeventheader-tracepoint.so", SONAME),
        ("libtracepoint.so", SONAME),
        ("libeventheader-tracepoint.a", "libeventheader_tracepoint.a"),
        ("libtracepoint.a", "libeventheader_tracepoint.a"),
    ] {
        let actual = fs::read_link(lib.join(link)).unwrap_or_else(|e| panic!("{link}: {e}"));
        assert_eq!(actual, Path::new(target), "{link} should point at {target}");
    }
    assert_eq!(dynamic_entries(&lib.join(&real_name), "SONAME"), [SONAME]);
    // The static library's members, each linked only by programs that call
    // it (cmake/split-archive.cmake).
    let members = stdout_of(
        command("ar")
            .arg("t")
            .arg(lib.join("libeventheader_tracepoint.a")),
    );
    assert_eq!(
        members.lines().collect::<Vec<_>>(),
        [
            "tracepoint-core.o",
            "tracepoint.o",
            "tracepoint-capture.o",
            "tracepoint-diagnostics.o",
            "eventheader.o",
            "eventheader-activity.o",
            "eventheader-dynamic.o"
        ]
    );

    // CMake packages.
    for package in [
        "tracepoint",
        "eventheader-tracepoint",
        "tracepoint-headers",
        "eventheader-headers",
    ] {
        for suffix in ["config.cmake", "config-version.cmake"] {
            let file = lib
                .join("cmake")
                .join(package)
                .join(format!("{package}-{suffix}"));
            assert!(file.is_file(), "missing {}", file.display());
        }
    }

    check_system_libraries(install);

    // The installed libraries carry no debug info; the shared library names
    // its separate debug file, which is installed only on request.
    for file in [real_name.as_str(), "libeventheader_tracepoint.a"] {
        let sections = stdout_of(command("readelf").arg("-S").arg(lib.join(file)));
        assert!(
            !sections.contains(".debug_"),
            "{file} should have no debug sections:\n{sections}"
        );
    }
    let sections = stdout_of(command("readelf").arg("-S").arg(lib.join(&real_name)));
    assert!(
        sections.contains(".gnu_debuglink"),
        "{real_name} should name its debug file:\n{sections}"
    );
    assert!(
        !lib.join(".debug").exists(),
        "the debug file is installed only with TRACEPOINT_INSTALL_DEBUG=ON"
    );
    assert!(lib.join("pkgconfig/eventheader-tracepoint.pc").is_file());

    // A staged install (DESTDIR) writes the final prefix, not the staging
    // directory, into the pkg-config files.
    let destdir = install.run_dir.join("destdir");
    run(command("cmake")
        .env("DESTDIR", &destdir)
        .arg("--install")
        .arg(&install.build_dir)
        .arg("--prefix")
        .arg("/opt/eventheader-tracepoint"));
    let staged_pc =
        fs::read_to_string(destdir.join("opt/eventheader-tracepoint/lib/pkgconfig/tracepoint.pc"))
            .expect("staged tracepoint.pc");
    assert!(
        staged_pc.starts_with("prefix=/opt/eventheader-tracepoint\n"),
        "{staged_pc}"
    );
}

/// `bin/eventheader` is installed and runs; `-DEVENTHEADER_BUILD_CLI=OFF`
/// installs the library without it (the same cargo target directory: only
/// CMake's part runs again).
#[test]
fn installs_the_command_line_tool_unless_switched_off() {
    use std::os::unix::fs::PermissionsExt;

    let install = install();
    let cli = install.prefix.join("bin/eventheader");
    let meta = fs::metadata(&cli).unwrap_or_else(|e| panic!("{}: {e}", cli.display()));
    assert!(
        meta.is_file() && meta.permissions().mode() & 0o111 == 0o111,
        "{} should be an executable file",
        cli.display()
    );
    assert_eq!(
        stdout_of(command(&cli).arg("--version")).trim(),
        format!("eventheader {VERSION}")
    );
    let entries: Vec<_> = fs::read_dir(install.prefix.join("bin"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, ["eventheader"], "bin/ holds the tool only");

    let build_dir = install.run_dir.join("build-without-cli");
    let prefix = install.run_dir.join("prefix-without-cli");
    cmake_build_and_install(&build_dir, &prefix, &["-DEVENTHEADER_BUILD_CLI=OFF"]);
    assert!(
        prefix.join("lib").join(SONAME).exists(),
        "no library installed"
    );
    for dir in ["bin", "share"] {
        assert!(
            !prefix.join(dir).exists(),
            "-DEVENTHEADER_BUILD_CLI=OFF installed {}",
            prefix.join(dir).display()
        );
    }
}

/// The files under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                out.push(path.strip_prefix(base).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The tool's man pages and bash, zsh and fish completions are installed
/// under share/ (as the installed tool generates them), and `man
/// eventheader` shows its page with MANPATH set to the prefix's share/man.
/// cli/tests/generate.rs checks their contents.
#[test]
fn installs_the_man_pages_and_shell_completions() {
    let install = install();
    let share = install.prefix.join("share");
    let installed = files_under(&share);
    let expected: Vec<PathBuf> = [
        "bash-completion/completions/eventheader",
        "fish/vendor_completions.d/eventheader.fish",
        "man/man1/eventheader-collect.1",
        "man/man1/eventheader-decode.1",
        "man/man1/eventheader-doctor.1",
        "man/man1/eventheader-register.1",
        "man/man1/eventheader-stats.1",
        "man/man1/eventheader.1",
        "zsh/site-functions/_eventheader",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    for file in &expected {
        assert!(
            installed.contains(file),
            "share/{} is not installed (share/ holds {installed:?})",
            file.display()
        );
    }

    // Current: what the installed tool generates now, file for file.
    let generated = install.run_dir.join("generated-share");
    if generated.exists() {
        fs::remove_dir_all(&generated).unwrap();
    }
    run(command(install.prefix.join("bin/eventheader"))
        .arg("generate")
        .arg(&generated));
    assert_eq!(files_under(&generated), installed);
    for file in &installed {
        check_files_equal(&generated.join(file), &share.join(file));
    }

    if !support::optional(
        testkit::available("man"),
        "REQUIRE_DOC_TOOLS",
        "man (man eventheader after the install)",
    ) {
        return;
    }
    let man = |page: &str| {
        stdout_of(
            command("man")
                .args(["-P", "cat", page])
                .env("MANPATH", share.join("man"))
                .env("LC_ALL", "C")
                .env("MANWIDTH", "200"),
        )
    };
    let page = man("eventheader");
    for text in [
        "eventheader - Pre-register user_events tracepoints",
        "eventheader-register(1)",
        "eventheader-collect(1)",
        "eventheader-decode(1)",
        "eventheader-doctor(1)",
        "eventheader-stats(1)",
        "EXIT STATUS",
    ] {
        assert!(
            page.contains(text),
            "man eventheader lacks {text:?}:\n{page}"
        );
    }
    let page = man("eventheader-decode");
    assert!(page.contains("--jsonl"), "man eventheader-decode:\n{page}");
}

#[test]
fn cmake_packages_honour_versions_and_linkage() {
    let install = install();
    let dir = install.run_dir.join("version-probe");
    fs::create_dir_all(&dir).unwrap();
    // Each find_package in its own directory scope, so that targets and
    // results of one do not leak into the next.
    let mut cmakelists =
        String::from("cmake_minimum_required(VERSION 3.16)\nproject(probe NONE)\n");
    let mut expected = Vec::new();
    let mut case = 0;
    let exact = format!("{VERSION} EXACT");
    for package in [
        "tracepoint",
        "eventheader-tracepoint",
        "tracepoint-headers",
        "eventheader-headers",
    ] {
        for (request, found) in [
            ("1.4", true),
            (exact.as_str(), true),
            ("1.3", false),
            ("1.5", false),
            ("2.0", false),
        ] {
            case += 1;
            let sub = dir.join(format!("case{case}"));
            fs::create_dir_all(&sub).unwrap();
            fs::write(
                sub.join("CMakeLists.txt"),
                format!(
                    "find_package({package} {request} QUIET)\n\
                     message(STATUS \"probe {package} [{request}] ${{{package}_FOUND}}\")\n"
                ),
            )
            .unwrap();
            cmakelists.push_str(&format!("add_subdirectory(case{case})\n"));
            expected.push(format!(
                "probe {package} [{request}] {}",
                if found { "1" } else { "0" }
            ));
        }
    }
    // The targets, their types and what they bring along.
    for (linkage, static_libs) in [("shared", "OFF"), ("static", "ON")] {
        let sub = dir.join(linkage);
        fs::create_dir_all(&sub).unwrap();
        fs::write(
            sub.join("CMakeLists.txt"),
            format!(
                "set(TRACEPOINT_USE_STATIC_LIBS {static_libs})\n\
                 find_package(eventheader-tracepoint 1.4 REQUIRED)\n\
                 foreach(t tracepoint eventheader-tracepoint tracepoint-headers eventheader-headers)\n\
                 get_target_property(type ${{t}} TYPE)\n\
                 message(STATUS \"target {linkage} ${{t}} ${{type}}\")\n\
                 endforeach()\n"
            ),
        )
        .unwrap();
        cmakelists.push_str(&format!("add_subdirectory({linkage})\n"));
    }
    fs::write(dir.join("CMakeLists.txt"), cmakelists).unwrap();

    let output = stdout_of(
        command("cmake")
            .arg("-S")
            .arg(&dir)
            .arg("-B")
            .arg(dir.join("build"))
            .arg(format!("-DCMAKE_PREFIX_PATH={}", install.prefix.display())),
    );
    let probes: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("-- "))
        .filter(|l| l.starts_with("probe "))
        .collect();
    assert_eq!(probes, expected, "cmake output:\n{output}");

    for line in [
        "target shared tracepoint SHARED_LIBRARY",
        "target static tracepoint STATIC_LIBRARY",
        "target shared eventheader-tracepoint INTERFACE_LIBRARY",
        "target static eventheader-tracepoint INTERFACE_LIBRARY",
        "target shared tracepoint-headers INTERFACE_LIBRARY",
        "target shared eventheader-headers INTERFACE_LIBRARY",
    ] {
        assert!(
            output.lines().any(|l| l == format!("-- {line}")),
            "no '{line}' in:\n{output}"
        );
    }
}

fn cmake_consumer(install: &Install, linkage: Linkage, toolchains: &[Toolchain]) {
    for toolchain in toolchains {
        let Toolchain { cc, .. } = toolchain;
        let dir = install
            .run_dir
            .join(format!("cmake-consumer-{}-{cc}", linkage.name()));
        fs::create_dir_all(&dir).unwrap();
        run(command("cmake")
            .arg("-S")
            .arg(support::root().join("samples/cmake-consumer"))
            .arg("-B")
            .arg(&dir)
            .args(c_compiler_args(cc))
            .arg("-DCMAKE_C_FLAGS=-Wall -Wextra -Werror")
            .arg(format!("-DCMAKE_PREFIX_PATH={}", install.prefix.display()))
            .arg(format!(
                "-DTRACEPOINT_USE_STATIC_LIBS={}",
                if linkage == Linkage::Static {
                    "ON"
                } else {
                    "OFF"
                }
            ))
            // A static program has capture mode only when asked.
            .arg("-DTRACEPOINT_STATIC_CAPTURE=ON"));
        run(command("cmake").arg("--build").arg(&dir));
        let program = dir.join("cmake-consumer");
        check_linkage(&program, linkage, &install.prefix);
        run_and_check_events(&program, &dir, CMAKE_CONSUMER_EVENTS);
    }
}

#[test]
fn cmake_consumer_shared() {
    cmake_consumer(install(), Linkage::Shared, &support::toolchains());
}

#[test]
fn cmake_consumer_static() {
    cmake_consumer(install(), Linkage::Static, &support::toolchains());
}

/// The records `samples/tpp` writes (plain tracepoints, tracepoint-provider.h): tracepoint
/// and payload, worked out by hand from the declared fields.
const TPP_SAMPLE_RECORDS: &[(&str, &[u8])] = &[
    // __rel_loc char[] greeting (6 bytes 4 after the word), s32 argc = 1, "hello\0"
    (
        "tpp_sample_start",
        b"\x04\x00\x06\x00\x01\x00\x00\x00hello\0",
    ),
    // u16 port = 8080, __rel_loc char[] path (12 bytes 4 after), __rel_loc u8[] body (4 bytes 12 after)
    (
        "tpp_sample_request",
        b"\x90\x1f\x04\x00\x0c\x00\x0c\x00\x04\x00/index.html\0\xca\xfe\xba\xbe",
    ),
];

/// samples/tpp (tracepoint-provider.h) built with CMake against the installed `tracepoint`
/// package: the installed header compiles and the program writes its records.
#[test]
fn tpp_sample_against_the_install() {
    let install = install();
    for Toolchain { cc, .. } in support::toolchains() {
        let dir = install.run_dir.join(format!("tpp-sample-{cc}"));
        fs::create_dir_all(&dir).unwrap();
        run(command("cmake")
            .arg("-S")
            .arg(support::root().join("samples/tpp"))
            .arg("-B")
            .arg(&dir)
            .arg(format!("-DCMAKE_C_COMPILER={cc}"))
            .arg("-DCMAKE_C_FLAGS=-Wall -Wextra -Werror")
            .arg(format!("-DCMAKE_PREFIX_PATH={}", install.prefix.display())));
        run(command("cmake").arg("--build").arg(&dir));
        let program = dir.join("tpp-sample");
        check_linkage(&program, Linkage::Shared, &install.prefix);
        let capture = dir.join("events.dat");
        let _ = fs::remove_file(&capture);
        run(command(&program).env("TRACEPOINT_CAPTURE_FILE", &capture));
        let records = support::read_capture(&capture);
        let actual: Vec<(&str, &[u8])> = records
            .iter()
            .map(|r| (r.name.as_str(), r.event.as_slice()))
            .collect();
        assert_eq!(
            actual,
            TPP_SAMPLE_RECORDS,
            "records of {}",
            program.display()
        );
    }
}

fn pkg_config(prefix: &Path, args: &[&str]) -> String {
    stdout_of(
        command("pkg-config")
            .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .args(args),
    )
    .trim()
    .to_string()
}

#[test]
fn pkg_config_reports_the_reference_link_names() {
    let prefix = &install().prefix;
    let lib = prefix.join("lib");
    for package in ["tracepoint", "eventheader-tracepoint"] {
        assert_eq!(pkg_config(prefix, &["--modversion", package]), VERSION);
        assert_eq!(
            pkg_config(prefix, &["--cflags", package]),
            format!("-I{}", prefix.join("include").display())
        );
    }
    assert_eq!(
        pkg_config(prefix, &["--libs", "eventheader-tracepoint"]),
        format!("-L{} -leventheader-tracepoint -ltracepoint", lib.display())
    );
    assert_eq!(
        pkg_config(prefix, &["--libs", "tracepoint"]),
        format!("-L{} -ltracepoint", lib.display())
    );
    let static_libs = pkg_config(prefix, &["--libs", "--static", "eventheader-tracepoint"]);
    let prefix_flags = format!("-L{} -leventheader-tracepoint -ltracepoint ", lib.display());
    let private = static_libs
        .strip_prefix(&prefix_flags)
        .unwrap_or_else(|| panic!("unexpected pkg-config --static --libs: {static_libs}"));
    for lib in ["-lpthread", "-lc"] {
        assert!(
            private.split(' ').any(|f| f == lib),
            "{lib} not in Libs.private: {private}"
        );
    }
}

fn pkgconfig_consumer(install: &Install, linkage: Linkage, toolchains: &[Toolchain]) {
    let sample = support::root().join("samples/pkgconfig-consumer");
    for toolchain in toolchains {
        let Toolchain { cc, .. } = toolchain;
        // A copy of the sample, as a user would build it: make builds in place.
        let dir = install
            .run_dir
            .join(format!("pkgconfig-consumer-{}-{cc}", linkage.name()));
        fs::create_dir_all(&dir).unwrap();
        for file in ["Makefile", "main.c"] {
            fs::copy(sample.join(file), dir.join(file)).unwrap();
        }
        let mut make = command("make");
        make.arg("-C")
            .arg(&dir)
            .env("PKG_CONFIG_PATH", install.prefix.join("lib/pkgconfig"))
            .arg(format!(
                "CC={}",
                testkit::cross::compiler_words(cc).join(" ")
            ))
            .arg("CFLAGS=-O2 -Wall -Wextra -Werror")
            .arg(format!("LINK={}", linkage.name()));
        if linkage == Linkage::Static {
            // A static program has capture mode only when asked.
            make.arg("LDFLAGS=-Wl,-u,tracepoint_set_capture_file");
        }
        run(&mut make);
        let program = dir.join("pkgconfig-consumer");
        check_linkage(&program, linkage, &install.prefix);
        run_and_check_events(&program, &dir, PKGCONFIG_CONSUMER_EVENTS);
    }
}

/// `make`, then `make LINK=static` in the same directory relinks (and a
/// second `make LINK=static` does not): the Makefile keeps the build's
/// command line in a file it rewrites only when it changes. Before, the
/// second make said "up to date" and the program stayed shared.
#[test]
fn pkgconfig_consumer_relinks_when_link_changes() {
    let install = install();
    let dir = install.run_dir.join("pkgconfig-consumer-relink");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let sample = support::root().join("samples/pkgconfig-consumer");
    for file in ["Makefile", "main.c"] {
        fs::copy(sample.join(file), dir.join(file)).unwrap();
    }
    let make = |linkage: Linkage| {
        stdout_of(
            command("make")
                .arg("-C")
                .arg(&dir)
                .env("PKG_CONFIG_PATH", install.prefix.join("lib/pkgconfig"))
                .arg(format!("LINK={}", linkage.name())),
        )
    };
    let program = dir.join("pkgconfig-consumer");
    for linkage in [Linkage::Shared, Linkage::Static, Linkage::Shared] {
        let output = make(linkage);
        assert!(output.contains("-o pkgconfig-consumer main.c"), "{output}");
        check_linkage(&program, linkage, &install.prefix);
        let again = make(linkage);
        assert!(!again.contains("main.c"), "relinked again: {again}");
    }
    run_and_check_events(&program, &dir, PKGCONFIG_CONSUMER_EVENTS);
}

#[test]
fn pkgconfig_consumer_shared() {
    pkgconfig_consumer(install(), Linkage::Shared, &support::toolchains());
}

#[test]
fn pkgconfig_consumer_static() {
    pkgconfig_consumer(install(), Linkage::Static, &support::toolchains());
}

/// The other build types docs/install.md names, RelWithDebInfo and
/// MinSizeRel, build cargo's release profile as Release does: they configure,
/// build (the cargo step finds the default install's artifacts up to date)
/// and install the same libraries.
#[test]
fn every_documented_build_type_builds_and_installs() {
    let install = install();
    for build_type in ["RelWithDebInfo", "MinSizeRel"] {
        let build_dir = install.run_dir.join(format!("build-{build_type}"));
        let prefix = install.run_dir.join(format!("prefix-{build_type}"));
        cmake_build_and_install(
            &build_dir,
            &prefix,
            &[
                &format!("-DCMAKE_BUILD_TYPE={build_type}"),
                "-DEVENTHEADER_BUILD_CLI=OFF",
            ],
        );
        let lib = prefix.join("lib");
        for file in [
            format!("libeventheader_tracepoint.so.{VERSION}"),
            "libeventheader_tracepoint.a".to_string(),
        ] {
            check_files_equal(&install.prefix.join("lib").join(&file), &lib.join(&file));
        }
    }
}

/// `cmake -DCMAKE_BUILD_TYPE=Debug` (cargo's dev profile, whose static
/// library links Rust's standard library and so needs more system libraries
/// than the release one) configures, builds and installs, and programs link
/// it shared and static through CMake and pkg-config and run. Before, the
/// build stopped: "The static library needs the system library -lgcc_s".
#[test]
fn debug_build_installs_and_consumers_link_it() {
    let install = debug_install();
    let lib = install.prefix.join("lib");
    for file in [
        format!("libeventheader_tracepoint.so.{VERSION}"),
        "libeventheader_tracepoint.a".to_string(),
    ] {
        assert!(lib.join(&file).is_file(), "{file} is not installed");
    }
    check_system_libraries(install);
    let first = support::toolchains()
        .into_iter()
        .take(1)
        .collect::<Vec<_>>();
    for linkage in [Linkage::Shared, Linkage::Static] {
        cmake_consumer(install, linkage, &first);
        pkgconfig_consumer(install, linkage, &first);
    }
}

/// A static program that did not ask for capture mode links no capture
/// backend, so it cannot honour TRACEPOINT_CAPTURE_FILE: with the variable
/// set, opening its provider fails with ENOSYS (the sample reports it and
/// skips its events), nothing goes to the kernel and no capture file is
/// created, instead of the events silently going elsewhere than where the
/// user looks for them.
#[test]
fn a_static_program_without_capture_mode_refuses_the_capture_file() {
    let install = install();
    let dir = install.run_dir.join("pkgconfig-consumer-static-nocapture");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let sample = support::root().join("samples/pkgconfig-consumer");
    for file in ["Makefile", "main.c"] {
        fs::copy(sample.join(file), dir.join(file)).unwrap();
    }
    run(command("make")
        .arg("-C")
        .arg(&dir)
        .env("PKG_CONFIG_PATH", install.prefix.join("lib/pkgconfig"))
        .arg("LINK=static"));
    let program = dir.join("pkgconfig-consumer");
    check_linkage(&program, Linkage::Static, &install.prefix);
    let nm = stdout_of(command("nm").arg(&program));
    assert!(
        !nm.contains("tracepoint_set_capture_file"),
        "the program links the capture backend:\n{nm}"
    );

    let capture = dir.join("events.dat");
    let output = run(command(&program).env("TRACEPOINT_CAPTURE_FILE", &capture));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim_end(),
        "registering the tracepoint: Function not implemented",
        "stdout:\n{stdout}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("skipped ")).count(),
        3,
        "stdout:\n{stdout}"
    );
    assert!(!capture.exists(), "{} was created", capture.display());

    // EVENTHEADER_DEBUG=1: the reports are a member of their own, which a
    // static program without capture mode links only when asked
    // (-Wl,-u,_eventheader_diagnostics): this one stays silent.
    let output = run(command(&program)
        .env("TRACEPOINT_CAPTURE_FILE", &capture)
        .env("EVENTHEADER_DEBUG", "1"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("eventheader-tracepoint: "), "{stderr}");
    let nm = stdout_of(command("nm").arg(&program));
    assert!(
        !nm.contains("_eventheader_diagnostics"),
        "the program links the diagnostics:\n{nm}"
    );
}

/// The interposition test (c-tests/interpose/main.rs) on the installed
/// libraries, whose static one is the CMake build's archive of members: a
/// program that defines the tracepoint.h functions gets every event, and
/// links none of the library's.
#[test]
fn a_replaced_tracepoint_layer_gets_every_event_from_the_installed_libraries() {
    let install = install();
    let lib = install.prefix.join("lib");
    for toolchain in support::toolchains() {
        let out = install.run_dir.join(format!("interpose-{}", toolchain.cc));
        let build = |name: &str| {
            let program = manifest::program(name);
            let config = Config::first(program, toolchain, Flavour::Plain);
            let exe = testkit::build::build(program, &config, &lib, &out)
                .unwrap_or_else(|e| panic!("{e}"));
            Build {
                program,
                config,
                label: format!("{name} ({}) against the install", config.label(program)),
                exe,
            }
        };
        let want = build("interpose_capture").run("capture").records;
        for name in ["interpose_shared", "interpose_static"] {
            let b = build(name);
            support::check_interposed(&b.label, &b.run("record"), &want);
        }
        // Only some of the four replaced: ENOSYS and EBADF, shared and static.
        for name in ["interpose_partial_shared", "interpose_partial_static"] {
            support::check_partly_replaced(&build(name));
        }
        let nm = stdout_of(command("nm").arg(out.join("interpose_static")));
        assert!(
            !nm.contains("_tracepoint_own_"),
            "interpose_static links the library's tracepoint.o:\n{nm}"
        );
    }
}

/// The installed shared library is linked as an ordinary glibc library: it
/// needs `libc.so.6`, every C library symbol it imports is versioned, and
/// it imports no `pthread_atfork` (libc_nonshared's is linked in, which
/// registers the fork handlers under the library's `__dso_handle`, so
/// glibc removes them when the library is unloaded). Then the installed
/// library is loaded and unloaded for real (`c-tests/hardening/dlunload.c`):
/// by a plugin that registers in its constructor and unregisters in its
/// destructor, with a fork() after each dlclose, and directly, 200 times.
/// A library without DT_NEEDED on libc binds glibc's compatibility
/// `pthread_atfork`, whose handlers outlive dlclose: the first fork() after
/// it calls into unmapped memory.
#[test]
fn installed_library_is_a_glibc_citizen_and_unloads_cleanly() {
    let install = install();
    let lib = install.prefix.join("lib");
    let so = lib.join(SONAME);
    let needed = dynamic_entries(&so, "NEEDED");
    assert!(
        needed.iter().any(|n| n == "libc.so.6"),
        "{} should need libc.so.6: {needed:?}",
        so.display()
    );
    let undefined = stdout_of(command("nm").args(["-D", "--undefined-only"]).arg(&so));
    for line in undefined.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        // "U name@GLIBC_x" (weak "w" references of the C runtime's startup
        // files, e.g. __gmon_start__, may be unversioned).
        if words.first() == Some(&"U") {
            assert!(
                words.last().is_some_and(|s| s.contains("@GLIBC_")),
                "unversioned import in {}: {line}",
                so.display()
            );
        }
    }
    assert!(
        !undefined.contains("pthread_atfork"),
        "{} imports pthread_atfork (glibc's compatibility symbol):\n{undefined}",
        so.display()
    );

    let out = install.run_dir.join("dlunload");
    let build = |name: &str| {
        let program = testkit::manifest::program(name);
        let config =
            testkit::build::Config::first(program, Toolchain::GCC, support::Flavour::Plain);
        testkit::build::build(program, &config, &lib, &out).unwrap_or_else(|e| panic!("{e}"))
    };
    let plugin = build("dlprov");
    let host = build("dlunload");
    for (mode, args) in [
        (
            "plugin",
            vec![
                "plugin".into(),
                plugin.display().to_string(),
                "capture".into(),
            ],
        ),
        ("self", vec!["self".into(), "200".into(), "capture".into()]),
    ] {
        let capture = out.join(format!("{mode}.dat"));
        let _ = fs::remove_file(&capture);
        let output = run(command(&host)
            .args(&args)
            .env("TRACEPOINT_CAPTURE_FILE", &capture));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("\ndone\n"), "{mode}: {stdout}");
        let records = support::read_capture(&capture);
        assert_eq!(
            records.len(),
            if mode == "plugin" { 3 } else { 200 },
            "{mode}: {stdout}"
        );
    }
}

/// Capture writes cut off (`c-tests/hardening/capcut.c`) against the
/// installed Release library, which aborts on panic and so runs no Rust
/// destructor when `pthread_cancel` unwinds a thread out of its `writev`:
/// a cancelled writer, and a `siglongjmp` out of a handler that interrupted
/// a capture write, leave later writes of every thread working (the
/// program's watchdog turns a hang into a failure).
#[test]
fn capture_writes_cut_off_leave_the_installed_library_working() {
    let install = install();
    let lib = install.prefix.join("lib");
    let out = install.run_dir.join("capcut");
    let program = manifest::program("capcut");
    let config = Config::first(program, Toolchain::GCC, Flavour::Plain);
    let exe = testkit::build::build(program, &config, &lib, &out).unwrap_or_else(|e| panic!("{e}"));
    let build = Build {
        program,
        config,
        label: format!("capcut ({}) against the install", config.label(program)),
        exe,
    };
    for mode in ["cancel", "longjmp"] {
        let ran = build.run(mode);
        assert_eq!(
            ran.words(&format!("{mode}-errno")),
            ["0"; 4],
            "{}",
            ran.stdout
        );
    }
}
