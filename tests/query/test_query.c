/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The query functions (mmtree/query.h), mm_compile_guess and
 * mm_tree_diff_codes on trees compiled in-process, against Knuth's
 * worked example (his 1976 paper: the secret 3632 is found by 1122,
 * 1344, 3526, 1462, 3632; 44 codes remain after 1122:B,1344:W, where he
 * guesses 3526) and against brute force over the codes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/query.h"
#include "mmtree/verify.h"


#include "tests/check.h"

static void game(mm_game *g, int p, int c, bool repeat)
{
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_game_init(g, p, c, repeat, &d)) {
        fprintf(stderr, "game: %s\n", d.msg);
        exit(1);
    }
}

static void compile(const mm_game *g, mm_rule rule, bool consistent_only, mm_tree *t)
{
    mm_diag d;
    mm_compile_opts o;
    mm_diag_clear(&d);
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.consistent_only = consistent_only;
    o.threads = 1;
    if (mm_compile(g, &o, t, &d)) {
        fprintf(stderr, "compile: %s\n", d.msg);
        exit(1);
    }
}

static mm_code code(const mm_game *g, const char *s)
{
    mm_code x = MM_NO_CODE;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_code_parse(g, s, strlen(s), &x, &d))
        fprintf(stderr, "code %s: %s\n", s, d.msg), exit(1);
    return x;
}

static const char *fmt(const mm_game *g, mm_code x)
{
    static char buf[4][MM_MAX_PEGS + 1];
    static int k;
    k = (k + 1) % 4;
    return mm_code_format(g, x, buf[k]);
}

/* Knuth's node after 1122:B,1344:W and the codes there. */
static void test_knuth_position(const mm_game *g, const mm_tree *t)
{
    mm_step steps[2];
    uint32_t n, node, count, empty_at = 99;
    mm_code *codes;
    mm_diag d;
    mm_diag_clear(&d);
    CHECK(mm_path_parse(g, "1122:B,1344:W", steps, 2, &n, &d) == MM_OK, "%s", d.msg);
    CHECK(mm_tree_follow(t, g, steps, n, &node, &d) == MM_OK, "%s", d.msg);
    CHECK(t->nodes[node].count == 44, "count %u", t->nodes[node].count);
    CHECK(t->nodes[node].guess == code(g, "3526"), "guess %s", fmt(g, t->nodes[node].guess));
    CHECK(mm_codes_after(g, steps, n, &codes, &count, &empty_at, &d) == MM_OK, "%s", d.msg);
    CHECK(count == 44 && empty_at == 0, "%u codes, empty at %u", count, empty_at);
    /* brute force: every code that gives both replies, in lexical order */
    uint32_t k = 0;
    for (mm_code x = 0; x < g->ncodes; x++) {
        if (mm_game_score(g, steps[0].guess, x) != steps[0].slot ||
            mm_game_score(g, steps[1].guess, x) != steps[1].slot)
            continue;
        CHECK(k < count && codes[k] == x, "code %u: %s", k, fmt(g, x));
        k++;
    }
    CHECK(k == 44, "brute force finds %u", k);
    CHECK(codes[0] == code(g, "3523") && codes[43] == code(g, "6632"), "%s .. %s",
          fmt(g, codes[0]), fmt(g, codes[43]));

    /* From this node: 2.75 guesses on average (121 / 44), at most 3; the
     * same as the games of its codes, less the two guesses above. */
    mm_stats s;
    mm_node_stats(t, node, &s);
    CHECK(s.codes == 44 && s.total == 121 && s.worst == 3, "%llu %llu %d",
          (unsigned long long)s.codes, (unsigned long long)s.total, s.worst);
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t guesses, at;
        CHECK(mm_tree_trace(t, g, codes[i], NULL, 0, &guesses, &at, &d) == MM_OK, "%s", d.msg);
        CHECK(t->nodes[at].guess == codes[i], "node of %s", fmt(g, codes[i]));
        total += guesses - 2;
    }
    CHECK(total == s.total, "traced %llu", (unsigned long long)total);
    CHECK(s.hist[0] + s.hist[1] + s.hist[2] == 44 && s.hist[0] == 1, "hist %llu %llu %llu",
          (unsigned long long)s.hist[0], (unsigned long long)s.hist[1],
          (unsigned long long)s.hist[2]);
    free(codes);

    /* The root is the whole tree: mm_tree_stats. */
    mm_stats r;
    mm_node_stats(t, 0, &r);
    CHECK(r.codes == 1296 && r.total == 5801 && r.worst == 5 && r.nodes == 1378 &&
              r.inconsistent == 82, "root %llu %d", (unsigned long long)r.total, r.worst);
    static const uint64_t hist[5] = {1, 6, 62, 533, 694};
    CHECK(!memcmp(r.hist, hist, sizeof hist), "root histogram");
    mm_node_stats(t, t->nnodes, &r);
    CHECK(r.codes == 0 && r.nodes == 0, "out of range");
}

/* Knuth's worked example: the game against 3632. */
static void test_trace(const mm_game *g, const mm_tree *t)
{
    static const char *const want[5][2] = {
        {"1122", "B"}, {"1344", "W"}, {"3526", "BWW"}, {"1462", "BW"}, {"3632", "BBBB"}};
    mm_step steps[8];
    uint32_t n = 0, node;
    char reply[MM_REPLY_MAX];
    mm_diag d;
    mm_diag_clear(&d);
    CHECK(mm_tree_trace(t, g, code(g, "3632"), steps, 8, &n, &node, &d) == MM_OK, "%s", d.msg);
    CHECK(n == 5, "%u guesses", n);
    for (uint32_t i = 0; i < 5 && i < n; i++)
        CHECK(steps[i].guess == code(g, want[i][0]) &&
                  !strcmp(mm_reply_format(g, steps[i].slot, reply), want[i][1]),
              "step %u: %s %s", i + 1, fmt(g, steps[i].guess), reply);
    CHECK(t->nodes[node].guess == code(g, "3632") && t->nodes[node].count == 1, "node");
    /* fewer steps than guesses: the count is still the game's */
    memset(steps, 0, sizeof steps);
    CHECK(mm_tree_trace(t, g, code(g, "3632"), steps, 2, &n, NULL, &d) == MM_OK, "%s", d.msg);
    CHECK(n == 5 && steps[1].guess == code(g, "1344") && steps[2].guess == 0, "truncated");
    CHECK(mm_tree_trace(t, g, g->ncodes, steps, 8, &n, NULL, &d) == MM_ERR_USAGE, "secret");

    /* A tree that lost a sub-tree does not find its codes. */
    mm_tree broken = *t;
    mm_node *nodes = malloc(t->nnodes * sizeof *nodes);
    memcpy(nodes, t->nodes, t->nnodes * sizeof *nodes);
    broken.nodes = nodes;
    nodes[0].replies &= ~(UINT64_C(1) << mm_reply_slot(g, 0, 0));
    CHECK(mm_tree_trace(&broken, g, code(g, "3456"), steps, 8, &n, NULL, &d) == MM_ERR_INPUT &&
              strstr(d.msg, "does not find 3456") && strstr(d.msg, "1122"),
          "%s", d.msg);
    free(nodes);
}

static void test_depths(const mm_game *g, const mm_tree *t)
{
    mm_depths dp;
    mm_diag d;
    mm_diag_clear(&d);
    CHECK(mm_tree_depths(t, g, &dp, &d) == MM_OK, "%s", d.msg);
    static const uint64_t hist[5] = {1, 6, 62, 533, 694};
    CHECK(dp.stats.total == 5801 && dp.stats.worst == 5 && dp.stats.codes == 1296 &&
              !memcmp(dp.stats.hist, hist, sizeof hist) && dp.stats.nodes == 1378,
          "total %llu", (unsigned long long)dp.stats.total);
    CHECK(dp.guesses[code(g, "3632")] == 5 && dp.guesses[code(g, "1122")] == 1,
          "3632: %u", dp.guesses[code(g, "3632")]);
    uint32_t bad = 0;
    for (mm_code x = 0; x < g->ncodes; x++)
        bad += t->nodes[dp.node[x]].guess != x;
    CHECK(bad == 0, "%u codes at a node of another guess", bad);
    mm_depths_release(&dp);
}

static void test_codes_after(const mm_game *g)
{
    mm_step steps[2] = {{code(g, "1122"), mm_reply_slot(g, 0, 0)},
                        {code(g, "1234"), g->win}};
    mm_code *codes = (mm_code *)1;
    uint32_t count = 99, empty_at = 99;
    mm_diag d;
    mm_diag_clear(&d);
    /* 1122 got nothing, so 1234 (a 1 and a 2) cannot be the code */
    CHECK(mm_codes_after(g, steps, 2, &codes, &count, &empty_at, &d) == MM_OK, "%s", d.msg);
    CHECK(count == 0 && codes == NULL && empty_at == 2, "%u codes, empty at %u", count,
          empty_at);
    /* 1122:- leaves the 4^4 codes in colours 3-6; a win leaves the guess */
    CHECK(mm_codes_after(g, steps, 1, &codes, &count, &empty_at, &d) == MM_OK, "%s", d.msg);
    CHECK(count == 256 && codes[0] == code(g, "3333") && empty_at == 0, "%u", count);
    free(codes);
    steps[0].slot = g->win;
    CHECK(mm_codes_after(g, steps, 1, &codes, &count, NULL, &d) == MM_OK, "%s", d.msg);
    CHECK(count == 1 && codes[0] == code(g, "1122"), "%u", count);
    free(codes);
    CHECK(mm_codes_after(g, NULL, 0, &codes, &count, NULL, &d) == MM_OK && count == 1296,
          "no step");
    free(codes);
    steps[1].slot = g->nreplies;
    CHECK(mm_codes_after(g, steps, 2, &codes, &count, NULL, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "step 2"), "%s", d.msg);
    steps[1] = (mm_step){g->ncodes, 0};
    CHECK(mm_codes_after(g, steps, 2, &codes, &count, NULL, &d) == MM_ERR_USAGE, "guess");
}

/* mm_compile_guess at every node of a compiled tree makes the tree's
 * guess, from the colours played on the path, and from all colours. */
typedef struct walker {
    const mm_game *g;
    const mm_tree *t;
    mm_compile_opts o;
    mm_step steps[64];
    uint32_t checked, wrong, wrong_all;
} walker;

static void walk(walker *w, uint32_t node, uint32_t k)
{
    const mm_node *nd = &w->t->nodes[node];
    mm_code *S, x = MM_NO_CODE, y = MM_NO_CODE;
    uint32_t n;
    uint16_t played = 0, all = (uint16_t)((1u << w->g->colors) - 1);
    mm_diag d;
    mm_diag_clear(&d);
    for (uint32_t i = 0; i < k; i++)
        played |= w->g->colorset[w->steps[i].guess];
    if (mm_codes_after(w->g, w->steps, k, &S, &n, NULL, &d) || n != nd->count) {
        CHECK(0, "codes at node %u", node);
        return;
    }
    if (mm_compile_guess(w->g, &w->o, S, n, played, &x, &d) ||
        mm_compile_guess(w->g, &w->o, S, n, all, &y, &d))
        CHECK(0, "node %u: %s", node, d.msg);
    free(S);
    w->checked++;
    w->wrong += x != nd->guess;
    w->wrong_all += y != nd->guess;
    for (int s = 0; s < w->g->nreplies && k < 64; s++) {
        uint32_t c = mm_tree_child(w->t, node, s);
        if (c == MM_NO_NODE)
            continue;
        w->steps[k] = (mm_step){nd->guess, s};
        walk(w, c, k + 1);
    }
}

static void test_compile_guess(int p, int c, bool repeat)
{
    mm_game g;
    game(&g, p, c, repeat);
    for (int r = 0; r < MM_RULE_COUNT_ONE_STEP; r++) {
        for (int co = 0; co < 2; co++) {
            mm_tree t;
            compile(&g, (mm_rule)r, co, &t);
            walker w = {.g = &g, .t = &t};
            mm_compile_opts_init(&w.o);
            w.o.rule = (mm_rule)r;
            w.o.consistent_only = co;
            walk(&w, 0, 0);
            CHECK(w.checked == t.nnodes && !w.wrong && !w.wrong_all,
                  "MM(%d,%d%s) %s%s: %u of %u nodes differ (%u from all colours)", p, c,
                  repeat ? "" : " no repeat", mm_rule_name((mm_rule)r),
                  co ? " consistent-only" : "", w.wrong, w.checked, w.wrong_all);
            mm_tree_release(&t);
        }
    }
    mm_game_release(&g);
}

static void test_compile_guess_refusals(const mm_game *g)
{
    mm_compile_opts o;
    mm_code S[3] = {5, 3, 9}, x = 0;
    mm_diag d;
    mm_diag_clear(&d);
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_OPTIMAL;
    CHECK(mm_compile_guess(g, &o, S, 3, 0, &x, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "optimal"), "%s", d.msg);
    o.rule = MM_RULE_KNUTH;
    CHECK(mm_compile_guess(g, &o, S, 3, 0, &x, &d) == MM_ERR_USAGE, "unsorted");
    CHECK(mm_compile_guess(g, &o, S, 0, 0, &x, &d) == MM_ERR_USAGE, "empty");
    /* --first at the start only */
    mm_code *all = malloc(g->ncodes * sizeof *all);
    for (mm_code i = 0; i < g->ncodes; i++)
        all[i] = i;
    o.first = code(g, "1234");
    CHECK(mm_compile_guess(g, &o, all, g->ncodes, 0, &x, &d) == MM_OK && x == o.first,
          "first %s", fmt(g, x));
    o.first = MM_NO_CODE;
    CHECK(mm_compile_guess(g, &o, all, g->ncodes, 0, &x, &d) == MM_OK &&
              x == code(g, "1122"), "knuth first %s", fmt(g, x));
    free(all);
}

static void test_diff_codes(const mm_game *g, const mm_tree *knuth)
{
    mm_tree irving;
    mm_code_diff r;
    mm_diag d;
    mm_diag_clear(&d);
    compile(g, MM_RULE_IRVING, false, &irving);
    CHECK(mm_tree_diff_codes(knuth, &irving, g, &r, &d) == MM_OK, "%s", d.msg);
    int64_t sum = 0;
    for (uint64_t i = 0; i < r.nchanges; i++)
        sum += (int64_t)r.changes[i].guesses_b - (int64_t)r.changes[i].guesses_a;
    /* Irving 5696 against Knuth 5801 */
    CHECK(r.nchanges == 616 && sum == -105 && r.a.total == 5801 && r.b.total == 5696 &&
              r.b.worst == 6 && r.b.hist[5] == 3, "%llu changes, %lld",
          (unsigned long long)r.nchanges, (long long)sum);
    CHECK(r.nchanges && r.changes[0].code < r.changes[r.nchanges - 1].code, "order");
    mm_code_diff_release(&r);
    CHECK(mm_tree_diff_codes(knuth, knuth, g, &r, &d) == MM_OK && r.nchanges == 0, "self");
    mm_code_diff_release(&r);
    mm_game g3;
    game(&g3, 3, 4, true);
    CHECK(mm_tree_diff_codes(knuth, &irving, &g3, &r, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "MM(4,6)"), "%s", d.msg);
    mm_game_release(&g3);
    mm_tree_release(&irving);
}

/* mm_position_stats: Knuth's rule at 1122:B is his tree's node there;
 * a guess that splits nothing (1122 again) costs exactly one guess a
 * code; the optimal rule's own guess is worth no more than any other. */
static void test_position_stats(const mm_game *g, const mm_tree *knuth)
{
    mm_compile_opts o;
    mm_step steps[2];
    uint32_t n, node;
    mm_stats st, at;
    mm_diag d;
    mm_diag_clear(&d);
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    CHECK(mm_position_stats(g, &o, NULL, 0, MM_NO_CODE, &st, &d) == MM_OK, "%s", d.msg);
    CHECK(st.codes == 1296 && st.total == 5801, "root %llu %llu",
          (unsigned long long)st.codes, (unsigned long long)st.total);
    CHECK(mm_path_parse(g, "1122:B", steps, 2, &n, &d) == MM_OK, "%s", d.msg);
    CHECK(mm_tree_follow(knuth, g, steps, n, &node, &d) == MM_OK, "%s", d.msg);
    mm_node_stats(knuth, node, &at);
    CHECK(mm_position_stats(g, &o, steps, n, MM_NO_CODE, &st, &d) == MM_OK, "%s", d.msg);
    CHECK(st.codes == 256 && st.total == 923 && st.total == at.total && st.worst == at.worst,
          "1122:B: %llu %llu, the tree %llu", (unsigned long long)st.codes,
          (unsigned long long)st.total, (unsigned long long)at.total);
    CHECK(mm_position_stats(g, &o, steps, n, code(g, "1122"), &st, &d) == MM_OK, "%s", d.msg);
    CHECK(st.codes == 256 && st.total == 923 + 256 && st.worst == at.worst + 1,
          "1122 again: %llu", (unsigned long long)st.total);
    CHECK(o.nafter == 0 && o.after == NULL && o.first == MM_NO_CODE, "o changed");

    o.rule = MM_RULE_OPTIMAL;
    CHECK(mm_path_parse(g, "1234:BW", steps, 2, &n, &d) == MM_OK, "%s", d.msg);
    mm_stats best;
    CHECK(mm_position_stats(g, &o, steps, n, MM_NO_CODE, &best, &d) == MM_OK, "%s", d.msg);
    CHECK(best.codes == 252 && best.total == 890, "optimal at 1234:BW: %llu",
          (unsigned long long)best.total);
    const char *others[] = {"5566", "1122", "1234", "1125"};
    const uint64_t totals[] = {948, 0, 0, 890};
    for (int i = 0; i < 4; i++) {
        CHECK(mm_position_stats(g, &o, steps, n, code(g, others[i]), &st, &d) == MM_OK, "%s",
              d.msg);
        CHECK(st.codes == 252 && st.total >= best.total &&
                  (!totals[i] || st.total == totals[i]),
              "optimal then %s: %llu", others[i], (unsigned long long)st.total);
    }
    CHECK(mm_path_parse(g, "1122:BBBB", steps, 2, &n, &d) == MM_OK, "%s", d.msg);
    CHECK(mm_position_stats(g, &o, steps, n, MM_NO_CODE, &st, &d) == MM_ERR_USAGE,
          "a position after the game");
}

int main(void)
{
    mm_game g;
    mm_tree knuth;
    game(&g, 4, 6, true);
    compile(&g, MM_RULE_KNUTH, false, &knuth);
    test_knuth_position(&g, &knuth);
    test_trace(&g, &knuth);
    test_depths(&g, &knuth);
    test_codes_after(&g);
    test_compile_guess_refusals(&g);
    test_diff_codes(&g, &knuth);
    test_position_stats(&g, &knuth);
    test_compile_guess(4, 6, true);
    test_compile_guess(3, 5, false);
    test_compile_guess(5, 3, true);
    mm_tree_release(&knuth);
    mm_game_release(&g);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    return failures != 0;
}
