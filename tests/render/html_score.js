/*
 * web/game.js against the C library, run by tests/render/html_browser.py
 * as the function expression it is, after game.js: CASES (html_oracle
 * score) gives, for several games, pairs of codes with their reply slot,
 * codes with their letters, and the letters of every reply with the slot
 * they parse as (-1 when refused).  Returns one
 * line per game: "ok MM(p,c)..." or the first differences.
 */
(function (CASES) {
    "use strict";
    const lines = [];
    for (const k of CASES) {
        const g = new Game(k.pegs, k.colors, k.repeat), bad = [];
        const name = g.name() + (k.repeat ? "" : "n");
        if (g.ncodes !== k.ncodes)
            bad.push("ncodes " + g.ncodes + ", C " + k.ncodes);
        for (const [a, b, slot] of k.pairs)
            if (g.score(a, b) !== slot)
                bad.push("score(" + a + ", " + b + ") = " + g.score(a, b) + ", C " + slot);
        for (const [x, text] of k.codes) {
            if (g.codeText(x) !== text)
                bad.push("code " + x + " is " + g.codeText(x) + ", C " + text);
            if (g.parseCode(text) !== x)
                bad.push(text + " parses as " + g.parseCode(text) + ", C " + x);
        }
        k.replies.forEach(([text, back], s) => {
            let parsed;
            try {
                parsed = g.parseReply(text);
            } catch (e) {
                parsed = -1;
            }
            if (g.replyText(s) !== text || parsed !== back)
                bad.push("reply " + s + " is " + g.replyText(s) + ", parsed " + parsed +
                         "; C " + text + ", " + back);
        });
        lines.push(bad.length ? "FAIL " + name + ": " + bad.slice(0, 5).join("; ")
                              : "ok " + name + " " + k.pairs.length + " pairs");
    }
    return lines.join("\n");
})
