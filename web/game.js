/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The game, replies, paths and tree decoding of mmtree, in JavaScript, for
 * the HTML view (render/html.c embeds this file before view.js).  It
 * follows the C definitions: include/mmtree/game.h (codes, the score,
 * reply slots), include/mmtree/path.h (Knuth's letters, "1122:B,1344:W")
 * and format/binary.md (the tree).  No DOM here, so that the tests can run
 * it against the C scorer.
 */
"use strict";

/* MM(pegs, colors), with or without repeated colours.  Codes are numbered
 * by their rank in lexical order, colour 0 lowest and peg 0 most
 * significant; colours print as 1-9, or 0-9 then a-f from 10 colours. */
function Game(pegs, colors, repeat) {
    this.pegs = pegs;
    this.colors = colors;
    this.repeat = repeat;
    /* ORDER REPLY: black ascending, white descending within a black count. */
    this.black = [];
    this.white = [];
    this.slotOf = new Int8Array((pegs + 1) * (pegs + 1)).fill(-1); /* [black][hits] */
    for (let b = 0; b <= pegs; b++)
        for (let w = pegs - b; w >= 0; w--) {
            this.slotOf[b * (pegs + 1) + b + w] = this.black.length;
            this.black.push(b);
            this.white.push(w);
        }
    this.nreplies = this.black.length;
    this.win = this.nreplies - 1;

    let n = 1;
    for (let i = 0; i < pegs; i++)
        n *= repeat ? colors : colors - i;
    this.ncodes = n;
    this.peg = new Uint8Array(n * pegs);   /* peg i of code x: peg[x * pegs + i] */
    this.cnt = new Uint8Array(n * colors); /* pegs of colour k: cnt[x * colors + k] */
    /* In lexical order: colours rise at each peg, the last peg fastest. */
    const p = new Array(pegs);
    let x = 0;
    const fill = (i, used) => {
        if (i === pegs) {
            for (let j = 0; j < pegs; j++) {
                this.peg[x * pegs + j] = p[j];
                this.cnt[x * colors + p[j]]++;
            }
            x++;
            return;
        }
        for (let k = 0; k < colors; k++)
            if (repeat || !(used >> k & 1)) {
                p[i] = k;
                fill(i + 1, used | 1 << k);
            }
    };
    fill(0, 0);
}

/* The reply slot of guess a against secret b (Knuth: black = equal
 * positions, black + white = sum over colours of the smaller count). */
Game.prototype.score = function (a, b) {
    const p = this.pegs, c = this.colors, peg = this.peg, cnt = this.cnt;
    let black = 0, hits = 0;
    for (let i = 0, ia = a * p, ib = b * p; i < p; i++)
        if (peg[ia + i] === peg[ib + i])
            black++;
    for (let k = 0, ka = a * c, kb = b * c; k < c; k++) {
        const u = cnt[ka + k], v = cnt[kb + k];
        hits += u < v ? u : v;
    }
    return this.slotOf[black * (p + 1) + hits];
};

Game.prototype.name = function () {
    return "MM(" + this.pegs + "," + this.colors + ")";
};

Game.prototype.colorChar = function (k) {
    return this.colors <= 9 ? String(k + 1) : "0123456789abcdef"[k];
};

Game.prototype.codeText = function (x) {
    let s = "";
    for (let i = 0; i < this.pegs; i++)
        s += this.colorChar(this.peg[x * this.pegs + i]);
    return s;
};

/* The rank of a code written in the game's letters; throws an Error
 * worded as mm_code_parse's. */
Game.prototype.parseCode = function (text) {
    const p = this.pegs, c = this.colors;
    if (text.length !== p)
        throw new Error("'" + text + "' is not a code: it has " + text.length +
                        " pegs, the game " + p);
    let rank = 0, used = 0;
    for (let i = 0; i < p; i++) {
        const ch = text[i].toLowerCase();
        let k = c <= 9 ? "123456789".indexOf(ch) : "0123456789abcdef".indexOf(ch);
        if (k < 0 || k >= c)
            throw new Error("'" + text + "' is not a code: '" + text[i] +
                            "' is not one of the " + c + " colours");
        if (this.repeat) {
            rank = rank * c + k;
        } else {
            if (used >> k & 1)
                throw new Error("'" + text + "' is not a code: the game has no repeated colours");
            /* Rank among k-permutations: colours not used yet below k. */
            let smaller = 0;
            for (let j = 0; j < k; j++)
                smaller += (used >> j & 1) ^ 1;
            rank = rank * (c - i) + smaller;
            used |= 1 << k;
        }
    }
    return rank;
};

/* Knuth's letters: one B per black hit, then one W per white hit; "-"
 * for none. */
Game.prototype.replyText = function (slot) {
    const s = "B".repeat(this.black[slot]) + "W".repeat(this.white[slot]);
    return s || "-";
};

/* Letters B and W in any order, or "-", to a slot; throws otherwise. */
Game.prototype.parseReply = function (text) {
    let b = 0, w = 0, ok = text.length > 0;
    if (text !== "-")
        for (const ch of text) {
            if (ch === "B") b++;
            else if (ch === "W") w++;
            else ok = false;
        }
    if (!ok || b + w > this.pegs)
        throw new Error("'" + text + "' is not a reply: write B per black hit and W per " +
                        "white hit (at most " + this.pegs + "), or '-' for none");
    if (b === this.pegs - 1 && w === 1)
        throw new Error("'" + text + "' is not a reply: " + b + " black and 1 white cannot happen");
    return this.slotOf[b * (this.pegs + 1) + b + w];
};

/* "1122:B,1344:W" to [{guess, slot}, ...]; "" is the root.  Errors are
 * worded as mm_path_parse's. */
Game.prototype.parsePath = function (text) {
    if (text === "")
        return [];
    return text.split(",").map((step, i) => {
        const colon = step.indexOf(":");
        if (colon < 0)
            throw new Error("path step " + (i + 1) + " '" + step + "': expected GUESS:REPLY");
        try {
            return {guess: this.parseCode(step.slice(0, colon)),
                    slot: this.parseReply(step.slice(colon + 1))};
        } catch (e) {
            throw new Error("path step " + (i + 1) + ": " + e.message);
        }
    });
};

Game.prototype.formatPath = function (steps) {
    return steps.map(s => this.codeText(s.guess) + ":" + this.replyText(s.slot)).join(",");
};

/* ---- The tree ------------------------------------------------------------
 *
 * A tree is stored as a file of the binary format (format/binary.md),
 * which holds only the guesses, in preorder; the codes still possible at
 * each node follow from the game, so decoding recomputes every count,
 * whether each guess can be the code, and the children.  Nodes are
 * numbered in preorder (0 = the root).
 */

function Tree(n) {
    this.n = n;
    this.guess = new Int32Array(n);
    this.count = new Int32Array(n);      /* codes still possible */
    this.parent = new Int32Array(n);     /* -1 for the root */
    this.slot = new Int8Array(n);        /* reply from the parent */
    this.consistent = new Uint8Array(n); /* the guess can be the code */
    this.kidStart = new Int32Array(n);   /* children: kids[kidStart .. +kidCount) */
    this.kidCount = new Uint8Array(n);
    this.kids = new Int32Array(n);
    this.total = new Float64Array(n);    /* guesses from here, this one included, summed over the codes */
    this.worst = new Uint8Array(n);      /* most guesses from here */
    this.hist = [];                      /* hist[i]: codes found with i + 1 guesses */
    this.inconsistent = 0;
}

/* The child of node v for reply slot s, or -1. */
Tree.prototype.child = function (v, s) {
    for (let j = 0; j < this.kidCount[v]; j++)
        if (this.slot[this.kids[this.kidStart[v] + j]] === s)
            return this.kids[this.kidStart[v] + j];
    return -1;
};

/* The steps from the root to node v. */
Tree.prototype.steps = function (v) {
    const steps = [];
    for (; this.parent[v] >= 0; v = this.parent[v])
        steps.push({guess: this.guess[this.parent[v]], slot: this.slot[v]});
    return steps.reverse();
};

Tree.prototype.depth = function (v) {
    let d = 1;
    for (; this.parent[v] >= 0; v = this.parent[v])
        d++;
    return d;
};

/* The node a path reaches; throws as mm_tree_follow does. */
Tree.prototype.follow = function (game, steps) {
    let v = 0;
    steps.forEach((st, i) => {
        const at = "path step " + (i + 1) + ": ", want = game.codeText(st.guess);
        const reply = game.replyText(st.slot);
        if (this.guess[v] !== st.guess)
            throw new Error(at + "the tree guesses " + game.codeText(this.guess[v]) +
                            " there, not " + want);
        if (st.slot === game.win)
            throw new Error(at + "reply " + reply + " to " + want + " ends the game");
        const c = this.child(v, st.slot);
        if (c < 0)
            throw new Error(at + "no code still possible gives reply " + reply + " to " + want);
        v = c;
    });
    return v;
};

/* The nodes at which the tree guesses the secret x, from the root: the
 * last one guesses x. */
Tree.prototype.play = function (game, x) {
    const nodes = [0];
    for (let v = 0; this.guess[v] !== x;) {
        v = this.child(v, game.score(this.guess[v], x));
        if (v < 0)
            throw new Error("the tree does not find " + game.codeText(x));
        nodes.push(v);
    }
    return nodes;
};

/* The codes still possible after steps, in lexical order. */
function codesAfter(game, steps) {
    const out = [];
    for (let x = 0; x < game.ncodes; x++)
        if (steps.every(st => game.score(st.guess, x) === st.slot))
            out.push(x);
    return out;
}

/* The header of a .mmt file, versions 1 and 2: {pegs, colors, repeat,
 * nodes, payload}; the provenance it holds is skipped (the page's JSON has
 * it). */
function readMmtHeader(bytes) {
    const sig = [0x89, 0x4d, 0x4d, 0x54, 0x0d, 0x0a, 0x1a, 0x0a];
    let at = 0;
    const need = (k, what) => {
        if (at + k > bytes.length)
            throw new Error("the tree data is truncated in its " + what);
    };
    const u8 = () => bytes[at++];
    const u16 = () => (at += 2, bytes[at - 2] | bytes[at - 1] << 8);
    const u32 = () => (at += 4, (bytes[at - 4] | bytes[at - 3] << 8 | bytes[at - 2] << 16) +
                                bytes[at - 1] * 0x1000000);
    need(16, "header");
    if (sig.some((b, i) => bytes[i] !== b))
        throw new Error("the tree data is not an mmtree binary tree");
    at = 8;
    const version = u8();
    if (version !== 1 && version !== 2)
        throw new Error("the tree data is of binary format version " + version +
                        ", this page reads versions 1 and 2");
    const h = {pegs: u8(), colors: u8()}, flags = u8();
    h.repeat = (flags & 1) !== 0;
    h.nodes = u32();
    if (flags & 2) { need(1, "rule"); at += 1 + bytes[at]; }          /* RULE */
    if (flags & 8) at += 4;                                           /* FIRST */
    if (flags & 32) { need(3, "options"); at += 3 + bytes[at + 2]; }  /* OPTIONS */
    if (flags & 64) { need(1, "proof"); at += bytes[at] === 2 ? 10 : 1; } /* PROOF */
    if (flags & 16) { need(2, "citation"); at += 2 + (bytes[at] | bytes[at + 1] << 8); }
    need(4, "payload length");
    const len = u32();
    need(len, "payload");
    h.payload = bytes.subarray(at, at + len);
    return h;
}

/* Decode a .mmt file (a Uint8Array) into a Tree of game; throws an Error
 * that says what is wrong. */
function decodeTree(game, bytes) {
    const h = readMmtHeader(bytes);
    if (h.pegs !== game.pegs || h.colors !== game.colors || h.repeat !== game.repeat)
        throw new Error("the tree data is not of " + game.name());
    const pay = h.payload, N = game.ncodes, t = new Tree(h.nodes);
    let bit = 0, next = 0, nkids = 0;
    const bad = what => new Error("node " + next + " of the tree data: " + what);
    const read = w => {
        let v = 0;
        for (; w > 0; w--, bit++) {
            if (bit >> 3 >= pay.length)
                throw bad("the data ends inside it");
            v = v * 2 + (pay[bit >> 3] >> (7 - (bit & 7)) & 1);
        }
        return v;
    };
    const expGolomb = () => {
        let k = 0;
        while (read(1) === 0)
            if (++k > 24)
                throw bad("an index of more than 24 bits");
        return (1 << k | read(k)) - 1;
    };
    /* The codes still possible at a node are a range [lo, hi) of codes[],
     * in lexical order; splitting them by reply sorts the range in place
     * (through scratch[]), the parts in slot order: the children's ranges. */
    const codes = new Int32Array(N), scratch = new Int32Array(N), slots = new Int8Array(N);
    for (let x = 0; x < N; x++)
        codes[x] = x;
    const R = game.nreplies, size = new Int32Array(65 * R), start = new Int32Array(65 * R);

    /* The j-th code not in codes[lo, hi): before codes[k] lie
     * codes[k] - (k - lo) of them. */
    const missing = (lo, hi, j) => {
        let a = lo, b = hi;
        while (a < b) {
            const mid = a + b >> 1;
            if (codes[mid] - (mid - lo) > j) b = mid; else a = mid + 1;
        }
        return j + (a - lo);
    };

    /* One node and its sub-tree; returns its number. */
    const node = (lo, hi, depth, parent, slot) => {
        if (next >= t.n)
            throw bad("more nodes than the " + t.n + " declared");
        if (depth > 64)
            throw bad("deeper than 64 guesses");
        const v = next++, n = hi - lo, m = N - n;
        const consistent = read(1);
        if (m === 0 && !consistent)
            throw bad("a guess outside the codes when every code is possible");
        let g;
        if (!consistent) {
            let w = 0;
            while (2 ** w < m)
                w++;
            const j = read(w);
            if (j >= m)
                throw bad("a guess index out of range");
            g = missing(lo, hi, j);
        } else {
            const i = n > 1 ? expGolomb() : 0;
            if (i >= n)
                throw bad("a guess index out of range");
            g = codes[lo + i];
        }
        t.guess[v] = g;
        t.count[v] = n;
        t.parent[v] = parent;
        t.slot[v] = slot;
        t.consistent[v] = consistent;
        t.inconsistent += 1 - consistent;

        /* Split by the reply to g, keeping lexical order in each part. */
        const at = depth * R;
        size.fill(0, at, at + R);
        for (let i = lo; i < hi; i++)
            size[at + (slots[i] = game.score(g, codes[i]))]++;
        for (let s = 0, sum = lo; s < R; s++) {
            start[at + s] = sum;
            sum += size[at + s];
        }
        scratch.set(codes.subarray(lo, hi), lo);
        for (let i = lo; i < hi; i++)
            codes[start[at + slots[i]]++] = scratch[i];
        for (let s = 0; s < R; s++) /* back to the start of each part */
            start[at + s] -= size[at + s];

        let total = 0, worst = 0, k = 0;
        if (size[at + game.win]) {
            total = worst = 1;
            t.hist[depth - 1] = (t.hist[depth - 1] || 0) + 1;
        }
        for (let s = 0; s < R; s++)
            k += s !== game.win && size[at + s] > 0 ? 1 : 0;
        const first = nkids;
        t.kidStart[v] = first;
        t.kidCount[v] = k;
        nkids += k;
        for (let s = 0, j = 0; s < R; s++) {
            if (s === game.win || !size[at + s])
                continue;
            const c = node(start[at + s], start[at + s] + size[at + s], depth + 1, v, s);
            t.kids[first + j++] = c;
            total += t.total[c] + t.count[c];
            worst = Math.max(worst, t.worst[c] + 1);
        }
        t.total[v] = total;
        t.worst[v] = worst;
        return v;
    };
    node(0, N, 1, -1, -1);
    if (next !== t.n)
        throw new Error("the tree data has " + next + " nodes, not the " + t.n + " declared");
    for (let i = 0; i < t.hist.length; i++)
        t.hist[i] = t.hist[i] || 0;
    return t;
}
