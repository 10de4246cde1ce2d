#!/usr/bin/env python3
"""check_links.py — every relative link of the README and the manual leads somewhere.

usage: check_links.py SOURCE_DIR

Reads README.md, docs/*.md and the READMEs under bench/; for each Markdown link or image whose
target is not a URL, the file must exist (relative to the page) and an anchor (#...) must be
the GitHub slug of a heading of the target page. Prints one line per broken link and exits 1
when there is one."""
import glob, os, re, sys

LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')
FENCE = re.compile(r'^(```|~~~)')


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r'`', '', heading.strip()).lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def lines_outside_code(path):
    inside = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield n, line


def anchors(path):
    seen, out = {}, set()
    for _, line in lines_outside_code(path):
        m = re.match(r'^#{1,6}\s+(.*)$', line)
        if m:
            s = slug(m.group(1))
            k = seen.get(s, 0)
            out.add(s if k == 0 else f'{s}-{k}')
            seen[s] = k + 1
    return out


def main(argv):
    if len(argv) != 1:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    root = argv[0]
    pages = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))) \
        + sorted(glob.glob(os.path.join(root, 'bench', '*', 'README.md')))
    bad, count = 0, 0
    for page in pages:
        for n, line in lines_outside_code(page):
            for target in LINK.findall(re.sub(r'`[^`]*`', '', line)):
                if re.match(r'^[a-z]+:', target):
                    continue
                count += 1
                path, _, anchor = target.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                where = f'{os.path.relpath(page, root)}:{n}'
                if not os.path.exists(dest):
                    print(f'{where}: {target}: no such file')
                    bad += 1
                elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                    print(f'{where}: {target}: no heading with that anchor in {os.path.relpath(dest, root)}')
                    bad += 1
    print(f'{count} links in {len(pages)} pages, {bad} broken')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
