//! The project as a CMake subproject: `samples/cmake-subproject` pulls a git
//! repository holding this working tree's files in with FetchContent, links
//! the build tree's targets `eventheader-tracepoint tracepoint` from C and
//! C++, shared and static, and runs the programs in capture mode.

use std::fs;
use std::path::{Path, PathBuf};

use super::{base_dir, command, program_command, run, stdout_of, toolchain_args};
use super::{support, Linkage};

/// The decoded events of `subproject-c` and `subproject-cpp`.
const C_EVENTS: &[(&str, &str)] = &[(
    "Subproject_C_L4K0",
    r#"{ "n": "Subproject_C:Hello", "where": "from C", "standard": 11, "meta": { "level": 4 } }"#,
)];
const CPP_EVENTS: &[(&str, &str)] = &[(
    "Subproject_Cpp_L4K0",
    r#"{ "n": "Subproject_Cpp:Hello", "where": "from C++", "standard": 17, "meta": { "level": 4 } }"#,
)];

/// A git repository in `dir` whose one commit holds the working tree's files
/// (tracked and untracked, without the ignored ones), as a clone of it would:
/// what the test builds is what is checked out here, committed or not.
fn repository_of_the_working_tree(dir: &Path) -> PathBuf {
    let root = support::root();
    if dir.exists() {
        fs::remove_dir_all(dir).expect("removing the previous repository");
    }
    let listed = stdout_of(command("git").arg("-C").arg(&root).args([
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
    ]));
    for name in listed.split('\0').filter(|n| !n.is_empty()) {
        let from = root.join(name);
        // A tracked file deleted in the working tree is not copied.
        let Ok(meta) = fs::symlink_metadata(&from) else {
            continue;
        };
        let to = dir.join(name);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(&from).unwrap(), &to).unwrap();
        } else {
            fs::copy(&from, &to).unwrap_or_else(|e| panic!("copying {}: {e}", from.display()));
        }
    }
    let git = |args: &[&str]| {
        run(command("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=test", "-c", "user.email=test@localhost"])
            .args(args));
    };
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "the working tree"]);
    dir.to_path_buf()
}

fn subproject_consumer(linkage: Linkage) {
    let work = base_dir().join(format!("subproject-{}", linkage.name()));
    fs::create_dir_all(&work).unwrap();
    let repository = repository_of_the_working_tree(&work.join("repository"));
    let build = work.join("build");
    if build.exists() {
        fs::remove_dir_all(&build).unwrap();
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let static_libs = linkage == Linkage::Static;
    run(command("cmake")
        .arg("-S")
        .arg(support::root().join("samples/cmake-subproject"))
        .arg("-B")
        .arg(&build)
        .args(toolchain_args())
        .arg(format!(
            "-DEVENTHEADER_TRACEPOINT_REPOSITORY=file://{}",
            repository.display()
        ))
        .arg(format!(
            "-DCARGO_EXECUTABLE={}",
            Path::new(&cargo).display()
        ))
        // One cargo target directory for both linkages: the second build
        // finds the library built.
        .arg(format!(
            "-DTRACEPOINT_CARGO_TARGET_DIR={}",
            base_dir().join("subproject-cargo-target").display()
        ))
        .arg("-DCMAKE_C_FLAGS=-Wall -Wextra -Werror")
        .arg("-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror")
        .arg(format!(
            "-DBUILD_SHARED_LIBS={}",
            if static_libs { "OFF" } else { "ON" }
        ))
        .arg("-DTRACEPOINT_STATIC_CAPTURE=ON"));
    run(command("cmake").arg("--build").arg(&build));
    for (program, expected) in [("subproject-c", C_EVENTS), ("subproject-cpp", CPP_EVENTS)] {
        let program = build.join(program);
        let needed = super::dynamic_entries(&program, "NEEDED");
        let shared = needed.iter().any(|n| n == super::SONAME);
        assert_eq!(
            shared,
            !static_libs,
            "{} ({}) needs {needed:?}",
            program.display(),
            linkage.name()
        );
        let dir = work.join(program.file_name().unwrap());
        fs::create_dir_all(&dir).unwrap();
        let capture = dir.join("events.dat");
        let _ = fs::remove_file(&capture);
        run(program_command(&program).env("TRACEPOINT_CAPTURE_FILE", &capture));
        let bytes = fs::read(&capture)
            .unwrap_or_else(|e| panic!("{} wrote no capture file: {e}", program.display()));
        let records = support::parse_capture(&bytes);
        let actual: Vec<(String, String)> = records
            .iter()
            .map(|r| {
                let json = support::decode::json(r)
                    .unwrap_or_else(|e| panic!("decoding {}: {e}", capture.display()));
                (r.name.clone(), json)
            })
            .collect();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(n, j)| (n.to_string(), j.to_string()))
            .collect();
        assert_eq!(actual, expected, "{}", program.display());
    }
}

#[test]
fn fetchcontent_consumer_links_the_build_tree_targets_shared() {
    subproject_consumer(Linkage::Shared);
}

#[test]
fn fetchcontent_consumer_links_the_build_tree_targets_static() {
    subproject_consumer(Linkage::Static);
}
