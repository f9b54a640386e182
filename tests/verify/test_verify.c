/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The verifier on trees compiled in-process: valid trees verify with the
 * stats of mm_tree_stats; trees corrupted by hand give each problem with
 * the right node, path and stated/true values; --suggest recovers a
 * misprinted guess.  And diff on compiled trees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/verify.h"


#include "tests/check.h"

static void compile(mm_game *g, int p, int c, bool repeat, mm_rule rule, mm_tree *t)
{
    mm_diag d;
    mm_compile_opts o;
    mm_diag_clear(&d);
    if (mm_game_init(g, p, c, repeat, &d)) {
        fprintf(stderr, "game: %s\n", d.msg);
        exit(1);
    }
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.threads = 1;
    if (mm_compile(g, &o, t, &d)) {
        fprintf(stderr, "compile: %s\n", d.msg);
        exit(1);
    }
}

static void verify(const mm_tree *t, const mm_game *g, bool suggest, mm_verify_report *r)
{
    mm_verify_opts o;
    mm_diag d;
    mm_verify_opts_init(&o);
    o.suggest = suggest;
    o.max_problems = 1000;
    mm_diag_clear(&d);
    if (mm_tree_verify(t, g, &o, r, &d)) {
        fprintf(stderr, "verify: %s\n", d.msg);
        exit(1);
    }
}

static void dump(const mm_verify_report *r)
{
    char msg[1024], path[512];
    for (uint64_t i = 0; i < r->nkept; i++)
        fprintf(stderr, "  [%s] path %s: %s\n", mm_problem_kind_name(r->problems[i].kind),
                mm_paths_format(&r->paths, r->g, r->problems[i].node, path, sizeof path),
                mm_problem_format(r, &r->problems[i], msg, sizeof msg));
}

/* Node reached from the root by the replies (black, white) given. */
static uint32_t node_at(const mm_tree *t, const mm_game *g, const int *bw, int steps)
{
    uint32_t i = 0;
    for (int k = 0; k < steps && i != MM_NO_NODE; k++)
        i = mm_tree_child(t, i, mm_reply_slot(g, bw[2 * k], bw[2 * k + 1]));
    return i;
}

static const mm_problem *find(const mm_verify_report *r, mm_problem_kind kind, uint32_t node)
{
    for (uint64_t i = 0; i < r->nkept; i++)
        if (r->problems[i].kind == kind && r->problems[i].node == node)
            return &r->problems[i];
    return NULL;
}

static mm_code code(const mm_game *g, const char *s)
{
    mm_code x;
    if (mm_code_parse(g, s, strlen(s), &x, NULL))
        exit(1);
    return x;
}

static void test_valid(int p, int c, bool repeat, mm_rule rule)
{
    mm_game g;
    mm_tree t;
    mm_verify_report r;
    mm_stats s;
    compile(&g, p, c, repeat, rule, &t);
    verify(&t, &g, false, &r);
    mm_tree_stats(&t, &s);
    CHECK(r.valid && r.nproblems == 0, "MM(%d,%d) %s: %llu problems", p, c,
          mm_rule_name(rule), (unsigned long long)r.nproblems);
    CHECK(r.found == g.ncodes, "found %llu of %u", (unsigned long long)r.found, g.ncodes);
    CHECK(r.stats.total == s.total && r.stats.worst == s.worst && r.stats.codes == s.codes &&
              r.stats.nodes == s.nodes && r.stats.inconsistent == s.inconsistent &&
              !memcmp(r.stats.hist, s.hist, sizeof s.hist),
          "MM(%d,%d) %s: stats %llu/%d differ from mm_tree_stats %llu/%d", p, c,
          mm_rule_name(rule), (unsigned long long)r.stats.total, r.stats.worst,
          (unsigned long long)s.total, s.worst);
    if (r.nproblems)
        dump(&r);
    mm_verify_report_release(&r);
    mm_tree_release(&t);
    mm_game_release(&g);
}

/* Knuth's tree for MM(4,6): the published total is 5801, worst 5. */
static void test_knuth_numbers(void)
{
    mm_game g;
    mm_tree t;
    mm_verify_report r;
    compile(&g, 4, 6, true, MM_RULE_KNUTH, &t);
    verify(&t, &g, false, &r);
    CHECK(r.valid && r.stats.total == 5801 && r.stats.worst == 5,
          "knuth MM(4,6): total %llu worst %d", (unsigned long long)r.stats.total, r.stats.worst);
    static const uint64_t hist[5] = {1, 6, 62, 533, 694};
    CHECK(!memcmp(r.stats.hist, hist, sizeof hist), "histogram %llu %llu %llu %llu %llu",
          (unsigned long long)r.stats.hist[0], (unsigned long long)r.stats.hist[1],
          (unsigned long long)r.stats.hist[2], (unsigned long long)r.stats.hist[3],
          (unsigned long long)r.stats.hist[4]);
    mm_verify_report_release(&r);
    mm_tree_release(&t);
    mm_game_release(&g);
}

static mm_tree copy_tree(const mm_tree *t)
{
    mm_tree c = *t;
    c.nodes = malloc(t->nnodes * sizeof *c.nodes);
    if (!c.nodes)
        exit(1);
    memcpy(c.nodes, t->nodes, t->nnodes * sizeof *c.nodes);
    c.cap = t->nnodes;
    c.where = NULL;
    c.prov.rule = c.prov.citation = NULL;
    return c;
}

static bool path_is(const mm_verify_report *r, uint32_t node, const mm_game *g,
                    const char *const *guesses, const int *bw, uint32_t n)
{
    mm_step steps[16];
    uint32_t k = mm_paths_get(&r->paths, node, steps, 16);
    if (k != n)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (steps[i].guess != code(g, guesses[i]) ||
            steps[i].slot != mm_reply_slot(g, bw[2 * i], bw[2 * i + 1]))
            return false;
    return true;
}

/* Knuth's own example path: 1122:B, 1344:W leaves 44 codes, guess 3526. */
static const int path44[] = {1, 0, 0, 1};
static const char *const guesses44[] = {"1122", "1344"};

static void test_count(const mm_tree *t0, const mm_game *g)
{
    mm_tree t = copy_tree(t0);
    mm_verify_report r;
    uint32_t n44 = node_at(&t, g, path44, 2), n256 = node_at(&t, g, path44, 1);
    CHECK(t.nodes[n44].count == 44 && t.nodes[n44].guess == code(g, "3526"),
          "the compiled tree is not Knuth's here");
    t.nodes[n44].count = 45;
    verify(&t, g, true, &r);
    const mm_problem *p = find(&r, MM_PROBLEM_COUNT, n44);
    CHECK(!r.valid && p && p->stated == 45 && p->actual == 44 && p->parts_sum == 44,
          "wrong count not reported");
    CHECK(p && path_is(&r, n44, g, guesses44, path44, 2), "wrong path for the count");
    p = find(&r, MM_PROBLEM_PARTITION, n256);
    int w = mm_reply_slot(g, 0, 1);
    CHECK(p && p->stated_parts[w] == 45 && p->actual_parts[w] == 44 && p->nsuggest == 0 &&
              p->searched,
          "the parent's partition is not reported");
    CHECK(r.nproblems == 2, "%llu problems, expected 2", (unsigned long long)r.nproblems);
    char msg[512];
    if (p) {
        mm_problem_format(&r, find(&r, MM_PROBLEM_COUNT, n44), msg, sizeof msg);
        CHECK(!strcmp(msg, "stated 45 codes, 44 possible (its parts add up to 44)"), "message '%s'",
              msg);
        mm_paths_format(&r.paths, g, n44, msg, sizeof msg);
        CHECK(!strcmp(msg, "1122:B,1344:W"), "path '%s'", msg);
    }
    if (failures)
        dump(&r);
    mm_verify_report_release(&r);
    free(t.nodes);
}

static void test_guess(const mm_tree *t0, const mm_game *g)
{
    mm_tree t = copy_tree(t0);
    mm_verify_report r;
    uint32_t n44 = node_at(&t, g, path44, 2);
    /* A misprint of one digit: 3526 printed as 3516. */
    t.nodes[n44].guess = code(g, "3516");
    verify(&t, g, true, &r);
    const mm_problem *p = find(&r, MM_PROBLEM_PARTITION, n44);
    CHECK(p && p->nsuggest >= 1 && p->suggest[0] == code(g, "3526"),
          "--suggest does not recover 3526 first");
    if (getenv("DUMP"))
        dump(&r);
    CHECK(r.nproblems > 1 && r.problems[0].kind == MM_PROBLEM_PARTITION &&
              r.problems[0].node == n44,
          "the partition problem does not come first");
    if (failures)
        dump(&r);
    mm_verify_report_release(&r);
    free(t.nodes);
}

static void test_markers(const mm_tree *t0, const mm_game *g)
{
    mm_tree t = copy_tree(t0);
    mm_verify_report r;
    static const int path7[] = {1, 0, 0, 1, 1, 2};
    uint32_t n44 = node_at(&t, g, path44, 2), n7 = node_at(&t, g, path7, 3);
    CHECK(t.nodes[n7].count == 7 && t.nodes[n7].guess == code(g, "1462") &&
              !(t.nodes[n7].flags & MM_NODE_CONSISTENT),
          "the compiled tree is not Knuth's at 1462");
    t.nodes[n44].flags |= MM_NODE_FORM_UNIQUE;  /* 44(3526) does not identify */
    t.nodes[n7].flags |= MM_NODE_FORM_X;        /* 7(1462x): but it is unique */
    verify(&t, g, true, &r);
    const mm_problem *p = find(&r, MM_PROBLEM_MARKER, n44);
    CHECK(p && p->marker == MM_MARKER_UNIQUE && p->stated == 1 && p->actual == 7 &&
              p->slot == mm_reply_slot(g, 1, 2) && p->searched && p->nsuggest == 0,
          "44(3526) as unique not reported");
    p = find(&r, MM_PROBLEM_MARKER, n7);
    CHECK(p && p->marker == MM_MARKER_X && p->stated == 2 && p->actual == 1,
          "7(1462x) not reported");
    CHECK(r.nproblems == 2, "%llu problems", (unsigned long long)r.nproblems);
    if (failures)
        dump(&r);
    mm_verify_report_release(&r);
    free(t.nodes);

    /* A '*' on a guess that can be the code: it is then claimed by no
     * node, so the code is also never found. */
    t = copy_tree(t0);
    uint32_t k = 0;
    while (k < t.nnodes && !(t.nodes[k].count >= 3 && (t.nodes[k].flags & MM_NODE_CONSISTENT)))
        k++;
    t.nodes[k].flags = (t.nodes[k].flags & ~MM_NODE_CONSISTENT) | MM_NODE_STAR;
    verify(&t, g, false, &r);
    p = find(&r, MM_PROBLEM_CONSISTENT, k);
    CHECK(p && p->stated == 0 && p->actual == 1, "a false '*' not reported");
    p = find(&r, MM_PROBLEM_NOT_FOUND, k);
    CHECK(p && p->code == t.nodes[k].guess && p->slot == g->win, "its code not reported missing");
    CHECK(r.nproblems == 2, "%llu problems", (unsigned long long)r.nproblems);
    if (failures)
        dump(&r);
    mm_verify_report_release(&r);
    free(t.nodes);
}

static void test_coverage(const mm_tree *t0, const mm_game *g)
{
    mm_tree t = copy_tree(t0);
    mm_verify_report r;
    /* Missing code: cut the last child of a node when it is a leaf. */
    uint32_t i = 0;
    int s = -1;
    for (; i < t.nnodes; i++) {
        if (!t.nodes[i].replies)
            continue;
        s = 63 - __builtin_clzll(t.nodes[i].replies);
        if (t.nodes[mm_tree_child(&t, i, s)].count == 1)
            break;
    }
    mm_code lost = t.nodes[mm_tree_child(&t, i, s)].guess;
    t.nodes[i].replies &= ~(UINT64_C(1) << s);
    verify(&t, g, false, &r);
    const mm_problem *p = find(&r, MM_PROBLEM_NOT_FOUND, i);
    CHECK(p && p->code == lost && p->slot == s, "missing code not reported");
    p = find(&r, MM_PROBLEM_PARTITION, i);
    CHECK(p && p->stated_parts[s] == 0 && p->actual_parts[s] == 1, "cut partition not reported");
    CHECK(r.nproblems == 2 && r.found == g->ncodes - 1, "%llu problems, %llu found",
          (unsigned long long)r.nproblems, (unsigned long long)r.found);
    if (failures)
        dump(&r);
    mm_verify_report_release(&r);
    free(t.nodes);

    /* A code twice: a leaf renamed as the first leaf's code. */
    t = copy_tree(t0);
    uint32_t a = MM_NO_NODE, b = MM_NO_NODE;
    for (uint32_t j = 1; j < t.nnodes && b == MM_NO_NODE; j++)
        if (t.nodes[j].count == 1 && !t.nodes[j].replies) {
            if (a == MM_NO_NODE)
                a = j;
            else
                b = j;
        }
    mm_code was = t.nodes[b].guess;
    t.nodes[b].guess = t.nodes[a].guess;
    verify(&t, g, true, &r);
    p = find(&r, MM_PROBLEM_FOUND_TWICE, b);
    CHECK(p && p->code == t.nodes[a].guess && p->other == a && p->stated == 2, "twice not reported");
    p = find(&r, MM_PROBLEM_NOT_FOUND, b);
    CHECK(p && p->code == was, "the renamed code is not reported missing");
    /* The leaf's one code is the renamed one: its guess is wrong, which
     * shows as its parts (the win stated, another reply true), and the
     * one guess that makes them is the code it had. */
    p = find(&r, MM_PROBLEM_PARTITION, b);
    CHECK(p && p->stated_parts[g->win] == 1 && p->actual_parts[g->win] == 0 && p->nsuggest == 1 &&
              p->suggest[0] == was,
          "the false leaf is not reported");
    CHECK(r.nproblems == 3, "%llu problems", (unsigned long long)r.nproblems);
    if (failures)
        dump(&r);
    mm_verify_report_release(&r);
    free(t.nodes);
}

static void test_structure(const mm_tree *t0, const mm_game *g)
{
    mm_tree t = copy_tree(t0);
    mm_verify_report r;
    uint32_t n44 = node_at(&t, g, path44, 2), n256 = node_at(&t, g, path44, 1);
    t.nodes[n44].child = t.nnodes - 1;         /* out of range */
    t.nodes[n256].guess = g->ncodes + 3;       /* not a code */
    t.nodes[0].child = 1 + t.nodes[0].child;   /* shifted: reaches nodes twice */
    mm_verify_opts o;
    mm_verify_opts_init(&o);
    o.max_problems = 5;
    mm_diag d;
    CHECK(mm_tree_verify(&t, g, &o, &r, &d) == MM_OK, "verify failed");
    CHECK(!r.valid && r.nkept == 5 && r.nproblems > 5, "limit: %llu kept of %llu",
          (unsigned long long)r.nkept, (unsigned long long)r.nproblems);
    mm_verify_report_release(&r);
    t.nodes[0].child--;
    verify(&t, g, false, &r);
    CHECK(find(&r, MM_PROBLEM_NOT_CODE, n256), "a guess out of range is not reported");
    mm_verify_report_release(&r);
    t.nodes[n256].guess = t0->nodes[n256].guess;
    verify(&t, g, false, &r);
    const mm_problem *p = find(&r, MM_PROBLEM_STRUCTURE, n44);
    CHECK(p && p->note && strstr(p->note, "out of range"), "children out of range not reported");
    mm_verify_report_release(&r);
    /* Unresolved: a condensed form the reader could not expand. */
    t.nodes[n44] = t0->nodes[n44];
    t.nodes[n44].guess = MM_NO_CODE;
    t.nodes[n44].replies = 0;
    t.nodes[n44].child = MM_NO_NODE;
    t.nodes[n44].flags = MM_NODE_FORM_BARE | MM_NODE_UNRESOLVED;
    verify(&t, g, false, &r);
    p = find(&r, MM_PROBLEM_MARKER, n44);
    CHECK(p && p->marker == MM_MARKER_UNRESOLVED && p->actual == 44, "unresolved not reported");
    /* Its codes are lost, but that is the marker problem: not reported
     * again one by one. */
    CHECK(r.nproblems == 1 && r.found == g->ncodes - 44, "the codes of an unresolved node");
    mm_verify_report_release(&r);
    free(t.nodes);
}

static void test_diff(void)
{
    mm_game g;
    mm_tree k, i, kc;
    mm_diff_report r;
    mm_diag d;
    compile(&g, 4, 6, true, MM_RULE_KNUTH, &k);
    mm_game_release(&g);
    compile(&g, 4, 6, true, MM_RULE_IRVING, &i);
    CHECK(mm_tree_diff(&k, &k, &g, &r, &d) == MM_OK && r.nitems == 0, "a tree differs from itself");
    mm_diff_report_release(&r);
    CHECK(mm_tree_diff(&k, &i, &g, &r, &d) == MM_OK, "diff failed");
    CHECK(r.a.total == 5801 && r.b.total != 5801 && r.nitems >= 1, "knuth vs irving: %llu %llu",
          (unsigned long long)r.a.total, (unsigned long long)r.b.total);
    /* Differences are disjoint subtrees: their changes add up. */
    int64_t sum = 0;
    for (uint64_t j = 0; j < r.nitems; j++)
        sum += (int64_t)r.items[j].total_b - (int64_t)r.items[j].total_a;
    CHECK(sum == (int64_t)r.b.total - (int64_t)r.a.total, "item totals do not add up");
    fprintf(stderr, "knuth vs irving: %llu differing nodes, totals %llu and %llu\n",
            (unsigned long long)r.nitems, (unsigned long long)r.a.total,
            (unsigned long long)r.b.total);
    mm_diff_report_release(&r);

    /* One guess changed deep down, to one that splits the same way. */
    kc = copy_tree(&k);
    static const int path4[] = {1, 2, 2, 0};
    uint32_t n = node_at(&kc, &g, path4, 2);
    CHECK(kc.nodes[n].count == 4 && kc.nodes[n].guess == code(&g, "1145"),
          "knuth's D, 1213:BB is not 4(1145x)");
    CHECK(mm_tree_diff(&k, &kc, &g, &r, &d) == MM_OK && r.nitems == 0, "copy differs");
    mm_diff_report_release(&r);
    kc.nodes[n].guess = code(&g, "1154");
    CHECK(mm_tree_diff(&k, &kc, &g, &r, &d) == MM_OK && r.nitems == 1 && r.items[0].a == n &&
              r.items[0].kind == MM_DIFF_GUESS && r.items[0].total_a == r.items[0].total_b,
          "one changed guess");
    mm_diff_report_release(&r);
    free(kc.nodes);

    mm_tree_release(&k);
    mm_tree_release(&i);
    mm_game_release(&g);
}

/* A path of more steps than mm_paths_format shows (64) ends in "...",
 * in a buffer with room to spare as in one it fills. */
static void test_long_path(const mm_game *g)
{
    enum { DEEP = 70 };
    mm_tree t;
    mm_diag d;
    uint32_t first, parent[DEEP];
    uint8_t slot[DEEP];
    mm_diag_clear(&d);
    mm_tree_init(&t, g->pegs, g->colors, g->repeat);
    if (mm_tree_alloc(&t, DEEP, &first, &d)) {
        FAIL("alloc: %s", d.msg);
        return;
    }
    for (uint32_t i = 0; i < DEEP; i++) {
        t.nodes[i].guess = 0;   /* 1111, replied - each time */
        parent[i] = i ? i - 1 : MM_NO_NODE;
        slot[i] = (uint8_t)mm_reply_slot(g, 0, 0);
    }
    mm_paths paths = {&t, parent, slot};
    char big[1024], small[40];
    mm_paths_format(&paths, g, DEEP - 1, big, sizeof big);
    size_t len = strlen(big);
    /* 64 steps of "1111:-" and 63 commas, then "..." */
    CHECK(len == 64 * 6 + 63 + 3 && !strncmp(big, "1111:-,1111:-,", 14) &&
              !strcmp(big + len - 9, "1111:-..."),
          "a path of %d steps in %zu bytes: '%s' (%zu)", DEEP - 1, sizeof big, big, len);
    mm_paths_format(&paths, g, DEEP - 1, small, sizeof small);
    CHECK(strlen(small) == sizeof small - 1 && !strcmp(small + sizeof small - 4, "..."),
          "a path of %d steps in %zu bytes: '%s'", DEEP - 1, sizeof small, small);
    mm_paths_format(&paths, g, 64, big, sizeof big);
    CHECK(strlen(big) == 64 * 6 + 63 && big[strlen(big) - 1] == '-',
          "a path of 64 steps: '%s'", big);
    mm_tree_release(&t);
}

int main(void)
{
    test_valid(3, 4, true, MM_RULE_KNUTH);
    test_valid(4, 6, true, MM_RULE_KNUTH);
    test_valid(4, 6, true, MM_RULE_IRVING);
    test_valid(4, 6, true, MM_RULE_NAIVE);
    test_valid(4, 10, false, MM_RULE_KNUTH);
    test_knuth_numbers();
    mm_game g;
    mm_tree t;
    compile(&g, 4, 6, true, MM_RULE_KNUTH, &t);
    test_count(&t, &g);
    test_guess(&t, &g);
    test_markers(&t, &g);
    test_coverage(&t, &g);
    test_structure(&t, &g);
    test_long_path(&g);
    mm_tree_release(&t);
    mm_game_release(&g);
    test_diff();
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
