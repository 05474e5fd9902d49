#!/usr/bin/env python3
"""Prints a deb822 apt source entry for SUITE-backports derived from the
machine's own apt sources: the first enabled Debian entry (deb822 .sources
file or one-line sources.list) whose suites include SUITE gives the URIs,
components and keyring. Exits 1 when there is none. No host is named here:
the entry uses whatever mirror the machine is already configured with.

    python3 scripts/apt-backports.py bookworm
"""

import glob
import sys


def deb822_entries(path):
    """Yields each stanza of a deb822 .sources file as a dict (keys lowercased)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for stanza in text.split("\n\n"):
        fields = {}
        key = None
        for line in stanza.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line[0] in " \t" and key:
                fields[key] += " " + line.strip()
                continue
            key, _, value = line.partition(":")
            key = key.strip().lower()
            fields[key] = value.strip()
        if fields:
            yield fields


def one_line_entries(path):
    """Yields one-line 'deb [opts] URI SUITE COMPONENTS...' entries as dicts."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words or words[0] != "deb":
                continue
            words = words[1:]
            opts = {}
            if words and words[0].startswith("["):
                opt_words = []
                while words:
                    w = words.pop(0)
                    opt_words.append(w.strip("[]"))
                    if w.endswith("]"):
                        break
                for o in opt_words:
                    k, _, v = o.partition("=")
                    if k:
                        opts[k.lower()] = v
            if len(words) < 2:
                continue
            entry = {
                "types": "deb",
                "uris": words[0],
                "suites": words[1],
                "components": " ".join(words[2:]),
            }
            if "signed-by" in opts:
                entry["signed-by"] = opts["signed-by"]
            yield entry


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    suite = sys.argv[1]
    candidates = []
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        candidates += list(deb822_entries(path))
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        try:
            candidates += list(one_line_entries(path))
        except OSError:
            pass
    for e in candidates:
        if e.get("enabled", "yes").lower() == "no":
            continue
        if "deb" not in e.get("types", "").split():
            continue
        if suite not in e.get("suites", "").split():
            continue
        lines = [
            "Types: deb",
            "URIs: " + e["uris"],
            "Suites: " + suite + "-backports",
            "Components: " + (e.get("components") or "main"),
        ]
        if e.get("signed-by"):
            lines.append("Signed-By: " + e["signed-by"])
        print("\n".join(lines))
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
