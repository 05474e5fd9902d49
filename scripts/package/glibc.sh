# Sourced by scripts/package.sh: the checks that the packaged binaries load
# with glibc 2.17 (the manylinux2014 baseline: RHEL 7, Amazon Linux 2).
#
#   check_glibc ARCH BINUTILS_PREFIX FILE...
#       fails when a FILE's dynamic symbols need a GLIBC_ version above
#       $GLIBC_MAX (default 2.17), or when it references a symbol strongly
#       without a version (a function the linker found in no library of the
#       target's glibc, which fails to load where the library lacks it);
#       prints each file's highest
#   check_static_glibc ARCH ARCHIVE WORKDIR
#       links every member of ARCHIVE (--whole-archive) into a program with
#       zig against glibc $GLIBC_MAX's stubs, which define only the
#       functions that version has: a call of a later function does not
#       link. Prints the highest version the program then needs.

GLIBC_MAX=${GLIBC_MAX:-2.17}

# zig_target ARCH: zig's name of the architecture's glibc target.
zig_target() {
    case $1 in
    amd64) echo x86_64-linux-gnu ;;
    arm64) echo aarch64-linux-gnu ;;
    i386) echo x86-linux-gnu ;;
    armhf) echo arm-linux-gnueabihf ;;
    s390x) echo s390x-linux-gnu ;;
    *) return 1 ;;
    esac
}

# highest_glibc BINUTILS_PREFIX FILE: the highest GLIBC_x.y its dynamic
# symbols need (none: empty).
highest_glibc() {
    "${1}objdump" -T "$2" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1
}

# version_above A B: A > B as versions.
version_above() {
    [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$1" ]
}

check_glibc() {
    local arch=$1 prefix=$2 file highest bad=0
    shift 2
    for file in "$@"; do
        highest=$(highest_glibc "$prefix" "$file")
        echo "$arch: $(basename "$file"): highest glibc symbol version ${highest:-none}"
        if [ -n "$highest" ] && version_above "$highest" "$GLIBC_MAX"; then
            echo "package.sh: $arch: $file needs GLIBC_$highest, above GLIBC_$GLIBC_MAX:" >&2
            "${prefix}objdump" -T "$file" | grep -o 'GLIBC_[0-9][0-9.]*)\? .*' | while read -r v name; do
                v=${v%)}; if version_above "${v#GLIBC_}" "$GLIBC_MAX"; then echo "    $v $name" >&2; fi
            done
            bad=1
        fi
        local unversioned
        unversioned=$("${prefix}objdump" -T "$file" | awk '$0 ~ /\*UND\*/ && $2 != "w" && $(NF-1) == "Base" { print $NF }')
        if [ -n "$unversioned" ]; then
            echo "package.sh: $arch: $file references symbols without a version (in no library of glibc $GLIBC_MAX):" $unversioned >&2
            bad=1
        fi
    done
    return $bad
}

check_static_glibc() {
    local arch=$1 archive=$2 dir=$3/static-check target venv
    venv=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
    target=$(zig_target "$arch").$GLIBC_MAX
    mkdir -p "$dir"
    printf 'int main(void) { return 0; }\n' >"$dir/main.c"
    if ! "$venv/bin/python3" -m ziglang cc -target "$target" -o "$dir/program" "$dir/main.c" \
        -Wl,--whole-archive "$archive" -Wl,--no-whole-archive -lpthread >"$dir/link.log" 2>&1; then
        echo "package.sh: $arch: the static library does not link against glibc $GLIBC_MAX ($target):" >&2
        head -n 20 "$dir/link.log" >&2
        return 1
    fi
    echo "$arch: libeventheader_tracepoint.a: links against glibc $GLIBC_MAX (every member;" \
        "the program needs GLIBC_$(highest_glibc "${bin:-}" "$dir/program"))"
}
