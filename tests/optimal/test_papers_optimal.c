/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The papers' figures that take an exact optimum, of a game or of a
 * position (mm_compile_opts.after), beyond the table cells of
 * test_optimal.c: Ville's Tables 6-9 and his Sections 2.3, 4 and 5.5,
 * Neuwirth's 4N optimum and Table 7, the repair of his appendix tree,
 * Knuth's claims on 1123 and 1234, Koyama and Lai's 5626 within five
 * guesses.  The slow cells of Ville's Table 8 are in tests/bench_papers.sh.
 *
 * Usage: test_papers_optimal TREES_DIR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/format.h"
#include "mmtree/path.h"
#include "mmtree/query.h"

static const char *trees_dir;

#include "tests/check.h"

static void die(const char *what, const mm_diag *d)
{
    fprintf(stderr, "test_papers_optimal: %s: %s\n", what, d->msg);
    exit(2);
}

/* A tree of a game or a position and its statistics. */
typedef struct run {
    mm_stats s;
    char first[MM_MAX_PEGS + 1];
    mm_status st;     /* MM_OK, or why there is no tree */
} run;

/* rule on MM(p,c), from the position after `path` ("" none), first guess
 * `first` (NULL: the rule's), within max_depth guesses (0: any). */
static run solve(int p, int c, bool repeat, mm_rule rule, const char *path, const char *first,
                 int max_depth)
{
    run r;
    mm_game g;
    mm_diag d;
    mm_tree t;
    mm_step steps[16];
    mm_compile_opts o;
    memset(&r, 0, sizeof r);
    mm_diag_clear(&d);
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.cache_mb = 64;
    o.threads = 1;   /* small searches: a second thread waits more than it helps */
    o.max_depth = max_depth;
    if (mm_game_init(&g, p, c, repeat, &d) ||
        (path && mm_path_parse(&g, path, steps, 16, &o.nafter, &d)) ||
        (first && mm_code_parse(&g, first, strlen(first), &o.first, &d)))
        die("set-up", &d);
    o.after = steps;
    r.st = mm_compile(&g, &o, &t, &d);
    if (!r.st) {
        mm_tree_stats(&t, &r.s);
        mm_code_format(&g, t.nodes[0].guess, r.first);
        if (!o.nafter && mm_tree_check(&t, &g, &d))
            die("check", &d);
        mm_tree_release(&t);
    }
    mm_game_release(&g);
    return r;
}

static bool hist_is(const mm_stats *s, const char *want)
{
    char buf[256];
    size_t n = 0;
    for (int i = 0; i < s->worst && n < sizeof buf - 24; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%llu", i ? " " : "",
                              (unsigned long long)s->hist[i]);
    return !strcmp(buf, want);
}

/* x/n printed with `places` decimals, rounded half up. */
static bool prints_as(uint64_t x, uint64_t n, double printed, int places)
{
    double scale = pow(10, places);
    return (uint64_t)floor((double)x * scale / (double)n + 0.5) ==
           (uint64_t)llround(printed * scale);
}

static uint64_t ipow(int c, int p)
{
    uint64_t r = 1;
    while (p-- > 0)
        r *= (uint64_t)c;
    return r;
}

/* ---- Ville 2013 ---- */

/* Tables 6, 7 and 8 as printed; 0 where the table has no value. */
static const uint64_t table6[8][8] = {
    /* c = 2..9, rows p = 2..7 (rows 8-9 unused) */
    {8, 21, 45, 81, 132, 198, 284, 388},
    {18, 73, 206, 451, 854, 1474, 2359, 3596},
    {44, 246, 905, 2463, 5625, 11228, 0, 0},
    {97, 816, 3954, 0, 0, 0, 0, 0},
    {224, 2649, 0, 0, 0, 0, 0, 0},
    {496, 0, 0, 0, 0, 0, 0, 0},
};
static const double table7[6][8] = {
    {2.000, 2.333, 2.813, 3.240, 3.667, 4.041, 4.438, 4.790},
    {2.250, 2.704, 3.219, 3.608, 3.954, 4.297, 4.607, 4.933},
    {2.750, 3.037, 3.535, 3.941, 4.340, 4.676, 0, 0},
    {3.031, 3.358, 3.861, 0, 0, 0, 0, 0},
    {3.500, 3.634, 0, 0, 0, 0, 0, 0},
    {3.875, 0, 0, 0, 0, 0, 0, 0},
};
static const uint64_t table8[6][8] = {
    {8, 21, 45, 81, 134, 205, 299, 417},
    {18, 73, 206, 455, 864, 1503, 2439, 3749},
    {44, 247, 908, 2476, 5660, 11362, 20838, 35426},
    {97, 824, 3982, 13572, 36920, 86270, 0, 0},
    {225, 2671, 17416, 74140, 0, 0, 0, 0},
    {505, 8817, 0, 0, 0, 0, 0, 0},
};
/* Table 9, MMe(p,c), c = 1..8 */
static const uint64_t table9[6][8] = {
    {1, 8, 21, 45, 81, 132, 198, 284},
    {1, 18, 73, 206, 451, 854, 1474, 2359},
    {1, 40, 246, 905, 2463, 0, 0, 0},
    {1, 91, 815, 0, 0, 0, 0, 0},
    {1, 189, 2646, 0, 0, 0, 0, 0},
    {1, 412, 0, 0, 0, 0, 0, 0},
};

/* MMe(p,c): the position of MM(p,c+1) after a guess of colour c+1 got no
 * hit (what --extra-colors builds). */
static run mme(int p, int c)
{
    char path[32];
    for (int i = 0; i < p; i++)
        path[i] = (char)('1' + c);
    snprintf(path + p, sizeof path - (size_t)p, ":-");
    return solve(p, c + 1, true, MM_RULE_OPTIMAL, path, NULL, 0);
}

static void ville(void)
{
    /* Table 7 is Table 6 over c^p, rounded (test_optimal.c asserts
     * Table 6's cells); footnote 12: 9 cells of Table 6 equal Table 8's */
    int equal = 0;
    for (int p = 2; p <= 7; p++)
        for (int c = 2; c <= 9; c++) {
            uint64_t v = table6[p - 2][c - 2];
            if (!v)
                continue;
            CHECK(prints_as(v, ipow(c, p), table7[p - 2][c - 2], 3), "Table 7 (%d,%d)", p, c);
            equal += v == table8[p - 2][c - 2];
        }
    CHECK(equal == 9, "footnote 12: %d cells equal", equal);
    /* Table 6 cells test_optimal.c leaves to the benchmark: MM(5,4) and
     * MM(4,7) (with footnote 20's worst case 6 and first guess 1123; his
     * f_i 1/8/78/717/1473/124 are one optimal tree's, and this one, with
     * fewer codes at 6, another) */
    run r = solve(5, 4, true, MM_RULE_OPTIMAL, NULL, NULL, 0);
    CHECK(r.s.total == 3954 && !strcmp(r.first, "11223"), "MM(5,4): %llu %s",
          (unsigned long long)r.s.total, r.first);
    r = solve(4, 7, true, MM_RULE_OPTIMAL, NULL, NULL, 0);
    CHECK(r.s.total == 11228 && r.s.worst == 6 && !strcmp(r.first, "1123") &&
          r.s.hist[5] <= 124 && 1 + 2 * 8 + 3 * 78 + 4 * 717 + 5 * 1473 + 6 * 124 == 11228,
          "MM(4,7): %llu worst %d first %s", (unsigned long long)r.s.total, r.s.worst, r.first);
    /* Table 8: every cell of up to 4096 codes (the rest: bench) */
    for (int p = 2; p <= 7; p++)
        for (int c = 2; c <= 9; c++) {
            uint64_t v = table8[p - 2][c - 2];
            if (!v || ipow(c, p) > 4096)
                continue;
            r = solve(p, c, true, MM_RULE_OPTIMAL_CONSISTENT, NULL, NULL, 0);
            CHECK(r.s.total == v, "Table 8 (%d,%d): %llu", p, c, (unsigned long long)r.s.total);
        }
    /* 5.2: MM*(4,6) and MM*(4,7) beat every one-step rule (branch2 5666,
     * entropy 11378: test_papers.c) */
    CHECK(table8[2][4] < 5666 && table8[2][5] < 11378, "5.2");
    /* Table 9, every cell */
    for (int p = 2; p <= 7; p++)
        for (int c = 1; c <= 8; c++) {
            uint64_t v = table9[p - 2][c - 1];
            if (!v)
                continue;
            r = mme(p, c);
            CHECK(r.s.total == v, "Table 9 (%d,%d): %llu", p, c, (unsigned long long)r.s.total);
        }

    /* 2.3, Figure 1: an optimal MM(3,2) tree, D = 2 (W = 3), L = 18,
     * codes found 1, 4, 3 */
    r = solve(3, 2, true, MM_RULE_OPTIMAL, NULL, NULL, 0);
    CHECK(r.s.total == 18 && r.s.worst == 3 && hist_is(&r.s, "1 4 3"), "Figure 1");
    /* eq. 10: E(p,1) = W(p,1) = 1 */
    for (int p = 1; p <= 8; p++) {
        r = solve(p, 1, true, MM_RULE_OPTIMAL, NULL, NULL, 0);
        CHECK(r.s.total == 1 && r.s.worst == 1, "eq. 10, p = %d", p);
    }
    /* eq. 11: E(1,c) = (c+1)/2, W(1,c) = c */
    for (int c = 1; c <= 16; c++) {
        r = solve(1, c, true, MM_RULE_OPTIMAL, NULL, NULL, 0);
        run w = solve(1, c, true, MM_RULE_OPTIMAL_WORST, NULL, NULL, 0);
        CHECK(2 * r.s.total == (uint64_t)(c * (c + 1)) && w.s.worst == c, "eq. 11, c = %d", c);
    }
    /* eq. 12 (n is c): E(2,2) = 2; the totals c^2 E(2,c) are Table 6's
     * first row; eq. 13: W(2,c) = floor(c/2) + 2 */
    for (int c = 2; c <= 9; c++) {
        long num = c % 2 == 0 ? 8L * c * c * c + 51L * c * c - 74L * c + 48
                              : 8L * c * c * c + 51L * c * c - 80L * c + 69;
        uint64_t want = c == 2 ? 8 : (uint64_t)(num / 24);
        CHECK((c == 2 || num % 24 == 0) && want == table6[0][c - 2], "eq. 12, c = %d", c);
        run w = solve(2, c, true, MM_RULE_OPTIMAL_WORST, NULL, NULL, 0);
        CHECK(w.s.worst == c / 2 + 2, "eq. 13, c = %d: %d", c, w.s.worst);
    }
    /* eq. 14 and W(3,c) = 3, 4, 4 for c = 2, 3, 4 (test_optimal.c: c >= 5) */
    static const int w3[3] = {3, 4, 4};
    for (int c = 2; c <= 4; c++) {
        run w = solve(3, c, true, MM_RULE_OPTIMAL_WORST, NULL, NULL, 0);
        CHECK(w.s.worst == w3[c - 2], "W(3,%d) = %d", c, w.s.worst);
    }

    /* 5.5, MM(3,4): 112 = 206 with codes found 1, 5, 37, 21; 123 passes
     * the bound 207 (208); the value of each part, counted from the
     * first guess (the part's own tree and one guess a code) */
    r = solve(3, 4, true, MM_RULE_OPTIMAL, NULL, NULL, 0);
    CHECK(r.s.total == 206 && !strcmp(r.first, "112") && hist_is(&r.s, "1 5 37 21"),
          "5.5: 112 = 206");
    r = solve(3, 4, true, MM_RULE_OPTIMAL, NULL, "123", 0);
    CHECK(r.s.total == 208, "5.5: from 123 %llu", (unsigned long long)r.s.total);
    static const struct {
        const char *path;
        uint64_t value;
    } parts[] = {
        {"123:-", 2},   {"123:WWW", 5},  {"123:BWW", 9},  {"123:BB", 30},  {"123:W", 29},
        {"123:BW", 40}, {"123:B", 41},   {"112:BWW", 5},  {"112:WW", 15},  {"112:BW", 24},
        {"112:-", 26},  {"112:BB", 30},  {"112:W", 47},   {"112:B", 58},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        r = solve(3, 4, true, MM_RULE_OPTIMAL, parts[i].path, NULL, 0);
        CHECK(r.s.total + r.s.codes == parts[i].value, "5.5: %s -> %llu", parts[i].path,
              (unsigned long long)(r.s.total + r.s.codes));
    }
}

/* ---- Knuth 1976, Koyama and Lai 1993 ---- */

static void knuth(void)
{
    /* "when the first test pattern is 1234 it appears to be impossible
     * to guarantee a win in five": it is possible */
    run r = solve(4, 6, true, MM_RULE_OPTIMAL_WORST, NULL, "1234", 0);
    CHECK(r.s.worst == 5 && r.s.total == 5676, "from 1234: worst %d, total %llu", r.s.worst,
          (unsigned long long)r.s.total);
    /* 1123: the variation after WW can be fixed, even keeping 2214 */
    r = solve(4, 6, true, MM_RULE_OPTIMAL_WORST, "1123:WW", "2214", 0);
    CHECK(r.s.codes == 222 && r.s.worst == 4, "1123:WW then 2214: worst %d", r.s.worst);
    r = solve(4, 6, true, MM_RULE_OPTIMAL_WORST, NULL, "1123", 0);
    CHECK(r.s.worst == 5, "from 1123: worst %d", r.s.worst);
    /* five guesses are the least, and need guesses that cannot be the
     * code ("a codeword which cannot possibly win ... is necessary") */
    CHECK(solve(4, 6, true, MM_RULE_OPTIMAL, NULL, NULL, 4).st == MM_ERR_USAGE &&
              solve(4, 6, true, MM_RULE_OPTIMAL_CONSISTENT, NULL, NULL, 5).st == MM_ERR_USAGE,
          "a tree within 4, or a consistent one within 5");
    /* Koyama and Lai (quoted by Ville 2013): 5626 within five guesses */
    r = solve(4, 6, true, MM_RULE_OPTIMAL, NULL, NULL, 5);
    CHECK(r.s.total == 5626 && r.s.worst == 5, "within 5: %llu", (unsigned long long)r.s.total);
}

/* ---- Neuwirth 1982 ---- */

/* The appendix tree's sub-tree at path: codes, total, worst, guess. */
static mm_stats appendix_node(const mm_tree *t, const mm_game *g, const char *path,
                              mm_code *guess)
{
    uint32_t node;
    mm_diag d;
    mm_stats s;
    mm_diag_clear(&d);
    if (mm_tree_find(t, g, path, &node, &d))
        die(path, &d);
    mm_node_stats(t, node, &s);
    *guess = t->nodes[node].guess;
    return s;
}

static void neuwirth(void)
{
    /* 3: the full optimum of 4N, 3.5833 with a maximum of 5 */
    run r = solve(4, 4, false, MM_RULE_OPTIMAL, NULL, NULL, 0);
    CHECK(r.s.total == 86 && r.s.worst == 5, "4N optimum %llu worst %d",
          (unsigned long long)r.s.total, r.s.worst);

    char file[4096];
    snprintf(file, sizeof file, "%s/neuwirth1982.txt", trees_dir);
    mm_tree t;
    mm_game g;
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree_init(&t, 0, 0, true);
    if (mm_tree_read_file(file, MM_FMT_AUTO, 0, &t, &d) || mm_game_init(&g, 4, 6, true, &d))
        die(file, &d);
    char code[MM_MAX_PEGS + 1];
    mm_code q;

    /* Table 7: after 1123, Irving's next question and Neuwirth's, and
     * what each gains: Irving's parts solved exactly (2.4.1-2.4.8, as
     * Neuwirth says Irving did), Neuwirth's as the appendix has them.
     * (3,0) e1 1245, 0.0015; (1,2) 1234 "optimized", 0.0008; (0,3) e3
     * 2314, 0.0008; (0,0) 4456 "optimized", 0.0015.  Irving's 5662 (his
     * 4.3688) is the appendix's 5656 as counted plus these 6. */
    static const struct {
        const char *path, *irving, *ours;
        double gain;
        mm_rule rule;
    } t7[4] = {
        {"1123:BBB", "6213", "1245", 0.0015, MM_RULE_ENTROPY},
        {"1123:BWW", "1432", "1234", 0.0008, MM_RULE_OPTIMAL_CONSISTENT},
        {"1123:WWW", "4312", "2314", 0.0008, MM_RULE_E3},
        {"1123:-", "4545", "4456", 0.0015, MM_RULE_OPTIMAL_CONSISTENT},
    };
    uint64_t gained = 0;
    for (int i = 0; i < 4; i++) {
        mm_stats s = appendix_node(&t, &g, t7[i].path, &q);
        run ir = solve(4, 6, true, MM_RULE_OPTIMAL, t7[i].path, t7[i].irving, 0);
        CHECK(!strcmp(mm_code_format(&g, q, code), t7[i].ours) &&
                  prints_as(ir.s.total - s.total, 1296, t7[i].gain, 4),
              "Table 7 %s: %s, %llu against Irving's %llu", t7[i].path, code,
              (unsigned long long)s.total, (unsigned long long)ir.s.total);
        gained += ir.s.total - s.total;
        if (t7[i].rule >= MM_RULE_COUNT_ONE_STEP) {
            run o = solve(4, 6, true, t7[i].rule, t7[i].path, NULL, 0);
            CHECK(!strcmp(o.first, t7[i].ours) && o.s.total == s.total,
                  "Table 7 %s: the consistent optimum %s %llu", t7[i].path, o.first,
                  (unsigned long long)o.s.total);
        }
    }
    CHECK(gained == 6 && 5656 + gained == 5662 && prints_as(5662, 1296, 4.3688, 4), "5662");
    /* Irving's 6213 is not e2's 1233, which "would yield a higher
     * expectation" */
    CHECK(solve(4, 6, true, MM_RULE_OPTIMAL, "1123:BBB", "1233", 0).s.total >
              solve(4, 6, true, MM_RULE_OPTIMAL, "1123:BBB", "6213", 0).s.total,
          "1233 against 6213");

    /* The appendix's error (trees/neuwirth1982.errata.md, 14): at
     * 1123:BW,1415:BWW the transcription keeps every printed guess, 49
     * guesses from there (5658).  Keeping 6114, 48 at best (1542 for
     * 1534*: 5657); the 19 codes solved anew, 46 with 1561 (5655). */
    mm_stats s = appendix_node(&t, &g, "1123:BW,1415:BWW", &q);
    run keep = solve(4, 6, true, MM_RULE_OPTIMAL, "1123:BW,1415:BWW", "6114", 0);
    run best = solve(4, 6, true, MM_RULE_OPTIMAL, "1123:BW,1415:BWW", NULL, 0);
    mm_stats all;
    mm_tree_stats(&t, &all);
    CHECK(all.total == 5658 && s.codes == 19 && s.total == 49 && keep.s.total == 48 &&
              best.s.total == 46 && !strcmp(best.first, "1561") && best.s.worst == 3,
          "repair: %llu, kept 6114 %llu, best %llu (%s)", (unsigned long long)s.total,
          (unsigned long long)keep.s.total, (unsigned long long)best.s.total, best.first);
    CHECK(solve(4, 6, true, MM_RULE_OPTIMAL, "1123:BW,1415:BWW,6114:WW", "1542", 0).s.total == 5,
          "1542 in the WW part");
    /* "A slight modification ... a maximum of 5": 2434 needs 6 guesses
     * after 1123:WW,4532:BWW, where 2335 in place of 3652 costs nothing
     * (104 guesses from there) and needs at most 3 more: with the best
     * repair above the strategy needs 5655 guesses, never more than 5. */
    s = appendix_node(&t, &g, "1123:WW,4532:BWW", &q);
    r = solve(4, 6, true, MM_RULE_OPTIMAL, "1123:WW,4532:BWW", NULL, 0);
    CHECK(s.total == 104 && s.worst == 4 && r.s.total == 104 && r.s.worst == 3 &&
              !strcmp(r.first, "2335"), "2434: %llu worst %d, best %llu worst %d (%s)",
          (unsigned long long)s.total, s.worst, (unsigned long long)r.s.total, r.s.worst,
          r.first);
    mm_game_release(&g);
    mm_tree_release(&t);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_papers_optimal TREES_DIR\n");
        return 2;
    }
    trees_dir = argv[1];
    ville();
    knuth();
    neuwirth();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
