/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * A stopped search's tree polished (mm_compile_opts.polish): valid, never
 * worse than the same stop without it, by the guesses the report says,
 * and, once every part of the root is solved again, exactly the optimum
 * of its first guess: what a proven search with that first guess fixed
 * finds.  For the three optimal rules, a depth cap and a position; a
 * smaller polish leaves more; a finished search ignores it.  A sub-tree
 * over the depth cap is rebuilt within it, whatever its total.  A set
 * the stop left unfinished is built from the best guess the search had
 * found there, when the table holds its parts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/opt.h"
#include "mmtree/compile.h"
#include "mmtree/path.h"

#include "tests/check.h"

typedef struct run {
    mm_tree t;
    mm_optimal_report r;
    mm_stats s;
} run;

static bool build(const mm_game *g, const mm_compile_opts *o, run *x, const char *what)
{
    mm_diag d;
    mm_compile_opts c = *o;
    c.report = &x->r;
    if (mm_compile(g, &c, &x->t, &d)) {
        FAIL("%s: mm_compile: %s", what, d.msg);
        return false;
    }
    mm_tree_stats(&x->t, &x->s);
    if (c.nafter == 0 && mm_tree_check(&x->t, g, &d)) {
        FAIL("%s: tree check: %s", what, d.msg);
        mm_tree_release(&x->t);
        return false;
    }
    return true;
}

/* Stopped after one set on one thread (the one-step rules' tree), then
 * the same polished with most codes; the polished tree against the
 * unpolished, and, when most covers the root's parts, against the proven
 * optimum with the same first guess (cap, the optimal-worst tree's worst
 * case).  Returns the polished total (0 on failure). */
static uint64_t check(const mm_game *g, mm_compile_opts o, uint32_t most, const char *what)
{
    run u, x, ref;
    o.threads = 1;
    o.cache_mb = 16;
    o.stop_after = 1;
    if (!build(g, &o, &u, what))
        return 0;
    o.polish = most;
    if (!build(g, &o, &x, what)) {
        mm_tree_release(&u.t);
        return 0;
    }
    uint64_t total = x.s.total;
    CHECK(!u.r.proven && !x.r.proven, "%s: proven after one set", what);
    CHECK(x.t.nodes[0].guess == u.t.nodes[0].guess, "%s: the first guess changed", what);
    CHECK((int64_t)x.s.total + x.r.polish_saved == (int64_t)u.s.total,
          "%s: %llu polished, %llu before, %lld saved", what, (unsigned long long)x.s.total,
          (unsigned long long)u.s.total, (long long)x.r.polish_saved);
    CHECK(x.r.total == x.s.total && x.r.worst == x.s.worst, "%s: report %llu/%d, tree %llu/%d",
          what, (unsigned long long)x.r.total, x.r.worst, (unsigned long long)x.s.total,
          x.s.worst);
    CHECK(x.r.polish_bettered <= x.r.polish_solved && x.r.polish_solved > 0,
          "%s: %llu bettered of %llu solved", what, (unsigned long long)x.r.polish_bettered,
          (unsigned long long)x.r.polish_solved);
    CHECK((x.r.polish_bettered == 0) == mm_tree_equal(&x.t, &u.t),
          "%s: %llu sub-trees bettered, the trees %s", what,
          (unsigned long long)x.r.polish_bettered,
          mm_tree_equal(&x.t, &u.t) ? "the same" : "differ");
    CHECK(x.t.prov.proof == MM_PROOF_UNPROVEN && x.t.prov.lower_total == x.r.lower &&
          x.r.lower <= x.s.total, "%s: proof %d, bound %llu, total %llu", what,
          (int)x.t.prov.proof, (unsigned long long)x.t.prov.lower_total,
          (unsigned long long)x.s.total);
    int cap = o.max_depth ? o.max_depth : o.rule == MM_RULE_OPTIMAL_WORST ? u.s.worst : 0;
    /* within the cap, or where the stopped tree was */
    if (cap)
        CHECK(x.s.worst <= (u.s.worst > cap && most < x.t.nodes[0].count ? u.s.worst : cap),
              "%s: worst case %d, the cap %d, the stopped tree's %d", what, x.s.worst, cap,
              u.s.worst);
    if (o.rule == MM_RULE_OPTIMAL_CONSISTENT || o.consistent_only)
        CHECK(x.s.inconsistent == 0, "%s: %llu guesses that cannot be the code", what,
              (unsigned long long)x.s.inconsistent);
    if (most >= x.t.nodes[0].count) {
        mm_compile_opts f = o;
        f.stop_after = 0;
        f.polish = 0;
        f.first = x.t.nodes[0].guess;
        if (o.rule == MM_RULE_OPTIMAL_WORST) {
            f.rule = MM_RULE_OPTIMAL;
            f.max_depth = cap;
        }
        if (build(g, &f, &ref, what)) {
            CHECK(ref.r.proven && x.s.total == ref.s.total && x.s.worst == ref.s.worst,
                  "%s: polished %llu/%d, the optimum from its first guess %llu/%d", what,
                  (unsigned long long)x.s.total, x.s.worst, (unsigned long long)ref.s.total,
                  ref.s.worst);
            mm_tree_release(&ref.t);
        }
    }
    mm_tree_release(&u.t);
    mm_tree_release(&x.t);
    return total;
}

/* The polish itself, on a tree the driver never stops with: MM(4,6)'s
 * optimum (5625, 6 guesses for one code) within 5 guesses.  Each of its
 * parts is optimal, but those over the depth left are rebuilt within it
 * whatever their total: the least total within 5, 5626 (Koyama and Lai
 * 1993), one guess more. */
static void polish_over_cap(const mm_game *g)
{
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_OPTIMAL;
    o.threads = 1;
    run opt;
    if (!build(g, &o, &opt, "MM(4,6) optimal"))
        return;
    o.max_depth = 5;
    oshared sh;
    oworker w;
    ogroup G = {0};
    mm_code *all = malloc(g->ncodes * sizeof *all);
    if (!all || opt_shared_setup(&sh, g, &o) != MM_OK || oworker_init(&w, &sh) != MM_OK ||
        ogroup_root(&G, g, false) != MM_OK) {
        FAIL("polish within 5: out of memory");
        exit(1);
    }
    for (uint32_t i = 0; i < g->ncodes; i++)
        all[i] = i;
    opolish r = {0};
    mm_tree out;
    mm_diag d;
    mm_stats s;
    if (opt_polish(&w, &G, all, g->ncodes, &opt.t, g->ncodes, 5, &out, &r, &d)) {
        FAIL("polish within 5: %s", d.msg);
    } else {
        mm_tree_stats(&out, &s);
        CHECK(opt.s.total == 5625 && opt.s.worst == 6 && s.total == 5626 && s.worst == 5 &&
                  r.saved == -1 && !mm_tree_check(&out, g, &d),
              "MM(4,6)'s optimum %llu/%d polished within 5: %llu/%d, %lld saved",
              (unsigned long long)opt.s.total, opt.s.worst, (unsigned long long)s.total,
              s.worst, (long long)r.saved);
        mm_tree_release(&out);
    }
    ogroup_release(&G);
    oworker_release(&w);
    oshared_release(&sh);
    free(all);

    /* given with start, that tree cannot start a search within 5, and is
     * refused; with a polish, a stopped search polishes it into 5 too,
     * and writes it: better than its own (the one-step rules') */
    o.start = &opt.t;
    CHECK(mm_compile_start_check(g, &o, &d) == MM_ERR_USAGE,
          "a start tree of 6 guesses within 5, no polish: accepted");
    o.polish = g->ncodes;
    o.stop_after = 1;
    o.cache_mb = 16;
    run x;
    if (mm_compile_start_check(g, &o, &d)) {
        FAIL("a start tree of 6 guesses within 5, polish: %s", d.msg);
    } else if (build(g, &o, &x, "MM(4,6) within 5 from its optimum, polished")) {
        CHECK(!x.r.proven && x.s.total == 5626 && x.s.worst == 5 && x.r.polish_saved == -1,
              "MM(4,6) within 5 from its optimum, polished: %llu/%d, %lld saved",
              (unsigned long long)x.s.total, x.s.worst, (long long)x.r.polish_saved);
        mm_tree_release(&x.t);
    }
    mm_tree_release(&opt.t);
}

static mm_compile_opts opts(mm_rule rule)
{
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    return o;
}

/* A signal during the polish: the stop flag raised by the progress
 * callback once two sub-trees are solved again. */
typedef struct raise_at {
    volatile sig_atomic_t *flag;
    uint64_t solved;
} raise_at;

static void raise_when_solved(void *arg, const mm_optimal_report *r)
{
    raise_at *a = arg;
    if (r->polishing && r->polish_solved >= a->solved && *a->flag < 2)
        *a->flag = 2;
}

/* The flag rising during the polish ends it: the tree is valid, the
 * sub-trees bettered by then are kept (the total is the stopped tree's
 * less the guesses the report says), fewer are solved than in the whole
 * polish, and the rest are as they were.  The flag at 1, as the signal
 * that stopped the search left it, does not stop the polish: only its
 * rise does. */
static void polish_stopped(const mm_game *g)
{
    static volatile sig_atomic_t flag;
    raise_at at = {&flag, 2};
    mm_compile_opts o = opts(MM_RULE_OPTIMAL);
    o.threads = 1;
    o.cache_mb = 16;
    o.stop_after = 1;
    run u, x, y;
    if (!build(g, &o, &u, "stopped, no polish"))
        return;
    o.polish = 40;
    if (!build(g, &o, &x, "polish 40")) {
        mm_tree_release(&u.t);
        return;
    }
    o.stop = &flag;
    o.progress = raise_when_solved;
    o.progress_arg = &at;
    o.progress_every = 1e-9;
    flag = 1;   /* as the signal that stopped the search; the polish runs */
    if (build(g, &o, &y, "polish 40, stopped")) {
        CHECK(!y.r.proven && y.r.polish_stopped && !x.r.polish_stopped,
              "a stop during the polish: %s, the whole polish %s",
              y.r.polish_stopped ? "stopped" : "not stopped",
              x.r.polish_stopped ? "stopped" : "not stopped");
        CHECK(y.r.polish_solved >= 2 && y.r.polish_solved < x.r.polish_solved,
              "stopped after %llu sub-trees solved again, %llu in the whole polish",
              (unsigned long long)y.r.polish_solved, (unsigned long long)x.r.polish_solved);
        CHECK((int64_t)y.s.total + y.r.polish_saved == (int64_t)u.s.total &&
                  y.s.total >= x.s.total && y.r.total == y.s.total,
              "stopped polish: %llu, %lld saved, the stopped tree %llu, polished whole %llu",
              (unsigned long long)y.s.total, (long long)y.r.polish_saved,
              (unsigned long long)u.s.total, (unsigned long long)x.s.total);
        mm_tree_release(&y.t);
    }
    mm_tree_release(&u.t);
    mm_tree_release(&x.t);
}

/* On two threads the sets solved again share their guesses: the same
 * sub-trees bettered, the same total (want: that of one thread). */
static void polish_threads(const mm_game *g, uint64_t want)
{
    mm_compile_opts o = opts(MM_RULE_OPTIMAL);
    o.threads = 2;
    o.cache_mb = 16;
    o.stop_after = 1;
    o.polish = g->ncodes;
    run x;
    if (build(g, &o, &x, "MM(4,6) polished whole, two threads")) {
        CHECK(!x.r.proven && x.s.total == want && x.r.polish_solved > 0,
              "two threads: polished %llu, one thread %llu, %llu solved again",
              (unsigned long long)x.s.total, (unsigned long long)want,
              (unsigned long long)x.r.polish_solved);
        mm_tree_release(&x.t);
    }
}

/* The total of t's sub-tree at node i: a code counts at every node it
 * reaches. */
static uint64_t subtree_total(const mm_tree *t, uint32_t i)
{
    uint64_t sum = t->nodes[i].count;
    for (int c = 0; c < mm_tree_nchildren(t, i); c++)
        sum += subtree_total(t, t->nodes[i].child + (uint32_t)c);
    return sum;
}

/* Before the search's pass the polish takes from the table the sub-trees
 * of any size whose sets the search had solved: stopped after `after`
 * sets and polished with 3 codes only (no set of more is solved again),
 * some part of the root of more than 3 codes, not optimal in the stopped
 * tree, is optimal in the polished one (its optimum proven by a search of
 * that part alone) with another guess at its node, which a solve of 3
 * codes cannot change, and every part ends at most where it was (MM(4,6)
 * stopped after 2000 of the 5536 sets its proof takes).  The
 * report counts it solved and bettered, once. */
static void polish_known(const mm_game *g, uint64_t after)
{
    mm_compile_opts o = opts(MM_RULE_OPTIMAL);
    o.threads = 1;
    o.cache_mb = 16;
    o.stop_after = after;
    run u, x;
    if (!build(g, &o, &u, "stopped, no polish"))
        return;
    o.polish = 3;
    if (!build(g, &o, &x, "polish 3")) {
        mm_tree_release(&u.t);
        return;
    }
    const mm_node *ru = &u.t.nodes[0], *rx = &x.t.nodes[0];
    int taken = 0, worse = 0, nk = mm_tree_nchildren(&u.t, 0);
    CHECK(ru->guess == rx->guess && nk == mm_tree_nchildren(&x.t, 0),
          "after %llu sets: the root changed", (unsigned long long)after);
    for (int c = 0; c < nk && ru->guess == rx->guess; c++) {
        uint32_t iu = ru->child + (uint32_t)c, ix = rx->child + (uint32_t)c;
        uint64_t tu = subtree_total(&u.t, iu), tx = subtree_total(&x.t, ix);
        worse += tx > tu;
        if (u.t.nodes[iu].count <= 3 || tx == tu)
            continue;
        /* the part's optimum, from a search of it alone */
        mm_step step = {ru->guess, 0};
        for (int s = 0, k = 0; s < g->nreplies; s++)
            if (ru->replies >> s & 1u && k++ == c)
                step.slot = s;
        mm_compile_opts p = opts(MM_RULE_OPTIMAL);
        p.threads = 1;
        p.after = &step;
        p.nafter = 1;
        run best;
        if (!build(g, &p, &best, "a part alone"))
            continue;
        CHECK(best.r.proven, "the part alone not proven");
        /* both count the guesses from the part's node on */
        taken += tx == best.s.total && tu > tx &&
                 u.t.nodes[iu].guess != x.t.nodes[ix].guess;
        mm_tree_release(&best.t);
    }
    CHECK(taken > 0 && worse == 0,
          "after %llu sets, polish 3: %d parts of more than 3 codes taken optimal from the "
          "table, %d worse", (unsigned long long)after, taken, worse);
    CHECK(x.r.polish_bettered <= x.r.polish_solved && x.r.polish_bettered > 0 &&
              (int64_t)x.s.total + x.r.polish_saved == (int64_t)u.s.total,
          "polish 3: %llu bettered of %llu solved, %lld saved, %llu -> %llu",
          (unsigned long long)x.r.polish_bettered, (unsigned long long)x.r.polish_solved,
          (long long)x.r.polish_saved, (unsigned long long)u.s.total,
          (unsigned long long)x.s.total);
    mm_tree_release(&u.t);
    mm_tree_release(&x.t);
}

/* A part the stop left unfinished, but with a guess whose every part
 * the search had solved (its incumbent): the polish builds it from that
 * guess, which neither the table (no fact about the part itself: the
 * checkpoint saved at the stop has none exact) nor a solve of 3 codes
 * can give.  Stopped after `after` sets, polished with 3: a part of the
 * root of more than 3 codes that the checkpoint does not know exactly,
 * better in the polished tree with another guess, has its total from
 * that guess's parts as the checkpoint holds them, each exact.  The
 * number of such parts. */
static int polish_incumbent(const mm_game *g, uint64_t after, const char *ck)
{
    mm_compile_opts o = opts(MM_RULE_OPTIMAL);
    o.threads = 1;
    o.cache_mb = 16;
    o.stop_after = after;
    o.checkpoint = ck;
    o.keep_checkpoint = true;
    run u, x;
    remove(ck);
    if (!build(g, &o, &u, "stopped, a checkpoint"))
        return 0;
    remove(ck);
    o.polish = 3;
    if (!build(g, &o, &x, "stopped, a checkpoint, polish 3")) {
        mm_tree_release(&u.t);
        return 0;
    }
    const mm_node *ru = &u.t.nodes[0], *rx = &x.t.nodes[0];
    int taken = 0, nk = mm_tree_nchildren(&u.t, 0);
    CHECK(ru->guess == rx->guess && nk == mm_tree_nchildren(&x.t, 0),
          "after %llu sets: the root changed", (unsigned long long)after);
    char code[MM_MAX_PEGS + 1], path[64];
    for (int c = 0; c < nk && ru->guess == rx->guess; c++) {
        uint32_t iu = ru->child + (uint32_t)c, ix = rx->child + (uint32_t)c;
        uint64_t tu = subtree_total(&u.t, iu), tx = subtree_total(&x.t, ix);
        if (u.t.nodes[iu].count <= 3 || tx >= tu ||
            u.t.nodes[iu].guess == x.t.nodes[ix].guess)
            continue;   /* bettered below it, if at all */
        int slot = 0;
        for (int s = 0, k = 0; s < g->nreplies; s++)
            if (ru->replies >> s & 1u && k++ == c)
                slot = s;
        char reply[MM_MAX_PEGS + 2];
        snprintf(path, sizeof path, "%s:%s", mm_code_format(g, ru->guess, code),
                 mm_reply_format(g, slot, reply));
        mm_step step[1];
        uint32_t n;
        mm_checkpoint_position pos;
        mm_diag d;
        if (mm_path_parse(g, path, step, 1, &n, &d) ||
            mm_checkpoint_position_read(ck, g, step, n, &pos, &d)) {
            FAIL("%s: %s", path, d.msg);
            continue;
        }
        if (!pos.fact.exact) {
            /* the part's guess in the polished tree, and its parts' facts */
            const mm_checkpoint_guess *q = NULL;
            for (size_t i = 0; i < pos.nguesses && !q; i++)
                if (pos.guesses[i].guess == x.t.nodes[ix].guess)
                    q = &pos.guesses[i];
            CHECK(q && q->exact && q->bound == tx,
                  "%s: polished %llu with %s, whose parts the checkpoint %s", path,
                  (unsigned long long)tx, mm_code_format(g, x.t.nodes[ix].guess, code),
                  !q ? "does not list" : q->exact ? "sums otherwise" : "does not all know");
            taken++;
        }
        mm_checkpoint_position_release(&pos);
    }
    CHECK((int64_t)x.s.total + x.r.polish_saved == (int64_t)u.s.total,
          "incumbents: %llu -> %llu, %lld saved", (unsigned long long)u.s.total,
          (unsigned long long)x.s.total, (long long)x.r.polish_saved);
    mm_tree_release(&u.t);
    mm_tree_release(&x.t);
    remove(ck);
    return taken;
}

int main(void)
{
    mm_game g;
    mm_diag d;
    if (mm_game_init(&g, 4, 6, true, &d)) {
        FAIL("MM(4,6): %s", d.msg);
        return 1;
    }
    polish_known(&g, 2000);
    {
        char ck[] = "/tmp/test_polish_XXXXXX";
        int fd = mkstemp(ck);
        if (fd < 0) {
            FAIL("mkstemp");
        } else {
            close(fd);
            /* stops all along MM(4,6)'s proof (5536 sets): a few leave
             * a part unfinished with a best guess better than the
             * stopped tree's */
            int taken = 0;
            for (uint64_t after = 100; after <= 5500; after += 100)
                taken += polish_incumbent(&g, after, ck);
            CHECK(taken > 0, "stopped 55 times, %d parts built from the stop's best guess",
                  taken);   /* 15 when it was written */
        }
    }
    uint64_t all = check(&g, opts(MM_RULE_OPTIMAL), 1296, "MM(4,6) optimal");
    uint64_t some = check(&g, opts(MM_RULE_OPTIMAL), 40, "MM(4,6) optimal, 40 codes");
    CHECK(all && some && all < some, "MM(4,6): polished whole %llu, up to 40 codes %llu",
          (unsigned long long)all, (unsigned long long)some);
    check(&g, opts(MM_RULE_OPTIMAL_CONSISTENT), 1296, "MM(4,6) optimal-consistent");
    check(&g, opts(MM_RULE_OPTIMAL_WORST), 1296, "MM(4,6) optimal-worst");
    mm_compile_opts o = opts(MM_RULE_OPTIMAL);
    o.max_depth = 5;
    check(&g, o, 1296, "MM(4,6) optimal within 5");
    /* stopped in the search for a tree within 5: its tree needs 6, and a
     * polish of small parts goes below the cap */
    check(&g, o, 10, "MM(4,6) optimal within 5, 10 codes");
    /* a part over the cap is rebuilt within it whatever its total: the
     * parts of at most 80 codes bring that tree of 7 guesses within 5 */
    {
        run x;
        mm_compile_opts c = o;
        c.threads = 1;
        c.cache_mb = 16;
        c.stop_after = 1;
        c.polish = 80;
        if (build(&g, &c, &x, "MM(4,6) within 5, 80 codes")) {
            CHECK(x.s.worst == 5 && x.r.polish_bettered > 0,
                  "within 5, polish 80: worst case %d, %llu bettered", x.s.worst,
                  (unsigned long long)x.r.polish_bettered);
            mm_tree_release(&x.t);
        }
    }

    polish_over_cap(&g);
    polish_stopped(&g);
    polish_threads(&g, all);

    /* a position: its parts (the part of 1122 after 1122:B) */
    mm_step steps[2];
    uint32_t n;
    if (mm_path_parse(&g, "1122:B", steps, 2, &n, &d)) {
        FAIL("path: %s", d.msg);
    } else {
        o = opts(MM_RULE_OPTIMAL);
        o.after = steps;
        o.nafter = n;
        check(&g, o, 1296, "MM(4,6) optimal after 1122:B");
    }

    /* a finished search: nothing to polish, the same tree */
    run a, b;
    o = opts(MM_RULE_OPTIMAL);
    o.threads = 1;
    if (build(&g, &o, &a, "MM(4,6) optimal")) {
        o.polish = 1296;
        if (build(&g, &o, &b, "MM(4,6) optimal, polish")) {
            CHECK(b.r.proven && mm_tree_equal(&a.t, &b.t) && b.r.polish_solved == 0,
                  "finished: %s, %llu solved again", b.r.proven ? "proven" : "not proven",
                  (unsigned long long)b.r.polish_solved);
            mm_tree_release(&b.t);
        }
        mm_tree_release(&a.t);
    }
    mm_game_release(&g);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
