//! Compiling and linking a manifest program for one configuration (toolchain,
//! standard, flavour) against a library directory.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::manifest::{Compilers, Flavour, Link, Output, Program, Standard};
use crate::Toolchain;

/// Warning flags every test program is built with.
pub const STRICT: &[&str] = &["-Wall", "-Wextra", "-Werror"];

/// One way to build a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub toolchain: Toolchain,
    pub standard: Standard,
    pub flavour: Flavour,
}

impl Config {
    /// `program`'s first standard: the configuration of the sanitizer,
    /// benchmark and VM builds.
    pub fn first(program: &Program, toolchain: Toolchain, flavour: Flavour) -> Config {
        Config {
            toolchain,
            standard: program.standards[0],
            flavour,
        }
    }

    /// A directory name unique to the configuration.
    pub fn dir_name(&self) -> String {
        let arch = match crate::cross::target() {
            Some(cross) => format!("{}-", cross.triple),
            None => String::new(),
        };
        format!(
            "{arch}{}-{}-{}-{}",
            self.toolchain.cc,
            self.standard.c,
            self.standard.cxx,
            self.flavour.name()
        )
    }

    /// How the program was built, for messages: compilers and the standards
    /// that apply to its sources.
    pub fn label(&self, program: &Program) -> String {
        let c_as_cxx = is_cxx_standard(self.standard.c);
        let mut compilers: Vec<&str> = Vec::new();
        let mut standards: Vec<&str> = Vec::new();
        if program.sources.iter().any(|s| !is_cxx_source(s)) {
            compilers.push(if c_as_cxx {
                self.toolchain.cxx
            } else {
                self.toolchain.cc
            });
            standards.push(self.standard.c);
        }
        if program.sources.iter().any(|s| is_cxx_source(s)) {
            if !compilers.contains(&self.toolchain.cxx) {
                compilers.push(self.toolchain.cxx);
            }
            if !standards.contains(&self.standard.cxx) {
                standards.push(self.standard.cxx);
            }
        }
        let standards: Vec<String> = standards.iter().map(|s| format!("-std={s}")).collect();
        let mut out = format!("{} {}", compilers.join("+"), standards.join(" "));
        if self.flavour != Flavour::Plain {
            out.push_str(&format!(" ({})", self.flavour.name()));
        }
        if let Some(cross) = crate::cross::target() {
            out.push_str(&format!(" for {}", cross.triple));
        }
        out
    }
}

/// The configurations the cargo tests build `program` in: its compilers
/// times its standards, plain flavour.
pub fn test_configs(program: &Program) -> Vec<Config> {
    let toolchains = match program.compilers {
        Compilers::All => crate::toolchains(),
        Compilers::Gcc => vec![Toolchain::GCC],
    };
    configs_with(program, toolchains)
}

/// `program`'s standards with each of `toolchains`, plain flavour.
pub fn configs_with(program: &Program, toolchains: Vec<Toolchain>) -> Vec<Config> {
    toolchains
        .into_iter()
        .flat_map(|toolchain| {
            program.standards.iter().map(move |&standard| Config {
                toolchain,
                standard,
                flavour: Flavour::Plain,
            })
        })
        .collect()
}

/// Whether `path` is a C++ source.
pub fn is_cxx_source(path: &str) -> bool {
    path.ends_with(".cpp")
}

fn is_cxx_standard(std: &str) -> bool {
    std.starts_with("c++") || std.starts_with("gnu++")
}

/// Compiler flags of a flavour (also given to the link).
pub fn flavour_flags(flavour: Flavour) -> &'static [&'static str] {
    match flavour {
        Flavour::Plain => &[],
        Flavour::Asan => &[
            "-O1",
            "-fno-omit-frame-pointer",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
        ],
        Flavour::Tsan => &["-O1", "-fno-omit-frame-pointer", "-fsanitize=thread"],
        Flavour::Valgrind => &["-O1", "-fno-omit-frame-pointer", "-gdwarf-4"],
        Flavour::Optimized => &["-O2"],
    }
}

/// Where a sanitizer build's runtime comes from.
#[derive(Clone, Copy, Debug)]
pub enum SanitizerRuntime<'a> {
    /// The C compiler's own, linked by the compiler driver.
    Compiler,
    /// This archive, linked in whole instead, for a library that rustc
    /// instrumented (`testkit sanitize`): rustc's instrumentation calls
    /// entry points of its own LLVM's runtime that the C compiler's older one
    /// lacks (clang 14 has no `__tsan_memmove`). The executable exports the
    /// runtime (`-rdynamic`) to the library, as the compiler driver does for
    /// its own runtime; shared libraries get none.
    Archive(&'a Path),
}

/// Builds `program` in `config` into `out_dir` against the library in
/// `lib_dir`; returns the path of the build. Dependencies (`{path:NAME}`)
/// are not built here.
pub fn build(
    program: &Program,
    config: &Config,
    lib_dir: &Path,
    out_dir: &Path,
) -> Result<PathBuf, String> {
    build_with(
        program,
        config,
        lib_dir,
        out_dir,
        SanitizerRuntime::Compiler,
    )
}

/// [`build`] with the sanitizer runtime of an ASan or TSan build from
/// `runtime`.
pub fn build_with(
    program: &Program,
    config: &Config,
    lib_dir: &Path,
    out_dir: &Path,
    runtime: SanitizerRuntime<'_>,
) -> Result<PathBuf, String> {
    let root = crate::repo_root();
    let label = format!("{} ({})", program.name, config.label(program));
    let arch = crate::cross::arch();
    if !program.built_for(arch) {
        return Err(format!(
            "{label}: built for {} only, not {arch}",
            program.arches.join(", ")
        ));
    }
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let out = out_dir.join(program.file_name());
    let lib_file = |ext: &str| {
        let path = lib_dir.join(format!("libeventheader_tracepoint.{ext}"));
        if path.is_file() {
            Ok(path)
        } else {
            Err(format!("{label}: no {}", path.display()))
        }
    };
    let mut link: Vec<OsString> = Vec::new();
    if program.output == Output::SharedLibrary {
        link.push("-shared".into());
    }
    link.extend(program.link_flags.iter().map(OsString::from));
    if config.toolchain.cc == "gcc"
        && crate::cross::target().is_some()
        && program.link_flags.contains(&"-fuse-ld=lld")
    {
        link.push(lld_prefix(&label)?);
    }
    match program.link {
        Link::Shared => {
            lib_file("so")?;
            link.push("-L".into());
            link.push(lib_dir.into());
            // DT_RPATH, not RUNPATH: it outranks the LD_LIBRARY_PATH cargo sets
            // for tests, which may name a stale copy of the library.
            link.push(format!("-Wl,--disable-new-dtags,-rpath,{}", lib_dir.display()).into());
            // A target's build also looks beside itself: copied next to the
            // library into a VM (the arm64 suite's share), it finds it there.
            if crate::cross::target().is_some() {
                link.push("-Wl,-rpath,$ORIGIN".into());
            }
            link.push("-leventheader_tracepoint".into());
        }
        Link::Static => {
            link.push(lib_file("a")?.into());
            link.push("-lm".into());
        }
        Link::None => {}
        Link::Loaded => {
            lib_file("so")?;
        }
    }
    if let (SanitizerRuntime::Archive(archive), Flavour::Asan | Flavour::Tsan) =
        (runtime, config.flavour)
    {
        link.push("-fno-sanitize-link-runtime".into());
        if program.output == Output::Executable {
            link.extend([
                "-Wl,--whole-archive".into(),
                archive.into(),
                "-Wl,--no-whole-archive".into(),
                "-rdynamic".into(),
                "-lm".into(),
                "-lrt".into(),
            ]);
        }
    }
    link.extend(["-lpthread".into(), "-ldl".into()]);

    let any_cxx =
        is_cxx_standard(config.standard.c) || program.sources.iter().any(|s| is_cxx_source(s));
    let tc = config.toolchain;
    let compile_flags = |std: &str| {
        let mut v = compile_flags(program, config, std, STRICT);
        if program.link == Link::Loaded {
            let path = lib_dir.join("libeventheader_tracepoint.so");
            v.push(format!("-DTEST_LIBRARY_PATH=\"{}\"", path.display()).into());
        }
        v
    };
    let language = |src: &str| language(config, src);

    if let [source] = program.sources {
        // One source: compile and link in one step.
        let (compiler, std, as_cxx) = language(source);
        let mut args = compile_flags(std);
        if as_cxx {
            args.extend(["-x".into(), "c++".into()]);
        }
        args.push(root.join(source).into());
        if as_cxx {
            args.extend(["-x".into(), "none".into()]);
        }
        args.extend(["-o".into(), out.clone().into()]);
        args.extend(link);
        compile_with(program.triple, compiler, &args, &label)?;
        return Ok(out);
    }

    let obj_dir = out_dir.join(format!(".obj-{}", program.name));
    std::fs::create_dir_all(&obj_dir).map_err(|e| format!("{}: {e}", obj_dir.display()))?;
    let mut objects: Vec<OsString> = Vec::new();
    for source in program.sources {
        let (compiler, std, as_cxx) = language(source);
        let name = Path::new(source).file_name().expect("source file name");
        let obj = obj_dir.join(format!("{}.o", name.to_string_lossy()));
        let mut args = compile_flags(std);
        if as_cxx {
            args.extend(["-x".into(), "c++".into()]);
        }
        args.extend(["-c".into(), root.join(source).into()]);
        if as_cxx {
            args.extend(["-x".into(), "none".into()]);
        }
        args.extend(["-o".into(), obj.clone().into()]);
        compile_with(program.triple, compiler, &args, &label)?;
        objects.push(obj.into());
    }
    let mut args = objects;
    args.extend(flavour_flags(config.flavour).iter().map(OsString::from));
    args.extend(["-o".into(), out.clone().into()]);
    args.extend(link);
    compile_with(
        program.triple,
        if any_cxx { tc.cxx } else { tc.cc },
        &args,
        &label,
    )?;
    Ok(out)
}

/// `-B` with the directory of the `ld.lld` in `PATH`: a cross gcc looks for
/// `-fuse-ld=lld`'s linker only among its own tools (`TRIPLE-ld.lld` in
/// `PATH`, or its program directories), where Debian's lld is not.
fn lld_prefix(label: &str) -> Result<OsString, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("ld.lld"))
        .find(|lld| lld.is_file())
        .and_then(|lld| std::fs::canonicalize(lld).ok())
        .and_then(|lld| lld.parent().map(|dir| dir.join("ld.lld")))
        .filter(|lld| lld.exists())
        .and_then(|lld| {
            lld.parent()
                .map(|dir| format!("-B{}/", dir.display()).into())
        })
        .ok_or_else(|| format!("{label}: -fuse-ld=lld needs ld.lld in PATH (package lld)"))
}

/// The compiler flags of `program`'s sources in `config` for `-std=STD`, with
/// the warning flags `warnings` (before `-c`/`-x`).
fn compile_flags(
    program: &Program,
    config: &Config,
    std: &str,
    warnings: &[&str],
) -> Vec<OsString> {
    let mut v: Vec<OsString> = vec![format!("-std={std}").into()];
    v.extend(warnings.iter().map(OsString::from));
    v.push("-g".into());
    for dir in program.include_dirs {
        v.push("-I".into());
        v.push(crate::repo_root().join(dir).into());
    }
    v.push("-I".into());
    v.push(crate::include_dir().into());
    v.extend(flavour_flags(config.flavour).iter().map(OsString::from));
    v.extend(program.flags.iter().map(OsString::from));
    if program.output == Output::SharedLibrary {
        v.push("-fPIC".into());
    }
    v
}

/// (compiler, standard, "-x c++" needed) of a source in `config`.
fn language(config: &Config, src: &str) -> (&'static str, &'static str, bool) {
    let tc = config.toolchain;
    if is_cxx_source(src) {
        (tc.cxx, config.standard.cxx, false)
    } else if is_cxx_standard(config.standard.c) {
        (tc.cxx, config.standard.c, true)
    } else {
        (tc.cc, config.standard.c, false)
    }
}

/// Checks the syntax of `source` (one of `program`'s) as [`build`] compiles it
/// in `config`, with `-pedantic` added to [`STRICT`] (so a pedantic warning
/// is an error): Err with the compiler's output if it does not compile.
pub fn check_pedantic(program: &Program, config: &Config, source: &str) -> Result<(), String> {
    let (compiler, std, as_cxx) = language(config, source);
    let flags: Vec<&str> = STRICT.iter().copied().chain(["-pedantic"]).collect();
    let mut args = compile_flags(program, config, std, &flags);
    args.push("-fsyntax-only".into());
    if as_cxx {
        args.extend(["-x".into(), "c++".into()]);
    }
    args.push(crate::repo_root().join(source).into());
    let output = crate::cross::compiler(compiler)
        .args(&args)
        .output()
        .map_err(|e| format!("running {compiler}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(format!(
            "{compiler} -std={std} -pedantic -Werror {source}:\n{stderr}"
        ))
    }
}

/// Runs a compiler; Err with its command line and output if it fails.
fn compile(compiler: &str, args: &[OsString], label: &str) -> Result<(), String> {
    compile_with(None, compiler, args, label)
}

/// [`compile`] with the compilers of `triple` (`TRIPLE-gcc`) when given
/// (a program's [`Program::triple`]), else the target's.
fn compile_with(
    triple: Option<&str>,
    compiler: &str,
    args: &[OsString],
    label: &str,
) -> Result<(), String> {
    let mut command = match triple {
        Some(t) => std::process::Command::new(format!("{t}-{compiler}")),
        None => crate::cross::compiler(compiler),
    };
    let output = command
        .args(args)
        .output()
        .map_err(|e| format!("{label}: running {compiler}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let line: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    Err(format!(
        "{label}: {compiler} {} failed:\n{}{}",
        line.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

/// Compiles `source` to the object file `out` with `compiler -std=STD`, the
/// strict warning flags, `extra` (e.g. `-O2`) and `include/`: the
/// compile-only checks of a header at language levels beyond a program's
/// [`Standard`]s. A C source given a C++ compiler is compiled as C++.
pub fn compile_object(
    compiler: &str,
    std: &str,
    extra: &[&str],
    source: &Path,
    out: &Path,
) -> Result<(), String> {
    let mut args: Vec<OsString> = vec![format!("-std={std}").into()];
    args.extend(STRICT.iter().map(OsString::from));
    args.extend(extra.iter().map(OsString::from));
    args.push("-I".into());
    args.push(crate::include_dir().into());
    let as_cxx = is_cxx_standard(std) && !source.to_string_lossy().ends_with(".cpp");
    if as_cxx {
        args.extend(["-x".into(), "c++".into()]);
    }
    args.extend(["-c".into(), source.into(), "-o".into(), out.into()]);
    compile(compiler, &args, &source.display().to_string())
}

/// Compiles `source` with `compiler -std=STD -fsyntax-only` and the strict
/// warning flags against `include/`; returns whether it compiled and what
/// the compiler printed on stderr.
pub fn check_syntax(compiler: &str, std: &str, source: &Path) -> (bool, String) {
    let output = crate::cross::compiler(compiler)
        .arg(format!("-std={std}"))
        .args(STRICT)
        .arg("-fsyntax-only")
        .arg("-I")
        .arg(crate::include_dir())
        .arg(source)
        .output()
        .unwrap_or_else(|e| panic!("running {compiler}: {e}"));
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Builds every (program, configuration) of `jobs` into `out_dir` on as
/// many threads as the machine has cores ([`crate::pool::map`], see
/// [`build_with`]); Err lists every failed build.
pub fn build_many(
    jobs: &[(&Program, Config)],
    lib_dir: &Path,
    out_dir: &Path,
    runtime: SanitizerRuntime<'_>,
) -> Result<(), String> {
    let errors: Vec<String> = crate::pool::map(jobs, |_, (program, config)| {
        build_with(program, config, lib_dir, out_dir, runtime).err()
    })
    .into_iter()
    .flatten()
    .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// `programs` and every program they name with `{path:NAME}`, in manifest
/// order.
pub fn with_dependencies(programs: &[&'static Program]) -> Vec<&'static Program> {
    let mut wanted: Vec<&str> = Vec::new();
    for p in programs {
        wanted.push(p.name);
        wanted.extend(p.dependencies().iter().map(|d| d.name));
    }
    crate::manifest::programs()
        .filter(|p| wanted.contains(&p.name))
        .collect()
}
