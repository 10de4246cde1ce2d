#!/usr/bin/env python3
"""check_man.py — the man pages say what the programs' --help says, and render cleanly.

usage: check_man.py MAN_DIR HASHBENCH HASHGEN

For hashbench(1) and hashgen(1) in MAN_DIR: `man -l` renders the page without a warning, and
every command and every --option that the program's --help names appears in the rendered page.
Prints one line per problem and exits 1 when there is one."""
import os, re, subprocess, sys


def rendered(page):
    env = dict(os.environ, MANWIDTH='200', MAN_KEEP_FORMATTING='0')
    r = subprocess.run(['man', '-l', page], capture_output=True, text=True, env=env)
    text = re.sub(r'.\x08', '', r.stdout)
    return text, r.returncode, r.stderr.strip()


def main(argv):
    if len(argv) != 3:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    man_dir, programs = argv[0], {'hashbench': argv[1], 'hashgen': argv[2]}
    bad = 0
    for name, prog in programs.items():
        page = os.path.join(man_dir, name + '.1')
        if not os.path.exists(page):
            print(f'{page}: missing')
            bad += 1
            continue
        text, rc, err = rendered(page)
        if rc != 0 or err:
            print(f'{page}: man -l: exit {rc}: {err}')
            bad += 1
        words = set(re.findall(r'(?<![\w-])--?[a-z][a-z-]*', text)) | set(re.findall(r'[a-z][a-z-]*', text))
        usage = subprocess.run([prog, '--help'], capture_output=True, text=True).stdout
        wanted = set(re.findall(r'(?<![\w-])--[a-z][a-z-]*', usage))
        if name == 'hashbench':  # the commands: the first word of each line under "commands:"
            block = usage.split('commands:', 1)[1].split('\n\n', 1)[0]
            wanted |= set(re.findall(r'^  ([a-z][a-z-]+)', block, re.M))
        missing = sorted(w for w in wanted if w not in words)
        for w in missing:
            print(f'{page}: {name} --help names {w}, the man page does not')
        bad += len(missing)
        print(f'{name}.1: {len(wanted)} commands and options of --help, {len(missing)} missing')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
