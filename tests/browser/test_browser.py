#!/usr/bin/env python3
"""test_browser.py -- the rendered site in a real browser (headless Chromium).

Renders the fixture site with hashgen, then opens from file:// the index, an algorithm page, the
comparison page and a method page, each at 1280 and 390 CSS pixels wide, and from the SUPERCOP
fixture's site (tests/fixtures/supercop) the eBASH-style table, a SUPERCOP primitive's page and
the comparison page holding both corpora, and fails when

  * a page logs a console error: console.error/console.assert, an uncaught exception, or a
    browser-reported error such as "Failed to load resource: net::ERR_FILE_NOT_FOUND";
  * a chart (<img class="chart">) is missing from the rendered page (not loaded, or displayed
    with no width or height), or its SVG file has no drawn series (<g class="series"> holding
    an element of class "marker" or "bar"); algorithm and comparison pages need a chart;
  * the page scrolls sideways, or a table is wider than the viewport without an ancestor of its
    own that scrolls (overflow-x auto/scroll) and fits the viewport;
  * a screenshot is blank (almost every pixel the same colour);
  * axe-core (tests/browser/node_modules/axe-core, pinned by package-lock.json and installed by
    make deps; missing is a failure, not a skip), run inside the page, reports a violation of
    impact serious or critical (printed with its rule id and target);
  * at 1280 px, a table of the comparison page does not fit: a wrapper of it scrolls sideways, it
    is wider than the viewport, or one of its rows is taller than two lines of text (twice the
    cells' computed line height plus their padding and borders);
  * the sortable tables (templates/tables.js), driven with real clicks and typing
    (tables_check.py): a click on the comparison page's cycles/byte header does not sort its rows
    by that number, or a second click does not reverse them; typing into the front page's filter
    leaves other rows than those holding the text; with script disabled, a row is missing or out
    of its order, or a sort button or filter box shows.

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in, fd 4
out, NUL-terminated JSON), with the standard library only.  Plain command-line runs are not
enough here: with --headless a window is never narrower than 500 px (--window-size=390,900 lays
the page out 500 px wide and crops the screenshot), and with --enable-logging=stderr Chromium
prints every console message of a file:// page as INFO:CONSOLE whatever its level, and never
prints failed resource loads.  Over the protocol the viewport is set exactly
(Emulation.setDeviceMetricsOverride) and errors arrive with their level (Runtime.consoleAPICalled,
Runtime.exceptionThrown, Log.entryAdded).

Before the real pages, the test proves its detectors on scratch pages: an injected console error,
a missing image and an uncaught exception are caught; an empty page's screenshot is found blank;
an unwrapped wide table, a missing chart and a chart without series are caught; an <img> without
alt and a scrollable region the keyboard cannot reach are axe violations; a wrapped table that
scrolls at 1280 px and a row three lines tall are caught; a PNG using all five filter types decodes
exactly.

Screenshots are kept in <work>/shots/<page>-<width>.png, Chromium's stderr in <work>/logs/.
Prints one line per check, then "N passed, M failed".  Exit 0 when all passed, 1 when any failed,
77 (skip) only when this machine does not let Chromium start at all (e.g. missing kernel features).
"""

import argparse
import base64
import collections
import concurrent.futures
import fcntl
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
import zlib

import tables_check

SKIP = 77
CHROMIUM_TIMEOUT = 60.0     # seconds for one Chromium run, start to close
SETTLE = 0.5                # seconds without page events after the load event
HEIGHT = 900
# (width, mobile): 390 is a phone, so the page's <meta name="viewport"> applies as on a phone
WIDTHS = [(1280, False), (390, True)]
# (path in the site, kind); kind says whether a chart is required
PAGES = [
    ("index.html", "index"),
    ("x86_1/hash-15.html", "algorithm"),
    ("x86_1/compare.html", "comparison"),
    ("x86_1/method.html", "method"),
    ("algorithms/hash-15.html", "across"),
]
# the SUPERCOP fixture (tests/fixtures/supercop): a primitive's page, the comparison page holding
# both corpora and the eBASH-style table, opened from a site of their own
SUPERCOP_PAGES = [
    ("x86_1/ebash.html", "table"),
    ("x86_1/sha256.html", "algorithm"),
    ("x86_1/compare.html", "comparison"),
]
CHART_REQUIRED = {"algorithm", "comparison", "across"}
SVG_NS = "http://www.w3.org/2000/svg"
BLANK_FRACTION = 0.005      # blank: fewer pixels than this differ from the commonest colour
BLANK_COLOURS = 3           # blank: fewer distinct colours than this

_print_lock = threading.Lock()


def log(msg):
    with _print_lock:
        print(msg, flush=True)


class Results:
    """Counts checks and prints one line each; quiet ones only record them (for self-checks)."""

    def __init__(self, quiet=False):
        self.passed = 0
        self.failed = 0
        self.quiet = quiet
        self.items = []
        self.lock = threading.Lock()

    def check(self, ok, name, detail="", info=""):
        """detail says why a check failed; info is printed whatever the outcome."""
        ok = bool(ok)
        with self.lock:
            if ok:
                self.passed += 1
            else:
                self.failed += 1
            self.items.append((ok, name, detail))
        if not self.quiet:
            text = "; ".join(x for x in (info, "" if ok else detail) if x)
            log("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + text) if text else ""))
        return ok


# ------------------------------------------------------------------------------------------
# Chromium over the DevTools protocol on a pipe


class StartError(Exception):
    """Chromium did not come up (no answer on the pipe)."""

    def __init__(self, msg, stderr_path, status):
        super().__init__(msg)
        self.stderr_path = stderr_path
        self.status = status


class Browser:
    """One headless Chromium process with one page, driven over --remote-debugging-pipe."""

    def __init__(self, chromium, profile, stderr_path, width):
        self.stderr_path = stderr_path
        self.buf = b""
        self.next_id = 0
        self.events = []        # every event of our page session, in order
        self.session = None
        self.pid = None
        self.status = None
        self.deadline = time.monotonic() + CHROMIUM_TIMEOUT
        shutil.rmtree(profile, ignore_errors=True)
        os.makedirs(profile)
        # fds >= 10 so the dup2s below cannot clobber each other; close-on-exec in this process
        # (the test runs several browsers from threads), inherited as 3 and 4 by Chromium only
        a_r, a_w = os.pipe()    # we write, Chromium reads on fd 3
        b_r, b_w = os.pipe()    # Chromium writes on fd 4, we read
        fds = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (a_r, a_w, b_r, b_w)]
        for fd in (a_r, a_w, b_r, b_w):
            os.close(fd)
        c_in, self.wfd, self.rfd, c_out = fds
        err = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
        argv = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--allow-file-access-from-files", "--remote-debugging-pipe",
                "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--mute-audio",
                "--window-size=%d,%d" % (max(width, 500), HEIGHT), "about:blank"]
        try:
            self.pid = os.posix_spawn(chromium, argv, os.environ, setsid=True, file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, err, 1),
                (os.POSIX_SPAWN_DUP2, err, 2),
                (os.POSIX_SPAWN_DUP2, c_in, 3),
                (os.POSIX_SPAWN_DUP2, c_out, 4),
            ])
        finally:
            os.close(err)
            os.close(c_in)
            os.close(c_out)

    # -- protocol

    def _send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self.wfd, data)
            data = data[n:]
        return self.next_id

    def _recv(self, timeout):
        """The next message, or None after timeout seconds (capped by the run's deadline)."""
        end = min(time.monotonic() + timeout, self.deadline)
        while b"\0" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                if time.monotonic() >= self.deadline:
                    raise TimeoutError("Chromium run took more than %ds" % CHROMIUM_TIMEOUT)
                return None
            ready, _, _ = select.select([self.rfd], [], [], left)
            if not ready:
                continue
            data = os.read(self.rfd, 1 << 16)
            if not data:
                raise EOFError("Chromium closed the DevTools pipe")
            self.buf += data
        raw, self.buf = self.buf.split(b"\0", 1)
        msg = json.loads(raw)
        if "method" in msg and (self.session is None or msg.get("sessionId") == self.session):
            self.events.append(msg)
        return msg

    def call(self, method, params=None, session=True, timeout=30.0):
        mid = self._send(method, params, session)
        end = time.monotonic() + timeout
        while True:
            msg = self._recv(max(0.0, end - time.monotonic()))
            if msg is None:
                raise TimeoutError("no answer to %s in %ds" % (method, timeout))
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"].get("message")))
                return msg.get("result", {})

    def start(self):
        """Attaches to the page; raises StartError when Chromium does not answer at all."""
        try:
            targets = self.call("Target.getTargets", session=False, timeout=30.0)
        except (EOFError, TimeoutError, OSError) as e:
            self.close()
            raise StartError(str(e), self.stderr_path, self.status)
        pages = [t for t in targets["targetInfos"] if t["type"] == "page"]
        if pages:
            target = pages[0]["targetId"]
        else:
            target = self.call("Target.createTarget", {"url": "about:blank"},
                               session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.events = []
        for method in ("Runtime.enable", "Log.enable", "Page.enable"):
            self.call(method)

    def load(self, url, width, mobile):
        """Opens url at width x HEIGHT; returns None, or why the page did not load."""
        self.call("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": mobile,
            "screenWidth": width, "screenHeight": HEIGHT})
        mark = len(self.events)
        nav = self.call("Page.navigate", {"url": url})
        if nav.get("errorText"):
            return "navigation failed: %s" % nav["errorText"]
        end = time.monotonic() + 30.0
        loaded = False
        while not loaded:
            left = end - time.monotonic()
            if left <= 0:
                return "no load event within 30 s"
            if self._recv(left) is None:
                continue
            loaded = any(e["method"] == "Page.loadEventFired" for e in self.events[mark:])
        self.settle()
        return None

    def settle(self):
        """Waits until the page has been quiet for SETTLE seconds (at most 5 s)."""
        end = time.monotonic() + 5.0
        while time.monotonic() < end:
            if self._recv(SETTLE) is None:
                return

    def evaluate(self, expression):
        res = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True}, timeout=30.0)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            raise RuntimeError("probe threw: %s" % (d.get("exception", {}).get("description")
                                                    or d.get("text")))
        return res["result"].get("value")

    def screenshot(self, path):
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data

    def close(self):
        if self.pid is None:
            return
        try:
            self._send("Browser.close", session=False)
        except OSError:
            pass
        end = time.monotonic() + 10.0
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
                break
            if time.monotonic() > end:
                self._kill()
                _, self.status = os.waitpid(self.pid, 0)
                break
            time.sleep(0.05)
        # helpers Chromium may leave behind in its own process group (it was started with setsid)
        self._kill()
        for fd in (self.rfd, self.wfd):
            try:
                os.close(fd)
            except OSError:
                pass
        self.pid = None

    def _kill(self):
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    # -- what the page reported

    def errors(self):
        """Console errors of the page, one readable line each."""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                args = " ".join(str(a.get("value", a.get("description", a.get("type"))))
                                for a in p.get("args", []))
                frames = p.get("stackTrace", {}).get("callFrames", [])
                where = " (%s:%d)" % (frames[0]["url"], frames[0]["lineNumber"] + 1) \
                    if frames else ""
                out.append("console.%s: %s%s" % (p["type"], args, where))
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("uncaught exception: %s (%s:%d)" % (
                    d.get("exception", {}).get("description") or d.get("text"),
                    d.get("url", "?"), d.get("lineNumber", -1) + 1))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                entry = p["entry"]
                out.append("%s error: %s %s" % (entry.get("source"), entry.get("text"),
                                                entry.get("url", "")))
        return out


# The probe runs in the page after its load event.  It waits for every image to finish, then
# measures layout at the current viewport and returns a JSON-able object.
PROBE = r"""
(async () => {
  await Promise.all(Array.from(document.images).map(i => i.complete ? null :
      new Promise(r => { i.addEventListener('load', r); i.addEventListener('error', r); })));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const de = document.documentElement, body = document.body;
  const vw = de.clientWidth;
  const name = el => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (typeof el.className === 'string' && el.className.trim())
      s += '.' + el.className.trim().split(/\s+/).join('.');
    return s;
  };
  const res = {innerWidth: innerWidth, clientWidth: vw, scrollWidth: de.scrollWidth,
               bodyScrollWidth: body ? body.scrollWidth : 0, tables: [], charts: [],
               inlineCharts: document.querySelectorAll('svg.chart, object.chart').length};
  document.querySelectorAll('table').forEach((t, i) => {
    const r = t.getBoundingClientRect();
    const left = r.left + scrollX, right = r.right + scrollX;
    const cap = t.querySelector('caption, th');
    const item = {index: i, width: r.width, left: left, right: right,
                  label: cap ? cap.textContent.trim().slice(0, 40) : '',
                  wide: left < -0.5 || right > vw + 0.5, container: null};
    for (let a = t.parentElement; a && a !== body && a !== de; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'auto' || ox === 'scroll') {
        const ar = a.getBoundingClientRect();
        item.container = {name: name(a), overflowX: ox, clientWidth: a.clientWidth,
                          left: ar.left + scrollX, right: ar.right + scrollX,
                          scrolls: a.scrollWidth > a.clientWidth};
        break;
      }
    }
    item.rows = Array.from(t.rows).map((tr, k) => {
      let limit = 0, line = 0;
      Array.from(tr.cells).forEach(c => {
        const cs = getComputedStyle(c);
        let lh = parseFloat(cs.lineHeight);
        if (isNaN(lh)) lh = 1.2 * parseFloat(cs.fontSize);   /* line-height: normal */
        const extra = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth']
            .reduce((sum, k2) => sum + (parseFloat(cs[k2]) || 0), 0);
        if (2 * lh + extra > limit) { limit = 2 * lh + extra; line = lh; }
      });
      return {index: k, height: tr.getBoundingClientRect().height, limit: limit, line: line,
              header: tr.parentElement.tagName === 'THEAD',
              text: tr.textContent.trim().replace(/\s+/g, ' ').slice(0, 50)};
    });
    res.tables.push(item);
  });
  /* a compiler line named in a table, laid out on more than one line */
  res.compilerBreaks = Array.from(document.querySelectorAll('code.compiler'))
      .filter(c => c.getClientRects().length > 1).map(c => c.textContent.slice(0, 60));
  document.querySelectorAll('img.chart').forEach(img => {
    const r = img.getBoundingClientRect(), cs = getComputedStyle(img);
    res.charts.push({src: img.getAttribute('src'), url: img.currentSrc || img.src,
                     alt: img.getAttribute('alt'), complete: img.complete,
                     naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
                     width: r.width, height: r.height, left: r.left + scrollX,
                     right: r.right + scrollX, visibility: cs.visibility});
  });
  return res;
})()
"""


def run_axe(b, source):
    """axe-core's violations of the loaded page: [(impact, rule id, targets, help)]."""
    b.call("Runtime.evaluate", {"expression": source, "returnByValue": True}, timeout=30.0)
    found = b.evaluate(r"""
(async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
})()
""")
    return found


def judge_axe(res, name, violations):
    """Check: no axe violation of impact serious or critical."""
    bad = [v for v in violations if v["impact"] in ("serious", "critical")]
    minor = len(violations) - len(bad)
    res.check(not bad, name + ": axe-core finds no serious or critical violation",
              "; ".join("%s (%s): %s at %s" % (v["id"], v["impact"], v["help"],
                                               ", ".join(v["targets"])) for v in bad),
              info="%d minor" % minor if minor else "")


def judge_fit(res, name, probe, lines=2):
    """Check (at 1280 px): every table fits without scrolling sideways and no body row is taller
    than lines lines of text (comparison pages 2, the eBASH-style table 1; None: rows may wrap,
    as an algorithm page's evidence rows with their warnings do)."""
    vw = probe["clientWidth"]
    bad = []
    for t in probe["tables"]:
        c = t["container"]
        if t["width"] > vw + 0.5 or t["wide"]:
            bad.append("table %d (%s) is %.0f px wide, the viewport %d px"
                       % (t["index"], t["label"], t["width"], vw))
        if c is not None and c["scrolls"]:
            bad.append("table %d (%s): its wrapper %s scrolls sideways"
                       % (t["index"], t["label"], c["name"]))
        for r in t["rows"] if lines else []:
            limit = r["limit"] - (2 - lines) * r.get("line", 0)
            # half a line of slack: a raised mark or an inline code grows a line box a little
            if r["height"] > (r["limit"] if r.get("header") else limit) + \
                    max(1, 0.5 * r.get("line", 0)):
                bad.append("table %d row %d (%s) is %.0f px tall, %d line(s) are %.0f px"
                           % (t["index"], r["index"], r["text"], r["height"], lines, limit))
    res.check(not bad, name + ": tables fit the screen%s (%d table(s))"
              % (", rows at most %d line(s)" % lines if lines else "", len(probe["tables"])),
              "; ".join(bad))


def judge_compilers(res, name, probe):
    """Check: no compiler line named in a table is laid out on more than one line."""
    breaks = probe.get("compilerBreaks", [])
    res.check(not breaks, name + ": no compiler line breaks inside it",
              "broken: %r" % breaks[:5])


def run_page(chromium, work, tag, url, width, mobile, shot_path, axe=None):
    """Opens url at one width; returns a dict with the page's errors, probe, axe-core's findings
    (when axe, its source, is given) and screenshot."""
    out = {"tag": tag, "width": width, "error": None, "console": [], "probe": None,
           "png": None, "shot": shot_path, "axe": None}
    b = Browser(chromium, os.path.join(work, "profiles", tag),
                os.path.join(work, "logs", tag + ".stderr"), width)
    try:
        b.start()
        why = b.load(url, width, mobile)
        if why:
            out["error"] = why
            return out
        out["probe"] = b.evaluate(PROBE)
        if axe:
            out["axe"] = run_axe(b, axe)
        out["png"] = b.screenshot(shot_path)
        b.settle()
        out["console"] = b.errors()
    except StartError:
        raise
    except Exception as e:  # noqa: BLE001 -- reported as a failed check, with the reason
        out["error"] = "%s: %s" % (type(e).__name__, e)
        out["console"] = b.errors()
    finally:
        b.close()
    return out


def run_drive(chromium, work, tag, url, width, drive, scripts=True):
    """Opens url at width (script disabled when not scripts) and returns what drive(browser)
    returns, with "error" when the page could not be driven."""
    b = Browser(chromium, os.path.join(work, "profiles", tag),
                os.path.join(work, "logs", tag + ".stderr"), width)
    try:
        b.start()
        if not scripts:
            b.call("Emulation.setScriptExecutionDisabled", {"value": True})
        why = b.load(url, width, False)
        if why:
            return {"error": why}
        out = drive(b)
        console = b.errors()
        if console:
            out["error"] = "; ".join(console)
        return out
    except StartError:
        raise
    except Exception as e:  # noqa: BLE001 -- reported as a failed check, with the reason
        return {"error": "%s: %s" % (type(e).__name__, e)}
    finally:
        b.close()


# ------------------------------------------------------------------------------------------
# PNG decoding and the blank test


def png_decode(data):
    """(width, height, channels, rows) of an 8-bit non-interlaced grey/RGB/RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    if ihdr is None:
        raise ValueError("PNG without IHDR")
    width, height, depth, colour, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError("unsupported PNG (depth %d, colour type %d, interlace %d)"
                         % (depth, colour, interlace))
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    if len(raw) != height * (stride + 1):
        raise ValueError("PNG data has %d bytes, expected %d" % (len(raw), height * (stride + 1)))
    rows, prev = [], bytes(stride)
    bpp = channels
    for y in range(height):
        base = y * (stride + 1)
        ftype, line = raw[base], bytearray(raw[base + 1:base + 1 + stride])
        if ftype == 0:
            pass
        elif ftype == 1:        # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:        # Up
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 0xFF
        elif ftype == 3:        # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:        # Paeth
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        else:
            raise ValueError("bad PNG filter type %d in row %d" % (ftype, y))
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def png_encode(width, height, channels, rows, filters):
    """A PNG of rows (bytes), row y filtered with filters[y % len(filters)]; for the self-check."""
    bpp, out, prev = channels, bytearray(), bytes(width * channels)
    for y, row in enumerate(rows):
        f = filters[y % len(filters)]
        enc = bytearray(len(row))
        for i in range(len(row)):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 0:
                pred = 0
            elif f == 1:
                pred = a
            elif f == 2:
                pred = b
            elif f == 3:
                pred = (a + b) >> 1
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            enc[i] = (row[i] - pred) & 0xFF
        out.append(f)
        out += enc
        prev = row

    def chunk(t, body):
        return struct.pack(">I", len(body)) + t + body + \
            struct.pack(">I", zlib.crc32(t + body) & 0xFFFFFFFF)
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(out))) + chunk(b"IEND", b""))


def blankness(data):
    """(is_blank, description) of a PNG screenshot."""
    width, height, channels, rows = png_decode(data)
    counts = collections.Counter()
    for row in rows:
        counts.update(row[i:i + channels] for i in range(0, len(row), channels))
    total = width * height
    common, n = counts.most_common(1)[0]
    differ = total - n
    desc = "%dx%d, %d colours, %.2f%% of pixels differ from the commonest (#%s)" % (
        width, height, len(counts), 100.0 * differ / total, common.hex())
    return differ < BLANK_FRACTION * total or len(counts) < BLANK_COLOURS, desc


# ------------------------------------------------------------------------------------------
# Charts


def svg_series(path):
    """(drawn series, all g.series) of a standalone SVG chart; raises on unreadable files."""
    root = ET.parse(path).getroot()
    if root.tag != "{%s}svg" % SVG_NS:
        raise ValueError("root element is %s, not an SVG svg element" % root.tag)

    def classes(el):
        return (el.get("class") or "").split()
    series = [g for g in root.iter("{%s}g" % SVG_NS) if "series" in classes(g)]
    drawn = [g for g in series
             if any(("marker" in classes(el) or "bar" in classes(el))
                    for el in g.iter() if el is not g)]
    return len(drawn), len(series)


def file_url(path):
    return "file://" + urllib.parse.quote(path)


def url_to_path(url):
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "file":
        return None
    return urllib.parse.unquote(parts.path)


# ------------------------------------------------------------------------------------------
# Judging one page run


def judge_layout(res, name, probe):
    """Checks: no sideways scroll; every table wider than the viewport has its own scroller."""
    vw = probe["clientWidth"]
    res.check(probe["scrollWidth"] <= vw + 1, name + ": page does not scroll sideways",
              "document is %d px wide in a %d px viewport" % (probe["scrollWidth"], vw))
    bad = []
    for t in probe["tables"]:
        if not t["wide"]:
            continue
        c = t["container"]
        if c is None:
            bad.append("table %d (%s) spans %.0f..%.0f px with no scrolling ancestor"
                       % (t["index"], t["label"], t["left"], t["right"]))
        elif c["left"] < -0.5 or c["right"] > vw + 0.5 or c["clientWidth"] > vw:
            bad.append("table %d (%s): its scroller %s spans %.0f..%.0f px, wider than the "
                       "viewport" % (t["index"], t["label"], c["name"], c["left"], c["right"]))
    wide = sum(1 for t in probe["tables"] if t["wide"])
    res.check(not bad, name + ": tables fit or scroll in their own container (%d table(s), %d "
              "wider than the viewport)" % (len(probe["tables"]), wide), "; ".join(bad))


def judge_charts(res, name, probe, kind, site):
    """Check: every img.chart loaded and is displayed; algorithm/comparison pages have one."""
    charts = probe["charts"]
    bad = []
    for c in charts:
        if not (c["complete"] and c["naturalWidth"] > 0):
            bad.append("%s did not load" % c["src"])
        elif c["width"] < 1 or c["height"] < 1 or c["visibility"] != "visible":
            bad.append("%s is displayed %.0fx%.0f px (%s)" % (c["src"], c["width"], c["height"],
                                                               c["visibility"]))
    if kind in CHART_REQUIRED and not charts:
        bad.append("no <img class=\"chart\"> on this %s page" % kind)
    if charts or kind in CHART_REQUIRED:
        res.check(not bad, name + ": charts shown (%d)" % len(charts), "; ".join(bad))


def judge_series(res, name, urls, site):
    """Check: each chart's SVG file has at least one drawn series."""
    for url in sorted(urls):
        path = url_to_path(url)
        label = "%s: chart %s has series" % (name, os.path.relpath(path, site) if path else url)
        if path is None or not os.path.isfile(path):
            res.check(False, label, "no file behind %s" % url)
            continue
        try:
            drawn, total = svg_series(path)
        except (ET.ParseError, ValueError, OSError) as e:
            res.check(False, label, "cannot read the SVG: %s" % e)
            continue
        res.check(drawn > 0, label + " (%d drawn of %d g.series)" % (drawn, total),
                  "no <g class=\"series\"> with a marker or bar")


def judge_shot(res, name, run):
    if run["png"] is None:
        res.check(False, name + ": screenshot", "none taken")
        return
    try:
        blank, desc = blankness(run["png"])
    except (ValueError, zlib.error) as e:
        res.check(False, name + ": screenshot not blank", "cannot decode %s: %s"
                  % (run["shot"], e))
        return
    res.check(not blank, name + ": screenshot not blank (%s)" % os.path.basename(run["shot"]),
              "blank", info=desc)


# ------------------------------------------------------------------------------------------
# Self-checks: the detectors catch what they are meant to catch

SCRATCH_ERRORS = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>errors</title></head><body>
<p>A page with errors.</p>
<img src="missing-image.svg" alt="missing">
<script>console.error("injected console error");</script>
<script>notAFunction();</script>
</body></html>
"""

SCRATCH_EMPTY = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>empty</title></head><body></body></html>
"""

SCRATCH_LAYOUT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>layout</title><link rel="stylesheet" href="style.css"></head><body><div class="main">
<p>Charts: good, without series, missing.</p>
<img class="chart" src="good.svg" alt="good">
<img class="chart" src="empty.svg" alt="no series">
<img class="chart" src="absent.svg" alt="missing">
<div class="table-wrap"><table><tr>%(cells)s</tr></table></div>
<table><tr>%(cells)s</tr></table>
</div></body></html>
"""

SCRATCH_A11Y = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>a11y</title></head><body><main>
<h1>Known violations</h1>
<img src="good.svg">
<div id="scroller" style="width: 100px; overflow-x: auto"><table><tr><td>%(cells)s</td></tr></table></div>
</main></body></html>
"""

SCRATCH_FIT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fit</title><link rel="stylesheet" href="style.css"></head><body><div class="main">
<div class="table-wrap"><table><tr><td>fits</td><td>one line</td></tr></table></div>
<div class="table-wrap"><table><tr>%(cells)s%(cells)s</tr></table></div>
<div class="table-wrap"><table><tr><td style="width: 5em">three or more lines of text in a
narrow cell of this table</td><td>x</td></tr></table></div>
<div class="table-wrap"><table><tr><td>two lines<br>of text</td><td>x</td></tr></table></div>
<p style="width: 6em"><code class="compiler">gcc -march=native -O3 -fwrapv</code></p>
</div></body></html>
"""

SVG_GOOD = """<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100">
<title>t</title><desc>d</desc>
<g class="series"><circle class="marker" cx="50" cy="50" r="5" fill="#06c"/></g>
</svg>
"""

SVG_EMPTY = """<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100">
<title>t</title><desc>d</desc><g class="series"></g><rect x="0" y="0" width="300" height="1"/>
</svg>
"""


def self_check_png(res):
    rows = [bytes(((x * 7 + y * 13 + c * 31) ^ (x * y)) & 0xFF for x in range(9) for c in range(3))
            for y in range(10)]
    ok, detail = True, ""
    for channels in (3, 4):
        rws = rows if channels == 3 else [bytes(b for i in range(9) for b in (r[3 * i:3 * i + 3]
                                                                             + bytes([200 + i])))
                                          for r in rows]
        png = png_encode(9, 10, channels, rws, [0, 1, 2, 3, 4])
        w, h, ch, got = png_decode(png)
        if (w, h, ch, got) != (9, 10, channels, rws):
            ok, detail = False, "decoding a %d-channel PNG with filters 0-4 gave other pixels" \
                % channels
    res.check(ok, "self-check: PNG decoder handles filter types 0-4, RGB and RGBA", detail)


def prepare_scratch(work, site):
    d = os.path.join(work, "scratch")
    os.makedirs(d)
    shutil.copy(os.path.join(site, "style.css"), d)
    cells = "".join("<td>wide-unbreakable-cell-%02d</td>" % i for i in range(12))
    files = {"errors.html": SCRATCH_ERRORS, "empty.html": SCRATCH_EMPTY,
             "layout.html": SCRATCH_LAYOUT % {"cells": cells},
             "a11y.html": SCRATCH_A11Y % {"cells": cells},
             "fit.html": SCRATCH_FIT % {"cells": cells},
             "good.svg": SVG_GOOD, "empty.svg": SVG_EMPTY}
    for fn, text in files.items():
        with open(os.path.join(d, fn), "w", encoding="utf-8") as f:
            f.write(text)
    return d


def self_check_runs(res, runs, scratch):
    """Judges the scratch runs: each detector must fire where it should and only there."""
    e = runs["errors"]
    errs = e["console"]
    want = {"console.error": any("injected console error" in x for x in errs),
            "uncaught exception": any(x.startswith("uncaught exception") and "notAFunction" in x
                                      for x in errs),
            "failed resource load": any("missing-image.svg" in x for x in errs)}
    res.check(e["error"] is None and all(want.values()),
              "self-check: console detector catches an injected console.error, uncaught "
              "exception and missing image",
              "%s; caught: %s" % (e["error"] or "missed " + ", ".join(k for k, v in want.items()
                                                                      if not v), errs))
    m = runs["empty"]
    res.check(m["error"] is None and not m["console"],
              "self-check: console detector is quiet on an empty page",
              m["error"] or "; ".join(m["console"]))
    if m["png"] is not None:
        try:
            blank, desc = blankness(m["png"])
        except (ValueError, zlib.error) as ex:
            blank, desc = False, "cannot decode: %s" % ex
        res.check(blank, "self-check: blank detector finds the empty page's screenshot blank",
                  "not found blank", info=desc)
    else:
        res.check(False, "self-check: blank detector", "no screenshot of the empty page")

    a = runs["a11y"]
    ids = set(v["id"] for v in (a.get("axe") or []) if v["impact"] in ("serious", "critical"))
    sub = Results(quiet=True)
    judge_axe(sub, "scratch", a.get("axe") or [])
    res.check(a["error"] is None and {"image-alt", "scrollable-region-focusable"} <= ids
              and not sub.items[0][0] and "image-alt" in sub.items[0][2],
              "self-check: axe-core finds an <img> without alt and a scrollable region the "
              "keyboard cannot reach", a["error"] or "found: %s" % sorted(ids))
    f = runs["fit"]
    if f["probe"] is None:
        res.check(False, "self-check: fit detector", f["error"] or "no probe result")
    else:
        sub = Results(quiet=True)
        judge_fit(sub, "scratch", f["probe"])
        why = sub.items[0][2]
        res.check(not sub.items[0][0] and "table 1 (" in why and "scrolls sideways" in why
                  and "table 2 row 0" in why and "table 0" not in why and "table 3" not in why,
                  "self-check: fit detector catches a table that scrolls at 1280 px and a row "
                  "three lines tall, and accepts one that fits", why)
        sub = Results(quiet=True)
        judge_fit(sub, "scratch", f["probe"], 1)
        judge_compilers(sub, "scratch", f["probe"])
        why = sub.items[0][2]
        res.check(not sub.items[0][0] and "table 3 row 0" in why and "table 0" not in why
                  and not sub.items[1][0] and "gcc -march" in sub.items[1][2],
                  "self-check: at one line a row two lines tall is caught, and a compiler line "
                  "laid out on two lines", why + "; " + sub.items[1][2])

    lay = runs["layout"]
    p = lay["probe"]
    if p is None:
        res.check(False, "self-check: layout probe", lay["error"] or "no probe result")
        return
    sub = Results(quiet=True)
    judge_layout(sub, "scratch", p)
    judge_charts(sub, "scratch", p, "algorithm", scratch)
    urls = set(c["url"] for c in p["charts"])
    judge_series(sub, "scratch", urls, scratch)
    got = sub.items
    scroll_ok, tables_ok, charts_ok = got[0][0], got[1][0], got[2][0]
    series = {os.path.basename(n.split(" chart ")[1].split(" ")[0]): ok for ok, n, _ in got[3:]}
    wrapped, unwrapped = p["tables"][0], p["tables"][1]
    expect = {
        "page scrolls sideways (unwrapped wide table)": not scroll_ok,
        "unwrapped wide table flagged": not tables_ok and "no scrolling ancestor" in got[1][2]
        and "table 1" in got[1][2] and "table 0" not in got[1][2],
        "wrapped wide table accepted": wrapped["wide"] and wrapped["container"] is not None,
        "unwrapped table is wide": unwrapped["wide"],
        "missing chart flagged": not charts_ok and "absent.svg did not load" in got[2][2]
        and "good.svg" not in got[2][2] and "empty.svg" not in got[2][2],
        "chart without series flagged": series.get("empty.svg") is False,
        "chart with a series accepted": series.get("good.svg") is True,
    }
    missed = [k for k, v in expect.items() if not v]
    res.check(not missed, "self-check: layout and chart detectors (scratch page at 390 px)",
              "did not hold: %s; judged: %s" % ("; ".join(missed), got))


# ------------------------------------------------------------------------------------------


MACHINE_FORBIDS = re.compile(
    r"(Operation not permitted|Function not implemented|not supported by (the )?kernel|"
    r"seccomp|Failed to move to new namespace|CLONE_NEW|No usable sandbox)", re.I)


def startup_verdict(res, e, chromium):
    """Exit status when Chromium cannot start: SKIP only when the machine forbids it."""
    try:
        with open(e.stderr_path, encoding="utf-8", errors="replace") as f:
            err = f.read()
    except OSError:
        err = ""
    tail = "\n".join(err.strip().splitlines()[-15:])
    killed_by = None
    if e.status is not None and os.WIFSIGNALED(e.status):
        killed_by = os.WTERMSIG(e.status)
    fatal = [ln for ln in err.splitlines() if "FATAL" in ln or "Check failed" in ln]
    if killed_by == signal.SIGSYS or any(MACHINE_FORBIDS.search(ln) for ln in fatal):
        log("SKIP: this machine does not let Chromium start (%s): %s" % (
            "killed by SIGSYS" if killed_by == signal.SIGSYS else "kernel refused a system call",
            tail))
        return SKIP
    res.check(False, "Chromium starts", "%s: %s\n%s" % (chromium, e, tail))
    return 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hashgen", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--axe", default=None, help="axe.min.js (default: tests/browser/"
                    "node_modules/axe-core/axe.min.js of --source)")
    ap.add_argument("--supercop-data", default=None, help="evidence with SUPERCOP primitives "
                    "(default: tests/fixtures/supercop of --source), e.g. a real campaign's")
    ap.add_argument("--supercop-system", default="x86_1", help="its system whose eBASH table, "
                    "sha256 page and comparison page are opened (default x86_1)")
    args = ap.parse_args()
    t0 = time.monotonic()
    work = os.path.abspath(args.work)
    source = os.path.abspath(args.source)
    res = Results()

    if not (os.path.isfile(args.chromium) and os.access(args.chromium, os.X_OK)):
        res.check(False, "Chromium is installed", "%s is missing (make deps installs the Debian "
                  "package chromium)" % args.chromium)
        print("%d passed, %d failed" % (res.passed, res.failed))
        return 1

    axe_path = args.axe or os.path.join(source, "tests/browser/node_modules/axe-core/axe.min.js")
    if not os.path.isfile(axe_path):
        res.check(False, "axe-core is installed", "%s is missing (make deps runs npm ci in "
                  "tests/browser)" % axe_path)
        print("%d passed, %d failed" % (res.passed, res.failed))
        return 1
    with open(axe_path, encoding="utf-8") as fh:
        axe = fh.read()

    shutil.rmtree(work, ignore_errors=True)
    for d in ("shots", "logs", "profiles"):
        os.makedirs(os.path.join(work, d))
    site = os.path.join(work, "site")
    gen = subprocess.run([args.hashgen, "--data", os.path.join(source, "tests/fixtures/data"),
                          "--templates", os.path.join(source, "templates"), "--out", site],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if not res.check(gen.returncode == 0, "hashgen renders the fixture site",
                     "exit status %d:\n%s" % (gen.returncode, gen.stdout[-3000:])):
        print("%d passed, %d failed" % (res.passed, res.failed))
        return 1
    supercop_site = os.path.join(work, "site-supercop")
    supercop_data = args.supercop_data or os.path.join(source, "tests/fixtures/supercop")
    gen = subprocess.run([args.hashgen, "--data", os.path.abspath(supercop_data),
                          "--templates", os.path.join(source, "templates"), "--out",
                          supercop_site],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if not res.check(gen.returncode == 0, "hashgen renders the SUPERCOP fixture site",
                     "exit status %d:\n%s" % (gen.returncode, gen.stdout[-3000:])):
        print("%d passed, %d failed" % (res.passed, res.failed))
        return 1
    self_check_png(res)
    scratch = prepare_scratch(work, site)

    # Chromium must start at all: the empty scratch page, alone, decides skip versus fail.
    try:
        empty = run_page(args.chromium, work, "selfcheck-empty",
                         file_url(os.path.join(scratch, "empty.html")), 390, True,
                         os.path.join(work, "shots", "selfcheck-empty-390.png"))
    except StartError as e:
        status = startup_verdict(res, e, args.chromium)
        print("%d passed, %d failed" % (res.passed, res.failed))
        return status

    jobs = {
        "errors": ("selfcheck-errors", file_url(os.path.join(scratch, "errors.html")), 1280,
                   False, os.path.join(work, "shots", "selfcheck-errors-1280.png")),
        "layout": ("selfcheck-layout", file_url(os.path.join(scratch, "layout.html")), 390,
                   True, os.path.join(work, "shots", "selfcheck-layout-390.png")),
        "a11y": ("selfcheck-a11y", file_url(os.path.join(scratch, "a11y.html")), 1280, False,
                 os.path.join(work, "shots", "selfcheck-a11y-1280.png"), axe),
        "fit": ("selfcheck-fit", file_url(os.path.join(scratch, "fit.html")), 1280, False,
                os.path.join(work, "shots", "selfcheck-fit-1280.png")),
    }
    present = []
    # (name, its site, path in that site, kind); the SUPERCOP site's pages named supercop/…
    targets = [(page, site, page, kind) for page, kind in PAGES]
    targets += [("supercop/" + page, supercop_site,
                 page.replace("x86_1/", args.supercop_system + "/"), kind)
                for page, kind in SUPERCOP_PAGES]
    for page, root, rel, kind in targets:
        path = os.path.join(root, rel)
        if res.check(os.path.isfile(path), "%s (%s page) rendered" % (page, kind),
                     "hashgen wrote no %s" % path):
            present.append((page, root, rel, kind))
    for page, root, rel, kind in present:
        for width, mobile in WIDTHS:
            tag = "%s-%d" % (page.replace("/", "_").rsplit(".", 1)[0], width)
            jobs[(page, width)] = (tag, file_url(os.path.join(root, rel)),
                                   width, mobile, os.path.join(work, "shots", tag + ".png"), axe)

    # the sortable tables, driven: (key, page, drive, scripts)
    header, typed = "cycles/byte at 65536 B", "hash-15"
    drives = [("sort", "x86_1/compare.html", lambda b: tables_check.drive_sort(b, header), True),
              ("filter", "index.html", lambda b: tables_check.drive_filter(b, typed), True),
              ("static-compare", "x86_1/compare.html", tables_check.drive_static, False),
              ("static-index", "index.html", tables_check.drive_static, False)]
    for key, rel, drive, scripts in drives:
        jobs[("drive", key)] = ("drive-" + key, file_url(os.path.join(site, rel)), 1280, drive,
                                scripts)

    runs = {"empty": empty}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {pool.submit(run_drive if key[0] == "drive" else run_page, args.chromium,
                               work, *job): key for key, job in jobs.items()}
        for fut in concurrent.futures.as_completed(futures):
            key = futures[fut]
            try:
                runs[key] = fut.result()
            except StartError as e:
                runs[key] = {"error": "Chromium did not start: %s (see %s)" % (e, e.stderr_path),
                             "console": [], "probe": None, "png": None, "shot": None}
            except Exception as e:  # noqa: BLE001 -- reported as a failed check
                runs[key] = {"error": "%s: %s" % (type(e).__name__, e),
                             "console": [], "probe": None, "png": None, "shot": None}

    self_check_runs(res, runs, scratch)

    for page, root, rel, kind in present:
        chart_urls = set()
        for width, _ in WIDTHS:
            run = runs[(page, width)]
            name = "%s @%d" % (page, width)
            if not res.check(run["error"] is None, name + ": opens from file://", run["error"]):
                continue
            res.check(not run["console"], name + ": no console errors",
                      "; ".join(run["console"]))
            probe = run["probe"]
            if probe["innerWidth"] != width:
                res.check(False, name + ": viewport width",
                          "window.innerWidth is %d px, not %d" % (probe["innerWidth"], width))
            judge_layout(res, name, probe)
            if run["axe"] is None:
                res.check(False, name + ": axe-core ran", "no result")
            else:
                judge_axe(res, name, run["axe"])
            if width == 1280 and kind in ("comparison", "table", "algorithm", "index", "across"):
                judge_fit(res, name, probe, {"comparison": 2, "table": 1}.get(kind))
            judge_compilers(res, name, probe)
            judge_charts(res, name, probe, kind, root)
            chart_urls.update(c["url"] for c in probe["charts"])
            judge_shot(res, name, run)
        judge_series(res, page, chart_urls, root)

    for key, rel, _, _ in drives:
        out, name = runs[("drive", key)], "%s @1280 (driven)" % rel
        with open(os.path.join(site, rel), encoding="utf-8") as fh:
            text = fh.read()
        if not res.check(not out.get("error"), name + ": opens and is driven without errors",
                         out.get("error", "")):
            continue
        if key == "sort":
            tables_check.judge_sort(res, name, out, header, text)
        elif key == "filter":
            tables_check.judge_filter(res, name, out, typed, text)
        else:
            tables_check.judge_static(res, name, out, text)

    log("screenshots in %s; took %.1f s" % (os.path.join(work, "shots"), time.monotonic() - t0))
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
