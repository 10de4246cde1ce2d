#!/usr/bin/env python3
"""check_layers.py — bench/ and gen/ stay in layers: no cycle between files, no file over 800
lines, no function over 150.

usage: check_layers.py SOURCE_DIR

Runs the shared layer reader (../shared/tools/layers.py beside the repository) over bench and
gen and fails on any cycle, file over 800 lines or function over 150 lines it reports; exits 77
(skipped) with a message when ../shared is absent."""
import os, subprocess, sys


def main(argv):
    if len(argv) != 1:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    root = os.path.abspath(argv[0])
    tool = os.path.join(root, '..', 'shared', 'tools', 'layers.py')
    if not os.path.exists(tool):
        print(f'check_layers: skipped: {os.path.normpath(tool)} is absent (it lives beside the '
              'repository in the workplace)')
        return 77
    r = subprocess.run([sys.executable, tool, 'bench', 'gen'], cwd=root, capture_output=True,
                       text=True)
    print(r.stdout, end='')
    bad = r.returncode != 0 or 'files over 800 lines' in r.stdout or \
        'functions over 150 lines' in r.stdout
    if bad:
        print('check_layers: the layers are broken (above): a cycle, a file over 800 lines or '
              'a function over 150 lines', file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
