#!/usr/bin/env python3
"""The HTML view in a real browser.

mmtree render writes pages of several trees; headless Chromium opens them
(deep links #code= and #path=, and a driver script that uses the page's
forms and buttons) and the DOM after the scripts ran is compared with what
the C library computes (html_oracle) and with mmtree stats --json.  Also:
web/game.js's scoring against the C scorer, and a screenshot that is not
blank.  One Chromium runs all of it, driven through the DevTools protocol
on a pipe.

Usage: html_browser.py MMTREE HTML_ORACLE SOURCE_DIR WORK_DIR
Exit status 0 ok, 1 a check failed, 77 Chromium is not installed (skipped).
"""
import base64
import fcntl
import html.parser
import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

MMTREE, ORACLE, SRC, WORK = sys.argv[1:5]
HERE = os.path.join(SRC, "tests", "render")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def find_chromium():
    for name in [os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"]:
        if name and shutil.which(name):
            return shutil.which(name)
    return None


class Browser:
    """Headless Chromium and the DevTools protocol on a pipe
    (--remote-debugging-pipe): JSON messages ended by a NUL byte, to
    Chromium on its fd 3, from it on its fd 4."""

    def __init__(self, exe):
        self.profile = tempfile.mkdtemp(prefix="mmtree-chromium-")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def fds():  # in the child: the pipe ends as fds 3 and 4
            a, b = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen(
            [exe] + FLAGS + ["--user-data-dir=" + self.profile, "--remote-debugging-pipe",
                             "about:blank"],
            preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf, self.id = b"", 0

    def call(self, method, params=None, session=None, timeout=30):
        self.id += 1
        msg = {"id": self.id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                m = json.loads(raw)
                if m.get("id") == self.id:
                    if "error" in m:
                        raise RuntimeError("%s: %s" % (method, m["error"]))
                    return m["result"]
            ready, _, _ = select.select([self.from_r], [], [], max(0, deadline - time.time()))
            chunk = os.read(self.from_r, 1 << 20) if ready else b""
            if not chunk:
                raise RuntimeError("%s: no answer from chromium" % method)
            self.buf += chunk

    def open(self, url, size=(1280, 900)):
        """A new tab of size pixels showing url once loaded; returns its session."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})
        session = session["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False},
                  session)
        self.call("Page.navigate", {"url": url}, session)
        done = "document.readyState == 'complete' && location.href == " + json.dumps(url)
        for _ in range(500):
            if self.eval(session, done):
                return session
            time.sleep(0.02)
        raise RuntimeError("%s does not load" % url)

    def eval(self, session, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session)
        if "exceptionDetails" in r:
            raise RuntimeError(r["exceptionDetails"].get("exception", {}).get("description", r))
        return r["result"].get("value")

    def close_tab(self, session):
        self.call("Target.detachFromTarget", {"sessionId": session})

    def dom(self, url):
        """The document of url after its scripts ran, as HTML."""
        s = self.open(url)
        text = self.eval(s, "document.documentElement.outerHTML")
        self.close_tab(s)
        return text

    def screenshot(self, url, out, size=(1280, 900)):
        s = self.open(url, size)
        png = self.call("Page.captureScreenshot", {"format": "png"}, s)["data"]
        self.close_tab(s)
        with open(out, "wb") as f:
            f.write(base64.b64decode(png))

    def quit(self):
        try:
            self.call("Browser.close", timeout=5)
            self.proc.wait(timeout=10)
        except (RuntimeError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)
        shutil.rmtree(self.profile, ignore_errors=True)


# ---- A small DOM from the dumped HTML ---------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Node:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.kids = tag, dict(attrs), []

    def text(self):
        return "".join(k if isinstance(k, str) else k.text() for k in self.kids)

    def walk(self):
        yield self
        for k in self.kids:
            if isinstance(k, Node):
                yield from k.walk()

    def cls(self):
        return (self.attrs.get("class") or "").split()


class Parser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [])
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs)
        self.stack[-1].kids.append(n)
        if tag not in VOID:
            self.stack.append(n)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].kids.append(Node(tag, attrs))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].kids.append(data)


def dom(url):
    p = Parser()
    p.feed(BROWSER.dom(url))
    return p.root


def by_id(root, ident):
    return next((n for n in root.walk() if n.attrs.get("id") == ident), None)


def rows(root, cls=None):
    return [n for n in root.walk() if "node" in n.cls() and n.tag == "li" and
            (cls is None or cls in n.cls())]


# ---- The C side --------------------------------------------------------------

def run(*args):
    r = subprocess.run(list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("'%s' failed: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


def oracle_find(tree, *codes):
    out = {}
    for line in run(ORACLE, "find", tree, *codes).splitlines():
        w = line.split(" ")
        out[w[0]] = {"guesses": int(w[1]), "path": w[2] if len(w) > 2 else ""}
    return out


def oracle_node(tree, path):
    line = run(ORACLE, "node", tree, path).rstrip("\n")
    if line.startswith("error "):
        return {"error": line[6:]}
    g, n, e, w, c = line.split(" ")
    return {"guess": g, "count": n, "expected": e, "worst": w, "consistent": c == "1"}


def parent_path(tree, code):
    """The path to the node above the one that finds code."""
    path = oracle_find(tree, code)[code]["path"]
    return path.rsplit(",", 1)[0] if "," in path else ""


def prefixes(path):
    steps = path.split(",") if path else []
    return [",".join(steps[:i]) for i in range(len(steps))]


# ---- Checks -------------------------------------------------------------------

def check_page(root, tree, name):
    """The page decoded its tree and its summary is mmtree stats'."""
    body = next(n for n in root.walk() if n.tag == "body")
    check(body.attrs.get("data-ready") == "yes",
          "%s: the page is not ready: %s" % (name, by_id(root, "error").text()))
    stats = json.loads(run(MMTREE, "stats", "--json", tree))
    check(body.attrs.get("data-total") == str(stats["total"]), "%s: total" % name)
    bars = [n for n in root.walk() if "bar" in n.cls()]
    check([int(b.attrs["data-codes"]) for b in bars] == stats["histogram"],
          "%s: histogram bars %s, stats %s" % (name, [b.attrs.get("data-codes") for b in bars],
                                              stats["histogram"]))
    facts = by_id(root, "facts").text()
    check(("%d (%d cannot be the code)" % (stats["nodes"], stats["inconsistent"])) in facts,
          "%s: nodes in the summary: %s" % (name, facts))
    if "rule" in stats:
        check(stats["rule"] + " rule" in facts, "%s: rule in the summary: %s" % (name, facts))
    return stats


def check_code_link(page, tree, code, name):
    """page#code=CODE opens and highlights the path that finds CODE."""
    root = dom(page + "#code=" + code)
    want = oracle_find(tree, code)[code]
    res = by_id(root, "result")
    check(res.attrs.get("data-guesses") == str(want["guesses"]) and
          res.attrs.get("data-path") == want["path"],
          "%s #code=%s: result %s, C %s" % (name, code, res.attrs, want))
    target = rows(root, "target")
    check(len(target) == 1 and target[0].attrs["data-guess"] == code,
          "%s #code=%s: target row %s" % (name, code, [t.attrs for t in target]))
    check([r.attrs["data-path"] for r in rows(root, "on-path")] == prefixes(want["path"]),
          "%s #code=%s: path rows" % (name, code))
    return root


def check_path_link(page, tree, path, name):
    """page#path=PATH opens that node; the rows show the C values."""
    root = dom(page + "#path=" + path)
    want = oracle_node(tree, path)
    target = rows(root, "target")
    check(len(target) == 1, "%s #path=%s: %d target rows" % (name, path, len(target)))
    if target:
        a = target[0].attrs
        got = {"guess": a["data-guess"], "count": a["data-count"],
               "expected": a["data-expected"], "worst": a["data-worst"]}
        want.pop("consistent")
        check(got == want and a["data-path"] == path,
              "%s #path=%s: row %s, C %s" % (name, path, got, want))
    return root


def drive(page, actions, name):
    """Run tests/render/html_drive.js in page; its report."""
    with open(os.path.join(HERE, "html_drive.js"), encoding="utf-8") as f:
        driver = f.read()
    session = BROWSER.open("file://" + page)
    try:
        got = json.loads(BROWSER.eval(session, "(%s)(%s)" % (driver, json.dumps(actions))))
    except RuntimeError as e:
        check(False, "%s: the driver failed: %s" % (name, e))
        return []
    BROWSER.close_tab(session)
    for r in got:
        check("exception" not in r, "%s: %s" % (name, r))
    return got


def check_driven(page, tree, name, codes, paths, bad, play, secret):
    """Search, errors, the two games, opening a row: through the page's UI."""
    want_codes = oracle_find(tree, *codes, secret)
    actions = [{"find": c} for c in codes] + [{"find": p} for p in paths]
    actions += [{"find": b} for b in bad]
    path = want_codes[secret]["path"]
    replies = [s.split(":")[1] for s in path.split(",")] if path else []
    win = "B" * len(secret)
    actions += [{"play": play}, {"guess": replies + [win]},
                {"guess": replies + [win], "typed": True}, {"open": ""}, {"open": ""},
                {"guess": ["x"], "typed": True}]
    got = drive(page, actions, name)
    if len(got) != len(actions):
        return
    i = 0
    for c in codes:
        r = got[i]
        check(r["data"].get("guesses") == str(want_codes[c]["guesses"]) and
              r["data"].get("path") == want_codes[c]["path"] and r["hash"] == "#code=" + c,
              "%s: find %s: %s, C %s" % (name, c, r, want_codes[c]))
        i += 1
    for p in paths:
        p = p.replace(" ", "")
        r, want = got[i], oracle_node(tree, p)
        check(r["data"].get("guess") == want["guess"] and r["data"].get("count") == want["count"]
              and r["target"] == [p] and r["hash"] == "#path=" + p,
              "%s: find %s: %s, C %s" % (name, p, r, want))
        i += 1
    for b in bad:
        r = got[i]
        want = oracle_node(tree, b).get("error") if ":" in b else run(
            ORACLE, "find", tree, b).strip()[6:]
        check(r["bad"] and r["text"] == want,
              "%s: find %s says '%s', C says '%s'" % (name, b, r["text"], want))
        i += 1
    # Play: replies and codes left as the C library has them for the secret
    # the page revealed; the tree's column is the tree's own game.
    r = got[i]
    i += 1
    lines = run(ORACLE, "play", tree, r["secret"], *play).splitlines()
    tree_game = oracle_find(tree, r["secret"])[r["secret"]]
    tree_steps = (tree_game["path"].split(",") if tree_game["path"] else []) + \
        [r["secret"] + ":" + "B" * len(r["secret"])]
    mine = play.index(r["secret"]) + 1 if r["secret"] in play else len(play)
    for k, row in enumerate(r["rows"]):
        if k < mine:
            g, reply, left = lines[k].split(" ")
            check(row[1:4] == [g, reply, left],
                  "%s: play row %d %s, C %s" % (name, k + 1, row, lines[k]))
        want = tree_steps[k].split(":") if k < len(tree_steps) else ["(found)", ""]
        check(row[4:6] == want, "%s: play row %d tree %s, C %s" % (name, k + 1, row, want))
    check(len(r["rows"]) == max(mine, len(tree_steps)),
          "%s: play has %d rows" % (name, len(r["rows"])))
    # Guess with the tree: its guesses are the ones that find the secret.
    guesses = [s.split(":")[0] for s in path.split(",")] + [secret] if path else [secret]
    for r in got[i:i + 2]:
        check(r.get("seen") == guesses and
              ("found with %d guess" % len(guesses)) in r.get("now", ""),
              "%s: guess with the tree %s, C %s" % (name, r, guesses))
    i += 2
    check(got[i]["expanded"] == "false" and got[i + 1]["expanded"] == "true" and
          got[i + 1]["kids"] > 0, "%s: a click closes and opens the root: %s" % (name, got[i:]))
    # A bad reply typed is quoted as typed (b and w alone read as B and W).
    check("'x' is not a reply" in got[i + 2].get("now", ""),
          "%s: the reply 'x': %s" % (name, got[i + 2]))


def png_colours(path):
    """The number of distinct pixels of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, hdr = 8, b"", None
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    w, h, depth, ctype = hdr[:4]
    assert depth == 8 and ctype in (2, 6), "PNG type %d depth %d" % (ctype, depth)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, seen = bytearray(stride), set()
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + b) & 255
            elif ft == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:
            seen.update(bytes(line[i:i + bpp]) for i in range(0, stride, bpp * 4))
        prev = line
    return len(seen)


def main():
    os.makedirs(WORK, exist_ok=True)
    # JavaScript scoring against the C scorer.
    with open(os.path.join(SRC, "web", "game.js"), encoding="utf-8") as f:
        game_js = f.read()
    with open(os.path.join(HERE, "html_score.js"), encoding="utf-8") as f:
        score_js = f.read()
    session = BROWSER.open("about:blank")
    BROWSER.eval(session, game_js)
    lines = BROWSER.eval(session, "(%s)(%s)" % (score_js, run(ORACLE, "score"))).splitlines()
    BROWSER.close_tab(session)
    check(len(lines) == 11 and all(l.startswith("ok ") for l in lines),
          "JavaScript scoring differs from C: %s" % lines)

    def build(name, *args):
        path = os.path.join(WORK, name)
        run(MMTREE, "build", "-q", "-o", path, *args)
        page = path.rsplit(".", 1)[0] + ".html"
        run(MMTREE, "render", path, "-o", page)
        return path, page

    # Knuth's MM(4,6): deep links, the UI, a screenshot.
    tree, page = build("mm46.txt")
    url = "file://" + page
    root = check_code_link(url, tree, "3632", "MM(4,6)")
    check_page(root, tree, "MM(4,6)")
    check_path_link(url, tree, "1122:B,1344:W", "MM(4,6)")
    check_driven(page, tree, "MM(4,6)", ["1122", "2211", "6666"],
                 ["1122:B,1344:W", "1122:WWW", "", "1122:BW, 1134:BW"],
                 ["1122:B,1345:W", "1122:BBBB", "1122:BBBW", "1122B", "112", "11x2"],
                 ["1234", "5566"], "3632")
    # --highlight: the page opens that code's path.
    run(MMTREE, "render", tree, "-o", page, "--highlight", "2211")
    target = rows(dom("file://" + page), "target")
    check([r.attrs["data-guess"] for r in target] == ["2211"],
          "render --highlight 2211: the target rows are %s" % [r.attrs for r in target])

    # A deep link mangled by hand: the page still starts, and says why.
    root = dom(url + "#code=36%Z2")
    body = next(n for n in root.walk() if n.tag == "body")
    res = by_id(root, "result")
    check(body.attrs.get("data-ready") == "yes" and res.attrs.get("data-error") == "1" and
          res.text() == "the link's code '36%Z2' is not valid percent-encoding",
          "#code=36%%Z2: ready %s, result '%s'" % (body.attrs.get("data-ready"), res.text()))
    # Nothing to fetch: no address, no URL in the style, no loader in the script.
    with open(page, encoding="utf-8") as f:
        text = f.read()
    for needle in ["http:", "https:", "=\"//", " src=", "<link", "url(", "@import", "fetch(",
                   "XMLHttpRequest", "import("]:
        at = text.find(needle)
        check(at < 0, "the page refers to something outside it: '%s' at %d" % (needle, at))

    # The example in docs/ works (written by an mmtree of its time).
    root = dom("file://" + os.path.join(SRC, "docs", "knuth-mm46.html") + "#path=1122:B,1344:W")
    check_page(root, tree, "docs/knuth-mm46.html")
    check([r.attrs["data-path"] for r in rows(root, "target")] == ["1122:B,1344:W"],
          "docs/knuth-mm46.html#path=1122:B,1344:W does not open there")
    shot = os.path.join(WORK, "mm46.png")
    BROWSER.screenshot(url + "#path=1122:B,1344:W", shot)
    colours = png_colours(shot) if os.path.exists(shot) else 0
    check(colours >= 20, "the screenshot has %d colours: blank?" % colours)

    # Bulls and Cows (no repeated colours, digits 0-9) and MM(3,12) (a-b).
    tree, page = build("bc.mmt", "-p", "4", "-c", "10", "-n")
    root = check_code_link("file://" + page, tree, "9876", "MM(4,10)n")
    check_page(root, tree, "MM(4,10)n")
    check_driven(page, tree, "MM(4,10)n", ["0123", "5039"], ["0123:W"], ["1122", "0123:BBBB"],
                 ["0123"], "4567")
    tree, page = build("mm3c.txt", "-p", "3", "-c", "12", "-r", "naive")
    root = check_code_link("file://" + page, tree, "bab", "MM(3,12)")
    check_page(root, tree, "MM(3,12)")
    check_path_link("file://" + page, tree, parent_path(tree, "bab"), "MM(3,12)")

    # A tree not proven optimal says so.
    unproven = os.path.join(WORK, "unproven.html")
    run(ORACLE, "unproven", unproven)
    facts = by_id(dom("file://" + unproven), "facts").text()
    check("not proven optimal, lower bound 201" in facts, "unproven: %s" % facts)

    # MM(5,8) with the entropy rule: 32768 codes, some 34,800 nodes.  The
    # page holds the whole tree but makes rows only when they are opened.
    # The tree is the output of `mmtree build -p 5 -c 8 -r entropy`, kept
    # here because compiling it takes seconds (a minute with sanitizers).
    tree, page = os.path.join(HERE, "mm58-entropy.mmt"), os.path.join(WORK, "mm58.html")
    run(MMTREE, "render", tree, "-o", page)
    worst = run(ORACLE, "find", tree).split()[0]
    root = check_code_link("file://" + page, tree, worst, "MM(5,8)")
    stats = check_page(root, tree, "MM(5,8)")
    made = len(rows(root))
    check(made < 500, "MM(5,8): %d rows made at load, of %d nodes" % (made, stats["nodes"]))
    print("MM(5,8) entropy: %d nodes, page %d bytes (%.2f a code), %d rows made, load %s ms"
          % (stats["nodes"], os.path.getsize(page), os.path.getsize(page) / stats["codes"], made,
             next(n for n in root.walk() if n.tag == "body").attrs.get("data-load-ms")))
    check_path_link("file://" + page, tree, parent_path(tree, worst), "MM(5,8)")

    if failures:
        print("%d checks failed" % len(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    exe = find_chromium()
    if not exe:
        print("chromium is not installed: skipping the browser tests of the HTML view "
              "(tests/deps.sh installs it)", file=sys.stderr)
        sys.exit(77)
    BROWSER = Browser(exe)
    try:
        rc = main()
    finally:
        BROWSER.quit()
    sys.exit(rc)
