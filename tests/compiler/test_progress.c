/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The progress of a one-step build (compiler/compile.c): mm_compile calls
 * o->progress once when it starts (nothing done), then as often as
 * o->progress_every allows (here at every node that scores guesses), and
 * once at the end (r->ended).  The share done never falls, the shares of
 * the nodes add up to the whole, every node of the tree is counted once,
 * and the tree is the one built without a progress.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"

static int checks, failures;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

typedef struct seen {
    int calls, ended, falls;
    double first, last, elapsed;
    uint64_t nodes, last_nodes, guesses;
} seen;

static void record(void *arg, const mm_optimal_report *r)
{
    seen *s = arg;
    if (s->calls == 0)
        s->first = r->done;
    else if (r->done < s->last || r->elapsed < s->elapsed || r->nodes < s->last_nodes)
        s->falls++;
    s->calls++;
    s->ended += r->ended;
    s->last = r->done;
    s->elapsed = r->elapsed;
    s->last_nodes = r->nodes;
    if (r->ended) {
        s->nodes = r->nodes;
        s->guesses = r->guesses;
    }
}

static void one(int pegs, int colors, mm_rule rule, bool consistent, int threads)
{
    mm_game g;
    mm_diag d;
    mm_tree plain, t;
    mm_compile_opts o;
    mm_stats a, b;
    seen s;
    memset(&s, 0, sizeof s);
    mm_diag_clear(&d);
    if (mm_game_init(&g, pegs, colors, true, &d)) {
        CHECK(0, "game: %s", d.msg);
        return;
    }
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.consistent_only = consistent;
    o.threads = threads;
    mm_status st1 = mm_compile(&g, &o, &plain, &d);
    o.progress = record;
    o.progress_arg = &s;
    o.progress_every = 1e-9;   /* a report at every node that scores */
    mm_status st2 = mm_compile(&g, &o, &t, &d);
    const char *name = mm_rule_name(rule);
    CHECK(!st1 && !st2, "MM(%d,%d) %s: %s", pegs, colors, name, d.msg);
    if (st1 || st2)
        goto out;
    mm_tree_stats(&plain, &a);
    mm_tree_stats(&t, &b);
    CHECK(a.total == b.total && plain.nnodes == t.nnodes &&
              t.nodes[0].guess == plain.nodes[0].guess,
          "MM(%d,%d) %s: the tree changes with a progress (total %llu, not %llu)", pegs,
          colors, name, (unsigned long long)b.total, (unsigned long long)a.total);
    /* start, a report at each scoring node (hundreds), the end */
    CHECK(s.calls > 100, "MM(%d,%d) %s j%d: %d reports", pegs, colors, name, threads,
          s.calls);
    CHECK(s.first == 0, "MM(%d,%d) %s: the first report has %g done", pegs, colors, name,
          s.first);
    CHECK(s.falls == 0, "MM(%d,%d) %s j%d: the share or the counts fell %d times", pegs,
          colors, name, threads, s.falls);
    CHECK(s.ended == 1, "MM(%d,%d) %s: %d last reports", pegs, colors, name, s.ended);
    /* the shares given out add up to the whole, to rounding */
    CHECK(fabs(s.last - 1.0) < 1e-9 && s.last <= 1.0, "MM(%d,%d) %s j%d: %.12f done at the end",
          pegs, colors, name, threads, s.last);
    CHECK(s.nodes == t.nnodes, "MM(%d,%d) %s j%d: %llu nodes counted, the tree has %u",
          pegs, colors, name, threads, (unsigned long long)s.nodes, t.nnodes);
    CHECK(s.guesses > t.nnodes / 4, "MM(%d,%d) %s: %llu guesses scored", pegs, colors, name,
          (unsigned long long)s.guesses);
    mm_tree_release(&t);
out:
    if (!st1)
        mm_tree_release(&plain);
    mm_game_release(&g);
}

int main(void)
{
    /* MM(5,6): 7776 codes, a tree deep enough for sets of every size */
    one(5, 6, MM_RULE_KNUTH, false, 1);
    one(5, 6, MM_RULE_ENTROPY, false, 2);
    one(5, 6, MM_RULE_BRANCH2, false, 1);
    one(5, 6, MM_RULE_IRVING, true, 2);
    one(4, 6, MM_RULE_E3, false, 2);
    /* more threads than the compiler runs (64): as many as it can */
    one(5, 6, MM_RULE_KNUTH, false, 100);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
