# Sourced by scripts/package.sh: splits a staging install under /usr into the
# three Debian packages and builds them with dpkg-deb, with control files
# written here (no debian/ source directory: the build is CMake's).
#
#   debian_packages ARCH MULTIARCH VERSION TREE WORKDIR OUTDIR
#
#   libeventheader-tracepoint1      usr/lib/MULTIARCH/libeventheader_tracepoint.so.1*
#                                   and the reference's unversioned names
#                                   libtracepoint.so, libeventheader-tracepoint.so
#                                   (programs linked against the reference's
#                                   shared build need them at run time)
#   libeventheader-tracepoint-dev   usr/include, the static libraries, the
#                                   link name libeventheader_tracepoint.so,
#                                   pkg-config files, CMake packages
#   eventheader                     usr/bin/eventheader, its man pages (gzip -9n),
#                                   bash, zsh and fish completions
#
# Depends come from dpkg-shlibdeps; each package has a copyright file and a
# changelog; the library a shlibs file and the ldconfig trigger. Then lintian
# runs on the three: any error fails (warnings are listed in docs/install.md).

DEB_MAINTAINER=${DEB_MAINTAINER:-eventheader-tracepoint maintainers <maintainers@eventheader-tracepoint.invalid>}

# deb_doc DIR PACKAGE VERSION: usr/share/doc/PACKAGE/{copyright,changelog.gz}.
deb_doc() {
    local doc=$1/usr/share/doc/$2
    mkdir -p "$doc"
    cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: eventheader-tracepoint

Files: *
Copyright: $(date -u -d "@$SOURCE_DATE_EPOCH" +%Y) the eventheader-tracepoint authors
License: MIT

License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a
 copy of this software and associated documentation files (the "Software"),
 to deal in the Software without restriction, including without limitation
 the rights to use, copy, modify, merge, publish, distribute, sublicense,
 and/or sell copies of the Software, and to permit persons to whom the
 Software is furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included
 in all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
 DEALINGS IN THE SOFTWARE.
EOF
    {
        echo "eventheader-tracepoint ($3) unstable; urgency=medium"
        echo
        echo "  * Built from the project's CMake install by scripts/package.sh."
        echo
        echo " -- $DEB_MAINTAINER  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
    } | gzip -9n >"$doc/changelog.gz"
}

# deb_move TREE DEST PATH...: moves each PATH (relative to TREE) into DEST.
deb_move() {
    local tree=$1 dest=$2 p
    shift 2
    for p in "$@"; do
        mkdir -p "$dest/$(dirname "$p")"
        mv "$tree/$p" "$dest/$p"
    done
}

# deb_shlibdeps WORKDIR ARCH BINUTILS_PREFIX FILE...: the Depends
# dpkg-shlibdeps computes, with libc6's version set to the highest GLIBC_
# symbol version the files need: they are linked against glibc 2.17's
# symbols, while dpkg-shlibdeps reads the minimum versions of this machine's
# libc6 symbols file, which raises some old symbols to the glibc that
# changed them (bookworm's sysconf@GLIBC_2.2.5: 2.34), a minimum that holds
# for programs built against that glibc's headers, not for these. Another
# architecture than the machine's: dpkg-shlibdeps looks in the cross
# compiler's C library (/usr/TRIPLE/lib, libc6-ARCH-cross, whose shlibs name
# libc6:ARCH) first, not in the machine's multilib copies (/lib32, the amd64
# package libc6-i386); the Depends names libc6, the architecture's own.
deb_shlibdeps() {
    local dir=$1 arch=$2 prefix=$3 line f v glibc=2.2 search=()
    shift 3
    [ -z "$prefix" ] || search=("-l/usr/${prefix%-}/lib")
    for f in "$@"; do
        v=$(highest_glibc "$prefix" "$f")
        [ -z "$v" ] || ! version_above "$v" "$glibc" || glibc=$v
    done
    mkdir -p "$dir/debian"
    printf 'Source: eventheader-tracepoint\n\nPackage: eventheader-tracepoint\nArchitecture: any\n' \
        >"$dir/debian/control"
    line=$(cd "$dir" && DEB_HOST_ARCH=$arch dpkg-shlibdeps -O "${search[@]}" -xlibeventheader-tracepoint1 "$@") ||
        return 1
    line=${line#shlibs:Depends=}
    echo "$line" | sed "s/libc6\(:[a-z0-9]*\)\? (>= [0-9.]*)/libc6 (>= $glibc)/"
}

# deb_build DIR NAME ARCH VERSION SECTION MULTIARCH DEPENDS DESCRIPTION OUTDIR
deb_build() {
    local dir=$1 name=$2 arch=$3 version=$4 section=$5 multi=$6 depends=$7 desc=$8 outdir=$9
    deb_doc "$dir" "$name" "$version"
    mkdir -p "$dir/DEBIAN"
    (cd "$dir" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$dir/DEBIAN/md5sums"
    {
        echo "Package: $name"
        echo "Source: eventheader-tracepoint"
        echo "Version: $version"
        echo "Architecture: $arch"
        echo "Multi-Arch: $multi"
        echo "Maintainer: $DEB_MAINTAINER"
        echo "Installed-Size: $(du -k -s --apparent-size "$dir/usr" | cut -f1)"
        [ -z "$depends" ] || echo "Depends: $depends"
        echo "Section: $section"
        echo "Priority: optional"
        printf 'Description: %s\n' "$desc"
    } >"$dir/DEBIAN/control"
    find "$dir" -type d -exec chmod 0755 {} +
    find "$dir" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    dpkg-deb --root-owner-group -Zxz --build "$dir" "$outdir/${name}_${version}_$arch.deb" >/dev/null
}

debian_packages() {
    local arch=$1 ma=$2 version=$3 tree=$4 work=$5 outdir=$6
    local lib=$work/libeventheader-tracepoint1 dev=$work/libeventheader-tracepoint-dev
    local tool=$work/eventheader l=usr/lib/$ma deps
    rm -rf "$work"
    mkdir -p "$work"
    cp -a "$tree" "$work/tree"
    tree=$work/tree

    deb_move "$tree" "$lib" "$l/libeventheader_tracepoint.so.$version" \
        "$l/libeventheader_tracepoint.so.1" "$l/libtracepoint.so" "$l/libeventheader-tracepoint.so"
    deb_move "$tree" "$dev" usr/include "$l/libeventheader_tracepoint.so" "$l/libeventheader_tracepoint.a" \
        "$l/libtracepoint.a" "$l/libeventheader-tracepoint.a" "$l/pkgconfig" "$l/cmake"
    # The tool, when the build has it (package.sh: not on i386 and armhf).
    local has_tool=0
    [ ! -e "$tree/usr/bin/eventheader" ] || has_tool=1
    rm -f "$outdir/eventheader_${version}_$arch.deb"
    if [ "$has_tool" = 1 ]; then
        deb_move "$tree" "$tool" usr/bin usr/share/man usr/share/bash-completion usr/share/fish
        # zsh finds Debian's packaged completions in vendor-completions.
        mkdir -p "$tool/usr/share/zsh/vendor-completions"
        mv "$tree/usr/share/zsh/site-functions/_eventheader" "$tool/usr/share/zsh/vendor-completions/"
        rmdir "$tree/usr/share/zsh/site-functions" "$tree/usr/share/zsh"
        find "$tool/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
    fi
    local left
    left=$(cd "$tree" && find . ! -type d)
    if [ -n "$left" ]; then
        echo "package.sh: $arch: installed files in no package:" >&2
        echo "$left" >&2
        return 1
    fi

    # The library: its shlibs file (the SONAME's dependency for programs
    # linked against it) and the ldconfig trigger.
    mkdir -p "$lib/DEBIAN"
    echo "libeventheader_tracepoint 1 libeventheader-tracepoint1 (>= $version)" >"$lib/DEBIAN/shlibs"
    echo "activate-noawait ldconfig" >"$lib/DEBIAN/triggers"
    chmod 0644 "$lib/$l/libeventheader_tracepoint.so.$version"
    deps=$(deb_shlibdeps "$work/shlibdeps" "$arch" "${bin:-}" "$lib/$l/libeventheader_tracepoint.so.$version")
    deb_build "$lib" libeventheader-tracepoint1 "$arch" "$version" libs same "$deps" \
        "Linux user_events tracepoints and EventHeader events (shared library)
 A Rust implementation of the libtracepoint and libeventheader-tracepoint
 C ABI: programs write tracepoints through the kernel's user_events, which
 perf and other tracers collect.
 .
 This package has the shared library, also under the unversioned names
 libtracepoint.so and libeventheader-tracepoint.so that programs linked
 against the reference LinuxTracepoints shared libraries load." "$outdir"

    deb_build "$dev" libeventheader-tracepoint-dev "$arch" "$version" libdevel same \
        "libeventheader-tracepoint1 (= $version)" \
        "Linux user_events tracepoints and EventHeader events (development files)
 A Rust implementation of the libtracepoint and libeventheader-tracepoint
 C ABI: programs write tracepoints through the kernel's user_events, which
 perf and other tracers collect.
 .
 This package has the headers (tracepoint/*.h, eventheader/*.h with
 TraceLoggingProvider.h), the static libraries, the pkg-config files
 tracepoint and eventheader-tracepoint and the CMake packages tracepoint,
 eventheader-tracepoint, tracepoint-headers and eventheader-headers." "$outdir"

    local debs=("$outdir"/{libeventheader-tracepoint1,libeventheader-tracepoint-dev}_"${version}_$arch".deb)
    if [ "$has_tool" = 1 ]; then
        deps=$(deb_shlibdeps "$work/shlibdeps" "$arch" "${bin:-}" "$tool/usr/bin/eventheader")
        deb_build "$tool" eventheader "$arch" "$version" utils foreign "$deps" \
            "command-line tool for user_events tracepoints and EventHeader events
 eventheader pre-registers user_events tracepoints, collects them into a
 perf.data file without perf, and decodes capture files and perf.data files
 to JSON.
 .
 This package has the tool, its man pages and its bash, zsh and fish
 completions." "$outdir"
        debs+=("$outdir/eventheader_${version}_$arch.deb")
    fi

    local d
    for d in "${debs[@]}"; do
        echo "$arch: $d: Depends: $(dpkg-deb -f "$d" Depends)"
    done
    lintian --fail-on error --tag-display-limit 0 "${debs[@]}" | tee "$work/lintian.txt"
}
