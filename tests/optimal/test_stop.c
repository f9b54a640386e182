/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * A search stopped at any moment (the stop_after hook stops it as a
 * signal would, after N sets visited) returns a valid tree, marked not
 * proven, never better than the optimum and never below its own lower
 * bound, whose bound is never above the optimum nor below one its
 * progress reported (on one thread, nor below an earlier stop's); and
 * what it saved in its checkpoint is true: a run resumed from it gives
 * the optimal tree.  For the three optimal rules, on one thread and on
 * two.  Started from the optimal tree itself (mm_compile_opts.start), a
 * stopped search returns that tree, which nothing it finds can beat, and
 * a finished or resumed one the same tree as without it.  Once progress
 * has said the least worst case is settled (optimal-worst), a stopped
 * search's tree has it: MM(7,2)'s 5 too, which no one-step rule's tree
 * reaches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmtree/compile.h"

#include "tests/check.h"

typedef struct run {
    mm_tree t;
    mm_optimal_report r;
    mm_stats s;
    uint64_t seen;   /* the highest bound progress reported */
    int settled;     /* optimal-worst: the least worst case, once progress
                        said it was settled (0 before) */
} run;

static void progress(void *arg, const mm_optimal_report *r)
{
    run *x = arg;
    if (!r->ended && r->total && r->lower > x->seen)
        x->seen = r->lower;
    if (!r->ended && r->worst_first && !r->trying && r->worst_upper &&
        r->worst_lower == r->worst_upper)
        x->settled = r->worst_lower;
}

static bool build(const mm_game *g, mm_compile_opts *o, run *x, const char *what,
                  uint64_t n)
{
    mm_diag d;
    mm_diag_clear(&d);
    o->report = &x->r;
    x->seen = 0;
    x->settled = 0;
    o->progress = progress;
    o->progress_arg = x;
    o->progress_every = 1e-9;   /* at every look at the clock */
    mm_status st = mm_compile(g, o, &x->t, &d);
    if (st) {
        FAIL("%s, stopped after %llu: mm_compile: %s", what, (unsigned long long)n, d.msg);
        return false;
    }
    if (mm_tree_check(&x->t, g, &d)) {
        FAIL("%s, stopped after %llu: tree check: %s", what, (unsigned long long)n, d.msg);
        mm_tree_release(&x->t);
        return false;
    }
    mm_tree_stats(&x->t, &x->s);
    return true;
}

/* Is the tree's value at least the optimum's in the rule's order? */
static bool not_better(mm_rule rule, const mm_stats *s, const mm_stats *opt)
{
    if (rule == MM_RULE_OPTIMAL_WORST)
        return s->worst > opt->worst || (s->worst == opt->worst && s->total >= opt->total);
    return s->total > opt->total || (s->total == opt->total && s->worst >= opt->worst);
}

/* The stopped run x against the optimum ref. */
static void check_stopped(mm_rule rule, const run *x, const run *ref, const char *what,
                          uint64_t n)
{
    const mm_optimal_report *r = &x->r;
    if (r->total != x->s.total || r->worst != x->s.worst)
        FAIL("%s, stopped after %llu: report says %llu/%d, the tree is %llu/%d", what,
             (unsigned long long)n, (unsigned long long)r->total, r->worst,
             (unsigned long long)x->s.total, x->s.worst);
    if (!not_better(rule, &x->s, &ref->s))
        FAIL("%s, stopped after %llu: total %llu worst %d beats the optimum %llu/%d", what,
             (unsigned long long)n, (unsigned long long)x->s.total, x->s.worst,
             (unsigned long long)ref->s.total, ref->s.worst);
    if (r->lower > x->s.total || r->lower > ref->s.total)
        FAIL("%s, stopped after %llu: lower bound %llu, tree %llu, optimum %llu", what,
             (unsigned long long)n, (unsigned long long)r->lower,
             (unsigned long long)x->s.total, (unsigned long long)ref->s.total);
    if (r->lower < x->seen)
        FAIL("%s, stopped after %llu: lower bound %llu, progress said %llu", what,
             (unsigned long long)n, (unsigned long long)r->lower, (unsigned long long)x->seen);
    if (rule == MM_RULE_OPTIMAL_WORST && r->worst_lower > ref->s.worst)
        FAIL("%s, stopped after %llu: worst-case bound %d above the optimum's %d", what,
             (unsigned long long)n, r->worst_lower, ref->s.worst);
    /* once the least worst case is settled, the tree has it (one a
     * feasibility search found, when no one-step rule's tree does) */
    if (x->settled && (x->settled != ref->s.worst || x->s.worst != x->settled))
        FAIL("%s, stopped after %llu: worst case %d settled (the optimum's %d), the tree "
             "needs %d", what, (unsigned long long)n, x->settled, ref->s.worst, x->s.worst);
    /* the tree says what was proven, and no more */
    const mm_provenance *p = &x->t.prov;
    int lw = rule == MM_RULE_OPTIMAL_WORST ? r->worst_lower : 0;
    if (p->proof != MM_PROOF_UNPROVEN || p->lower_total != r->lower || p->lower_worst != lw ||
        !p->rule || strcmp(p->rule, mm_rule_name(rule)))
        FAIL("%s, stopped after %llu: provenance %s proof %d lower %llu/%d, report %llu/%d",
             what, (unsigned long long)n, p->rule ? p->rule : "(none)", (int)p->proof,
             (unsigned long long)p->lower_total, p->lower_worst, (unsigned long long)r->lower,
             lw);
}

/* Stopped after n sets with a checkpoint, then resumed from it; *worst_lower
 * and *total_lower are the stopped run's bounds on the worst case (-1 when
 * proven) and the total (0 when proven). */
static bool stop_and_resume(const mm_game *g, mm_compile_opts o, uint64_t n,
                            const run *ref, const char *path, const char *what,
                            int *worst_lower, uint64_t *total_lower)
{
    mm_rule rule = o.rule;
    o.checkpoint = path;
    o.stop_after = n;
    remove(path);
    run x;
    if (!build(g, &o, &x, what, n))
        return false;
    bool proven = x.r.proven;
    *worst_lower = proven ? -1 : x.r.worst_lower;
    *total_lower = proven ? 0 : x.r.lower;
    if (proven && (!mm_tree_equal(&x.t, &ref->t) || x.t.prov.proof != MM_PROOF_PROVEN ||
                   x.t.prov.lower_total || x.t.prov.lower_worst))
        FAIL("%s, stopped after %llu: proven, but not the optimal tree, or not said so", what,
             (unsigned long long)n);
    if (!proven)
        check_stopped(rule, &x, ref, what, n);
    if (!proven && o.start && !mm_tree_equal(&x.t, o.start))
        FAIL("%s, stopped after %llu: total %llu, not the start tree", what,
             (unsigned long long)n, (unsigned long long)x.s.total);
    mm_tree_release(&x.t);
    o.stop_after = 0;
    if (!proven && build(g, &o, &x, what, n)) {
        if (!x.r.proven || !mm_tree_equal(&x.t, &ref->t))
            FAIL("%s, stopped after %llu, resumed: not the optimal tree (total %llu)", what,
                 (unsigned long long)n, (unsigned long long)x.s.total);
        mm_tree_release(&x.t);
    }
    return proven;
}

/* Every n up to the length of the run, then every few. */
static void sweep(int p, int c, mm_rule rule, const char *first, int threads, bool start,
                  const char *path)
{
    char what[80];
    snprintf(what, sizeof what, "MM(%d,%d) %s%s%s, %d thread%s%s", p, c, mm_rule_name(rule),
             first ? " from " : "", first ? first : "", threads, threads > 1 ? "s" : "",
             start ? ", started" : "");
    mm_game g;
    mm_diag d;
    if (mm_game_init(&g, p, c, true, &d)) {
        FAIL("%s: %s", what, d.msg);
        return;
    }
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.threads = threads;
    o.cache_mb = 16;
    if (first && mm_code_parse(&g, first, strlen(first), &o.first, &d)) {
        FAIL("%s: %s", what, d.msg);
        mm_game_release(&g);
        return;
    }
    run ref;
    if (!build(&g, &o, &ref, what, 0)) {
        mm_game_release(&g);
        return;
    }
    if (start)
        o.start = &ref.t;
    /* One thread: the search is the same every time, so a stop after it
     * has finished finds it done; two: the moments vary, go on a while. */
    uint64_t n = 1, runs = 0, proven_at = 0, lt = 0, last_lt = 0;
    int lw = -1, last_lw = 0;
    for (; !proven_at || (threads > 1 && n < 3 * proven_at); n += 1 + n / 16, runs++) {
        if (stop_and_resume(&g, o, n, &ref, path, what, &lw, &lt) && !proven_at)
            proven_at = n;
        /* one thread: a later stop never proves less */
        if (threads == 1 && lt) {
            if (lt < last_lt)
                FAIL("%s, stopped after %llu: total at least %llu, after %llu", what,
                     (unsigned long long)n, (unsigned long long)lt,
                     (unsigned long long)last_lt);
            last_lt = lt;
        }
        /* optimal-worst on one thread: the proven depth only rises, and
         * the last stops, in the search for the least total, know it */
        if (rule == MM_RULE_OPTIMAL_WORST && threads == 1 && lw >= 0) {
            if (lw < last_lw)
                FAIL("%s, stopped after %llu: worst case at least %d, after %d", what,
                     (unsigned long long)n, lw, last_lw);
            last_lw = lw;
        }
    }
    if (rule == MM_RULE_OPTIMAL_WORST && threads == 1 && last_lw != ref.s.worst)
        FAIL("%s: the last stop proved worst case %d, the optimum's is %d", what, last_lw,
             ref.s.worst);
    printf("%-44s stopped at %llu moments, proven from %llu sets on\n", what,
           (unsigned long long)runs, (unsigned long long)proven_at);
    mm_tree_release(&ref.t);
    mm_game_release(&g);
}

int main(void)
{
    /* Every run saves a checkpoint, synced to disk: in memory if we can. */
    char path[] = "/dev/shm/mmtree-stop-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        memcpy(path, "/tmp/", 5);
        memmove(path + 5, path + 9, sizeof path - 9);
        fd = mkstemp(path);
    }
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    close(fd);
    static const mm_rule rules[] = {MM_RULE_OPTIMAL, MM_RULE_OPTIMAL_CONSISTENT,
                                    MM_RULE_OPTIMAL_WORST};
    for (int threads = 1; threads <= 2; threads++)
        for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
            sweep(3, 4, rules[i], NULL, threads, false, path);
            sweep(4, 4, rules[i], NULL, threads, false, path);
            sweep(4, 4, rules[i], NULL, threads, true, path);
        }
    for (int threads = 1; threads <= 2; threads++)
        sweep(7, 2, MM_RULE_OPTIMAL_WORST, NULL, threads, false, path);
    /* a fixed first guess: the first set's guesses are not shared */
    sweep(4, 4, MM_RULE_OPTIMAL, "1234", 2, false, path);
    sweep(4, 4, MM_RULE_OPTIMAL, "1234", 1, true, path);
    remove(path);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
