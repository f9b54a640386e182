/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The one-step rules build a tree top down: at every node a guess is
 * chosen (choose.c), the node's codes are split by reply (mm_game_split)
 * and each part becomes a child.  On more than one core the nodes near
 * the root are built first, in the calling thread, and their parts are
 * shared out as sub-trees (below).  The optimal rules are opt_compile's.
 */
#include "mmtree/compile.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "choose.h"
#include "optimal.h"
#include "position.h"
#include "core/cores.h"
#include "core/grow.h"

static const char *const rule_names[MM_RULE_COUNT] = {
    [MM_RULE_NAIVE] = "naive",     [MM_RULE_KNUTH] = "knuth",
    [MM_RULE_IRVING] = "irving",   [MM_RULE_ENTROPY] = "entropy",
    [MM_RULE_KOOI] = "kooi",       [MM_RULE_BRANCH2] = "branch2",
    [MM_RULE_E3] = "e3",           [MM_RULE_OPTIMAL] = "optimal",
    [MM_RULE_OPTIMAL_CONSISTENT] = "optimal-consistent",
    [MM_RULE_OPTIMAL_WORST] = "optimal-worst",
};

const char *mm_rule_name(mm_rule rule)
{
    return (unsigned)rule < MM_RULE_COUNT ? rule_names[rule] : "?";
}

/* The index of name in names[0, n), or -1. */
static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

mm_status mm_rule_parse(const char *name, mm_rule *rule, mm_diag *d)
{
    int r = name_index(rule_names, MM_RULE_COUNT, name);
    if (r >= 0) {
        *rule = (mm_rule)r;
        return MM_OK;
    }
    return mm_diag_set(d, MM_ERR_USAGE,
                       "unknown rule '%s' (naive, knuth, irving, entropy, kooi, branch2, e3, "
                       "optimal, optimal-consistent, optimal-worst)",
                       name);
}

static const char *const tie_names[MM_TIE_COUNT] = {
    [MM_TIE_FIRST] = "first",
    [MM_TIE_LAST] = "last",
    [MM_TIE_INCONSISTENT_FIRST] = "inconsistent-first",
};

const char *mm_tie_break_name(mm_tie_break tie)
{
    return (unsigned)tie < MM_TIE_COUNT ? tie_names[tie] : "?";
}

mm_status mm_tie_break_parse(const char *name, mm_tie_break *tie, mm_diag *d)
{
    int t = name_index(tie_names, MM_TIE_COUNT, name);
    if (t >= 0) {
        *tie = (mm_tie_break)t;
        return MM_OK;
    }
    return mm_diag_set(d, MM_ERR_USAGE,
                       "unknown tie-break '%s' (first, last, inconsistent-first)", name);
}

void mm_compile_opts_init(mm_compile_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rule = MM_RULE_KNUTH;
    o->first = MM_NO_CODE;
    o->checkpoint_every = 600;
}

/* ---- progress ----
 *
 * A big one-step build (MM(6,8), MM(5,16)) runs for minutes to hours, so
 * with o->progress set it reports the share of the work done, about every
 * second, from whichever thread notices that the time has come.
 *
 * The work of a node is (candidates it can score) x (its codes + OVERHEAD):
 * a candidate costs a bit-sliced pass over the codes plus a fixed part
 * (the histogram, its key, the candidate's generation), worth some eight
 * codes on MM(5,8).  The root does not dominate: symmetry leaves it a few
 * dozen candidates, while the small sets deep in the tree score nearly
 * every code (MM(5,8) entropy spends about equal work on sets of 8, 64,
 * 512 codes).  So the whole is estimated node by node: the share a node
 * was given is split between its own work, measured when its guess is
 * chosen, and its parts in proportion to an estimate of theirs,
 * est(m) = C (m + OVERHEAD) log2(m) / 2 for a part of m > 2 codes: a
 * sub-tree of m codes has about log2(m) / 2 levels that score (some four
 * parts a guess), each scoring up to C candidates (every code, or the m
 * consistent ones) against its codes.  Parts of one or two codes need no
 * scoring and take no share.  The shares add up to 1 by construction, so
 * the report only grows and ends at 1; the time left is the time so far
 * scaled by the share left (the cli's), which holds as well as est()
 * orders the parts by cost.  Shares are counted in units of 2^-52. */
#define OVERHEAD 8.0
#define UNIT 4503599627370496.0  /* 2^52 */

typedef struct build_progress {
    const mm_compile_opts *o;
    struct timespec t0;
    double every;              /* seconds between reports */
    double next;               /* elapsed seconds of the next report */
    atomic_uint_fast64_t done; /* units */
    atomic_uint_fast64_t nodes, guesses;
    atomic_flag busy;          /* a thread is reporting */
} build_progress;

static double progress_elapsed(const build_progress *p)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - p->t0.tv_sec) + (double)(t.tv_nsec - p->t0.tv_nsec) * 1e-9;
}

static void progress_call(build_progress *p, double elapsed, double done, bool ended)
{
    mm_optimal_report r;
    memset(&r, 0, sizeof r);
    r.elapsed = elapsed;
    r.done = done;
    r.current = MM_NO_CODE;
    r.ended = ended;
    r.nodes = atomic_load(&p->nodes);
    r.guesses = atomic_load(&p->guesses);
    p->o->progress(p->o->progress_arg, &r);
}

static void progress_start(build_progress *p, const mm_compile_opts *o)
{
    p->o = o;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    p->every = o->progress_every > 0 ? o->progress_every : 1.0;
    p->next = p->every;
    atomic_init(&p->done, 0);
    atomic_init(&p->nodes, 0);
    atomic_init(&p->guesses, 0);
    atomic_flag_clear(&p->busy);
    progress_call(p, 0, 0, false);   /* started, as the optimal rules do */
}

/* Count share (of the whole) as done and report when the time is up. */
static void progress_add(build_progress *p, double share, uint32_t scored)
{
    atomic_fetch_add(&p->done, (uint_fast64_t)(share * UNIT));
    atomic_fetch_add(&p->nodes, 1);
    if (!scored)
        return;   /* reading the clock costs more than such a node */
    atomic_fetch_add(&p->guesses, scored);
    if (atomic_flag_test_and_set(&p->busy))
        return;   /* another thread reports; the clock is read inside */
    double now = progress_elapsed(p);
    if (now >= p->next) {
        double d = (double)atomic_load(&p->done) / UNIT;
        progress_call(p, now, d < 1 ? d : 1, false);
        p->next = now + p->every;
    }
    atomic_flag_clear(&p->busy);
}

/* The estimated work of a part of m codes (above). */
static double progress_est(const choose_shared *sh, uint32_t m)
{
    if (m <= 2)
        return 0;
    double c = sh->o->consistent_only ? m : sh->g->ncodes;
    return c * (m + OVERHEAD) * log2(m) / 2;
}

/* A node of n codes, given share, has been split (sp): the share of its
 * own work is done; each part gets its share (into part[]). */
static void progress_split(choose_worker *w, double share, uint32_t n, const uint32_t *start,
                           uint64_t replies, double *part)
{
    const mm_game *g = w->sh->g;
    double self = (double)w->scored * (n + OVERHEAD), all = self;
    for (int s = 0; s < g->nreplies; s++)
        if (replies >> s & 1u)
            all += part[s] = progress_est(w->sh, start[s + 1] - start[s]);
    for (int s = 0; s < g->nreplies; s++)
        part[s] = all > 0 && (replies >> s & 1u) ? share * part[s] / all : 0;
    progress_add(w->progress, all > 0 ? share * self / all : share, w->scored);
}

/* ---- building the tree ---- */

/* Guess at node, partition S (sorted) into the children's sets, in slot
 * order; parts[] receives the part start offsets into *sub. */
typedef struct split {
    mm_code guess;
    bool consistent;
    uint64_t replies;
    uint32_t start[MM_MAX_REPLIES + 1];
    mm_code *sub;   /* malloc'd, n codes, grouped by slot */
} split;

static mm_status do_split(const mm_game *g, const mm_code *S, uint32_t n,
                          mm_code guess, split *sp)
{
    uint32_t cnt[MM_MAX_REPLIES];
    uint8_t *slot = malloc(n);
    sp->sub = malloc((size_t)n * sizeof *sp->sub);
    if (!slot || !sp->sub) {
        free(slot);
        free(sp->sub);
        sp->sub = NULL;
        return MM_ERR_NOMEM;
    }
    mm_game_split(g, guess, S, n, sp->sub, slot, cnt, sp->start);
    free(slot);
    sp->start[g->nreplies] = n;
    sp->replies = 0;
    for (int s = 0; s < g->nreplies; s++)
        if (cnt[s] && s != g->win)
            sp->replies |= UINT64_C(1) << s;
    sp->guess = guess;
    sp->consistent = cnt[g->win] != 0;
    return MM_OK;
}

/* Node gets the guess of sp and n codes, and a block of children, one a
 * reply of sp, whose first is *first (MM_NO_NODE: none). */
static mm_status set_node(mm_tree *t, uint32_t node, uint32_t n, const split *sp,
                          uint32_t *first)
{
    int k = __builtin_popcountll(sp->replies);
    mm_status st;
    *first = MM_NO_NODE;
    if (k && (st = mm_tree_alloc(t, (uint32_t)k, first, NULL)))
        return st;
    mm_node *nd = &t->nodes[node];
    nd->guess = sp->guess;
    nd->count = n;
    nd->flags = sp->consistent ? MM_NODE_CONSISTENT : 0;
    nd->replies = sp->replies;
    nd->child = *first;
    return MM_OK;
}

/* The node of the n codes S: its guess (fixed, or the rule's), S split by
 * the replies into sp (sp->sub is the caller's to free), each reply's
 * share of the work in part[] (with a progress), and its children's
 * block, the first *first.  On failure there is nothing to free. */
static mm_status make_node(choose_worker *w, mm_tree *t, uint32_t node, const mm_code *S,
                           uint32_t n, uint16_t played, mm_code fixed, double share,
                           split *sp, double *part, uint32_t *first)
{
    mm_code guess;
    mm_status st;
    if ((st = choose_guess(w, S, n, played, fixed, &guess)) ||
        (st = do_split(w->sh->g, S, n, guess, sp)))
        return st;
    if (w->progress)
        progress_split(w, share, n, sp->start, sp->replies, part);
    if ((st = set_node(t, node, n, sp, first)))
        free(sp->sub);
    return st;
}

/* The sub-tree of the n codes S at node; share: its share of the work
 * (progress above). */
static mm_status solve(choose_worker *w, mm_tree *t, uint32_t node, const mm_code *S,
                       uint32_t n, uint16_t played, double share)
{
    const mm_game *g = w->sh->g;
    mm_status st;
    if (n == 1) {
        mm_node *nd = &t->nodes[node];
        nd->guess = S[0];
        nd->count = 1;
        nd->flags = MM_NODE_CONSISTENT;
        if (w->progress)
            progress_add(w->progress, share, 0);
        return MM_OK;
    }
    split sp;
    double part[MM_MAX_REPLIES];
    uint32_t first;
    if ((st = make_node(w, t, node, S, n, played, MM_NO_CODE, share, &sp, part, &first)))
        return st;
    uint16_t now = (uint16_t)(played | g->colorset[sp.guess]);
    int c = 0;
    for (int s = 0; s < g->nreplies && !st; s++)
        if (sp.replies >> s & 1u)
            st = solve(w, t, first + (uint32_t)c++, sp.sub + sp.start[s],
                       sp.start[s + 1] - sp.start[s], now, w->progress ? part[s] : 0);
    free(sp.sub);
    return st;
}

/* ---- both cores: the root's parts are built in parallel ---- */

typedef struct task {
    const mm_code *S;
    uint32_t n;
    uint16_t played;      /* colours of the guesses above */
    uint32_t slot_node;   /* the child node in the final tree */
    double share;         /* of the work (progress) */
    mm_tree local;
    mm_status status;
} task;

typedef struct pool {
    const choose_shared *sh;
    build_progress *progress;
    task *tasks;
    uint32_t *order;       /* tasks, biggest first */
    uint32_t ntasks;
    atomic_uint next;
} pool;

static void *pool_run(void *arg)
{
    pool *p = arg;
    choose_worker w;
    mm_status st = choose_worker_init(&w, p->sh);
    w.progress = p->progress;
    for (;;) {
        unsigned i = atomic_fetch_add(&p->next, 1);
        if (i >= p->ntasks)
            break;
        task *tk = &p->tasks[p->order[i]];
        uint32_t root;
        mm_tree_init(&tk->local, p->sh->g->pegs, p->sh->g->colors, p->sh->g->repeat);
        if (!st)
            st = mm_tree_alloc(&tk->local, 1, &root, NULL);
        tk->status = st ? st : solve(&w, &tk->local, 0, tk->S, tk->n, tk->played, tk->share);
    }
    choose_worker_release(&w);
    return NULL;
}

static mm_status graft(mm_tree *t, task *tk)
{
    mm_tree *l = &tk->local;
    uint32_t base = 0;
    mm_status st;
    if (l->nnodes > 1 && (st = mm_tree_alloc(t, l->nnodes - 1, &base, NULL)))
        return st;
    for (uint32_t i = 0; i < l->nnodes; i++) {
        mm_node nd = l->nodes[i];
        if (nd.child != MM_NO_NODE)
            nd.child = base + nd.child - 1;
        t->nodes[i == 0 ? tk->slot_node : base + i - 1] = nd;
    }
    return MM_OK;
}

/* Keys that sort tasks by size, largest first: (UINT32_MAX - n) << 32 | i. */
static int by_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The work is shared out as sub-trees.  The nodes above them are built
 * here, in the calling thread: the root, and any node of more than `big`
 * codes, whose sub-tree alone would keep one core busy while the other
 * waits (MM(4,6) entropy: the 312 codes after 1234:BB are over half the
 * work).  Their children become the tasks. */
typedef struct plan {
    task *tasks;
    uint32_t ntasks;
    size_t cap;
    mm_code **bufs;       /* the split buffers the tasks' sets live in */
    uint32_t nbufs;
    size_t bcap;
} plan;

static mm_status plan_push(plan *pl, const task *tk, mm_code *buf)
{
    if (tk) {
        task *nt = grow_array(pl->tasks, &pl->cap, pl->ntasks + 1, 64, sizeof *nt);
        if (!nt)
            return MM_ERR_NOMEM;
        pl->tasks = nt;
    }
    if (buf) {
        mm_code **nb = grow_array(pl->bufs, &pl->bcap, pl->nbufs + 1, 16, sizeof *nb);
        if (!nb)
            return MM_ERR_NOMEM;
        pl->bufs = nb;
    }
    if (tk)
        pl->tasks[pl->ntasks++] = *tk;
    if (buf)
        pl->bufs[pl->nbufs++] = buf;
    return MM_OK;
}

static mm_status expand(choose_worker *w, mm_tree *t, uint32_t node, const mm_code *S,
                        uint32_t n, uint16_t played, mm_code fixed, uint32_t big,
                        double share, plan *pl)
{
    const mm_game *g = w->sh->g;
    mm_status st;
    if (n == 1)
        return solve(w, t, node, S, n, played, share);
    split sp;
    double part[MM_MAX_REPLIES];
    uint32_t first;
    if ((st = make_node(w, t, node, S, n, played, fixed, share, &sp, part, &first)))
        return st;
    if ((st = plan_push(pl, NULL, sp.sub))) {
        free(sp.sub);
        return st;
    }
    uint16_t now = (uint16_t)(played | g->colorset[sp.guess]);
    int c = 0;
    for (int s = 0; s < g->nreplies && !st; s++) {
        if (!(sp.replies >> s & 1u))
            continue;
        task tk = {sp.sub + sp.start[s], sp.start[s + 1] - sp.start[s], now,
                   first + (uint32_t)c++, w->progress ? part[s] : 0, {0}, MM_OK};
        st = tk.n > big ? expand(w, t, tk.slot_node, tk.S, tk.n, now, MM_NO_CODE, big,
                                 tk.share, pl)
                        : plan_push(pl, &tk, NULL);
    }
    return st;
}

/* A caller may ask for any number of threads; more than this many share
 * out a tree's tasks no faster. */
enum { MAX_THREADS = 64 };

static mm_status build_root(choose_worker *w, mm_tree *t, const mm_code *all, uint32_t n,
                            uint16_t played, int threads)
{
    const choose_shared *sh = w->sh;
    uint32_t root;
    plan pl = {0};
    uint32_t *order = NULL;
    mm_status st;
    if ((st = mm_tree_alloc(t, 1, &root, NULL)))
        return st;
    uint32_t big = threads > 1 ? n / (4 * (uint32_t)threads) : UINT32_MAX;
    if (big < 64)
        big = 64;   /* below that, sharing costs more than it saves */
    if ((st = expand(w, t, root, all, n, played, sh->o->first, big, 1.0, &pl)))
        goto out;
    uint32_t k = pl.ntasks;
    if (threads > (int)k)
        threads = (int)k;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads <= 1) {
        for (uint32_t i = 0; i < k && !st; i++)
            st = solve(w, t, pl.tasks[i].slot_node, pl.tasks[i].S, pl.tasks[i].n,
                       pl.tasks[i].played, pl.tasks[i].share);
        goto out;
    }
    uint64_t *keys = malloc((size_t)k * sizeof *keys);
    if (!keys || !(order = malloc((size_t)k * sizeof *order))) {
        free(keys);
        st = MM_ERR_NOMEM;
        goto out;
    }
    for (uint32_t i = 0; i < k; i++)
        keys[i] = (uint64_t)(UINT32_MAX - pl.tasks[i].n) << 32 | i;
    qsort(keys, (size_t)k, sizeof *keys, by_key);
    for (uint32_t i = 0; i < k; i++)
        order[i] = (uint32_t)keys[i];
    free(keys);
    pool p = {sh, w->progress, pl.tasks, order, k, 0};
    pthread_t tid[MAX_THREADS];
    int started = 0;
    for (int i = 1; i < threads; i++)
        if (pthread_create(&tid[started], NULL, pool_run, &p) == 0)
            started++;
    pool_run(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    for (uint32_t i = 0; i < k; i++) {
        if (!st)
            st = pl.tasks[i].status;
        if (!st)
            st = graft(t, &pl.tasks[i]);
        mm_tree_release(&pl.tasks[i].local);
    }
out:
    for (uint32_t i = 0; i < pl.nbufs; i++)
        free(pl.bufs[i]);
    free(pl.bufs);
    free(pl.tasks);
    free(order);
    return st;
}

/* The options every entry point checks. */
static mm_status opts_check(const mm_game *g, const mm_compile_opts *o, mm_diag *d)
{
    if ((unsigned)o->rule >= MM_RULE_COUNT)
        return mm_diag_set(d, MM_ERR_USAGE, "rule %d is unknown", (int)o->rule);
    if (o->first != MM_NO_CODE && o->first >= g->ncodes)
        return mm_diag_set(d, MM_ERR_USAGE, "first guess is not a code of the game");
    if (o->max_depth < 0 || o->max_depth > 63)
        return mm_diag_set(d, MM_ERR_USAGE, "a maximum depth of %d guesses is not 1..63",
                           o->max_depth);
    if (o->max_depth && o->rule < MM_RULE_COUNT_ONE_STEP)
        return mm_diag_set(d, MM_ERR_USAGE, "a maximum depth is for the optimal rules, "
                           "not for %s", mm_rule_name(o->rule));
    if ((unsigned)o->tie_break >= MM_TIE_COUNT)
        return mm_diag_set(d, MM_ERR_USAGE, "tie-break %d is unknown", (int)o->tie_break);
    if (o->tie_break != MM_TIE_FIRST &&
        (o->rule == MM_RULE_NAIVE || o->rule >= MM_RULE_COUNT_ONE_STEP))
        return mm_diag_set(d, MM_ERR_USAGE,
                           "rule %s has no ties to break: the tie-break is for the "
                           "one-step rules that score guesses", mm_rule_name(o->rule));
    if (o->start && o->rule < MM_RULE_COUNT_ONE_STEP)
        return mm_diag_set(d, MM_ERR_USAGE, "a start tree is for the optimal rules only, "
                           "not for %s", mm_rule_name(o->rule));
    return MM_OK;
}

mm_status mm_compile_start_check(const mm_game *g, const mm_compile_opts *o, mm_diag *d)
{
    mm_status st = opts_check(g, o, d);
    if (!st && o->start)
        st = opt_start_check(g, o, d);
    return st;
}

mm_status mm_compile(const mm_game *g, const mm_compile_opts *o, mm_tree *t,
                     mm_diag *d)
{
    choose_shared sh;
    choose_worker w;
    build_progress prog;
    mm_code *all = NULL;
    mm_status st;
    mm_tree_init(t, g->pegs, g->colors, g->repeat);
    if ((st = opts_check(g, o, d)))
        return st;
    if (o->rule >= MM_RULE_COUNT_ONE_STEP)
        return opt_compile(g, o, t, d);
    if ((st = choose_shared_init(&sh, g, o, g->ncodes, d)))
        return st;

    uint32_t n;
    uint16_t played;
    if ((st = choose_worker_init(&w, &sh)) || (st = position_codes(g, o, &all, &n, &played, d)))
        goto out;
    st = mm_tree_set_rule(t, mm_rule_name(o->rule), o->consistent_only, o->first);
    if (!st && o->tie_break != MM_TIE_FIRST)
        st = mm_tree_set_tie_break(t, mm_tie_break_name(o->tie_break));
    if (!st && o->progress) {
        progress_start(&prog, o);
        w.progress = &prog;
    }
    if (!st)
        st = build_root(&w, t, all, n, played, o->threads > 0 ? o->threads : cores_online());
    if (!st && o->progress)   /* the shares add up to 1, to rounding */
        progress_call(&prog, progress_elapsed(&prog),
                      fmin((double)atomic_load(&prog.done) / UNIT, 1.0), true);
out:
    if (st == MM_ERR_NOMEM)
        mm_diag_set(d, st, "out of memory building the tree");
    free(all);
    choose_worker_release(&w);
    choose_shared_release(&sh);
    if (st)
        mm_tree_release(t);
    return st;
}

/* One node's guess, as solve() makes it; the set and the colours played
 * stand for the path that led there. */
mm_status mm_compile_guess(const mm_game *g, const mm_compile_opts *o,
                           const mm_code *S, uint32_t n, uint16_t played,
                           mm_code *guess, mm_diag *d)
{
    choose_shared sh;
    choose_worker w;
    memset(&w, 0, sizeof w);
    mm_status st = opts_check(g, o, d);
    if (st)
        return st;
    if (o->rule >= MM_RULE_COUNT_ONE_STEP)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "rule '%s' chooses a guess from a whole tree: compile the tree",
                           mm_rule_name(o->rule));
    if (!n)
        return mm_diag_set(d, MM_ERR_USAGE, "no code is possible");
    for (uint32_t i = 0; i < n; i++)
        if (S[i] >= g->ncodes || (i && S[i] <= S[i - 1]))
            return mm_diag_set(d, MM_ERR_USAGE,
                               "code %u of the set is not a code of the game in lexical "
                               "order", i + 1);
    played &= (uint16_t)((1u << g->colors) - 1);
    if (!played && n == g->ncodes && o->first != MM_NO_CODE) {
        *guess = o->first;
        return MM_OK;
    }
    if (n <= 2 || o->rule == MM_RULE_NAIVE) {
        *guess = S[0];   /* as choose_guess, without its tables */
        return MM_OK;
    }
    st = choose_shared_init(&sh, g, o, n, d);
    if (!st)
        st = choose_worker_init(&w, &sh);
    if (!st)
        st = choose_guess(&w, S, n, played, MM_NO_CODE, guess);
    if (st == MM_ERR_NOMEM)
        mm_diag_set(d, st, "out of memory choosing a guess");
    choose_worker_release(&w);
    choose_shared_release(&sh);
    return st;
}
