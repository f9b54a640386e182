/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The exact optima against the published tables (fast cells only; the
 * others are in tests/bench_optimal.sh):
 *  - Ville 2013 Table 6: least total over all strategies, MM(p,c);
 *  - Ville 2013 Table 8: least total over consistent strategies, MM*(p,c);
 *  - Neuwirth 1982 Table 6: the consistent optimum with its worst case for
 *    4 pegs, 4..6 colours, without (N) and with (R) repetition;
 *  - the least worst case: 5 for MM(4,6) (Knuth), W(2,c) = floor(c/2) + 2
 *    (Chen-Lin, Goddard) and W(3,c) = floor((c-1)/3) + 4 (Jager-Peczarski,
 *    quoted by Ville eq. 14).
 * Every tree must pass mm_tree_check, and its statistics must be the
 * proven value.  Then: the same tree with --value-only, without symmetry,
 * without the table, on one thread; and after a checkpointed interruption.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmtree/compile.h"

typedef struct tcase {
    int p, c;
    bool repeat;
    mm_rule rule;
    unsigned long total;
    int worst;         /* 0: not asserted */
    const char *first; /* NULL: not asserted */
} tcase;

#define OPT MM_RULE_OPTIMAL
#define CON MM_RULE_OPTIMAL_CONSISTENT
#define WST MM_RULE_OPTIMAL_WORST

static const tcase cases[] = {
    /* Ville Table 6 (p = 2 is Chen-Lin and Goddard's formula) */
    {2, 2, true, OPT, 8, 0, NULL},     {2, 3, true, OPT, 21, 0, NULL},
    {2, 4, true, OPT, 45, 0, NULL},    {2, 5, true, OPT, 81, 0, NULL},
    {2, 6, true, OPT, 132, 0, NULL},   {2, 7, true, OPT, 198, 0, NULL},
    {2, 8, true, OPT, 284, 0, NULL},   {2, 9, true, OPT, 388, 0, NULL},
    {3, 2, true, OPT, 18, 0, NULL},    {3, 3, true, OPT, 73, 0, NULL},
    {3, 4, true, OPT, 206, 0, "112"},  {3, 5, true, OPT, 451, 0, NULL},
    {3, 6, true, OPT, 854, 0, NULL},   {3, 7, true, OPT, 1474, 0, NULL},
    {3, 8, true, OPT, 2359, 0, NULL},  {3, 9, true, OPT, 3596, 0, NULL},
    {4, 2, true, OPT, 44, 0, NULL},    {4, 3, true, OPT, 246, 0, NULL},
    {4, 4, true, OPT, 905, 0, NULL},   {4, 5, true, OPT, 2463, 0, NULL},
    {4, 6, true, OPT, 5625, 6, "1123"},
    {5, 2, true, OPT, 97, 0, NULL},    {5, 3, true, OPT, 816, 0, NULL},
    {6, 2, true, OPT, 224, 0, NULL},   {6, 3, true, OPT, 2649, 0, NULL},
    {7, 2, true, OPT, 496, 0, NULL},
    /* Ville Table 8 */
    {2, 6, true, CON, 134, 0, NULL},   {2, 9, true, CON, 417, 0, NULL},
    {3, 4, true, CON, 206, 0, NULL},   {3, 5, true, CON, 455, 0, NULL},
    {3, 7, true, CON, 1503, 0, NULL},  {3, 9, true, CON, 3749, 0, NULL},
    {4, 2, true, CON, 44, 0, NULL},    {4, 3, true, CON, 247, 0, NULL},
    {4, 6, true, CON, 5660, 0, NULL},  {4, 7, true, CON, 11362, 0, NULL},
    {5, 3, true, CON, 824, 0, NULL},   {5, 4, true, CON, 3982, 0, NULL},
    {6, 2, true, CON, 225, 0, NULL},   {6, 3, true, CON, 2671, 0, NULL},
    {7, 2, true, CON, 505, 0, NULL},
    /* Neuwirth Table 6: expectation x codes, and the maximal length */
    {4, 4, false, CON, 86, 6, NULL},   /* 4N 3.5833 */
    {4, 4, true, CON, 908, 5, NULL},   /* 4R 3.5469 */
    {4, 5, false, CON, 466, 6, NULL},  /* 5N 3.8833 */
    {4, 5, true, CON, 2476, 5, NULL},  /* 5R 3.9616 */
    {4, 6, false, CON, 1453, 6, NULL}, /* 6N 4.0361 */
    /* least worst case, then least total */
    {4, 6, true, WST, 5626, 5, NULL},
    {2, 9, true, WST, 388, 6, NULL},
    {3, 5, true, WST, 0, 5, NULL},     {3, 6, true, WST, 0, 5, NULL},
    {3, 7, true, WST, 0, 6, NULL},     {3, 8, true, WST, 0, 6, NULL},
    {3, 9, true, WST, 0, 6, NULL},
};

#include "tests/check.h"

/* MM(p,c) into g; false, said, when it cannot be made */
static bool game(mm_game *g, int p, int c, bool repeat)
{
    mm_diag d;
    if (!mm_game_init(g, p, c, repeat, &d))
        return true;
    FAIL("MM(%d,%d): %s", p, c, d.msg);
    return false;
}

/* The options of an exact search by rule: a table of 64 MiB, threads
 * threads (0: the machine's cores). */
static mm_compile_opts search_opts(mm_rule rule, int threads)
{
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.cache_mb = 64;
    o.threads = threads;
    return o;
}

static bool build(const mm_game *g, mm_compile_opts *o, mm_tree *t,
                  mm_optimal_report *r, const char *what)
{
    mm_diag d;
    mm_diag_clear(&d);
    o->report = r;
    mm_status st = mm_compile(g, o, t, &d);
    if (st) {
        FAIL("%s: mm_compile: %s", what, d.msg);
        return false;
    }
    if ((st = mm_tree_check(t, g, &d))) {
        FAIL("%s: tree check: %s", what, d.msg);
        mm_tree_release(t);
        return false;
    }
    return true;
}

static void run_case(const tcase *tc)
{
    char what[64], code[MM_MAX_PEGS + 1];
    snprintf(what, sizeof what, "MM(%d,%d%s) %s", tc->p, tc->c, tc->repeat ? "" : " no-repeat",
             mm_rule_name(tc->rule));
    mm_game g;
    if (!game(&g, tc->p, tc->c, tc->repeat))
        return;
    mm_compile_opts o = search_opts(tc->rule, 0);
    mm_tree t;
    mm_optimal_report r;
    if (build(&g, &o, &t, &r, what)) {
        mm_stats s;
        mm_tree_stats(&t, &s);
        mm_code_format(&g, t.nodes[0].guess, code);
        if (tc->total && s.total != tc->total)
            FAIL("%s: total %llu, want %lu", what, (unsigned long long)s.total, tc->total);
        if (tc->worst && s.worst != tc->worst)
            FAIL("%s: worst case %d, want %d", what, s.worst, tc->worst);
        if (tc->first && strcmp(code, tc->first))
            FAIL("%s: first guess %s, want %s", what, code, tc->first);
        if (t.prov.proof != MM_PROOF_PROVEN || t.prov.lower_total || t.prov.lower_worst ||
            !t.prov.rule || strcmp(t.prov.rule, mm_rule_name(tc->rule)))
            FAIL("%s: provenance: rule %s, proof %d, lower %llu/%d", what,
                 t.prov.rule ? t.prov.rule : "(none)", (int)t.prov.proof,
                 (unsigned long long)t.prov.lower_total, t.prov.lower_worst);
        if (!r.proven || r.total != s.total || r.lower != s.total || r.worst != s.worst)
            FAIL("%s: report (proven %d, total %llu, lower %llu, worst %d) disagrees with the tree",
                 what, r.proven, (unsigned long long)r.total, (unsigned long long)r.lower, r.worst);
        printf("%-32s total %6llu worst %d first %s  %.3f s, %llu sets\n", what,
               (unsigned long long)s.total, s.worst, code, r.elapsed,
               (unsigned long long)r.nodes);
        mm_tree_release(&t);
    }
    mm_game_release(&g);
}

/* Options that change how the search runs must not change the tree. */
static void same_tree(int p, int c, mm_rule rule)
{
    mm_game g;
    if (!game(&g, p, c, true))
        return;
    mm_compile_opts o = search_opts(rule, 2);   /* whatever the machine: make the pool work */
    mm_tree ref;
    mm_optimal_report r;
    if (!build(&g, &o, &ref, &r, "reference")) {
        mm_game_release(&g);
        return;
    }
    for (int v = 0; v < 10; v++) {
        o = search_opts(rule, 2);
        const char *name[] = {"value-only", "no-symmetry", "no-cache", "one thread",
                              "consistent bound", "threads share guesses",
                              "threads share parts", "no vector instructions",
                              "no table of replies", "four threads"};
        if (v == 0) o.value_only = true;
        if (v == 1) o.no_symmetry = true;
        if (v == 2) o.no_cache = true;
        if (v == 3) o.threads = 1;
        if (v == 4) o.consistent_bound = true;
        if (v == 5) o.share = MM_SHARE_GUESSES;
        if (v == 6) o.share = MM_SHARE_PARTS;
        if (v == 7) o.no_simd = true;
        if (v == 8) o.no_replies = true;
        if (v == 9) o.threads = 4;   /* jobs posted by threads in other jobs */
        mm_tree t;
        if (!build(&g, &o, &t, &r, name[v]))
            continue;
        if (!mm_tree_equal(&t, &ref))
            FAIL("MM(%d,%d) %s: %s gives another tree", p, c, mm_rule_name(rule), name[v]);
        mm_tree_release(&t);
    }
    printf("MM(%d,%d) %s: the same tree with value-only, no symmetry, no table, one thread, "
           "the consistent bound, either way of sharing, no vector instructions, no table of "
           "replies, four threads\n",
           p, c, mm_rule_name(rule));
    mm_tree_release(&ref);
    mm_game_release(&g);
}

/* Position symmetry at 8 pegs too (40319 permutations at the root): on
 * MM(8,2) it removes about two guesses of three.  Its 44 replies are
 * more than the 32 bits a code of smaller games' table of replies hold;
 * a small set's guesses scored off the table are not counted, so without
 * it more are.  same_tree checks that neither changes the tree. */
static void eight_pegs(void)
{
    mm_game g;
    if (!game(&g, 8, 2, true))
        return;
    mm_compile_opts o = search_opts(MM_RULE_OPTIMAL, 1);
    mm_tree t;
    mm_optimal_report r, plain;
    if (build(&g, &o, &t, &r, "MM(8,2)")) {
        if (r.guesses * 2 > r.guesses_all)
            FAIL("MM(8,2): %llu of %llu guesses scored: symmetry left out at 8 pegs",
                 (unsigned long long)r.guesses, (unsigned long long)r.guesses_all);
        mm_tree_release(&t);
        o.no_replies = true;
    }
    if (o.no_replies && build(&g, &o, &t, &plain, "MM(8,2) without a table of replies")) {
        if (plain.guesses <= r.guesses)
            FAIL("MM(8,2): %llu guesses scored without a table of replies, %llu with: "
                 "no table at 8 pegs", (unsigned long long)plain.guesses,
                 (unsigned long long)r.guesses);
        mm_tree_release(&t);
    }
    mm_game_release(&g);
    same_tree(8, 2, MM_RULE_OPTIMAL);
}

/* Games of permutations (p pegs, p colours, no repeat) have the inverse
 * among their symmetries (compiler/opt_sym.c).  The trees are those of
 * the search without symmetry, for each rule, on MM(4,4)n, MM(5,5)n and
 * the position after 123456:BBWWWW of MM(6,6)n (135 codes; without the
 * inverse 34.2% of its guesses are removed, with it 53.8%).  On the
 * whole of MM(6,6)n, too slow without symmetry, the values are the
 * stored table's, and the inverse removes guesses that positions and
 * colours alone leave: 7.1% of them removed without it, 25.6% with
 * (here, at least 20%). */
static void inverse_symmetry(void)
{
    static const mm_rule rules[] = {MM_RULE_OPTIMAL, MM_RULE_OPTIMAL_CONSISTENT,
                                    MM_RULE_OPTIMAL_WORST};
    static const uint64_t total66[] = {3924, 3938, 3924};
    mm_step step;
    uint32_t nstep;
    mm_diag d;
    for (int p = 4; p <= 6; p++) {
        mm_game g;
        if (!game(&g, p, p, false))
            return;
        if (p == 6 && mm_path_parse(&g, "123456:BBWWWW", &step, 1, &nstep, &d)) {
            FAIL("MM(6,6)n: %s", d.msg);
            mm_game_release(&g);
            return;
        }
        for (int v = 0; v < 3; v++) {
            mm_compile_opts o = search_opts(rules[v], 1), b;
            char what[80];
            snprintf(what, sizeof what, "MM(%d,%d)n %s", p, p, mm_rule_name(o.rule));
            mm_tree t, u;
            mm_optimal_report r, ru;
            mm_stats s;
            if (p == 6) {   /* the whole game: its values, and the share removed */
                if (build(&g, &o, &t, &r, what)) {
                    mm_tree_stats(&t, &s);
                    if (s.total != total66[v] || s.worst != 7)
                        FAIL("%s: %llu/%d, want %llu/7", what, (unsigned long long)s.total,
                             s.worst, (unsigned long long)total66[v]);
                    if (r.guesses * 10 > r.guesses_all * 8)
                        FAIL("%s: %llu of %llu guesses scored: the inverse left out", what,
                             (unsigned long long)r.guesses,
                             (unsigned long long)r.guesses_all);
                    mm_tree_release(&t);
                }
                o.after = &step;   /* then the position, with and without symmetry */
                o.nafter = nstep;
                snprintf(what, sizeof what, "MM(6,6)n %s after 123456:BBWWWW",
                         mm_rule_name(o.rule));
            }
            b = o;
            b.no_symmetry = true;
            o.report = &r;   /* a position's tree: mm_tree_check does not apply */
            b.report = &ru;
            if (mm_compile(&g, &o, &t, &d)) {
                FAIL("%s: mm_compile: %s", what, d.msg);
                continue;
            }
            if (!mm_compile(&g, &b, &u, &d)) {
                if (!r.proven || !mm_tree_equal(&t, &u))
                    FAIL("%s: another tree without symmetry", what);
                mm_tree_release(&u);
            } else {
                FAIL("%s, no symmetry: mm_compile: %s", what, d.msg);
            }
            mm_tree_release(&t);
        }
        mm_game_release(&g);
    }
    printf("MM(4,4)n, MM(5,5)n, MM(6,6)n after 123456:BBWWWW: the same trees with the "
           "inverse as without symmetry\n");
}

/* More threads than two, whatever the machine: a thread that comes free
 * is helped by any of the others, which post their jobs from within
 * different jobs (MM(5,5) crashed on four threads when they could). */
static void many_threads(int p, int c, mm_rule rule)
{
    mm_game g;
    if (!game(&g, p, c, true))
        return;
    mm_compile_opts o = search_opts(rule, 1);
    mm_tree ref, t;
    mm_optimal_report r;
    if (build(&g, &o, &ref, &r, "one thread")) {
        for (int threads = 3; threads <= 6; threads++) {
            o.threads = threads;
            if (!build(&g, &o, &t, &r, "threads"))
                continue;
            if (!mm_tree_equal(&t, &ref))
                FAIL("MM(%d,%d) %s: %d threads give another tree", p, c, mm_rule_name(rule),
                     threads);
            mm_tree_release(&t);
        }
        printf("MM(%d,%d) %s: the same tree on 1 and on 3 to 6 threads\n", p, c,
               mm_rule_name(rule));
        mm_tree_release(&ref);
    }
    mm_game_release(&g);
}

/* Interrupted at once, then resumed from the checkpoint: the same tree as
 * a run straight through; the interrupted tree still verifies. */
static void checkpoint_resume(void)
{
    mm_game g;
    mm_diag d;
    char path[] = "/tmp/mmtree-ckpt-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || mm_game_init(&g, 4, 5, true, &d)) {
        FAIL("checkpoint: set-up failed");
        return;
    }
    close(fd);
    remove(path);   /* the first run must start from nothing */
    mm_compile_opts o = search_opts(MM_RULE_OPTIMAL, 0);
    mm_tree ref, t1, t2;
    mm_optimal_report r0, r1, r2;
    if (!build(&g, &o, &ref, &r0, "straight"))
        goto out;
    static volatile int stop = 1;   /* stopped before the search starts */
    o.stop = &stop;
    o.checkpoint = path;
    if (build(&g, &o, &t1, &r1, "interrupted")) {
        mm_stats s;
        mm_tree_stats(&t1, &s);
        if (r1.proven || r1.total != s.total || r1.lower > s.total || r1.lower > r0.total)
            FAIL("interrupted: proven %d total %llu lower %llu", r1.proven,
                 (unsigned long long)r1.total, (unsigned long long)r1.lower);
        mm_tree_release(&t1);
    }
    if (access(path, R_OK))
        FAIL("interrupted: no checkpoint written");
    o.stop = NULL;
    o.keep_checkpoint = true;   /* for the run below */
    if (build(&g, &o, &t2, &r2, "resumed")) {
        if (!r2.proven || !mm_tree_equal(&t2, &ref))
            FAIL("resumed: not the tree of a straight run");
        mm_tree_release(&t2);
    }
    /* Now the checkpoint holds the finished search: a third run answers
     * from it with far less work. */
    if (build(&g, &o, &t2, &r2, "from a full checkpoint")) {
        if (!mm_tree_equal(&t2, &ref) || r2.nodes * 4 > r0.nodes)
            FAIL("from a full checkpoint: %llu sets searched, straight %llu",
                 (unsigned long long)r2.nodes, (unsigned long long)r0.nodes);
        mm_tree_release(&t2);
    }
    printf("checkpoint: stopped, resumed, same tree; resumed from a full one in %llu sets "
           "(straight %llu)\n", (unsigned long long)r2.nodes, (unsigned long long)r0.nodes);
    mm_tree_release(&ref);
out:
    remove(path);
    mm_game_release(&g);
}

/* A fixed first guess: the optimal one gives the optimal tree; two
 * guesses of one class (1234 and 5432 in MM(4,5)) give the same total. */
static void fixed_first(void)
{
    mm_game g;
    mm_diag d;
    if (!game(&g, 4, 5, true))
        return;
    const char *firsts[] = {NULL, "1123", "1234", "5432"};
    uint64_t total[4] = {0};
    mm_tree t[4];
    bool ok[4] = {false};
    for (int i = 0; i < 4; i++) {
        mm_compile_opts o = search_opts(MM_RULE_OPTIMAL, 0);
        if (firsts[i] && mm_code_parse(&g, firsts[i], 4, &o.first, &d)) {
            FAIL("%s", d.msg);
            continue;
        }
        mm_optimal_report r;
        if (!(ok[i] = build(&g, &o, &t[i], &r, firsts[i] ? firsts[i] : "free")))
            continue;
        mm_stats s;
        mm_tree_stats(&t[i], &s);
        total[i] = s.total;
        if (o.first != MM_NO_CODE && t[i].nodes[0].guess != o.first)
            FAIL("first guess %s not played", firsts[i]);
    }
    if (ok[0] && ok[1] && !mm_tree_equal(&t[0], &t[1]))
        FAIL("MM(4,5): --first 1123 does not give the optimal tree");
    if (total[2] != total[3] || total[2] <= total[0])
        FAIL("MM(4,5): first 1234 total %llu, 5432 total %llu, optimum %llu",
             (unsigned long long)total[2], (unsigned long long)total[3],
             (unsigned long long)total[0]);
    printf("MM(4,5) fixed first guess: 1123 gives the optimal tree; 1234 and 5432 both %llu\n",
           (unsigned long long)total[2]);
    for (int i = 0; i < 4; i++)
        if (ok[i])
            mm_tree_release(&t[i]);
    mm_game_release(&g);
}

/* The one-step rules prove nothing: their trees say so. */
static void one_step_no_proof(void)
{
    mm_game g;
    mm_diag d;
    if (!game(&g, 4, 4, true))
        return;
    for (int rule = 0; rule < MM_RULE_COUNT_ONE_STEP; rule++) {
        mm_compile_opts o;
        mm_compile_opts_init(&o);
        o.rule = (mm_rule)rule;
        mm_tree t;
        if (mm_compile(&g, &o, &t, &d)) {
            FAIL("%s: %s", mm_rule_name(o.rule), d.msg);
            continue;
        }
        if (t.prov.proof != MM_PROOF_NONE || t.prov.lower_total || t.prov.lower_worst)
            FAIL("%s: a one-step tree claims a proof (%d)", mm_rule_name(o.rule),
                 (int)t.prov.proof);
        mm_tree_release(&t);
    }
    mm_game_release(&g);
}

/* optimal-worst asks of each depth in turn whether a tree within it
 * exists, up to the least worst case of a tree it has, which needs no
 * search.  MM(3,10): the consistent rules' trees need 10 guesses, the
 * optimum 7; started from the optimal tree, 7 is never asked about, and
 * the tree is the same. */
static int most_tried;

static void note_trying(void *arg, const mm_optimal_report *r)
{
    (void)arg;
    if (r->trying > most_tried)
        most_tried = r->trying;
}

static void start_depth(void)
{
    mm_game g;
    if (!game(&g, 3, 10, true))
        return;
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_OPTIMAL_WORST;
    o.cache_mb = 16;
    o.threads = 1;
    o.progress = note_trying;
    o.progress_every = 1e-9;   /* every look at the clock */
    mm_tree ref, t;
    mm_optimal_report r;
    most_tried = 0;
    if (!build(&g, &o, &ref, &r, "MM(3,10) optimal-worst")) {
        mm_game_release(&g);
        return;
    }
    int worst = r.worst;
    if (worst != 7 || most_tried != worst)
        FAIL("MM(3,10) optimal-worst: worst case %d, depths asked about up to %d; want 7, 7",
             worst, most_tried);
    o.start = &ref;
    most_tried = 0;
    if (build(&g, &o, &t, &r, "MM(3,10) optimal-worst, started")) {
        if (most_tried != worst - 1 || !mm_tree_equal(&t, &ref))
            FAIL("MM(3,10) optimal-worst, started from a tree of worst case %d: depths asked "
                 "about up to %d, want %d; %s tree", worst, most_tried, worst - 1,
                 mm_tree_equal(&t, &ref) ? "the same" : "another");
        mm_tree_release(&t);
    }
    mm_tree_release(&ref);
    mm_game_release(&g);
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
    same_tree(3, 5, MM_RULE_OPTIMAL);
    same_tree(4, 4, MM_RULE_OPTIMAL);
    same_tree(4, 3, MM_RULE_OPTIMAL_CONSISTENT);
    same_tree(3, 4, MM_RULE_OPTIMAL_WORST);
    inverse_symmetry();
    many_threads(5, 5, MM_RULE_OPTIMAL);
    many_threads(4, 7, MM_RULE_OPTIMAL);
    eight_pegs();
    checkpoint_resume();
    fixed_first();
    one_step_no_proof();
    start_depth();
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
