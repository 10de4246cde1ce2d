"""tables_check.py -- the site's sortable tables (templates/tables.js) driven in Chromium, for
test_browser.py: a click on the comparison page's cycles/byte header sorts its rows by that number,
a second click the other way, aria-sort saying which; typing into the front page's filter leaves
only the rows holding what was typed; with script disabled both pages show every row of the
rendered file in its order, with no button and no filter box.

Each drive_* function takes a Browser that has loaded the page and returns what it saw; each
judge_* function records checks on a Results."""

import html
import re

# The first table of class sortable: its header texts, and each body row's cells as shown.
ROWS = r"""
(() => {
  const t = document.querySelector('table.sortable');
  if (!t) return null;
  return {heads: Array.from(t.tHead.rows[0].cells).map(c => c.textContent.trim()),
          sort: Array.from(t.tHead.rows[0].cells).map(c => c.getAttribute('aria-sort')),
          buttons: t.tHead.querySelectorAll('button.sort').length,
          filters: document.querySelectorAll('p.filter input').length,
          rows: Array.from(t.tBodies[0].rows).filter(r => !r.hidden && r.offsetParent !== null)
                .map(r => Array.from(r.cells).map(c => c.textContent.trim()))};
})()
"""

CENTRE = r"""
(() => {
  const t = document.querySelector('table.sortable');
  const th = Array.from(t.tHead.rows[0].cells).find(c => c.textContent.includes(%s));
  if (!th) return null;
  const b = th.querySelector('button.sort') || th;
  b.scrollIntoView({block: 'center', inline: 'center'});
  const r = b.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2};
})()
"""


def click(b, x, y):
    """A real mouse click at (x, y) in CSS pixels of the viewport."""
    for kind in ("mousePressed", "mouseReleased"):
        b.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                             "clickCount": 1})


def drive_sort(b, header):
    """Clicks the header holding the text header twice; the rows before and after each click."""
    out = {"before": b.evaluate(ROWS), "after": []}
    for _ in range(2):
        at = b.evaluate(CENTRE % repr(header))
        if not at:
            out["error"] = "no header holds %r" % header
            return out
        click(b, at["x"], at["y"])
        b.settle()
        out["after"].append(b.evaluate(ROWS))
    return out


def drive_filter(b, text):
    """Types text into the filter box as a user would; the rows before and after."""
    out = {"before": b.evaluate(ROWS)}
    if not b.evaluate("!!document.querySelector('p.filter input')"):
        out["error"] = "the page has no filter box"
        return out
    b.evaluate("document.querySelector('p.filter input').focus()")
    b.call("Input.insertText", {"text": text})
    b.settle()
    out["after"] = b.evaluate(ROWS)
    out["count"] = b.evaluate("document.querySelector('p.filter span').textContent")
    return out


def drive_static(b):
    """With script disabled (set before the page loaded): the document as the browser holds it,
    read through the DOM domain, which needs no script."""
    root = b.call("DOM.getDocument", {"depth": -1})["root"]
    return {"html": b.call("DOM.getOuterHTML", {"nodeId": root["nodeId"]})["outerHTML"]}


def file_rows(text):
    """The body rows of the first sortable table of an HTML text, each a list of cell texts."""
    m = re.search(r'<table class="[^"]*\bsortable\b[^"]*">.*?<tbody>(.*?)</tbody>', text, re.S)
    if not m:
        return None
    rows = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", m.group(1), re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)
        rows.append([html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
    return rows


NUMBER = re.compile(r"[-+−]?\d[\d,\u2009\u202f]*(?:\.\d+)?")


def number(cell):
    m = NUMBER.search(cell)
    if not m or cell in ("—", "no figure"):
        return None
    return float(m.group(0).replace(",", "").replace("\u2009", "").replace("\u202f", "")
                 .replace("−", "-"))


def judge_sort(res, name, out, header, page_text):
    if not res.check("error" not in out, name + ": the header is there", out.get("error", "")):
        return
    before, (up, down) = out["before"], out["after"]
    res.check(before and before["buttons"] == len(before["heads"]),
              name + ": every header of the table is a sort button",
              "%s buttons for %s headers" % (before and before["buttons"],
                                             before and len(before["heads"])))
    res.check(before["rows"] == file_rows(page_text), name + ": before a click, every row of "
              "the file in its order", "%r" % before["rows"][:3])
    col = next(i for i, h in enumerate(before["heads"]) if header in h)
    for rows, state, sign in ((up, "ascending", 1), (down, "descending", -1)):
        values = [number(r[col]) for r in rows["rows"]]
        nums = [v for v in values if v is not None]
        ordered = all(sign * (b - a) >= 0 for a, b in zip(nums, nums[1:]))
        blanks_last = values[:len(nums)] == nums
        res.check(len(rows["rows"]) == len(before["rows"]) and ordered and blanks_last and
                  len(nums) >= 2 and rows["sort"][col] == state,
                  "%s: a click on '%s' sorts the rows %s by that number" % (name, header, state),
                  "aria-sort %r, values %r" % (rows["sort"][col], values))
    res.check(up["rows"] != down["rows"], name + ": the second click reverses the order",
              "both clicks gave %r" % [r[col] for r in up["rows"]])


def judge_filter(res, name, out, text, page_text):
    if not res.check("error" not in out, name + ": the filter box is there", out.get("error", "")):
        return
    every = file_rows(page_text)
    want = [r for r in every if text.lower() in " ".join(r).lower()]
    res.check(out["before"]["rows"] == every, name + ": before typing, every row in its order",
              "%d rows of %d" % (len(out["before"]["rows"]), len(every)))
    res.check(0 < len(want) < len(every) and out["after"]["rows"] == want,
              "%s: typing '%s' leaves only its %d rows" % (name, text, len(want)),
              "shown: %r" % [r[0] for r in out["after"]["rows"]])
    res.check(out["count"].strip() == "%d of %d rows" % (len(want), len(every)),
              name + ": the filter says how many rows it shows", repr(out["count"]))


def judge_static(res, name, out, page_text):
    seen = out["html"]
    res.check("button" not in seen and 'class="filter"' not in seen,
              name + ": with script disabled, no sort button and no filter box", "")
    res.check(file_rows(seen) == file_rows(page_text) and file_rows(seen),
              name + ": with script disabled, every row in the default order",
              "%d rows, the file has %d" % (len(file_rows(seen) or []),
                                           len(file_rows(page_text) or [])))
