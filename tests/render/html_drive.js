/*
 * Test driver, run in a page of the HTML view by tests/render/html_browser.py
 * as the function expression it is: it does what ACTIONS says through the
 * page's own forms and buttons, and returns what the page showed, as JSON,
 * for the Python side to compare with the C library.
 */
(function (ACTIONS) {
    "use strict";
    const $ = id => document.getElementById(id);
    const rowsOf = sel => [...document.querySelectorAll(sel)].map(li => li.dataset.path);
    const report = [];

    function find(text) {
        $("query").value = text;
        $("search").requestSubmit();
        const r = $("result");
        return {find: text, text: r.textContent, bad: r.classList.contains("bad"),
                data: Object.assign({}, r.dataset), hash: location.hash,
                target: rowsOf(".target"), onPath: rowsOf(".on-path"),
                rows: document.querySelectorAll("li.node").length};
    }

    /* Guesses against the page's secret, then give up: the whole table. */
    function play(guesses) {
        $("play-new").click();
        for (const g of guesses) {
            $("play-guess").value = g;
            $("play-form").requestSubmit();
        }
        $("play-reveal").click();
        const rows = [...$("play-table").tBodies[0].rows].map(tr =>
            [...tr.cells].map(td => td.textContent));
        return {play: guesses, rows: rows, secret: $("play-msg").dataset.secret,
                msg: $("play-msg").textContent};
    }

    /* Replies to the tree's guesses: buttons, or typed when "typed". */
    function guess(replies, typed) {
        $("guess-restart").click();
        const seen = [];
        for (const r of replies) {
            seen.push($("guess-now").dataset.guess);
            if (typed) {
                $("guess-reply").value = r;
                $("guess-form").requestSubmit();
            } else {
                const b = [...$("guess-replies").children].find(e => e.textContent === r);
                if (!b)
                    return {guess: replies, error: "no button " + r, seen: seen};
                b.click();
            }
        }
        return {guess: replies, seen: seen, now: $("guess-now").textContent,
                steps: $("guess-steps").children.length};
    }

    function open(path) {
        const li = [...document.querySelectorAll("li.node")].find(e => e.dataset.path === path);
        li.firstChild.click();
        const ul = li.querySelector(":scope > ul");
        return {open: path, kids: ul && !ul.hidden ? ul.children.length : 0,
                expanded: li.getAttribute("aria-expanded")};
    }

    /* A page that failed has no handlers: a form would submit and reload. */
    if (document.body.dataset.ready !== "yes")
        report.push({exception: "the page is not ready: " + $("error").textContent});
    for (const a of report.length ? [] : ACTIONS) {
        try {
            report.push(a.find !== undefined ? find(a.find) : a.play ? play(a.play)
                        : a.guess ? guess(a.guess, a.typed) : open(a.open));
        } catch (e) {
            report.push({action: a, exception: String(e)});
        }
    }
    return JSON.stringify(report);
})
