#!/usr/bin/env python3
"""Compares the reference's 374 events written on another architecture with the
reference's own (x86_64), decoded on the host by `eventheader decode --jsonl
--meta all`: every event is the same, except for the fields that this
architecture's ABI legitimately changes, which are listed below with why.

    compare_events.py ABI REFERENCE.jsonl GOT.jsonl

ABI is `ilp32` (4-byte long and pointers, little-endian: i386, armhf) or `be64`
(big-endian, 8-byte long and pointers: s390x). Also checks the header flags of
every event: pointer64 (0x01) exactly when pointers are 8 bytes, little_endian
(0x02) exactly when the target is little-endian. Prints one line per event that
differs where it may, and every difference where it may not; exit status 0
when the events agree, 1 when not, 2 on usage.
"""
import json
import re
import sys

PROVIDERS = ("TestProviderC", "TestProviderCpp")

# Events whose fields depend on the size of long and pointers: their values
# (LONG_MIN, ULONG_MAX, UINTPTR_MAX, a pointer) and the field names that are
# those limits' macro text; and the 64-bit limits, whose macro text (a field
# name) is spelled with LL on ILP32 (INT64_MIN is (-9223372036854775807LL-1)).
ILP32 = {
    "iptr", "uptr", "hiptr", "huptr", "iL", "uL", "hiL", "huL", "ptr", "aptr",
    "Value:void*", "Value:cvoid*",
    "i64", "u64", "hi64", "hu64", "t64",
}

# Events that write an integer's bytes in the machine's byte order where the
# decoder shows them as they are or reads them in network byte order: a port
# given as the program's integer, the hex bytes of UTF-16 and UTF-32 code units
# (HexBytes, Packed's byte-order marks), and every runtime-defined event
# (TestProviderDyn: an integer's bytes in a binary field of each format and
# size). On be64 their fields may differ by byte order only (swapped below).
BE64 = {"aport", "HexBytes", "Packed"}

ABIS = {
    # ABI: (events that may differ, pointer64 flag, little_endian flag)
    "ilp32": (ILP32, False, True),
    "be64": (BE64, True, False),
}

HEX = re.compile(r"^[0-9A-F]{2}( [0-9A-F]{2})*$")


def units(text):
    """A value shown as raw bytes: its bytes ("01 02" or one character each)."""
    return text.split(" ") if HEX.match(text) else list(text)


def swapped(want, got):
    """Whether got is want written in the other byte order, where the decoder
    shows the writer's bytes as they are (hex bytes, a binary field as
    characters, UTF-16/32 code units as hex, an IP address, a UUID) or reads
    them in network byte order (a port): the whole value reversed, or each 2-
    or 4-byte unit of it."""
    if isinstance(want, int) and isinstance(got, int) and not isinstance(want, bool):
        return 0 <= want < 0x10000 and got == int.from_bytes(want.to_bytes(2, "little"), "big")
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(
            w == g or swapped(w, g) for w, g in zip(want, got))
    if isinstance(want, dict) and isinstance(got, dict):
        return list(want) == list(got) and all(
            want[k] == got[k] or swapped(want[k], got[k]) for k in want)
    if isinstance(want, str) and isinstance(got, str):
        if want.count(".") == 3 and got.count(".") == 3:  # an IPv4 address
            return want.split(".") == got.split(".")[::-1]
        w, g = units(want), units(got)
        if len(w) != len(g):
            return False
        for unit in (len(w), 2, 4):
            if unit and len(w) % unit == 0 and all(
                    g[i:i + unit] == w[i:i + unit][::-1] for i in range(0, len(w), unit)):
                return True
    return False


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def may_differ(name, events, little):
    provider, _, event = name.partition(":")
    if not little and provider == "TestProviderDyn":
        return True
    return provider in PROVIDERS and event in events


def main(argv):
    if len(argv) != 4 or argv[1] not in ABIS:
        print("usage: compare_events.py ilp32|be64 REFERENCE.jsonl GOT.jsonl", file=sys.stderr)
        return 2
    events, pointer64, little = ABIS[argv[1]]
    want, got = load(argv[2]), load(argv[3])
    bad = 0
    if len(want) != len(got):
        print(f"{len(got)} events, the reference has {len(want)}")
        bad += 1
    allowed = 0
    same = 0
    for i, (w, g) in enumerate(zip(want, got)):
        gmeta = g.pop("meta", {})
        wmeta = w.pop("meta", {})
        flags = int(gmeta.pop("flags", "-1"), 16)
        wmeta.pop("flags", None)
        if flags < 0 or bool(flags & 1) != pointer64 or bool(flags & 2) != little:
            print(f"event {i} {g.get('n')}: header flags {flags:#x}")
            bad += 1
        # The process and thread: the writer's, not the reference's.
        for m in (gmeta, wmeta):
            for k in ("pid", "tid", "time", "cpu"):
                m.pop(k, None)
        if gmeta != wmeta:
            print(f"event {i} {g.get('n')}: meta {gmeta} != reference {wmeta}")
            bad += 1
        if list(w.items()) == list(g.items()):
            same += 1
            continue
        name = w.get("n", "")
        # Little-endian: the listed events' fields may differ as they like
        # (other sizes, other names); big-endian: by byte order only.
        how = little or (list(w) == list(g) and all(
            w[k] == g[k] or swapped(w[k], g[k]) for k in w))
        if name == g.get("n") and len(w) == len(g) and how and may_differ(name, events, little):
            allowed += 1
            print(f"  differs as {argv[1]} may: {name}: {json.dumps(g)}")
            continue
        print(f"event {i}: {json.dumps(g)}\n   reference: {json.dumps(w)}")
        bad += 1
    print(f"{same}/{len(want)} events identical, {allowed} differing only where "
          f"{argv[1]} may, {bad} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
