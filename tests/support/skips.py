#!/usr/bin/env python3
"""skips.py — every skipped test of a ctest run, with its reason, read from ctest's JUnit file:
the ctest entries that ended with their skip code (reason: their output's last line) and
Criterion's "[SKIP] suite::test: reason" lines (the Criterion tests run with --verbose).
Prints the count and the list. With --strict, exits 1 when a skip's reason matches none of
the allowed machine limits of tests/skips-allowed (a missing ../shared is not one: CI has it).

usage: skips.py JUNIT LABEL [--strict]"""
import os
import re
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ALLOWED = os.path.join(HERE, "..", "skips-allowed")
# ../shared beside the repository, and the reasons its tests give when it is absent
SHARED = os.path.join(HERE, "..", "..", "..", "shared")
SHARED_REASON = re.compile(r"\.\./shared|/shared/tools/layers\.py is absent")


def allowed_patterns(path):
    """The allowed reasons: one regular expression per line, '#' starts a comment line."""
    pats = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                pats.append(re.compile(line))
            except re.error as e:
                sys.exit("%s:%d: not a regular expression: %s" % (path, n, e))
    return pats


def skipped(junit):
    """(test, reason) for every skip in a ctest JUnit file."""
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        sys.exit("skips: %s: %s" % (junit, e))
    out = []
    for case in root.iter("testcase"):
        text = case.findtext("system-out") or ""
        if case.get("status") in ("notrun", "disabled") or case.find("skipped") is not None:
            last = text.strip().splitlines()[-1:]
            out.append((case.get("name"), last[0] if last else "no reason given"))
        for line in text.splitlines():
            if line.startswith("[SKIP] "):
                name, _, why = line[len("[SKIP] "):].partition(": ")
                out.append((name, why or "no reason given"))
    return sorted(set(out))


def main(argv):
    args = [a for a in argv[1:] if a != "--strict"]
    if len(args) != 2:
        sys.exit("usage: skips.py JUNIT LABEL [--strict]")
    junit, label = args
    skips = skipped(junit)
    pats = allowed_patterns(ALLOWED)
    # a clone with no ../shared beside it (git clone . /tmp/c) skips what needs it and says so;
    # beside ../shared (as CI runs) such a skip is a failure like any other
    if not os.path.isdir(SHARED):
        pats.append(SHARED_REASON)
        print("%s: ../shared is not beside this clone: the tests that need it skip" % label)
    bad = [(n, w) for n, w in skips if not any(p.search(w) for p in pats)]
    print("%s: %d %s skipped" % (label, len(skips), "test" if len(skips) == 1 else "tests"))
    for name, why in skips:
        mark = "" if (name, why) not in bad else "  [not a machine limit]"
        print("  %s: %s%s" % (name, why, mark))
    if bad and "--strict" in argv:
        print("%s: failed: %d skipped for a reason that is not an allowed machine limit "
              "(tests/skips-allowed)" % (label, len(bad)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
