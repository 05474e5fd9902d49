#!/usr/bin/env bash
# Checks that every relative link and #anchor in the project's Markdown files
# resolves: the file or directory exists, and the anchor is a heading of the
# target page (GitHub's slug rules). Offline: links to other sites are not
# followed. Exits non-zero, listing each broken link, if any is broken.
#
#   bash scripts/check-links.sh            # every tracked *.md (README.md, docs/, ...)
#   bash scripts/check-links.sh FILE...    # only these
#
# Uses lychee, installed by scripts/install-deps.sh into its virtualenv
# ($EHK_VENV), or the one named by LYCHEE.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
lychee=${LYCHEE:-$venv/bin/lychee}
if ! "$lychee" --version >/dev/null 2>&1; then
    echo "check-links: no lychee at $lychee (install it with: bash scripts/install-deps.sh)" >&2
    exit 1
fi

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.md')
    else
        mapfile -t files < <(find . \( -name target -o -name build -o -name .git \) -prune -o -name '*.md' -print)
    fi
fi
[ ${#files[@]} -gt 0 ] || { echo "check-links: no Markdown files found" >&2; exit 1; }

echo "check-links: ${#files[@]} files: ${files[*]}"
"$lychee" --offline --include-fragments --no-progress "${files[@]}"
