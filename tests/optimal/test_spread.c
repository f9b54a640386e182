/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The exact search spread over workers (compiler/opt_spread.c) gives the
 * tree of one process, node for node, whatever the number of workers and
 * however deep the coordinator expands; stopped, it gives a valid tree
 * marked unproven; resumed from its checkpoint with another number of
 * workers, the same tree again.  Here the workers are threads of this
 * process (mmtree-mpi puts them in other processes: tests/mpi/).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/opt_unit.h"
#include "mmtree/compile.h"

static int failures;

/* The checkpoints go in a directory of their own, removed at the end and
 * by a crash too (a crash left them behind before). */
static char ckpt_dir[] = "/tmp/mmtree-spread-XXXXXX";
static char ckpt[64];

static void ckpt_clean(void)
{
    unlink(ckpt);
    rmdir(ckpt_dir);
}

#ifndef __SANITIZE_ADDRESS__   /* there the sanitizer's report comes first */
static void ckpt_crash(int sig)
{
    ckpt_clean();   /* unlink and rmdir are async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}
#endif

static void ckpt_setup(void)
{
    if (!mkdtemp(ckpt_dir)) {
        perror("mkdtemp");
        exit(1);
    }
    snprintf(ckpt, sizeof ckpt, "%s/c.ckpt", ckpt_dir);
    atexit(ckpt_clean);
#ifndef __SANITIZE_ADDRESS__
    signal(SIGSEGV, ckpt_crash);
    signal(SIGBUS, ckpt_crash);
    signal(SIGABRT, ckpt_crash);
#endif
}

static bool same_tree(const mm_tree *a, uint32_t x, const mm_tree *b, uint32_t y)
{
    const mm_node *p = &a->nodes[x], *q = &b->nodes[y];
    if (p->guess != q->guess || p->count != q->count || p->flags != q->flags ||
        p->replies != q->replies)
        return false;
    int k = __builtin_popcountll(p->replies);
    for (int i = 0; i < k; i++)
        if (!same_tree(a, p->child + (uint32_t)i, b, q->child + (uint32_t)i))
            return false;
    return true;
}

/* The search of o spread over workers threads in this process. */
static mm_status spread(const mm_game *g, const mm_compile_opts *o, int workers,
                        uint32_t split, ospread_stats *st, mm_tree *t, mm_diag *d)
{
    olocal l = {calloc((size_t)workers, sizeof(ounit *)), workers, ounit_bell_new(), 0};
    for (int i = 0; i < workers; i++)
        if (!l.u || !l.bell || ounit_new(g, o, 1, l.bell, &l.u[i])) {
            printf("FAIL out of memory\n");
            exit(1);
        }
    olink link;
    olocal_link(&l, &link);
    ospread_opts so = {.split = split};
    mm_status s = opt_compile_spread(g, o, &link, &so, st, t, d);
    for (int i = 0; i < workers; i++)
        ounit_free(l.u[i]);
    free(l.u);
    ounit_bell_free(l.bell);
    return s;
}

static bool game(mm_game *g, int p, int c)
{
    mm_diag d;
    mm_diag_clear(&d);
    if (!mm_game_init(g, p, c, true, &d))
        return true;
    printf("FAIL game: %s\n", d.msg);
    failures++;
    return false;
}

static void check(int p, int c, mm_rule rule, int workers, uint32_t split, bool value_only)
{
    mm_game g;
    mm_diag d;
    mm_diag_clear(&d);
    if (!game(&g, p, c))
        return;
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.threads = 1;
    o.value_only = value_only;
    mm_tree want, got;
    ospread_stats st;
    if (mm_compile(&g, &o, &want, &d)) {
        printf("FAIL MM(%d,%d) %s: %s\n", p, c, mm_rule_name(rule), d.msg);
        failures++;
        mm_tree_release(&want);
        mm_game_release(&g);
        return;
    }
    mm_status s = spread(&g, &o, workers, split, &st, &got, &d);
    bool ok = !s && want.nnodes == got.nnodes && same_tree(&want, 0, &got, 0) &&
              got.prov.proof == MM_PROOF_PROVEN;
    printf("%s MM(%d,%d) %s%s, %d workers, split %u: %llu units, %llu expanded, "
           "%llu builds, %llu facts, %llu tightened, %llu cancelled%s%s\n",
           ok ? "ok" : "FAIL", p, c, mm_rule_name(rule), value_only ? " value-only" : "",
           workers, st.split, (unsigned long long)st.units, (unsigned long long)st.expanded,
           (unsigned long long)st.builds, (unsigned long long)st.facts,
           (unsigned long long)st.tightened, (unsigned long long)st.cancelled,
           s ? ": " : "", s ? d.msg : "");
    failures += !ok;
    mm_tree_release(&got);
    mm_tree_release(&want);
    mm_game_release(&g);
}

/* Stopped by the test hook after stop_after turns of the coordinator,
 * with a checkpoint: a valid tree, unproven, its bound below its total;
 * then resumed with other workers: mm_compile's tree. */
static void check_resume(int p, int c, mm_rule rule, uint64_t stop_after, int w1, int w2)
{
    mm_game g;
    mm_diag d;
    mm_diag_clear(&d);
    if (!game(&g, p, c))
        return;
    remove(ckpt);
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.threads = 1;
    o.checkpoint = ckpt;
    mm_optimal_report rep;
    o.report = &rep;
    mm_tree want, cut, got;
    ospread_stats st;
    mm_stats s1;
    mm_status s = mm_compile(&g, &o, &want, &d);
    remove(ckpt);
    o.stop_after = stop_after;
    if (!s)
        s = spread(&g, &o, w1, 60, &st, &cut, &d);
    bool ok = !s && !mm_tree_check(&cut, &g, &d);
    if (ok) {
        mm_tree_stats(&cut, &s1);
        ok = rep.proven ? cut.prov.proof == MM_PROOF_PROVEN
                        : cut.prov.proof == MM_PROOF_UNPROVEN && rep.lower <= s1.total &&
                              rep.total == s1.total;
    }
    bool stopped = ok && !rep.proven;
    bool own = stopped && s1.total < rep.upper_first;   /* its best first guess's tree */
    o.stop_after = 0;
    if (ok)
        s = spread(&g, &o, w2, 60, &st, &got, &d);
    ok = ok && !s && same_tree(&want, 0, &got, 0) && got.prov.proof == MM_PROOF_PROVEN;
    printf("%s MM(%d,%d) %s %s after %llu turns on %d workers, resumed on %d%s%s\n",
           ok ? "ok" : "FAIL", p, c, mm_rule_name(rule),
           own ? "stopped with its own tree" : stopped ? "stopped" : "done",
           (unsigned long long)stop_after, w1, w2, s ? ": " : "", s ? d.msg : "");
    failures += !ok;
    remove(ckpt);
    mm_tree_release(&cut);
    mm_tree_release(&got);
    mm_tree_release(&want);
    mm_game_release(&g);
}

int main(void)
{
    ckpt_setup();
    static const mm_rule rules[] = {MM_RULE_OPTIMAL, MM_RULE_OPTIMAL_CONSISTENT,
                                    MM_RULE_OPTIMAL_WORST};
    for (int r = 0; r < 3; r++) {
        check(3, 5, rules[r], 1, 40, false);
        check(3, 7, rules[r], 3, 40, false);
        check(4, 4, rules[r], 2, 60, false);
        check(4, 5, rules[r], 3, 100, false);
    }
    check(4, 6, MM_RULE_OPTIMAL, 2, 0, false);
    check(4, 6, MM_RULE_OPTIMAL, 3, 50, true);
    for (int r = 0, i = 0; r < 3; r++) {
        for (uint64_t k = 3; k < 6000; k *= 3, i++)
            check_resume(4, 5, rules[r], k, 1 + i % 3, 1 + (i + 1) % 3);
        /* MM(3,6) stops between its first guesses too: its own tree */
        for (uint64_t k = 10; k <= 200; k += 10, i++)
            check_resume(3, 6, rules[r], k, 1 + i % 3, 1 + (i + 1) % 3);
    }
    return failures ? 1 : 0;
}
