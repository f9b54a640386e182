/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The HTML view of a strategy tree (render/html.c writes the page from
 * web/page.html, this file, game.js and style.css): an outline that opens
 * a node on click, a summary, a search by secret code or by path, deep
 * links (#code=3632, #path=1122:B,1344:W) and two games.
 *
 * The tree comes as JSON in #mmtree-data: the keys of `mmtree stats
 * --json`, "path", "depth" and "highlight" (what to open first), and
 * "mmt", the tree in the binary format (format/binary.md), base64.  The
 * page decodes the tree with its own scoring and compares the totals with
 * the ones mmtree wrote, so that a disagreement shows instead of a wrong
 * tree.  Rows are made when their parent is first opened: a page opens at
 * once whatever the size of its tree.
 */
"use strict";

(function () {
    const t0 = performance.now();
    const $ = id => document.getElementById(id);

    /* An element with a class and text content. */
    function el(tag, cls, text) {
        const e = document.createElement(tag);
        if (cls)
            e.className = cls;
        if (text !== undefined)
            e.textContent = text;
        return e;
    }

    function fail(msg) {
        const e = $("error");
        e.textContent = msg;
        e.hidden = false;
        document.body.dataset.ready = "error";
    }

    let data, game, tree;
    try {
        data = JSON.parse($("mmtree-data").textContent);
        game = new Game(data.pegs, data.colors, data.repeat);
        const bin = atob(data.mmt), bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++)
            bytes[i] = bin.charCodeAt(i);
        tree = decodeTree(game, bytes);
        const mine = [tree.n, tree.total[0], tree.worst[0], tree.inconsistent, tree.hist.join(",")];
        const theirs = [data.nodes, data.total, data.worst, data.inconsistent, data.histogram.join(",")];
        if (mine.join(" ") !== theirs.join(" "))
            throw new Error("the page decodes nodes, total, worst, inconsistent, histogram as " +
                            mine.join(" ") + ", mmtree wrote " + theirs.join(" "));
    } catch (e) {
        fail("Cannot show this tree: " + e.message + ".");
        return;
    }

    /* ---- Formatting ----------------------------------------------------- */

    const expected = v => (tree.total[v] / tree.count[v]).toFixed(2);
    const pathOf = v => game.formatPath(tree.steps(v));
    const plural = (n, one, many) => n + " " + (n === 1 ? one : many);

    /* A code as coloured pegs, its letters inside. */
    function codeEl(x) {
        const s = el("span", "code");
        s.dataset.code = game.codeText(x);
        for (let i = 0; i < game.pegs; i++) {
            const k = game.peg[x * game.pegs + i];
            s.appendChild(el("i", "peg c" + k, game.colorChar(k)));
        }
        return s;
    }

    function replyEl(slot) {
        return el("span", "reply", game.replyText(slot));
    }

    function facts(dl, items) {
        dl.replaceChildren();
        for (const [term, value] of items) {
            dl.appendChild(el("dt", "", term));
            const dd = el("dd");
            dd.append(value);
            dl.appendChild(dd);
        }
    }

    /* ---- Summary -------------------------------------------------------- */

    function summary() {
        const name = game.name() + (game.repeat ? "" : " without repeated colours");
        let rule = data.rule ? data.rule + " rule" : data.citation ? "published tree" : "unknown";
        if (data.consistent_only)
            rule += ", consistent guesses only";
        document.title = name + (data.rule ? ", " + data.rule : "") + " - mmtree";
        $("title").textContent = name + (data.rule ? ", " + data.rule + " rule" : "");
        $("subtitle").textContent = plural(data.codes, "code", "codes") + ", found in " +
            (data.total / data.codes).toFixed(4) + " guesses on average, at most " + data.worst;
        const items = [["game", name + ", " + plural(game.ncodes, "code", "codes")],
                       ["rule", rule]];
        if (data.citation)
            items.push(["citation", data.citation]);
        if (data.fixed_first)
            items.push(["first guess", "fixed: " + data.fixed_first]);
        if (data.tie_break)
            items.push(["ties", data.tie_break]);
        if (data.max_depth)
            items.push(["depth cap", String(data.max_depth)]);
        if (data.extra_colors)
            items.push(["extra colours", String(data.extra_colors)]);
        if (data.proven === true)
            items.push(["optimal", "proven"]);
        if (data.proven === false)
            items.push(["optimal", "not proven optimal, lower bound " + data.lower_bound +
                        (data.worst_lower_bound ? " (worst case " + data.worst_lower_bound + ")" : "")]);
        items.push(["total", plural(data.total, "guess", "guesses")],
                   ["expected", (data.total / data.codes).toFixed(4)],
                   ["worst", plural(data.worst, "guess", "guesses")],
                   ["nodes", data.nodes + " (" + data.inconsistent + " cannot be the code)"]);
        facts($("facts"), items);
        document.body.dataset.total = data.total;

        const most = Math.max(...data.histogram), h = $("histogram");
        data.histogram.forEach((n, i) => {
            const bar = el("div", "bar");
            bar.dataset.guesses = i + 1;
            bar.dataset.codes = n;
            bar.title = plural(n, "code", "codes") + " found with " + plural(i + 1, "guess", "guesses");
            bar.appendChild(el("span", "n", String(i + 1)));
            const fill = el("span", "fill");
            fill.style.width = (n ? Math.max(0.5, 100 * n / most) : 0) + "%";
            bar.appendChild(fill);
            bar.appendChild(el("span", "count", String(n)));
            h.appendChild(bar);
        });
        $("footer").textContent = "Written by mmtree " + data.version + ".";
    }

    /* ---- The outline ---------------------------------------------------- */

    const rows = new Map(); /* node -> its <li>, once made */
    let selected = -1;

    function makeRow(v) {
        const li = el("li", "node");
        li.setAttribute("role", "treeitem");
        Object.assign(li.dataset, {node: v, path: pathOf(v), guess: game.codeText(tree.guess[v]),
                                   count: tree.count[v], expected: expected(v),
                                   worst: tree.worst[v]});
        const line = el("div", "row");
        const toggle = el("button", "toggle", tree.kidCount[v] ? "\u25b8" : "");
        toggle.type = "button";
        toggle.tabIndex = -1;
        toggle.setAttribute("aria-label", "open");
        if (!tree.kidCount[v])
            toggle.disabled = true;
        line.appendChild(toggle);
        if (tree.parent[v] >= 0)
            line.appendChild(replyEl(tree.slot[v]));
        line.appendChild(codeEl(tree.guess[v]));
        line.appendChild(el("span", "count", plural(tree.count[v], "code", "codes")));
        line.appendChild(el("span", "stats", "E " + expected(v) + " \u00b7 max " + tree.worst[v]));
        if (!tree.consistent[v])
            line.appendChild(el("span", "tag no", "cannot be the code"));
        else if (!tree.kidCount[v])
            line.appendChild(el("span", "tag leaf", "found"));
        line.tabIndex = 0;
        line.addEventListener("click", () => {
            select(v);
            setOpen(v, !li.classList.contains("open"));
        });
        line.addEventListener("keydown", e => {
            if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                line.click();
            }
        });
        li.appendChild(line);
        rows.set(v, li);
        return li;
    }

    /* Open or close node v; its children's rows are made the first time. */
    function setOpen(v, open) {
        const li = rows.get(v);
        if (!tree.kidCount[v])
            return;
        let ul = li.querySelector(":scope > ul");
        if (open && !ul) {
            ul = el("ul");
            ul.setAttribute("role", "group");
            for (let j = 0; j < tree.kidCount[v]; j++)
                ul.appendChild(makeRow(tree.kids[tree.kidStart[v] + j]));
            li.appendChild(ul);
        }
        if (ul)
            ul.hidden = !open;
        li.classList.toggle("open", open);
        li.setAttribute("aria-expanded", String(open));
        li.firstChild.firstChild.textContent = open ? "\u25be" : "\u25b8";
    }

    /* Open the rows down to v and return its row. */
    function reveal(v) {
        const up = [];
        for (let u = tree.parent[v]; u >= 0; u = tree.parent[u])
            up.push(u);
        up.reverse().forEach(u => setOpen(u, true));
        return rows.get(v);
    }

    function openLevels(v, levels) {
        if (levels <= 1)
            return;
        setOpen(v, true);
        for (let j = 0; j < tree.kidCount[v]; j++)
            openLevels(tree.kids[tree.kidStart[v] + j], levels - 1);
    }

    /* Mark the rows of nodes[] (a path from the root), the last as the target. */
    function highlight(nodes) {
        document.querySelectorAll(".on-path, .target").forEach(e =>
            e.classList.remove("on-path", "target"));
        nodes.forEach((v, i) => reveal(v).classList.add(i === nodes.length - 1 ? "target" : "on-path"));
        const last = rows.get(nodes[nodes.length - 1]);
        select(nodes[nodes.length - 1]);
        showTab("tree");
        last.firstChild.scrollIntoView({block: "nearest"});
    }

    /* ---- The selected node ---------------------------------------------- */

    function select(v) {
        if (selected >= 0 && rows.has(selected))
            rows.get(selected).classList.remove("selected");
        selected = v;
        reveal(v).classList.add("selected");
        const path = pathOf(v), link = el("a", "", path || "(the start)");
        link.href = "#path=" + path;
        const items = [["path", link], ["guess", codeEl(tree.guess[v])],
                       ["can be the code", tree.consistent[v] ? "yes" : "no"],
                       ["codes left", String(tree.count[v])],
                       ["guesses so far", String(tree.depth(v) - 1)],
                       ["from here", "E " + expected(v) + ", at most " + tree.worst[v]]];
        if (tree.kidCount[v]) {
            const replies = el("span", "replies");
            for (let j = 0; j < tree.kidCount[v]; j++) {
                const c = tree.kids[tree.kidStart[v] + j], pair = el("span", "pair");
                pair.title = plural(tree.count[c], "code", "codes") + " give " +
                    game.replyText(tree.slot[c]);
                pair.append(replyEl(tree.slot[c]), " " + tree.count[c]);
                replies.appendChild(pair);
            }
            items.push(["replies", replies]);
        }
        facts($("node-facts"), items);
        const codes = codesAfter(game, tree.steps(v)), shown = 256;
        $("codes-title").textContent = "Codes still possible (" + codes.length + ")";
        $("codes").textContent = codes.slice(0, shown).map(x => game.codeText(x)).join(" ") +
            (codes.length > shown ? " \u2026 and " + (codes.length - shown) + " more" : "");
        $("details").hidden = false;
    }

    /* ---- Search and deep links ------------------------------------------ */

    function say(msg, bad, attrs) {
        const r = $("result");
        r.textContent = msg;
        r.className = bad ? "bad" : "";
        for (const k of Object.keys(r.dataset))
            delete r.dataset[k];
        Object.assign(r.dataset, attrs || {});
    }

    function findCode(text) {
        const x = game.parseCode(text), nodes = tree.play(game, x);
        const steps = tree.steps(nodes[nodes.length - 1]);
        highlight(nodes);
        say(game.codeText(x) + " is found with " + plural(nodes.length, "guess", "guesses") +
            (steps.length ? ": " + game.formatPath(steps) + ", then " + game.codeText(x) : ", the first"),
            false, {code: game.codeText(x), guesses: nodes.length, path: game.formatPath(steps)});
    }

    function findPath(text) {
        const v = tree.follow(game, game.parsePath(text)), nodes = [];
        for (let u = v; u >= 0; u = tree.parent[u])
            nodes.unshift(u);
        highlight(nodes);
        say((pathOf(v) || "The start") + ": the tree guesses " + game.codeText(tree.guess[v]) +
            ", " + plural(tree.count[v], "code", "codes") + " left", false,
            {path: pathOf(v), guess: game.codeText(tree.guess[v]), count: tree.count[v]});
    }

    /* A code, or a path when it has a colon (or is empty: the root);
     * spaces are ignored.  Returns the deep link of what was found, or ""
     * after an error. */
    function find(text) {
        text = text.replace(/\s+/g, "");
        try {
            if (text === "" || text.includes(":")) {
                findPath(text);
                return "#path=" + text;
            }
            findCode(text);
            return "#code=" + text;
        } catch (e) {
            say(e.message, true, {error: "1"});
            return "";
        }
    }

    function route() {
        const m = /^#(code|path)=(.*)$/.exec(location.hash);
        if (!m)
            return false;
        /* A link mangled by hand ('%ZZ') must not stop the page. */
        let text;
        try {
            text = decodeURIComponent(m[2]);
        } catch (e) {
            $("query").value = m[2];
            say("the link's " + m[1] + " '" + m[2] + "' is not valid percent-encoding", true,
                {error: "1"});
            return true;
        }
        $("query").value = text;
        find(text);
        return true;
    }

    $("search").addEventListener("submit", e => {
        e.preventDefault();
        const link = find($("query").value);
        if (link)
            history.replaceState(null, "", link);
    });
    window.addEventListener("hashchange", route);

    /* ---- Tabs ------------------------------------------------------------ */

    function showTab(name) {
        document.querySelectorAll("#tabs [role=tab]").forEach(b => {
            const on = b.dataset.tab === name;
            b.setAttribute("aria-selected", String(on));
            $("tab-" + b.dataset.tab).hidden = !on;
        });
    }
    document.querySelectorAll("#tabs [role=tab]").forEach(b =>
        b.addEventListener("click", () => showTab(b.dataset.tab)));

    /* ---- Play against the tree: the page keeps a secret ----------------- */

    const play = {secret: 0, steps: [], tree: [], over: false};

    function playNew() {
        play.secret = Math.floor(Math.random() * game.ncodes);
        play.steps = [];
        play.tree = tree.play(game, play.secret);
        play.over = false;
        $("play-table").tBodies[0].replaceChildren();
        $("play-msg").textContent = "A secret is chosen among " +
            plural(game.ncodes, "code", "codes") + ": your guess?";
        $("play-guess").placeholder = "e.g. " + game.codeText(0);
    }

    /* The tree's k-th guess against the secret, and its reply. */
    function treeCells(tr, k) {
        if (k >= play.tree.length) {
            tr.append(el("td", "", "(found)"), el("td"));
            return;
        }
        const g = tree.guess[play.tree[k]], td = el("td");
        td.appendChild(codeEl(g));
        tr.append(td, el("td", "", game.replyText(game.score(g, play.secret))));
    }

    function playGuess(text) {
        if (play.over)
            return;
        let x;
        try {
            x = game.parseCode(text.replace(/\s+/g, ""));
        } catch (e) {
            $("play-msg").textContent = e.message;
            return;
        }
        const slot = game.score(x, play.secret), k = play.steps.length;
        play.steps.push({guess: x, slot: slot});
        const left = codesAfter(game, play.steps).length, tr = el("tr"), td = el("td");
        td.appendChild(codeEl(x));
        tr.append(el("td", "", String(k + 1)), td, el("td", "reply", game.replyText(slot)),
                  el("td", "", String(left)));
        treeCells(tr, k);
        $("play-table").tBodies[0].appendChild(tr);
        $("play-guess").value = "";
        if (slot === game.win)
            playOver("Found in " + plural(k + 1, "guess", "guesses") + "; the tree needs " +
                     play.tree.length + ".");
        else
            $("play-msg").textContent = plural(left, "code is", "codes are") + " still possible.";
    }

    /* Show the rest of the tree's game and end this one. */
    function playOver(msg) {
        play.over = true;
        const body = $("play-table").tBodies[0];
        for (let k = body.rows.length; k < play.tree.length; k++) {
            const tr = el("tr", "tree-only");
            tr.append(el("td", "", String(k + 1)), el("td"), el("td"), el("td"));
            treeCells(tr, k);
            body.appendChild(tr);
        }
        $("play-msg").textContent = msg;
        $("play-msg").dataset.secret = game.codeText(play.secret);
    }

    $("play-form").addEventListener("submit", e => {
        e.preventDefault();
        playGuess($("play-guess").value);
    });
    $("play-new").addEventListener("click", playNew);
    $("play-reveal").addEventListener("click", () => {
        if (!play.over)
            playOver("The secret was " + game.codeText(play.secret) + "; the tree finds it with " +
                     plural(play.tree.length, "guess", "guesses") + ".");
    });

    /* ---- Guess with the tree: the player keeps a secret ----------------- */

    const guess = {nodes: [0], done: false};

    function guessShow(msg) {
        const v = guess.nodes[guess.nodes.length - 1], list = $("guess-steps");
        list.replaceChildren();
        for (let i = 1; i < guess.nodes.length; i++) {
            const li = el("li");
            li.append(codeEl(tree.guess[guess.nodes[i - 1]]), " ", replyEl(tree.slot[guess.nodes[i]]));
            list.appendChild(li);
        }
        const now = $("guess-now"), buttons = $("guess-replies");
        buttons.replaceChildren();
        now.replaceChildren();
        now.dataset.guess = game.codeText(tree.guess[v]);
        now.dataset.count = tree.count[v];
        if (guess.done) {
            now.append("Your code is ", codeEl(tree.guess[v]), ", found with " +
                       plural(guess.nodes.length, "guess", "guesses") + ".");
            return;
        }
        now.append("The tree guesses ", codeEl(tree.guess[v]),
                   " (" + plural(tree.count[v], "code", "codes") + " still possible)." +
                   (msg ? " " + msg : ""));
        const slots = [];
        for (let j = 0; j < tree.kidCount[v]; j++)
            slots.push(tree.slot[tree.kids[tree.kidStart[v] + j]]);
        if (tree.consistent[v])
            slots.push(game.win);
        for (const s of slots) {
            const b = el("button", "reply", game.replyText(s));
            b.type = "button";
            b.addEventListener("click", () => guessReply(game.replyText(s)));
            buttons.appendChild(b);
        }
    }

    function guessReply(text) {
        const v = guess.nodes[guess.nodes.length - 1], g = game.codeText(tree.guess[v]);
        let s;
        try {
            s = game.parseReply(text.replace(/\s+/g, "").replace(/[bw]/g, c => c.toUpperCase()));
        } catch (e) {
            guessShow(e.message);
            return;
        }
        const c = s === game.win ? -1 : tree.child(v, s);
        if (s === game.win && tree.consistent[v])
            guess.done = true;
        else if (c >= 0)
            guess.nodes.push(c);
        else
            return guessShow("No code still possible gives reply " + game.replyText(s) + " to " +
                             g + ": check the replies so far.");
        $("guess-reply").value = "";
        guessShow("");
    }

    $("guess-form").addEventListener("submit", e => {
        e.preventDefault();
        guessReply($("guess-reply").value);
    });
    $("guess-back").addEventListener("click", () => {
        if (guess.done)
            guess.done = false;
        else if (guess.nodes.length > 1)
            guess.nodes.pop();
        guessShow("");
    });
    $("guess-restart").addEventListener("click", () => {
        guess.nodes = [0];
        guess.done = false;
        guessShow("");
    });

    /* ---- Start ---------------------------------------------------------- */

    summary();
    document.documentElement.style.setProperty("--pegs", game.pegs);
    $("tree").appendChild(makeRow(0));
    openLevels(0, data.depth || 2);
    playNew();
    guessShow("");
    if (!route()) {
        if (data.highlight)
            find(data.highlight);
        else if (data.path)
            find(data.path);
        else
            select(0);
    }
    document.body.dataset.loadMs = Math.round(performance.now() - t0);
    document.body.dataset.ready = "yes";
})();
