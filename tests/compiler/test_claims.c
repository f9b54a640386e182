/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The checkable claims of the five papers that are not totals of a rule's
 * tree (those are test_papers.c's rows): partitions, replies, counts of
 * codes, lower bounds, the guesses a rule makes at a named position, and
 * what the text says about them.  Each CHECK is one printed figure or one
 * claim; where the paper is wrong the check asserts what is true, and the
 * comment says what is printed and why it cannot be right (README: "What
 * the papers print, and where they are wrong").
 *
 * Papers: D. E. Knuth, The Computer as Master Mind, J. Recreational Math.
 * 9 (1976-77); E. Neuwirth, Some Strategies for Mastermind, Z. Operations
 * Research 26 (1982); B. Kooi, Yet Another Mastermind Strategy, ICGA J.
 * 28 (2005); J. Witteveen and J. van Eijck, An Information Theoretic
 * Analysis of One-Step-Ahead Mastermind Strategies (2014); G. Ville, An
 * Optimal Mastermind (4,7) Strategy and More Results in the Expected Case
 * (2013).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/partition.h"
#include "mmtree/path.h"
#include "mmtree/query.h"


#include "tests/check.h"

/* ---- set-up helpers: a failure here is a broken test, so it exits ---- */

static void die(const char *what, const mm_diag *d)
{
    fprintf(stderr, "test_claims: %s: %s\n", what, d->msg);
    exit(2);
}

typedef struct game_slot {
    int p, c;
    bool repeat;
    mm_game g;
} game_slot;

static game_slot games[32];
static int ngames;

static const mm_game *game(int p, int c, bool repeat)
{
    for (int i = 0; i < ngames; i++)
        if (games[i].p == p && games[i].c == c && games[i].repeat == repeat)
            return &games[i].g;
    mm_diag d;
    mm_diag_clear(&d);
    game_slot *s = &games[ngames++];
    s->p = p;
    s->c = c;
    s->repeat = repeat;
    if (mm_game_init(&s->g, p, c, repeat, &d))
        die("game", &d);
    return &s->g;
}

static mm_code code(const mm_game *g, const char *s)
{
    mm_code x;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_code_parse(g, s, strlen(s), &x, &d))
        die(s, &d);
    return x;
}

static int slot(const mm_game *g, const char *reply)
{
    int s;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_reply_parse(g, reply, strlen(reply), &s, &d))
        die(reply, &d);
    return s;
}

/* The codes still possible after a path ("" for all of them). */
typedef struct set {
    uint16_t played;   /* colours of the path's guesses */
    mm_code *c;
    uint32_t n;
} set;

static set after(const mm_game *g, const char *path)
{
    set s = {0};
    mm_step steps[16];
    uint32_t nsteps;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_path_parse(g, path, steps, 16, &nsteps, &d) ||
        mm_codes_after(g, steps, nsteps, &s.c, &s.n, NULL, &d))
        die(path, &d);
    for (uint32_t i = 0; i < nsteps; i++)
        s.played |= g->colorset[steps[i].guess];
    return s;
}

/* A set of codes named one by one, in lexical order. */
static set codes_of(const mm_game *g, const char *const *names, int k)
{
    set s = {.played = (uint16_t)((1u << g->colors) - 1), .n = (uint32_t)k};
    s.c = malloc((size_t)k * sizeof *s.c);
    for (int i = 0; i < k; i++)
        s.c[i] = code(g, names[i]);
    return s;
}

static mm_partition part(const mm_game *g, const set *s, const char *guess)
{
    mm_partition p;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_partition_make(g, s->c, s->n, code(g, guess), &p, &d))
        die(guess, &d);
    return p;
}

static mm_partition part_code(const mm_game *g, const set *s, mm_code x)
{
    mm_partition p;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_partition_make(g, s->c, s->n, x, &p, &d))
        die("partition", &d);
    return p;
}

/* The guess a one-step rule makes at the set. */
static mm_code best(const mm_game *g, const set *s, mm_rule rule, bool consistent,
                    mm_tie_break tie)
{
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.consistent_only = consistent;
    o.tie_break = tie;
    mm_code x;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_compile_guess(g, &o, s->c, s->n, s->played, &x, &d))
        die("best", &d);
    return x;
}

static bool is(const mm_game *g, mm_code x, const char *s)
{
    return x == code(g, s);
}

static const char *fmt(const mm_game *g, mm_code x)
{
    static char buf[8][MM_MAX_PEGS + 1];
    static int k;
    k = (k + 1) % 8;
    return mm_code_format(g, x, buf[k]);
}

/* Reply of guess a to secret b as (black, white). */
static void reply(const mm_game *g, const char *a, const char *b, int *black, int *white)
{
    int s = mm_game_score(g, code(g, a), code(g, b));
    *black = g->black[s];
    *white = g->white[s];
}

static bool reply_is(const mm_game *g, const char *a, const char *b, int black, int white)
{
    int x, y;
    reply(g, a, b, &x, &y);
    return x == black && y == white;
}

/* A tree of a rule and its statistics. */
typedef struct built {
    mm_tree t;
    mm_stats s;
} built;

static built build(const mm_game *g, mm_rule rule, bool consistent, const char *first,
                   mm_tie_break tie)
{
    built b;
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.consistent_only = consistent;
    o.tie_break = tie;
    if (first)
        o.first = code(g, first);
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_compile(g, &o, &b.t, &d))
        die("compile", &d);
    mm_tree_stats(&b.t, &b.s);
    return b;
}

static uint32_t find(const built *b, const mm_game *g, const char *path)
{
    uint32_t node;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_tree_find(&b->t, g, path, &node, &d))
        die(path, &d);
    return node;
}

/* Codes found below node i (at depth `depth`, the root's guess being
 * guess 1) with more than `limit` guesses. */
static uint64_t deeper_than(const mm_tree *t, uint32_t i, int depth, int limit)
{
    const mm_node *nd = &t->nodes[i];
    uint64_t k = (nd->flags & MM_NODE_CONSISTENT) && depth > limit;
    for (int c = 0; c < mm_tree_nchildren(t, i); c++)
        k += deeper_than(t, nd->child + (uint32_t)c, depth + 1, limit);
    return k;
}

/* Guesses a part of m codes costs from the guess that made it, that one
 * included: m for it, and at least 2m - 1 to find them (one guessed at
 * once, the others with one more guess at least); exact for m <= 2. */
static int part_cost(uint32_t m)
{
    return m ? 3 * (int)m - 1 : 0;
}

/* x/n printed with `places` decimals (rounding half up, as printed). */
static bool prints_as(uint64_t x, uint64_t n, double printed, int places)
{
    double scale = pow(10, places);
    return (uint64_t)floor((double)x * scale / (double)n + 0.5) ==
           (uint64_t)llround(printed * scale);
}

/* ---- Knuth 1976 ---- */

static void knuth(void)
{
    const mm_game *g = game(4, 6, true);
    int b, w;
    CHECK(g->ncodes == 1296, "6^4 = %u", g->ncodes);
    /* codeword 2532, test pattern 3523: one black, two white hits */
    reply(g, "3523", "2532", &b, &w);
    CHECK(b == 1 && w == 2, "3523 against 2532: %d black %d white", b, w);
    /* three black hits and one white hit cannot happen */
    CHECK(!(mm_game_reply_set(g) >> mm_reply_slot(g, 3, 1) & 1), "(3,1) occurs");

    /* The first level of Figure 1: 1122's 15 situations. */
    set all = after(g, "");
    mm_partition p = part(g, &all, "1122");
    static const uint32_t fig1[15] = {1, 16, 96, 256, 256, 0, 36, 208, 256, 4, 32, 114, 0, 20, 1};
    for (int s = 0; s < 15; s++)
        CHECK(p.size[s] == fig1[s], "1122 slot %d: %u, Figure 1 %u", s, p.size[s], fig1[s]);
    /* "4 white hits": only 2211 */
    set s = after(g, "1122:WWWW");
    CHECK(s.n == 1 && is(g, s.c[0], "2211"), "after 1122:WWWW %u codes", s.n);
    free(s.c);
    /* "3 white hits": 16 codes, next 1213; the reply has a black hit;
     * after BWW four codes, which 1415 tells apart */
    s = after(g, "1122:WWW");
    CHECK(s.n == 16, "after 1122:WWW: %u", s.n);
    p = part(g, &s, "1213");
    CHECK(p.size[0] + p.size[1] + p.size[2] + p.size[3] + p.size[4] == 0,
          "1213 after 1122:WWW can get no black hit");
    free(s.c);
    s = after(g, "1122:WWW,1213:BWW");
    p = part(g, &s, "1415");
    CHECK(s.n == 4 && p.largest == 1, "after 1213:BWW %u codes, 1415 largest part %u", s.n,
          p.largest);
    free(s.c);
    /* "one black hit": 256 codes, the ninth of the fifteen situations */
    CHECK(mm_reply_slot(g, 1, 0) == 8 && fig1[8] == 256, "one black hit is situation 9");
    s = after(g, "1122:B,1344:W");
    CHECK(s.n == 44, "after 1122:B,1344:W: %u", s.n);
    free(s.c);
    /* then 3526: BWW leaves seven, and 1462 tells them apart */
    s = after(g, "1122:B,1344:W,3526:BWW");
    p = part(g, &s, "1462");
    CHECK(s.n == 7 && p.largest == 1 && !p.consistent, "7 codes, 1462 largest %u", p.largest);
    /* No code of the seven tells them apart.  Knuth's example, "4625:
     * the response WW fails to distinguish 3662 from 5532", does not hold
     * as printed: 4625 answers BW to 3662 (and to 3632) and WW to 5532.
     * It holds for 6425, 4625 with its first two digits exchanged, whose
     * WW leaves 3662, 5532 and 3632. */
    bool any = false;
    for (uint32_t i = 0; i < s.n; i++)
        any |= part_code(g, &s, s.c[i]).largest == 1;
    CHECK(!any, "one of the seven codes separates them");
    CHECK(reply_is(g, "4625", "3662", 1, 1) && reply_is(g, "4625", "3632", 1, 1) &&
          reply_is(g, "4625", "5532", 0, 2), "4625 against 3662, 3632, 5532");
    CHECK(reply_is(g, "6425", "3662", 0, 2) && reply_is(g, "6425", "5532", 0, 2) &&
          part(g, &s, "6425").size[slot(g, "WW")] == 3, "6425 WW");
    free(s.c);
    /* the answer: 16 x 227 */
    s = after(g, "1122:B,1344:W,3526:BWW,1462:BW");
    CHECK(s.n == 1 && is(g, s.c[0], "3632") && 16 * 227 == 3632, "the secret is %s",
          fmt(g, s.c[0]));
    free(s.c);

    /* 1123 first: Knuth's rule nearly works, one line fails, 1123 WW
     * (222), 2214 WW (36), 3341: the 6 codes after BB and the 7 after BBB
     * cannot be told apart by any fourth guess. */
    built k = build(g, MM_RULE_KNUTH, false, "1123", MM_TIE_FIRST);
    CHECK(k.s.worst == 6 && k.s.hist[5] == 4, "from 1123: worst %d", k.s.worst);
    s = after(g, "1123:WW");
    CHECK(s.n == 222, "after 1123:WW: %u", s.n);
    free(s.c);
    CHECK(is(g, k.t.nodes[find(&k, g, "1123:WW")].guess, "2214") &&
          is(g, k.t.nodes[find(&k, g, "1123:WW,2214:WW")].guess, "3341"),
          "the rule's line is not 1123, 2214, 3341");
    uint32_t line = find(&k, g, "1123:WW,2214:WW");
    CHECK(k.t.nodes[line].count == 36 && deeper_than(&k.t, line, 3, 5) == 4,
          "the codes needing 6 are not all after 1123:WW,2214:WW");
    static const char *const fails[2] = {"1123:WW,2214:WW,3341:BB", "1123:WW,2214:WW,3341:BBB"};
    static const uint32_t nfail[2] = {6, 7};
    for (int i = 0; i < 2; i++) {
        s = after(g, fails[i]);
        mm_partition q = part_code(g, &s, best(g, &s, MM_RULE_KOOI, false, MM_TIE_FIRST));
        CHECK(s.n == nfail[i] && q.parts < (int)s.n, "%s: %u codes, %d parts at most",
              fails[i], s.n, q.parts);
        free(s.c);
    }
    mm_tree_release(&k.t);
    /* "especially after 1234 WW [312 possibilities]" */
    p = part(g, &all, "1234");
    CHECK(p.size[slot(g, "WW")] == 312, "1234 WW: %u", p.size[slot(g, "WW")]);
    /* (That 1234 cannot win in five is not so: test_optimal builds a tree
     * from 1234 that never needs a sixth guess.) */

    /* D: after 1122 BWW, 1213 BB four codes, told apart more quickly by
     * 4222 than by the rule's 1145 (both leave at most two together). */
    s = after(g, "1122:BWW,1213:BB");
    static const char *const d4[4] = {"2212", "4212", "5212", "6212"};
    bool same = s.n == 4;
    for (uint32_t i = 0; same && i < 4; i++)
        same = is(g, s.c[i], d4[i]);
    CHECK(same, "after 1122:BWW,1213:BB: %u codes", s.n);
    mm_partition a = part(g, &s, "4222"), c = part(g, &s, "1145");
    uint64_t ta = 0, tc = 0;
    for (int r = 0; r < g->nreplies; r++) {
        ta += (uint64_t)part_cost(a.size[r]);
        tc += (uint64_t)part_cost(c.size[r]);
    }
    CHECK(a.largest == 2 && c.largest == 2 && ta == 9 && tc == 10, "4222 %llu, 1145 %llu",
          (unsigned long long)ta, (unsigned long long)tc);
    CHECK(is(g, best(g, &s, MM_RULE_KNUTH, false, MM_TIE_FIRST), "1145"),
          "the rule's guess there is not 1145");
    free(s.c);
    free(all.c);
}

/* ---- Neuwirth 1982 ---- */

static void neuwirth(void)
{
    /* Table 1: the codes of the eight games */
    static const uint32_t table1[4][2] = {{24, 256}, {120, 625}, {360, 1296}, {840, 2401}};
    for (int c = 4; c <= 7; c++)
        for (int r = 0; r < 2; r++)
            CHECK(game(4, c, r)->ncodes == table1[c - 4][r], "Table 1, %d%c: %u", c, "NR"[r],
                  game(4, c, r)->ncodes);
    /* (4,3) cannot occur; in 4N every answer has all four colours; in 6N
     * (0,0), (1,0) and (1,1) are impossible (his answers: colours in
     * common, then places) */
    CHECK(!(mm_game_reply_set(game(4, 6, true)) >> mm_reply_slot(game(4, 6, true), 3, 1) & 1),
          "(3,1) occurs");
    const mm_game *g4n = game(4, 4, false), *g6n = game(4, 6, false);
    uint64_t a4 = mm_game_reply_set(g4n), a6 = mm_game_reply_set(g6n);
    for (int s = 0; s < g4n->nreplies; s++)
        CHECK(!(a4 >> s & 1) || g4n->black[s] + g4n->white[s] == 4, "4N reply with fewer colours");
    CHECK(!(a6 >> mm_reply_slot(g6n, 0, 0) & 1) && !(a6 >> mm_reply_slot(g6n, 0, 1) & 1) &&
          !(a6 >> mm_reply_slot(g6n, 1, 0) & 1), "6N: (0,0), (1,0) or (1,1) occurs");

    /* Table 2: n(A), the bounds from C0 and from C1(q, a).  Printed with
     * four places; the C1 expectation of 7N is printed 3.9299, which is
     * no total over 840 codes (3301/840 = 3.92976, 3302/840 = 3.93095):
     * the bound is 3301, 3.9298. */
    static const struct {
        int c;
        bool r;
        int answers;
        double e0;
        int m0;
        double e1;
        int m1;
    } t2[8] = {
        {4, false, 4, 3.25, 4, 3.25, 4},      {4, true, 14, 3.2266, 4, 3.4063, 4},
        {5, false, 8, 3.45, 4, 3.5000, 4},    {5, true, 14, 3.6832, 4, 3.7328, 4},
        {6, false, 11, 3.6583, 4, 3.6944, 4}, {6, true, 14, 3.8472, 4, 4.0093, 5},
        {7, false, 13, 3.7964, 4, 3.9298, 5}, {7, true, 14, 3.9263, 5, 4.3344, 5},
    };
    for (int i = 0; i < 8; i++) {
        const mm_game *g = game(4, t2[i].c, t2[i].r);
        set s = after(g, "");
        mm_bounds b;
        mm_diag d;
        mm_diag_clear(&d);
        if (mm_bounds_make(g, 0, s.c, s.n, &b, &d))
            die("bounds", &d);
        CHECK(b.answers == t2[i].answers, "Table 2 %d%c n(A) %d", t2[i].c, "NR"[t2[i].r],
              b.answers);
        CHECK(prints_as(b.total, s.n, t2[i].e0, 4), "Table 2 %d%c: C0 expectation %llu/%u",
              t2[i].c, "NR"[t2[i].r], (unsigned long long)b.total, s.n);
        CHECK(b.worst == t2[i].m0, "Table 2 %d%c: C0 maximum %d", t2[i].c, "NR"[t2[i].r], b.worst);
        CHECK(prints_as(b.step_total, s.n, t2[i].e1, 4), "Table 2 %d%c: C1 expectation %llu/%u",
              t2[i].c, "NR"[t2[i].r], (unsigned long long)b.step_total, s.n);
        CHECK(b.step_worst == t2[i].m1, "Table 2 %d%c: C1 maximum %d", t2[i].c, "NR"[t2[i].r],
              b.step_worst);
        /* 2.3: the minimax strategy (Table 5) reaches the bound on the
         * maximum only for 4R and 6R */
        built k = build(g, MM_RULE_KNUTH, false, NULL, MM_TIE_FIRST);
        bool reaches = k.s.worst == b.step_worst;
        CHECK(reaches == (t2[i].r && (t2[i].c == 4 || t2[i].c == 6)),
              "Table 5 %d%c: worst %d, bound %d", t2[i].c, "NR"[t2[i].r], k.s.worst, b.step_worst);
        /* 2.3: higher expectation than each rule of 2.2 (Table 4, whose
         * e3 strategy for 4R starts 1123: test_papers.c) */
        for (mm_rule r = MM_RULE_IRVING; r <= MM_RULE_E3; r++) {
            if (r != MM_RULE_IRVING && r != MM_RULE_ENTROPY && r != MM_RULE_E3)
                continue;
            bool from1123 = r == MM_RULE_E3 && t2[i].c == 4 && t2[i].r;
            built e = build(g, r, false, from1123 ? "1123" : NULL, MM_TIE_FIRST);
            CHECK(e.s.total < k.s.total, "%d%c: %s %llu, minimax %llu", t2[i].c, "NR"[t2[i].r],
                  mm_rule_name(r), (unsigned long long)e.s.total, (unsigned long long)k.s.total);
            mm_tree_release(&e.t);
        }
        mm_tree_release(&k.t);
        free(s.c);
    }

    /* 2.1: for games with repeated colours the normal strategy was run
     * from one first question of each class (for 4R: 1111, 1112, 1122,
     * 1123, 1234), and Table 3 prints the best: 1234, but 1123 for 5R.
     * Not so: 1122 is best in 4R, 5R and 6R, 1123 in 7R.  The printed
     * expectations are those of the printed first questions (the rows of
     * test_papers.c). */
    static const char *const firsts[5] = {"1111", "1112", "1122", "1123", "1234"};
    static const char *const bestfirst[4] = {"1122", "1122", "1122", "1123"};
    for (int c = 4; c <= 7; c++) {
        const mm_game *g = game(4, c, true);
        uint64_t least = UINT64_MAX;
        int arg = -1;
        for (int f = 0; f < 5; f++) {
            built n = build(g, MM_RULE_NAIVE, false, firsts[f], MM_TIE_FIRST);
            if (n.s.total < least) {
                least = n.s.total;
                arg = f;
            }
            mm_tree_release(&n.t);
        }
        CHECK(!strcmp(firsts[arg], bestfirst[c - 4]), "%dR: best normal first question %s",
              c, firsts[arg]);
    }

    /* 2.2: only questions that can be the code (2.2.3) did better than
     * all questions (2.2.4) with e1 only for 4R: 3.5547 against 3.5625,
     * at the cost of a maximum of 5 against 4. */
    for (int c = 4; c <= 7; c++)
        for (int r = 0; r < 2; r++) {
            const mm_game *g = game(4, c, r);
            built a = build(g, MM_RULE_ENTROPY, false, NULL, MM_TIE_FIRST);
            built b = build(g, MM_RULE_ENTROPY, true, NULL, MM_TIE_FIRST);
            if (c == 4 && r) {
                CHECK(b.s.total == 910 && b.s.worst == 5 && a.s.total == 912 && a.s.worst == 4,
                      "4R e1: consistent %llu worst %d, all %llu worst %d",
                      (unsigned long long)b.s.total, b.s.worst, (unsigned long long)a.s.total,
                      a.s.worst);
            } else {
                CHECK(b.s.total >= a.s.total, "%d%c: consistent e1 %llu better than %llu", c,
                      "NR"[r], (unsigned long long)b.s.total, (unsigned long long)a.s.total);
            }
            mm_tree_release(&a.t);
            mm_tree_release(&b.t);
        }

    /* 1: one kind of first question without repeated colours; 2.1: five
     * with them, for 4R 1111, 1112, 1122, 1123 and 1234 */
    for (int c = 4; c <= 7; c++)
        for (int r = 0; r < 2; r++) {
            const mm_game *g = game(4, c, r);
            set all = after(g, "");
            uint32_t shapes;
            mm_diag d;
            mm_diag_clear(&d);
            if (mm_partition_shapes(g, all.c, all.n, &shapes, &d))
                die("shapes", &d);
            CHECK(shapes == (r ? 5u : 1u), "%d%c: %u kinds of first question", c, "NR"[r],
                  shapes);
            free(all.c);
        }

    /* 2.3 and 3, Tables 3-5 (Table 4's e3 for 4R from 1123): the
     * minimax strategy has a smaller maximum than all three of 2.2 only
     * for 6R; within the N games and within the R games every kind of
     * strategy needs more guesses on average as the codes grow */
    static const mm_rule kinds[5] = {MM_RULE_NAIVE, MM_RULE_ENTROPY, MM_RULE_IRVING,
                                     MM_RULE_E3, MM_RULE_KNUTH};
    static const char *const t3first[2][4] = {{"1234", "1234", "1234", "1234"},
                                              {"1234", "1123", "1234", "1234"}};
    for (int r = 0; r < 2; r++) {
        double prev[5] = {0};
        for (int c = 4; c <= 7; c++) {
            const mm_game *g = game(4, c, r);
            int worst[5];
            for (int k = 0; k < 5; k++) {
                const char *first = k == 0 ? t3first[r][c - 4]
                                  : k == 3 && r && c == 4 ? "1123" : NULL;
                built b = build(g, kinds[k], false, first, MM_TIE_FIRST);
                double e = (double)b.s.total / g->ncodes;
                CHECK(e > prev[k], "%d%c %s: %.4f after %.4f", c, "NR"[r],
                      mm_rule_name(kinds[k]), e, prev[k]);
                prev[k] = e;
                worst[k] = b.s.worst;
                mm_tree_release(&b.t);
            }
            bool better = worst[4] < worst[1] && worst[4] < worst[2] && worst[4] < worst[3];
            CHECK(better == (r && c == 6), "%d%c: minimax worst %d, e1 %d, e2 %d, e3 %d", c,
                  "NR"[r], worst[4], worst[1], worst[2], worst[3]);
        }
    }

    /* 3: the expectations of 5N are above those of 4R for every kind of
     * strategy, though 4R has twice the codes */
    for (mm_rule r = MM_RULE_NAIVE; r <= MM_RULE_E3; r++) {
        if (r == MM_RULE_KOOI || r == MM_RULE_BRANCH2)
            continue;   /* not Neuwirth's */
        built a = build(game(4, 5, false), r, false, r == MM_RULE_NAIVE ? "1234" : NULL,
                        MM_TIE_FIRST);
        built b = build(game(4, 4, true), r, false, r == MM_RULE_NAIVE ? "1234" : NULL,
                        MM_TIE_FIRST);
        CHECK(a.s.total * 256 > b.s.total * 120, "%s: 5N %llu/120, 4R %llu/256",
              mm_rule_name(r), (unsigned long long)a.s.total, (unsigned long long)b.s.total);
        mm_tree_release(&a.t);
        mm_tree_release(&b.t);
    }

    /* 3.1, Table 7: the next questions after 1123.  Irving's 6213 after
     * (3,0) is not his rule's: e2 gives 1233 (Kooi's footnote 2 says the
     * same); 4455, not 4545, is e2's first after (0,0), the two tying.
     * Neuwirth's own: e1 gives 1245 after (3,0) and e3 2314 after (0,3).
     * (The "optimized" ones, 1234 and 4456, and the improvements are in
     * test_optimal.c.) */
    const mm_game *g = game(4, 6, true);
    set s = after(g, "1123:BBB");
    CHECK(is(g, best(g, &s, MM_RULE_IRVING, false, MM_TIE_FIRST), "1233"), "e2 after BBB: %s",
          fmt(g, best(g, &s, MM_RULE_IRVING, false, MM_TIE_FIRST)));
    CHECK(is(g, best(g, &s, MM_RULE_ENTROPY, false, MM_TIE_FIRST), "1245"), "e1 after BBB: %s",
          fmt(g, best(g, &s, MM_RULE_ENTROPY, false, MM_TIE_FIRST)));
    free(s.c);
    s = after(g, "1123:-");
    CHECK(is(g, best(g, &s, MM_RULE_IRVING, false, MM_TIE_FIRST), "4455") &&
          part(g, &s, "4455").squares == part(g, &s, "4545").squares,
          "e2 after 1123:-: %s", fmt(g, best(g, &s, MM_RULE_IRVING, false, MM_TIE_FIRST)));
    free(s.c);
    s = after(g, "1123:WWW");
    CHECK(is(g, best(g, &s, MM_RULE_E3, false, MM_TIE_FIRST), "2314"), "e3 after WWW: %s",
          fmt(g, best(g, &s, MM_RULE_E3, false, MM_TIE_FIRST)));
    free(s.c);
    /* the appendix's first partition, 1123's */
    s = after(g, "");
    mm_partition p = part(g, &s, "1123");
    static const uint32_t app[15] = {2, 44, 222, 276, 81, 4, 84, 230, 182, 5, 40, 105, 0, 20, 1};
    for (int i = 0; i < 15; i++)
        CHECK(p.size[i] == app[i], "1123 slot %d: %u, appendix %u", i, p.size[i], app[i]);
    free(s.c);
}

/* ---- Kooi 2005 ---- */

/* His order of answers: (0,0), (0,1), ..., (0,4), (1,0), ..., (4,0),
 * black first, white ascending. */
static const int kooi_answers[14][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 0}, {1, 1},
                                        {1, 2}, {1, 3}, {2, 0}, {2, 1}, {2, 2}, {3, 0}, {4, 0}};
static const char *const kooi_first[5] = {"1111", "1112", "1122", "1123", "1234"};

static void kooi(void)
{
    const mm_game *g = game(4, 6, true);
    /* secret AABB, question BBAB: (1,2) */
    CHECK(reply_is(g, "2212", "1122", 1, 2), "BBAB against AABB");

    /* 2.2: two pegs, four colours.  The answers to AA and DA drawn as a
     * square (rows: the first peg D, C, B, A; columns: the second, A to
     * D), and the partitions of AA and AB. */
    const mm_game *t = game(2, 4, true);
    static const int grid[2][4][4][2] = {
        {{{1, 0}, {0, 0}, {0, 0}, {0, 0}}, {{1, 0}, {0, 0}, {0, 0}, {0, 0}},
         {{1, 0}, {0, 0}, {0, 0}, {0, 0}}, {{2, 0}, {1, 0}, {1, 0}, {1, 0}}},
        {{{2, 0}, {1, 0}, {1, 0}, {1, 0}}, {{1, 0}, {0, 0}, {0, 0}, {0, 1}},
         {{1, 0}, {0, 0}, {0, 0}, {0, 1}}, {{1, 0}, {0, 1}, {0, 1}, {0, 2}}},
    };
    static const char *const q2[2] = {"11", "41"};
    for (int q = 0; q < 2; q++)
        for (int row = 0; row < 4; row++)
            for (int col = 0; col < 4; col++) {
                char secret[3] = {(char)('4' - row), (char)('1' + col), 0};
                CHECK(reply_is(t, q2[q], secret, grid[q][row][col][0], grid[q][row][col][1]),
                      "2.2: %s against %s", q2[q], secret);
            }
    set s = after(t, "");
    static const uint32_t aa[5] = {9, 0, 0, 6, 1}, ab[5] = {4, 4, 1, 6, 1};
    static const int toy[5][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {2, 0}};
    mm_partition pa = part(t, &s, "11"), pb = part(t, &s, "12");
    for (int i = 0; i < 5; i++) {
        int sl = mm_reply_slot(t, toy[i][0], toy[i][1]);
        CHECK(pa.size[sl] == aa[i] && pb.size[sl] == ab[i], "2.2 (%d,%d): %u %u", toy[i][0],
              toy[i][1], pa.size[sl], pb.size[sl]);
    }
    free(s.c);

    /* Table 1 and the scores of 2.3-2.4 and 3 */
    static const uint32_t table1[14][5] = {
        {625, 256, 256, 81, 16}, {0, 308, 256, 276, 152}, {0, 61, 96, 222, 312},
        {0, 0, 16, 44, 136},     {0, 0, 1, 2, 9},         {500, 317, 256, 182, 108},
        {0, 156, 208, 230, 252}, {0, 27, 36, 84, 132},    {0, 0, 0, 4, 8},
        {150, 123, 114, 105, 96}, {0, 24, 32, 40, 48},    {0, 3, 4, 5, 6},
        {20, 20, 20, 20, 20},    {1, 1, 1, 1, 1},
    };
    static const uint32_t largest[5] = {625, 317, 256, 276, 312};
    /* 2.4 prints 511.9 for AAAA: 663526/1296 = 511.98, which rounds to
     * 512.0 (the other four are rounded); cut, not rounded */
    static const double expected[5] = {511.9, 235.9, 204.5, 185.3, 188.2};
    static const double entropy[5] = {1.498, 2.693, 2.885, 3.044, 3.057};
    static const int parts[5] = {5, 11, 13, 14, 14};
    s = after(g, "");
    for (int f = 0; f < 5; f++) {
        mm_partition p = part(g, &s, kooi_first[f]);
        for (int a = 0; a < 14; a++) {
            int sl = mm_reply_slot(g, kooi_answers[a][0], kooi_answers[a][1]);
            CHECK(p.size[sl] == table1[a][f], "Table 1 %s (%d,%d): %u", kooi_first[f],
                  kooi_answers[a][0], kooi_answers[a][1], p.size[sl]);
        }
        CHECK(p.largest == largest[f], "2.3 %s: %u", kooi_first[f], p.largest);
        double e = (double)p.squares / 1296;
        CHECK(f == 0 ? floor(e * 10) / 10 == expected[f] && round(e * 10) / 10 == 512.0
                     : round(e * 10) / 10 == expected[f],
              "2.4 %s: %.3f", kooi_first[f], e);
        CHECK(round(p.entropy * 1000) / 1000 == entropy[f], "2.5 %s: %.4f", kooi_first[f],
              p.entropy);
        CHECK(p.parts == parts[f], "3 %s: %d parts", kooi_first[f], p.parts);
    }
    /* P_AAAA(0,0) = 625/1296; only five kinds of first question */
    uint32_t shapes;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_partition_shapes(g, s.c, s.n, &shapes, &d))
        die("shapes", &d);
    CHECK(shapes == 5, "%u kinds of first question", shapes);
    /* each rule's first question: AABB, AABC, ABCD, AABC (the first of
     * AABC and ABCD, which tie) */
    CHECK(is(g, best(g, &s, MM_RULE_KNUTH, false, MM_TIE_FIRST), "1122") &&
          is(g, best(g, &s, MM_RULE_IRVING, false, MM_TIE_FIRST), "1123") &&
          is(g, best(g, &s, MM_RULE_ENTROPY, false, MM_TIE_FIRST), "1234") &&
          is(g, best(g, &s, MM_RULE_KOOI, false, MM_TIE_FIRST), "1123"),
          "the rules' first questions");
    free(s.c);

    /* 4: the second table adds up the first (codes found by round r) */
    static const uint64_t cum[5][9] = {
        {1, 5, 30, 138, 443, 1045, 1241, 1290, 1296},
        {1, 7, 69, 602, 1296, 1296, 1296, 1296, 1296},
        {1, 11, 65, 710, 1293, 1296, 1296, 1296, 1296},
        {1, 5, 76, 688, 1284, 1296, 1296, 1296, 1296},
        {1, 13, 85, 720, 1289, 1296, 1296, 1296, 1296},
    };
    static const mm_rule rows[5] = {MM_RULE_NAIVE, MM_RULE_KNUTH, MM_RULE_IRVING,
                                    MM_RULE_ENTROPY, MM_RULE_KOOI};
    uint64_t got[5][9];
    built tr[5];
    for (int r = 0; r < 5; r++) {
        tr[r] = build(g, rows[r], false, NULL, MM_TIE_FIRST);
        uint64_t acc = 0;
        for (int i = 0; i < 9; i++) {
            acc += tr[r].s.hist[i];
            got[r][i] = acc;
            CHECK(acc == cum[r][i], "4, %s by round %d: %llu", mm_rule_name(rows[r]), i + 1,
                  (unsigned long long)acc);
        }
    }
    /* 5: with 2, 3 or 4 rounds most parts wins more games than the rest */
    for (int i = 1; i <= 3; i++)
        for (int r = 0; r < 4; r++)
            CHECK(got[4][i] > got[r][i], "round %d: most parts %llu, %s %llu", i + 1,
                  (unsigned long long)got[4][i], mm_rule_name(rows[r]),
                  (unsigned long long)got[r][i]);
    /* 5: inconsistent questions occur in every strategy but the simple one */
    for (int r = 0; r < 5; r++)
        CHECK((tr[r].s.inconsistent == 0) == (r == 0), "%s: %llu inconsistent guesses",
              mm_rule_name(rows[r]), (unsigned long long)tr[r].s.inconsistent);
    /* the least expectation of the easily computed strategies, 4.373 */
    for (int r = 0; r < 4; r++)
        CHECK(tr[4].s.total < tr[r].s.total, "most parts %llu, %s %llu",
              (unsigned long long)tr[4].s.total, mm_rule_name(rows[r]),
              (unsigned long long)tr[r].s.total);
    /* "the expected size strategy requires 6 rounds, but on average is
     * better than the worst case strategy" */
    CHECK(tr[2].s.worst == 6 && tr[2].s.total < tr[1].s.total, "expected size vs worst case");
    for (int r = 0; r < 5; r++)
        mm_tree_release(&tr[r].t);

    /* 1: seven questions asked at once identify the secret (six do) */
    static const char *const stat[6] = {"4514", "2561", "3136", "1232", "5653", "4366"};
    s = after(g, "");
    uint64_t *key = calloc(s.n, sizeof *key);
    for (int q = 0; q < 6; q++)
        for (uint32_t i = 0; i < s.n; i++)
            key[i] = key[i] * 16 + (uint64_t)mm_game_score(g, code(g, stat[q]), s.c[i]);
    bool distinct = true;
    for (uint32_t i = 0; i < s.n && distinct; i++)
        for (uint32_t j = i + 1; j < s.n && distinct; j++)
            distinct = key[i] != key[j];
    CHECK(distinct, "six static questions do not identify every code");
    free(key);
    free(s.c);

    /* 5: the six combinations, a consistent question cannot tell them
     * apart, ABFA can.  The table's rows (ABAA, ABAB, ABAF, ABDE, AEAE,
     * AFAE) are right; the text lists ABAC and ACAE for ABAF and AFAE
     * (ABFA answers (2,1) to both ABAB and ABAC), and the sixth column,
     * printed AFDE, is AFAE (its diagonal cell is (4,0)). */
    static const char *const six[6] = {"1211", "1212", "1216", "1245", "1515", "1615"};
    static const char *const cols[7] = {"1211", "1212", "1216", "1245", "1515", "1615", "1261"};
    static const int cell[6][7][2] = {
        {{4, 0}, {3, 0}, {3, 0}, {2, 0}, {2, 0}, {2, 0}, {3, 0}},
        {{3, 0}, {4, 0}, {3, 0}, {2, 0}, {2, 0}, {2, 0}, {2, 1}},
        {{3, 0}, {3, 0}, {4, 0}, {2, 0}, {2, 0}, {2, 1}, {2, 2}},
        {{2, 0}, {2, 0}, {2, 0}, {4, 0}, {2, 0}, {2, 0}, {2, 0}},
        {{2, 0}, {2, 0}, {2, 0}, {2, 0}, {4, 0}, {3, 0}, {1, 1}},
        {{2, 0}, {2, 0}, {2, 1}, {2, 0}, {3, 0}, {4, 0}, {1, 2}},
    };
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 7; c++)
            CHECK(reply_is(g, cols[c], six[r], cell[r][c][0], cell[r][c][1]),
                  "5: %s against %s", cols[c], six[r]);
    set sx = codes_of(g, six, 6);
    bool sep = false;
    for (int r = 0; r < 6; r++)
        sep |= part(g, &sx, six[r]).largest == 1;
    CHECK(!sep && part(g, &sx, "1261").largest == 1, "5: the six combinations");
    free(sx.c);
    static const char *const text6[6] = {"1211", "1212", "1213", "1245", "1515", "1315"};
    sx = codes_of(g, text6, 6);
    CHECK(part(g, &sx, "1261").largest == 2, "5: ABFA separates the text's six");
    free(sx.c);

    /* 5: after the answer (1,0) the guesses make 12, 53, 34, 125 and 52
     * different partitions (counted by their part sizes) */
    static const uint32_t after10[5] = {12, 53, 34, 125, 52};
    for (int f = 0; f < 5; f++) {
        char path[16];
        snprintf(path, sizeof path, "%s:B", kooi_first[f]);
        s = after(g, path);
        if (mm_partition_shapes(g, s.c, s.n, &shapes, &d))
            die("shapes", &d);
        CHECK(shapes == after10[f], "5, %s (1,0): %u partitions", kooi_first[f], shapes);
        free(s.c);
    }

    /* 5: two steps ahead, the most parts a second question makes after
     * each first question and answer, and their sums */
    static const int two[14][5] = {
        {14, 14, 14, 13, 8}, {0, 14, 14, 14, 13}, {0, 9, 12, 14, 14}, {0, 0, 7, 10, 11},
        {0, 0, 1, 2, 4},     {13, 14, 14, 14, 13}, {0, 13, 14, 14, 14}, {0, 7, 10, 11, 11},
        {0, 0, 0, 4, 4},     {11, 12, 12, 12, 12}, {0, 9, 10, 11, 9}, {0, 3, 4, 4, 4},
        {5, 8, 8, 8, 7},     {1, 1, 1, 1, 1},
    };
    static const int twosum[5] = {44, 104, 121, 132, 125};
    int sums[5] = {0};
    set all = after(g, "");
    for (int f = 0; f < 5; f++) {
        mm_partition first = part(g, &all, kooi_first[f]);
        for (int a = 0; a < 14; a++) {
            int sl = mm_reply_slot(g, kooi_answers[a][0], kooi_answers[a][1]);
            char path[32], rep[MM_REPLY_MAX];
            snprintf(path, sizeof path, "%s:%s", kooi_first[f], mm_reply_format(g, sl, rep));
            int k = 0;   /* no code gives the answer: no parts */
            if (sl == g->win) {
                k = 1;   /* the game is won: one answer */
            } else if (first.size[sl]) {
                s = after(g, path);
                k = part_code(g, &s, best(g, &s, MM_RULE_KOOI, false, MM_TIE_FIRST)).parts;
                free(s.c);
            }
            sums[f] += k;
            CHECK(k == two[a][f], "5, two steps, %s: %d", path, k);
        }
    }
    free(all.c);
    for (int f = 0; f < 5; f++)
        CHECK(sums[f] == twosum[f], "5, two steps, %s: total %d", kooi_first[f], sums[f]);
    CHECK(sums[3] > sums[0] && sums[3] > sums[1] && sums[3] > sums[2] && sums[3] > sums[4],
          "three rounds: AABC is not best");

    /* Footnote 2: after AABC (3,0), Irving's FBAC (the same partition as
     * DBAC) leaves 4.7 codes expected in 8 parts, ABCC 3.6 in 7 */
    s = after(g, "1123:BBB");
    mm_partition fb = part(g, &s, "6213"), db = part(g, &s, "4213"), cc = part(g, &s, "1233");
    CHECK(round(10.0 * (double)fb.squares / s.n) == 47 && fb.parts == 8,
          "FBAC: %.2f in %d parts", (double)fb.squares / s.n, fb.parts);
    CHECK(round(10.0 * (double)cc.squares / s.n) == 36 && cc.parts == 7,
          "ABCC: %.2f in %d parts", (double)cc.squares / s.n, cc.parts);
    CHECK(!memcmp(fb.size, db.size, sizeof fb.size), "DBAC and FBAC differ");
    free(s.c);
}

/* ---- Witteveen and van Eijck 2014 ---- */

/* Parts a node's guess makes: its children, and the winning reply. */
static int node_parts(const mm_tree *t, uint32_t i)
{
    return mm_tree_nchildren(t, i) + !!(t->nodes[i].flags & MM_NODE_CONSISTENT);
}

/* Along every path of t the number of parts never grows. */
static bool parts_never_grow(const mm_tree *t, uint32_t i)
{
    const mm_node *nd = &t->nodes[i];
    for (int c = 0; c < mm_tree_nchildren(t, i); c++) {
        uint32_t k = nd->child + (uint32_t)c;
        if (node_parts(t, k) > node_parts(t, i) || !parts_never_grow(t, k))
            return false;
    }
    return true;
}

static void wve(void)
{
    const mm_game *g = game(4, 6, true);
    /* key (blue, green, blue, red), guess (green, yellow, red, red): they
     * print (1,2); their own feedback function gives (1,1), as does
     * Knuth's rule: one red in place, one green out of place, and the
     * second red of the guess has no partner in the key */
    CHECK(reply_is(g, "2433", "1213", 1, 1), "green yellow red red against blue green blue red");
    /* their new rule beats every other one-step rule on MM(4,6), with
     * guesses that can be the code and without */
    for (int cons = 0; cons < 2; cons++) {
        built b2 = build(g, MM_RULE_BRANCH2, cons, NULL, MM_TIE_FIRST);
        for (mm_rule r = MM_RULE_NAIVE; r <= MM_RULE_KOOI; r++) {
            built o = build(g, r, cons, NULL, MM_TIE_FIRST);
            CHECK(b2.s.total < o.s.total, "branch2%s %llu, %s %llu", cons ? "*" : "",
                  (unsigned long long)b2.s.total, mm_rule_name(r),
                  (unsigned long long)o.s.total);
            mm_tree_release(&o.t);
        }
        mm_tree_release(&b2.t);
        /* along any path of kooiPlay the branching factor never grows */
        built k = build(g, MM_RULE_KOOI, cons, NULL, MM_TIE_FIRST);
        CHECK(parts_never_grow(&k.t, 0), "kooi%s: the parts grow on some path", cons ? "*" : "");
        mm_tree_release(&k.t);
    }
    /* four colours, three pegs: branch2 reaches the optimum, 206; none of
     * the other rules does, with or without inconsistent guesses.  Its
     * first guess AAB makes 8 parts; branchPlay (kooi) picks ABC, 9. */
    const mm_game *h = game(3, 4, true);
    for (int cons = 0; cons < 2; cons++)
        for (mm_rule r = MM_RULE_NAIVE; r <= MM_RULE_KOOI; r++) {
            built o = build(h, r, cons, NULL, MM_TIE_FIRST);
            CHECK(o.s.total > 206, "MM(3,4) %s%s: %llu", mm_rule_name(r), cons ? "*" : "",
                  (unsigned long long)o.s.total);
            mm_tree_release(&o.t);
        }
    set s = after(h, "");
    CHECK(is(h, best(h, &s, MM_RULE_BRANCH2, false, MM_TIE_FIRST), "112") &&
          part(h, &s, "112").parts == 8, "branch2's first guess");
    CHECK(is(h, best(h, &s, MM_RULE_KOOI, false, MM_TIE_FIRST), "123") &&
          part(h, &s, "123").parts == 9, "branchPlay's first guess");
    free(s.c);
}

/* ---- Ville 2013 ---- */

static uint64_t binom(int n, int k)
{
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

static void ville(void)
{
    /* 1: Knuth's strategy needs 4.476 guesses on average, not 4.478 (that
     * is 5804/1296, Irving's count of it) */
    CHECK(prints_as(5801, 1296, 4.476, 3) && prints_as(5804, 1296, 4.478, 3), "4.476");

    /* eq. 3 and eq. 4: N = c^p, G_p = p(p+3)/2 grades when the colours
     * suffice; Table 1: the 14 grades of MM(4,7), all (b,w) with
     * b + w <= 4 but (3,1) */
    for (int p = 1; p <= 8; p++) {
        int c = p < 6 ? p + 1 : 3;
        const mm_game *g = game(p, c, true);
        CHECK(g->ncodes == (uint32_t)pow(c, p), "N(%d,%d) = %u", p, c, g->ncodes);
        int grades = __builtin_popcountll(mm_game_reply_set(g));
        CHECK(grades == p * (p + 3) / 2, "G_%d = %d", p, grades);
    }
    const mm_game *g7 = game(4, 7, true);
    uint64_t a = mm_game_reply_set(g7);
    for (int b = 0; b <= 4; b++)
        for (int w = 0; b + w <= 4; w++)
            CHECK((a >> mm_reply_slot(g7, b, w) & 1) == !(b == 3 && w == 1),
                  "MM(4,7) grade (%d,%d)", b, w);
    /* 2.2: codes of exactly i colours, C(7,i) Z_4i = 7, 294, 1260, 840;
     * Z_41 = 1, Z_44 = 4!; footnote 18: the five kinds of first guess
     * stand for 7, 168 (3+1), 126 (2+2), 1260 and 840 codes */
    uint64_t exact[5] = {0}, kind[5] = {0};
    for (mm_code x = 0; x < g7->ncodes; x++) {
        int m[7] = {0}, k = 0, top = 0, pairs = 0;
        for (int i = 0; i < 4; i++)
            m[mm_code_peg(g7, x, i)]++;
        for (int c = 0; c < 7; c++) {
            k += m[c] > 0;
            top = m[c] > top ? m[c] : top;
            pairs += m[c] == 2;
        }
        exact[k]++;
        /* 1111, 1112, 1122, 1123, 1234 */
        kind[top == 4 ? 0 : top == 3 ? 1 : pairs == 2 ? 2 : top == 2 ? 3 : 4]++;
    }
    static const uint64_t ci[5] = {0, 7, 294, 1260, 840}, z[5] = {0, 1, 14, 36, 24};
    static const uint64_t kinds[5] = {7, 168, 126, 1260, 840};
    for (int i = 1; i <= 4; i++)
        CHECK(exact[i] == ci[i] && exact[i] == binom(7, i) * z[i], "C_%d = %llu", i,
              (unsigned long long)exact[i]);
    for (int i = 0; i < 5; i++)
        CHECK(kind[i] == kinds[i], "footnote 18: %llu", (unsigned long long)kind[i]);
    CHECK(kinds[1] + kinds[2] == 294, "168 + 126");

    /* Table 2: six codes of MM(3,6) and the seventh code that separates
     * them; the grades, and the number of different grades per guess */
    const mm_game *g = game(3, 6, true);
    static const char *const rows[6] = {"121", "122", "126", "153", "323", "623"};
    static const char *const cols[7] = {"121", "122", "126", "153", "323", "623", "162"};
    static const int t2[6][7][2] = {
        {{3, 0}, {2, 0}, {2, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 1}},
        {{2, 0}, {3, 0}, {2, 0}, {1, 0}, {1, 0}, {1, 0}, {2, 0}},
        {{2, 0}, {2, 0}, {3, 0}, {1, 0}, {1, 0}, {1, 1}, {1, 2}},
        {{1, 0}, {1, 0}, {1, 0}, {3, 0}, {1, 0}, {1, 0}, {1, 0}},
        {{1, 0}, {1, 0}, {1, 0}, {1, 0}, {3, 0}, {2, 0}, {0, 1}},
        {{1, 0}, {1, 0}, {1, 1}, {1, 0}, {2, 0}, {3, 0}, {0, 2}},
    };
    static const int diff[7] = {3, 3, 4, 2, 3, 4, 6};
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 7; c++)
            CHECK(reply_is(g, cols[c], rows[r], t2[r][c][0], t2[r][c][1]), "Table 2: %s, %s",
                  cols[c], rows[r]);
    set s6 = codes_of(g, rows, 6);
    int least = 1000;
    for (int c = 0; c < 7; c++) {
        mm_partition p = part(g, &s6, cols[c]);
        CHECK(p.parts == diff[c], "Table 2, %s: %d grades", cols[c], p.parts);
        /* 3.1: guesses from here, the last included */
        int l = p.consistent;
        for (int k = 0; k < g->nreplies; k++)
            if (k != g->win)
                l += part_cost(p.size[k]);
        if (c < 6)
            least = l < least ? l : least;
        else
            CHECK(l == 12, "162: L = %d", l);
    }
    CHECK(least == 13, "the best of the six codes: L = %d", least);
    free(s6.c);

    /* 3.1: Knuth's rule with possible guesses only finds 13 (1 + 12)
     * codes within two guesses, the rule itself 7 (1 + 6); Ville prints
     * 7 (1 + 6) for the first and 14 (1 + 13) for the second */
    const mm_game *g6 = game(4, 6, true);
    built kc = build(g6, MM_RULE_KNUTH, true, NULL, MM_TIE_FIRST);
    built ki = build(g6, MM_RULE_KNUTH, false, NULL, MM_TIE_FIRST);
    CHECK(kc.s.hist[0] + kc.s.hist[1] == 13 && ki.s.hist[0] + ki.s.hist[1] == 7,
          "within two guesses: %llu consistent, %llu not",
          (unsigned long long)(kc.s.hist[0] + kc.s.hist[1]),
          (unsigned long long)(ki.s.hist[0] + ki.s.hist[1]));
    mm_tree_release(&kc.t);
    mm_tree_release(&ki.t);

    /* 3.3, Tables 3-4: most parts has the least total of the one-step
     * rules on MM(4,6), max size the least worst case (5); on MM(4,7)
     * entropy has the least total */
    static const mm_rule four[4] = {MM_RULE_KNUTH, MM_RULE_IRVING, MM_RULE_ENTROPY,
                                    MM_RULE_KOOI};
    built t6[4], t7[4];
    for (int r = 0; r < 4; r++) {
        t6[r] = build(g6, four[r], false, NULL, MM_TIE_FIRST);
        t7[r] = build(g7, four[r], false, NULL, MM_TIE_FIRST);
    }
    for (int r = 0; r < 4; r++) {
        CHECK(r == 3 || t6[3].s.total < t6[r].s.total, "MM(4,6) most parts vs %s",
              mm_rule_name(four[r]));
        CHECK(r == 0 || t6[0].s.worst < t6[r].s.worst, "MM(4,6) max size worst case vs %s",
              mm_rule_name(four[r]));
        CHECK(r == 2 || t7[2].s.total < t7[r].s.total, "MM(4,7) entropy vs %s",
              mm_rule_name(four[r]));
    }
    for (int r = 0; r < 4; r++) {
        mm_tree_release(&t6[r].t);
        mm_tree_release(&t7[r].t);
    }
    /* MM(5,8): most parts opens 11223, the first of the guesses with the
     * most parts, 11234 among them */
    const mm_game *g8 = game(5, 8, true);
    set s8 = after(g8, "");
    mm_partition p1 = part(g8, &s8, "11223"), p2 = part(g8, &s8, "11234");
    CHECK(p1.parts == p2.parts && is(g8, best(g8, &s8, MM_RULE_KOOI, false, MM_TIE_FIRST),
                                     "11223"), "MM(5,8): 11223 %d parts, 11234 %d", p1.parts,
          p2.parts);
    free(s8.c);

    /* 5.5, MM(3,4): 9 grades, 64 codes, three kinds of first guess; the
     * first bounds 223, 196 and 194 of 111, 112 and 123 (the codes, and
     * a perfect tree with 8 branches for each part but the winning one:
     * e3's score), the parts' sizes and bounds in brackets, and the
     * average 206/64 = 3.22 */
    const mm_game *h = game(3, 4, true);
    set s = after(h, "");
    uint32_t shapes;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_partition_shapes(h, s.c, s.n, &shapes, &d))
        die("shapes", &d);
    CHECK(__builtin_popcountll(mm_game_reply_set(h)) == 9 && s.n == 64 && shapes == 3,
          "MM(3,4): grades, codes, kinds of first guess");
    static const char *const first3[3] = {"111", "112", "123"};
    static const uint64_t lb3[3] = {223, 196, 194};
    for (int i = 0; i < 3; i++)
        CHECK(part(h, &s, first3[i]).e3 + 64 == lb3[i], "5.5 %s: %llu", first3[i],
              (unsigned long long)(part(h, &s, first3[i]).e3 + 64));
    /* <123,0>=1 <123,30>=1 <123,3>=2 <123,12>=3 <123,20>=9 <123,1>=9
     * <123,11>=12 <123,10>=12; 112: 30:1 12:2 2:5 11:8 0:8 20:9 1:14 10:17 */
    static const int g123[8][3] = {{0, 0, 1}, {3, 0, 1}, {0, 3, 2}, {1, 2, 3},
                                   {2, 0, 9}, {0, 1, 9}, {1, 1, 12}, {1, 0, 12}};
    static const int g112[8][3] = {{3, 0, 1}, {1, 2, 2}, {0, 2, 5}, {1, 1, 8},
                                   {0, 0, 8}, {2, 0, 9}, {0, 1, 14}, {1, 0, 17}};
    mm_partition q123 = part(h, &s, "123"), q112 = part(h, &s, "112");
    for (int i = 0; i < 8; i++) {
        CHECK(q123.size[mm_reply_slot(h, g123[i][0], g123[i][1])] == (uint32_t)g123[i][2],
              "<123,%d%d>", g123[i][0], g123[i][1]);
        CHECK(q112.size[mm_reply_slot(h, g112[i][0], g112[i][1])] == (uint32_t)g112[i][2],
              "<112,%d%d>", g112[i][0], g112[i][1]);
    }
    CHECK(q112.parts == 8, "112: %d parts", q112.parts);
    /* the bounds in brackets: (8) (26) (38) for 3, 9 and 12 codes; (14)
     * (23) (26) (46) (58) for 5, 8, 9, 14 and 17 */
    static const int lbm[7][2] = {{3, 8}, {9, 26}, {12, 38}, {5, 14}, {8, 23}, {14, 46}, {17, 58}};
    for (int i = 0; i < 7; i++)
        CHECK(mm_perfect_total((uint64_t)lbm[i][0], 8) + (uint64_t)lbm[i][0] ==
                  (uint64_t)lbm[i][1], "5.5: (%d) for %d codes", lbm[i][1], lbm[i][0]);
    CHECK(prints_as(206, 64, 3.22, 2), "3.22");
    /* the full paths: 111 by 112 (20), 123 (10), 111; 444 by 112 (0),
     * 334 (10), 444 */
    CHECK(reply_is(h, "112", "111", 2, 0) && reply_is(h, "123", "111", 1, 0) &&
          reply_is(h, "112", "444", 0, 0) && reply_is(h, "334", "444", 1, 0),
          "5.5: the full paths");
    free(s.c);
}

int main(void)
{
    knuth();
    neuwirth();
    kooi();
    wve();
    ville();
    for (int i = 0; i < ngames; i++)
        mm_game_release(&games[i].g);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
