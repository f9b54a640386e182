/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Depth-first branch and bound over code sets (Ville 2013, section 5).
 *
 * A node is a set S of codes still possible.  Every candidate guess is
 * scored by the partition it makes of S; its lower bound is |S| plus, for
 * each part, the total of a perfect tree whose guesses make at most k
 * parts, k being the most parts any guess makes of S (no guess makes more
 * of a subset: Ville's dynamic branching factor).  Candidates are tried in
 * order of that bound; the parts of a candidate are solved one by one,
 * each with the budget the others' bounds leave, and each exact value
 * replaces its bound as soon as it is known, so a candidate is dropped the
 * moment its bound passes the best value found.  The parts go smallest
 * first (they are cheap and leave the exact budget to the big ones), and
 * before any is solved each is raised to its one-guess-ahead bound, which
 * drops most losing guesses without solving anything.  In games of
 * permutations a part of 32 codes or more first gets its agreement bound
 * (opt_bound.c), which drops many more before any part is raised.  Sets
 * of at most sh->small_max codes score a guess by its number of replies
 * alone (2m - 1 bounds a part of m codes as well as the perfect tree does
 * there).
 *
 * Shortcuts: sets of 1 and 2 codes are solved outright; a guess that
 * separates every code is optimal (2n-1 when it can be the code, 2n and
 * worst case 2 when it cannot and none that can does), and the scoring
 * stops at the first.  A set of 3 codes thus costs a few scores: 5, or 6
 * with worst case 2, or else 6 with worst case 3 by guessing its first
 * code (the other codes of the set tie; any other guess needs 7).
 *
 * Both cores: the parts of the first guess are shared out, then the other
 * first guesses, and a thread that runs out of work is helped one level
 * down (share_plan here, opt_pool.c).  Symmetry: only the first code of
 * each class of interchangeable codes is scored (opt_sym.c).  Scoring
 * is bit-parallel, and vectorised where the CPU allows (opt_score.c).
 * Most sets searched are small ones whose bound is raised before a guess
 * is tried: the first set on the path small enough keeps a table of the
 * replies of every code to each of its codes, from which a small set
 * below it reads what every guess gets at once (score_from_table), and
 * lists only the candidates that can come within the limit
 * (score_small_table).
 *
 * Values are (total, worst case, codes at the worst depth) triples,
 * compared in that order (opt_value.h); with ties the search also finds the first optimal guess
 * in tie order, by letting a guess earlier in that order through at an
 * equal value.
 *
 * opt_solve goes through named steps: trivial sets, the table, the
 * level's set-up, scoring (consistent candidates, then the others in
 * chunks), bounds, then the candidates in order on this thread or shared
 * out, and the answer into the table.
 */
#include "opt.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define SCORE_CHUNK 64 /* guesses scored before looking for a separator */
#define AGREE_MIN 32   /* the least part given its agreement bound */

bool opt_stopping(oworker *w)
{
    oshared *sh = w->sh;
    if (atomic_load_explicit(&sh->abort, memory_order_relaxed))
        return true;
    if ((sh->stop && *sh->stop > sh->stop_level) ||
        (sh->stop_after && atomic_fetch_add(&sh->stop_count, 1) + 1 >= sh->stop_after)) {
        atomic_store(&sh->abort, 1);
        return true;
    }
    if (++w->tick >= 256) {
        w->tick = 0;
        oworker_flush(w);   /* so that progress counts every thread's work */
        double now = opt_now();
        if (sh->deadline > 0 && now >= sh->deadline) {
            atomic_store(&sh->abort, 1);
            return true;
        }
        opt_clock(w, now);
    }
    return false;
}

/* Out of memory: the worker says so and the search unwinds. */
static oval out_of_memory(oworker *w)
{
    w->status = MM_ERR_NOMEM;
    if (!w->id)
        atomic_store(&w->sh->abort, 1);
    return OV_ABORT;
}

static bool cand_before(const ocand *a, const ocand *b)
{
    return a->lb < b->lb || (a->lb == b->lb && a->idx < b->idx);
}

/* ci[i..nc) as a heap whose root, the least, is at the end: element x
 * of the heap is ci[nc - 1 - x], so that taking the root leaves the
 * heap at ci[i + 1..nc) and the root at ci[i]. */
static void heap_sift(ocand *ci, uint32_t i, uint32_t nc, uint32_t x)
{
    const uint32_t n = nc - i;
    for (;;) {
        uint32_t m = x, a = 2 * x + 1, b = a + 1;
        if (a < n && cand_before(&ci[nc - 1 - a], &ci[nc - 1 - m]))
            m = a;
        if (b < n && cand_before(&ci[nc - 1 - b], &ci[nc - 1 - m]))
            m = b;
        if (m == x)
            return;
        ocand t = ci[nc - 1 - x];
        ci[nc - 1 - x] = ci[nc - 1 - m];
        ci[nc - 1 - m] = t;
        x = m;
    }
}

static void heap_take(ocand *ci, uint32_t i, uint32_t nc)
{
    ocand t = ci[nc - 1];
    ci[nc - 1] = ci[i];
    ci[i] = t;
    if (i + 1 < nc)
        heap_sift(ci, i + 1, nc, 0);
}

/* ci[a] before ci[b], a < b. */
static void order_two(ocand *ci, uint32_t a, uint32_t b)
{
    if (cand_before(&ci[b], &ci[a])) {
        ocand t = ci[a];
        ci[a] = ci[b];
        ci[b] = t;
    }
}

/* ci[lo..hi) in order: quicksort, the median of three its pivot (the
 * keys are distinct), the smaller side first, short runs by insertion;
 * past depth levels the heap finishes a run. */
static void quick_cands(ocand *ci, uint32_t lo, uint32_t hi, int depth)
{
    while (hi - lo > 16) {
        if (depth-- == 0) {
            for (uint32_t x = (hi - lo) / 2; x-- > 0;)
                heap_sift(ci, lo, hi, x);
            for (uint32_t i = lo; i < hi; i++)
                heap_take(ci, i, hi);
            return;
        }
        uint32_t mid = lo + (hi - lo) / 2, last = hi - 1;
        order_two(ci, lo, mid);
        order_two(ci, lo, last);
        order_two(ci, mid, last);
        const ocand pivot = ci[mid];
        uint32_t a = lo, b = last;
        for (;;) {
            while (cand_before(&ci[a], &pivot))
                a++;
            while (cand_before(&pivot, &ci[b]))
                b--;
            if (a >= b)
                break;
            ocand t = ci[a];
            ci[a++] = ci[b];
            ci[b--] = t;
        }
        /* ci[lo..b] <= pivot <= ci[b+1..hi) */
        if (b + 1 - lo < hi - (b + 1)) {
            quick_cands(ci, lo, b + 1, depth);
            lo = b + 1;
        } else {
            quick_cands(ci, b + 1, hi, depth);
            hi = b + 1;
        }
    }
    for (uint32_t i = lo + 1; i < hi; i++) {
        ocand x = ci[i];
        uint32_t j = i;
        for (; j > lo && cand_before(&x, &ci[j - 1]); j--)
            ci[j] = ci[j - 1];
        ci[j] = x;
    }
}

/* ci[lo..hi) in order of bound, then of tie order: the one sort of
 * candidates (2 log n levels of quicksort at most). */
static void sort_cands(ocand *ci, uint32_t lo, uint32_t hi)
{
    int depth = 0;
    for (uint32_t n = hi - lo; n >>= 1;)
        depth += 2;
    quick_cands(ci, lo, hi, depth);
}

/* Bring the least candidate of ci[i..nc) to i.  Most nodes look at a
 * few candidates only, so they are picked one by one; a node that goes on
 * sorts the rest once and takes them in order. */
#define PICKS 8
static void next_cand(ocand *ci, uint32_t i, uint32_t nc)
{
    if (i > PICKS)
        return;
    if (i == PICKS) {
        sort_cands(ci, i, nc);
        return;
    }
    uint32_t m = i;
    for (uint32_t j = i + 1; j < nc; j++)
        if (cand_before(&ci[j], &ci[m]))
            m = j;
    ocand t = ci[i];
    ci[i] = ci[m];
    ci[m] = t;
}

/* ci[i..nc) has grown (list_rest): bring its least to i again, and
 * past the picks the rest in order, as next_cand leaves them. */
static void repick_cand(ocand *ci, uint32_t i, uint32_t nc)
{
    if (i < PICKS) {
        next_cand(ci, i, nc);
        return;
    }
    sort_cands(ci, i, nc);
}

/* A part's value: exact for 1 or 2 codes, else its bound with k parts
 * a guess, or what the table knows of it (h1, h2: its key). */
static oval part_value(oshared *sh, uint32_t m, uint64_t h1, uint64_t h2, int k, int depth,
                       bool *exact)
{
    *exact = true;
    if (m == 1)
        return OV(1, 1, 1);
    if (m == 2)
        return OV(3, 2, 1);
    *exact = false;
    oval lb = opt_lower(sh, m, k);
    oentry e;
    if (opt_fact(sh, h1, h2, depth, &e)) {
        oval v = oentry_value(&e);
        if (oentry_flags(&e) & OC_EXACT) {
            *exact = true;
            return v;
        }
        if (v > lb)
            lb = v;
    }
    return lb;
}

/* Smallest parts first: they are solved quickly and leave the exact
 * budget to the big ones, which is where the pruning pays.  Parts of one
 * size keep their order (of replies): a few dozen parts at most, sorted
 * in place, stable whatever the C library's qsort is. */
static void sort_parts(opart *pt, int np)
{
    for (int i = 1; i < np; i++) {
        opart x = pt[i];
        int j = i;
        for (; j > 0 && pt[j - 1].n > x.n; j--)
            pt[j] = pt[j - 1];
        pt[j] = x;
    }
}

/* The root's bound when the search stopped, from its candidates' bounds
 * as this level knew them.  It only rises: opt_root_lower adds the
 * bounds progress followed, raised since (a candidate another search of
 * the root dropped, say). */
static void root_stopped_at(oshared *sh, oval lower)
{
    if (lower > sh->root_lower)
        sh->root_lower = lower;
}

/* The search stopped at level 0 while candidate i was being solved: what
 * is proven is the least bound of all candidates. */
static void root_stopped(oshared *sh, const olevel *l, uint32_t i, uint32_t nc,
                         oval current, oval minfail, bool have, oval best)
{
    oval lower = minfail;
    if (current < lower)
        lower = current;
    for (uint32_t j = i + 1; j < nc; j++)   /* not all in order yet */
        if (l->ci[j].lb < lower)
            lower = l->ci[j].lb;
    if (have && best < lower)
        lower = best;
    root_stopped_at(sh, lower);
}

/* A part's subtree is dear: first raise every part to its one-guess-
 * ahead bound (a search with a limit below its bound scores its guesses
 * and stops), so that a guess that cannot win is dropped before any of
 * it is solved.  The guess's value so far, or OV_ABORT when stopped. */
static oval raise_parts(oworker *w, int lv, uint32_t n, opart *pt, int np, oval bound,
                        int cd, bool ties, oval *reached)
{
    olevel *l = &w->lv[lv];
    oval sum = *reached;
    for (int j = np - 1; j >= 0 && sum <= bound; j--) {
        if (pt[j].exact || pt[j].n < 3)
            continue;
        mm_code sub;
        oval v = opt_solve(w, lv + 1, &l->grp, l->parts + pt[j].start, pt[j].n, pt[j].v - 1,
                           cd, ties, false, &sub);
        if (v == OV_ABORT)
            return OV_ABORT;
        if (v > pt[j].v)
            pt[j].v = v;
        sum = *reached = opt_sum_parts(n, pt, np);
    }
    return sum;
}

/* Solve the parts not yet exact, smallest first, each within the budget
 * the others leave; in a shared job the budget follows the best value
 * any thread has found.  The guess's value (or a bound above bound), or
 * OV_ABORT when stopped. */
static oval solve_parts(oworker *w, int lv, uint32_t n, opart *pt, int np, oval bound,
                        int cd, bool ties, orootjob *rj, uint32_t idx, oval *reached)
{
    olevel *l = &w->lv[lv];
    oval sum = *reached;
    for (int j = 0; j < np && sum <= bound; j++) {
        if (pt[j].exact)
            continue;
        if (rj) {
            /* another thread may have found better meanwhile */
            oval b = opt_rjob_bound(w->sh, rj, idx);
            if (b < bound)
                bound = b;
            if (sum > bound)
                break;
        }
        oval lim = opt_part_limit(n, pt, np, j, bound);
        mm_code sub;
        oval v = opt_solve(w, lv + 1, &l->grp, l->parts + pt[j].start, pt[j].n, lim, cd, ties,
                           false, &sub);
        if (v == OV_ABORT)
            return OV_ABORT;
        pt[j].exact = v <= lim;
        if (v > pt[j].v || pt[j].exact)
            pt[j].v = v;
        sum = *reached = opt_sum_parts(n, pt, np);
        if (lv == 0) {   /* for progress */
            oprog_bound(w->sh, idx, sum);
            if (pt[j].exact)
                oprog_settle(w->sh, idx, pt[j].n);
        }
    }
    return sum;
}

/* A first guess opened: its parts' codes, those already settled, and its
 * bound, for progress. */
static void root_parts(oshared *sh, uint32_t idx, const opart *pt, int np, oval reached)
{
    uint32_t settled = 0, size = 0;
    for (int j = 0; j < np; j++) {
        size += pt[j].n;
        settled += pt[j].exact ? pt[j].n : 0;
    }
    oprog_parts(sh, idx, settled, size);
    oprog_bound(sh, idx, reached);
}

oval opt_open_cand(oworker *w, int lv, const ogroup *G, const mm_code *S,
                   uint32_t n, mm_code q, const uint32_t *h, int K, oval bound,
                   int depth, bool ties, opart *pt, int *np, oval *reached)
{
    oshared *sh = w->sh;
    const mm_game *g = sh->g;
    olevel *l = &w->lv[lv];
    int cd = sh->depth_mode ? depth - 1 : depth;
    uint32_t win;
    if (!opt_split(l, g, S, n, q, h, pt, np, &win))
        return out_of_memory(w);
    /* The parts' buckets are read at once: each lookup misses the
     * caches, and a guess has a dozen parts or more.  Most guesses
     * opened go no further (on sets of up to 64 codes of MM(6,7)
     * without repeats all but a few, on MM(7,4)'s about half), but
     * summing each part's key in the pass that scores the codes, and
     * splitting only the guesses kept, was slower than this (4.3 -> 4.7
     * s of CPU on the 96 codes after 123456:WWWWW,234567:WWWWWW, 2.5
     * -> 2.8 on MM(7,4)'s 1112223:BBBWWW, interleaved medians). */
    uint64_t h1[MM_MAX_REPLIES], h2[MM_MAX_REPLIES];
    for (int j = 0; j < *np; j++) {
        h1[j] = h2[j] = 0;   /* not looked up */
        if (sh->use_cache && pt[j].n > 2) {
            opt_hash(sh, l->parts + pt[j].start, pt[j].n, &h1[j], &h2[j]);
            ocache_prefetch(&sh->cache, h1[j], cd);
        }
    }
    for (int j = 0; j < *np; j++)
        pt[j].v = part_value(sh, pt[j].n, h1[j], h2[j], K, cd, &pt[j].exact);
    sort_parts(pt, *np);
    oval sum = *reached = opt_sum_parts(n, pt, *np);
    if (sum > bound)
        return sum;
    if (sh->agree) {
        /* In a game of permutations each part's own agreement bound
         * (opt_bound.c) drops guesses before any part is raised.  Parts
         * of fewer than AGREE_MIN codes are left out: below 32 codes it
         * rarely beats the perfect tree (16 to 31: in none of 64505 parts
         * of the 344 codes after 1234567:BBWWWWW,1235674:BWWWWWW of
         * MM(7,7), 32 to 63: in 39%) and costs more than it saves
         * (instructions, callgrind: there 134.8 G without it, 103.4 G
         * from 3 codes, 102.2 G from 32; MM(7,7)'s 315 codes after
         * 1234567:BBBWWWW 17.64 G, 18.34 G, 17.68 G; MM(6,6) 2.21 G,
         * 2.33 G, 2.19 G). */
        for (int j = 0; j < *np; j++)
            if (!pt[j].exact && pt[j].n >= AGREE_MIN) {
                uint64_t t = opt_agree(sh, l->parts + pt[j].start, pt[j].n, K);
                if (t > OV_T(pt[j].v))
                    pt[j].v = OV(t, 0, 0);
            }
        sum = *reached = opt_sum_parts(n, pt, *np);
        if (sum > bound)
            return sum;
    }
    if (ogroup_after(G, g, q, &l->grp))
        return out_of_memory(w);
    return raise_parts(w, lv, n, pt, *np, bound, cd, ties, reached);
}

/* The parts not yet exact. */
static uint32_t parts_open(const opart *pt, int np)
{
    uint32_t open = 0;
    for (int j = 0; j < np; j++)
        open += !pt[j].exact;
    return open;
}

oval opt_eval_cand(oworker *w, int lv, const ogroup *G, const mm_code *S,
                   uint32_t n, mm_code q, const uint32_t *h, int K, oval bound,
                   int depth, bool ties, orootjob *rj, uint32_t idx, bool help,
                   oval *reached)
{
    oshared *sh = w->sh;
    olevel *l = &w->lv[lv];
    int cd = sh->depth_mode ? depth - 1 : depth;
    opart pt[MM_MAX_REPLIES];
    int np;
    oval sum = opt_open_cand(w, lv, G, S, n, q, h, K, bound, depth, ties, pt, &np, reached);
    if (lv == 0)
        root_parts(sh, idx, pt, np, *reached);
    if (sum == OV_ABORT || sum > bound)
        return sum;
    if ((lv == sh->par_level && sh->share_parts && sh->nhelpers > 0 && !w->id && !rj) ||
        (help && !rj && opt_help_wanted(sh, n, parts_open(pt, np)))) {
        oval v = opt_share_parts(w, lv + 1, &l->grp, l->parts, n, pt, np, bound, cd, ties, idx);
        if (v != OV_ABORT)
            *reached = v;
        return v;
    }
    return solve_parts(w, lv, n, pt, np, bound, cd, ties, rj, idx, reached);
}

/* ---- one set: the steps of opt_solve ---- */

/* What the steps of opt_solve share about the set being solved. */
typedef struct onode {
    oworker *w;
    olevel *l;
    int lv, depth;
    const ogroup *G;
    const mm_code *S;
    uint32_t n;
    oval limit;
    bool ties;
    bool cache;        /* its value goes into the table */
    bool small;        /* at most sh->small_max codes: scored by replies */
    bool fixed;        /* the root of a search with a fixed first guess */
    uint64_t h1, h2;   /* its key in the table */
    ozf *z;            /* its zero and free colours */
    uint32_t ncons;    /* consistent candidates, the first in l->cand */
    uint32_t ncand;    /* candidates scored (their idx are below it) */
    uint32_t nc;       /* candidates in l->ci */
    bool front;        /* l->ci[0] is their least: the first pick is made */
    int K;             /* the most parts a candidate makes */
    oval minfail;      /* least bound of the candidates dropped */
    const uint8_t *k_all; /* small sets under a table of replies: the
                             replies of every code (0 for codes of S) */
    bool rest;         /* candidates not yet in l->ci: those that get
                          fewer replies than the most (their counts in
                          l->nk), rest_first the first of them in order */
    ocand rest_first;
    /* the best candidate found within the limit */
    oval best;
    bool have;
    uint32_t best_idx;
    mm_code best_q;
} onode;

/* The value, into the table when the set's value is a fact about it. */
static oval node_store(onode *nd, oval v, unsigned flags, mm_code q)
{
    if (nd->cache)
        ocache_put(&nd->w->sh->cache, nd->h1, nd->h2, nd->depth, nd->n, v, flags, q);
    return v;
}

/* The least of ci[0..nc), at m, to the front: the lists are long on
 * small sets (every guess within the limit) and most nodes try one
 * candidate, so the lists' makers track the least as they go and spare
 * next_cand a pass (14% of MM(6,5)'s time went to that pass). */
static void put_front(onode *nd, uint32_t m)
{
    ocand *ci = nd->l->ci;
    ocand t = ci[0];
    ci[0] = ci[m];
    ci[m] = t;
    nd->front = true;
}

/* Stopped, too deep, or known to the table (an exact value, or a bound
 * above the limit): true with *v the answer. */
static bool solve_lookup(onode *nd, bool force, mm_code *guess, oval *v)
{
    oworker *w = nd->w;
    oshared *sh = w->sh;
    if (nd->lv + 1 >= w->nlv) {
        w->status = MM_ERR_LIMIT;
        atomic_store(&sh->abort, 1);
        *v = OV_ABORT;
        return true;
    }
    if (opt_stopping(w)) {
        *v = OV_ABORT;
        return true;
    }
    if (!nd->cache)
        return false;
    opt_hash(sh, nd->S, nd->n, &nd->h1, &nd->h2);
    oentry e;
    if (force || !opt_fact(sh, nd->h1, nd->h2, nd->depth, &e))
        return false;
    *v = oentry_value(&e);
    if (!(oentry_flags(&e) & OC_EXACT) && *v <= nd->limit)
        return false;
    w->hits++;
    if (e.guess < sh->g->ncodes)
        *guess = e.guess;
    return true;
}

/* A set's level: its masks, its colour classes and its consistent
 * candidates, or the fixed first guess at the root.  False when out of
 * memory. */
static bool level_begin(onode *nd)
{
    oworker *w = nd->w;
    const oshared *sh = w->sh;
    olevel *l = nd->l;
    if (!opt_load_set(l, sh->g, nd->S, nd->n))
        return false;
    opt_zf_init(nd->z, sh, nd->G, nd->S, nd->n);
    nd->fixed = nd->lv == 0 && sh->first != MM_NO_CODE;
    if (nd->fixed) {
        if (!olevel_reserve_cand(l, 1, sh->g->nreplies))
            return false;
        l->cand[0] = sh->first;
        nd->ncons = 1;
        return true;
    }
    return opt_cand_consistent(w, l, nd->G, nd->z, nd->S, nd->n, &nd->ncons) == MM_OK;
}

/* A candidate of a small set, bound by its replies alone: into l->ci
 * when it can come within the limit, else only remembered in minfail
 * (not at all when it cannot come within the depth limit), so that the
 * many guesses of a small set that cannot are never listed. */
static void keep_small(onode *nd, uint32_t *nc, ocand c)
{
    if (OV_W(c.lb) > nd->depth)
        return;
    if (c.lb > nd->limit) {
        if (c.lb < nd->minfail)
            nd->minfail = c.lb;
        return;
    }
    nd->l->ci[(*nc)++] = c;
}

/* Score the consistent candidates: one that separates every code ends
 * the search at once (true, with *v and *guess).  Small sets are scored
 * by the set of replies alone: their parts are small enough that the
 * bound 2m - 1 of a part of m codes is as good as the perfect-tree one. */
static bool score_consistent(onode *nd, mm_code *guess, oval *v)
{
    olevel *l = nd->l;
    const uint32_t n = nd->n;
    const bool small = nd->small;
    uint32_t nc = nd->nc;
    int K = nd->K;
    opt_score_range(nd->w->sh, l, n, 0, nd->ncons, small);
    for (uint32_t c = 0; c < nd->ncons; c++) {
        int k = l->nk[c] - 1;   /* the winning reply is no part */
        assert(k >= 0 && (uint32_t)k < n);
        if ((uint32_t)k == n - 1) {
            *guess = l->cand[c];
            *v = node_store(nd, OV(2 * (uint64_t)n - 1, 2, n - 1), OC_EXACT | OC_CANON, *guess);
            return true;
        }
        if (k > K)
            K = k;
        if (small)
            keep_small(nd, &nc, (ocand){OV(3 * (uint64_t)n - 2 - (uint64_t)k, 3, n - 1 - k), c,
                                        (uint16_t)k});
        else
            l->ci[nc++] = (ocand){0, c, (uint16_t)k};
    }
    nd->nc = nc;
    nd->K = K;
    return false;
}

/* Score the other candidates, in chunks: on small sets a separator often
 * comes early, and ends the scoring (true, with *v and *guess). */
static bool score_chunks(onode *nd, uint32_t ncand, mm_code *guess, oval *v)
{
    olevel *l = nd->l;
    const uint32_t n = nd->n;
    const bool small = nd->small;
    uint32_t nc = nd->nc;
    int K = nd->K;
    nd->ncand = ncand;
    for (uint32_t c0 = nd->ncons; c0 < ncand; c0 += SCORE_CHUNK) {
        uint32_t c1 = ncand - c0 > SCORE_CHUNK ? c0 + SCORE_CHUNK : ncand;
        opt_score_range(nd->w->sh, l, n, c0, c1, small);
        const mm_code *cand = l->cand;
        const uint8_t *nk = l->nk;
        for (uint32_t c = c0; c < c1; c++) {
            int k = nk[c];
            assert(k >= 1 && (uint32_t)k <= n);
            if ((uint32_t)k == n) {
                /* the first separator in tie order */
                *guess = cand[c];
                *v = node_store(nd, OV(2 * (uint64_t)n, 2, n), OC_EXACT | OC_CANON, *guess);
                return true;
            }
            if (k == 1)
                continue;   /* learns nothing */
            if (k > K)
                K = k;
            if (small)
                /* k < n: two codes at least stay together */
                keep_small(nd, &nc, (ocand){OV(3 * (uint64_t)n - (uint64_t)k, 3,
                                               n - (uint32_t)k), c, (uint16_t)k});
            else
                l->ci[nc++] = (ocand){0, c, (uint16_t)k};
        }
    }
    nd->nc = nc;
    nd->K = K;
    return false;
}

/* A small set under a table of replies (opt_score.c) has every code's
 * replies at once: the first guess that separates the set, when one
 * does, ends the search (true, with *v and *guess); when no other guess
 * can come within the limit, neither can their classes' first codes, the
 * candidates, whose least bound is then the answer, with no candidate
 * listed (true, with *v).  Else nd->k_all is set for the scoring. */
static bool score_from_table(onode *nd, mm_code *guess, oval *v)
{
    oworker *w = nd->w;
    uint32_t n = nd->n;
    mm_code sep;
    int most = opt_replies_of_set(w, nd->S, n, &sep);
    if (most < 0)
        return false;
    if (sep != MM_NO_CODE) {
        /* the first separator in lexical order is its class's first
         * code, so the first such candidate in tie order */
        *guess = sep;
        *v = node_store(nd, OV(2 * (uint64_t)n, 2, n), OC_EXACT | OC_CANON, sep);
        return true;
    }
    uint32_t kmax = (uint32_t)most;
    nd->k_all = w->rt.k;
    /* every other guess leaves two codes together: 3n - k, worst case 3 */
    oval least = kmax > 1 ? OV(3 * (uint64_t)n - kmax, 3, n - kmax) : OV_INF;
    if (OV_W(least) > nd->depth)
        least = OV_INF;
    if (least <= nd->limit || nd->nc > 0)   /* a consistent one is kept */
        return false;
    if (nd->minfail < least)
        least = nd->minfail;
    *v = node_store(nd, least, 0, MM_NO_CODE);
    return true;
}

/* The other candidates of a small set under a table of replies, whose
 * counts nd->k_all holds: only those that can come within the limit are
 * listed (score_chunks would bound all of them and keep those), and the
 * least bound of the others, the one that gets the most replies below
 * them, goes to minfail.  False, or true when out of memory (with *v). */
static bool score_small_table(onode *nd, oval *v)
{
    olevel *l = nd->l;
    const uint64_t n = nd->n;
    const uint8_t *k_all = nd->k_all;
    /* a guess that gets k replies is bound by 3n - k, worst case 3 */
    uint32_t least = nd->n + 1;
    for (uint32_t k = 2; k < nd->n && nd->depth >= 3; k++)
        if (OV(3 * n - k, 3, n - k) <= nd->limit) {
            least = k;
            break;
        }
    uint32_t ncand, most, below;
    if (opt_cand_replies(nd->w, l, nd->G, nd->z, nd->n, nd->ncons, k_all, least, &ncand,
                         &most, &below)) {
        *v = out_of_memory(nd->w);
        return true;
    }
    nd->ncand = ncand;
    if (most >= 2 && (int)most > nd->K)
        nd->K = (int)most;
    if (below >= 2 && nd->depth >= 3 && OV(3 * n - below, 3, n - below) < nd->minfail)
        nd->minfail = OV(3 * n - below, 3, n - below);
    uint32_t nc = nd->nc, m = 0;
    for (uint32_t i = 1; i < nc; i++)   /* the consistent ones kept */
        if (cand_before(&l->ci[i], &l->ci[m]))
            m = i;
    /* The others are listed lazily: a node lists some 1500 of them and
     * looks at four (MM(6,4)), nearly always among those that get the
     * most replies.  Those are listed now, in tie order; the others stay
     * in l->nk with their counts (opt_cand_replies put them there), and
     * the first of them in order is kept to say when they are needed
     * (list_rest). */
    const uint32_t mo = nc;   /* the first of those listed, if any */
    uint8_t next;
    uint32_t first;
    nc = opt_list_most(nd->w->sh, l->nk, nd->ncons, ncand, (uint8_t)most,
                       OV(3 * n - most, 3, n - most), l->ci, nc, &next, &first);
    nd->rest = next != 0;   /* listed: 0; the others get 2 or more */
    if (nd->rest)
        nd->rest_first = (ocand){OV(3 * n - next, 3, n - next), first, next};
    if (mo < nc && (nd->nc == 0 || cand_before(&l->ci[mo], &l->ci[m])))
        m = mo;
    nd->nc = nc;
    if (nc)
        put_front(nd, m);
    return false;
}

/* The candidates score_small_table left out, into l->ci after the others
 * (the order of the list is not the order they are tried in). */
static void list_rest(onode *nd)
{
    olevel *l = nd->l;
    const uint64_t n = nd->n;
    uint32_t nc = nd->nc;
    for (uint32_t c = nd->ncons; c < nd->ncand; c++) {
        uint32_t k = l->nk[c];
        if (k)
            l->ci[nc++] = (ocand){OV(3 * n - k, 3, n - k), c, (uint16_t)k};
    }
    nd->nc = nc;
    nd->rest = false;
}

/* Now every consistent guess leaves two codes together (total at least
 * 2n, worst case 3) and every other guess costs all n codes a guess (2n,
 * worst case 2 at best): a limit below that ends the search (true, with
 * *v the bound); else the other candidates are scored. */
static bool score_others(onode *nd, mm_code *guess, oval *v)
{
    oworker *w = nd->w;
    const oshared *sh = w->sh;
    uint64_t n = nd->n;
    uint32_t ncand = nd->ncons;
    if (!sh->consistent_only && !nd->fixed) {
        if (nd->limit < OV(2 * n, 2, n)) {
            *v = node_store(nd, OV(2 * n, 2, n), 0, MM_NO_CODE);
            return true;
        }
        if (nd->small && score_from_table(nd, guess, v))
            return true;
        if (nd->k_all)
            return score_small_table(nd, v);
        if (opt_cand_inconsistent(w, nd->l, nd->G, nd->z, nd->S, nd->n, nd->ncons, &ncand)) {
            *v = out_of_memory(w);
            return true;
        }
    } else if (nd->limit < OV(2 * n, 3, 1)) {
        *v = node_store(nd, OV(2 * n, 3, 1), 0, MM_NO_CODE);
        return true;
    }
    return score_chunks(nd, ncand, guess, v);
}

/* Bound every candidate of a set that is not small (those of a small
 * set were bound as they were scored, keep_small) with the dynamic
 * branching factor K: the perfect-tree bound of each part (row: the
 * bounds of K parts by size, when the table has the set's size).  Those
 * that cannot come within the limit are only remembered in minfail,
 * those that cannot come within the depth limit not at all. */
static void bound_candidates(onode *nd)
{
    const oshared *sh = nd->w->sh;
    const mm_game *g = sh->g;
    olevel *l = nd->l;
    const uint32_t n = nd->n, nc = nd->nc;
    const int R = g->nreplies, depth = nd->depth;
    const oval limit = nd->limit;
    /* only the slots of replies the game can give: the others are empty
     * (12 of 28 in MM(6,7) without repeats, 7 of 36 in MM(7,7)) */
    const uint8_t *live = sh->live;
    const int A = sh->answers;
    if (nd->fixed)
        nd->K = sh->answers - 1;   /* the other guesses were not scored */
    if (nd->small)
        return;
    const int K = nd->K;
    const oval *row = n <= sh->lbmax ? sh->lbtab + (size_t)K * (sh->lbmax + 1) : NULL;
    oval minfail = nd->minfail;
    uint32_t keep = 0, least = 0;
    for (uint32_t i = 0; i < nc; i++) {
        ocand *ci = &l->ci[i];
        const uint32_t *h = l->hist + (size_t)ci->idx * R;
        oval lb;
        if (row) {
            /* Branch-free: an empty slot adds (0, 0); the winning slot's
             * one code is taken off again (its depth is harmless, some
             * other part is at least as deep).  The codes at the worst
             * depth only for a candidate within the limit. */
            oval sum = 0;
            int wm = 0;
            for (int j = 0; j < A; j++) {
                oval b = row[h[live[j]]];
                sum += ov_total_bits(b);
                wm = OV_W(b) > wm ? OV_W(b) : wm;
            }
            lb = OV(n + OV_T(sum) - h[g->win], 1 + wm, 0);
            if (lb <= limit && 1 + wm <= depth) {
                uint32_t at = 0;
                for (int j = 0; j < A; j++) {
                    int s = live[j];
                    if (s != g->win && OV_W(row[h[s]]) == wm)
                        at += OV_N(row[h[s]]);
                }
                lb += at;
            }
        } else {
            ovsum sum = ovsum_start(n);
            for (int j = 0; j < A; j++)
                if (h[live[j]] && live[j] != g->win)
                    ovsum_add(&sum, opt_lower(sh, h[live[j]], K));
            lb = ovsum_value(sum);
        }
        if (OV_W(lb) > depth)
            continue;
        ci->lb = lb;
        if (lb > limit) {
            if (lb < minfail)
                minfail = lb;
            continue;
        }
        if (keep && cand_before(ci, &l->ci[least]))
            least = keep;
        l->ci[keep++] = *ci;
    }
    nd->nc = keep;
    nd->minfail = minfail;
    if (keep)
        put_front(nd, least);
}

/* Candidate q (the i-th tried) is within the limit at value v. */
static void node_better(onode *nd, uint32_t i, oval v)
{
    oshared *sh = nd->w->sh;
    const ocand *ci = &nd->l->ci[i];
    nd->best = v;
    nd->best_idx = ci->idx;
    nd->best_q = nd->l->cand[ci->idx];
    nd->have = true;
    if (nd->lv == 0 && !nd->w->id) {
        sh->root_best = v;
        sh->root_guess = nd->best_q;
    }
}

/* The candidates one after another, on this thread; OV_ABORT when
 * stopped. */
static oval solve_rest_shared(onode *nd, uint32_t i);

static oval solve_serial(onode *nd)
{
    oworker *w = nd->w;
    oshared *sh = w->sh;
    olevel *l = nd->l;
    for (uint32_t i = 0; i < nd->nc || nd->rest; i++) {
        /* a thread has come free: the rest with it, within the budget
         * the best so far leaves (the root's are shared or single) */
        if (nd->lv > 0 && nd->have && !nd->small && opt_help_wanted(sh, nd->n, nd->nc - i))
            return solve_rest_shared(nd, i);
        if (i < nd->nc && (i > 0 || !nd->front))
            next_cand(l->ci, i, nd->nc);
        if (nd->rest && (i == nd->nc || cand_before(&nd->rest_first, &l->ci[i]))) {
            /* those left out come next: listed unless the first is
             * beyond the bound, as the loop below would find */
            const ocand *r = &nd->rest_first;
            oval bound = (nd->have && nd->ties && r->idx < nd->best_idx) ? nd->best : nd->best - 1;
            if (r->lb > bound) {
                if (r->lb < nd->minfail)
                    nd->minfail = r->lb;
                break;
            }
            list_rest(nd);
            repick_cand(l->ci, i, nd->nc);
        }
        const ocand ci = l->ci[i];
        oval bound = (nd->have && nd->ties && ci.idx < nd->best_idx) ? nd->best : nd->best - 1;
        if (ci.lb > bound) {
            /* The candidates come in order of bound, then of tie order:
             * none after this one can do better than the best, nor tie
             * with it and come before it in tie order. */
            if (ci.lb < nd->minfail)
                nd->minfail = ci.lb;
            break;
        }
        mm_code q = l->cand[ci.idx];
        uint32_t *h = l->hist + (size_t)ci.idx * sh->g->nreplies;
        if (nd->small)
            opt_histogram(sh, l, nd->n, q, h);
        if (nd->lv == 0 && !w->id) {
            atomic_store(&sh->root_i, i);
            atomic_store(&sh->root_nc, nd->nc);
            oprog_start(sh, q);
        }
        oval reached;
        oval sum = opt_eval_cand(w, nd->lv, nd->G, nd->S, nd->n, q, h, nd->K, bound, nd->depth,
                                 nd->ties, NULL, ci.idx, !nd->have, &reached);
        if (sum == OV_ABORT) {
            if (nd->lv == 0 && !w->id)
                root_stopped(sh, l, i, nd->nc, reached, nd->minfail, nd->have, nd->best);
            return OV_ABORT;
        }
        if (nd->lv == 0)
            oprog_finish(sh, ci.idx, sum);
        if (sum <= bound)
            node_better(nd, i, sum);
        else if (sum < nd->minfail)
            nd->minfail = sum;
    }
    return 0;
}

/* The first candidate in order is mostly the best: its parts are shared
 * out (opt_eval_cand), and the others then get its value to beat, a
 * tight budget each on one thread.  OV_ABORT when stopped. */
static oval solve_first_shared(onode *nd, orootjob *rj)
{
    oworker *w = nd->w;
    olevel *l = nd->l;
    const ocand c0 = l->ci[0];   /* its bound is within limit */
    mm_code q = l->cand[c0.idx];
    oval reached;
    if (nd->lv == 0)
        oprog_start(w->sh, q);
    oval sum = opt_eval_cand(w, nd->lv, nd->G, nd->S, nd->n, q,
                             l->hist + (size_t)c0.idx * w->sh->g->nreplies, nd->K, nd->limit,
                             nd->depth, nd->ties, NULL, c0.idx, true, &reached);
    if (sum == OV_ABORT) {
        if (nd->lv == 0)
            root_stopped(w->sh, l, 0, nd->nc, reached, nd->minfail, false, nd->best);
        return OV_ABORT;
    }
    if (nd->lv == 0)
        oprog_finish(w->sh, c0.idx, sum);
    if (sum <= nd->limit) {
        node_better(nd, 0, sum);
        rj->best = sum;
        rj->best_idx = c0.idx;
        rj->best_q = q;
        rj->have = true;
    } else if (sum < rj->minfail) {
        rj->minfail = sum;
    }
    rj->next = 1;
    return 0;
}

/* The candidates from i on shared out to the pool, a thread having
 * come free: a job within the one this thread works on. */
static oval solve_rest_shared(onode *nd, uint32_t i)
{
    oworker *w = nd->w;
    olevel *l = nd->l;
    sort_cands(l->ci, i, nd->nc);
    orootjob rj = {nd->lv, nd->G, nd->S, nd->n, l, nd->nc, nd->K, nd->depth, nd->ties, i, 0,
                   nd->best, nd->best_idx, nd->best_q, nd->have, nd->minfail};
    opt_share_guesses(w, &rj);
    nd->best = rj.best;
    nd->best_idx = rj.best_idx;
    nd->have = rj.have;
    nd->best_q = rj.best_q;
    nd->minfail = rj.minfail;
    return atomic_load(&w->sh->abort) ? OV_ABORT : 0;
}

/* The candidates shared out to the pool, each thread taking the next
 * one; OV_ABORT when stopped. */
static oval solve_shared(onode *nd)
{
    oworker *w = nd->w;
    oshared *sh = w->sh;
    olevel *l = nd->l;
    sort_cands(l->ci, 0, nd->nc);
    orootjob rj = {nd->lv, nd->G, nd->S, nd->n, l, nd->nc, nd->K, nd->depth, nd->ties, 0, 0,
                   nd->limit + 1, UINT32_MAX, nd->S[0], false, nd->minfail};
    if (nd->lv == 0) {   /* for the progress line */
        atomic_store(&sh->root_i, 0);
        atomic_store(&sh->root_nc, nd->nc);
    }
    if (sh->share_parts && solve_first_shared(nd, &rj) == OV_ABORT)
        return OV_ABORT;
    opt_share_guesses(w, &rj);
    if (atomic_load(&sh->abort)) {
        nd->best = rj.best;   /* the incumbent, for opt_solve */
        nd->have = rj.have;
        nd->best_q = rj.best_q;
        oval lower = rj.have ? rj.best : rj.minfail;
        for (uint32_t i = 0; i < nd->nc; i++)
            if (l->ci[i].lb < lower)
                lower = l->ci[i].lb;
        if (nd->lv == 0)
            root_stopped_at(sh, lower);
        return OV_ABORT;
    }
    nd->best = rj.best;
    nd->have = rj.have;
    nd->best_q = rj.best_q;
    nd->minfail = rj.minfail;
    return 0;
}

/* A set's node for opt_solve and opt_expand.  With a fixed first guess
 * the first set's value is that guess's, not a fact about the set: it
 * stays out of the table. */
static onode node_init(oworker *w, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                       oval limit, int depth, bool ties, ozf *z)
{
    const oshared *sh = w->sh;
    return (onode){.w = w, .l = &w->lv[lv], .lv = lv, .depth = depth, .G = G, .S = S, .n = n,
                   .limit = limit, .ties = ties, .z = z,
                   .cache = sh->use_cache && !(lv == 0 && sh->first != MM_NO_CODE),
                   .small = n <= sh->small_max, .minfail = OV_INF, .best = limit + 1,
                   .best_idx = UINT32_MAX, .best_q = S[0]};
}

/* The steps before the candidates are tried: true when they answer the
 * set (*v; *guess when they found one). */
static bool node_open(onode *nd, bool force, mm_code *guess, oval *v)
{
    if (solve_lookup(nd, force, guess, v))
        return true;
    nd->w->nodes++;
    if (!level_begin(nd)) {
        *v = out_of_memory(nd->w);
        return true;
    }
    if (score_consistent(nd, guess, v) || score_others(nd, guess, v))
        return true;
    bound_candidates(nd);
    return false;
}

/* Both cores: the guesses of the first set that has several are shared
 * out, each thread taking the next one: the root's, or those of the
 * parts after a single first guess (--first; Bulls and Cows, where every
 * first guess is the same).  With share_parts, the default, the first
 * guess of such a set is solved first with its parts shared out, then
 * the other guesses are, with the budget it leaves; a thread that comes
 * free meanwhile is helped one level down (opt_help_wanted).  Sharing
 * the guesses from the start (MM_SHARE_GUESSES) gives those taken before
 * the first is solved a loose budget: MM(4,9) took 38.1 s that way on two
 * threads, against 26.3 s (tests/bench_optimal.sh large compares both).
 * Before a free thread was helped, sharing guesses was the faster above
 * some 2000 codes, where the parts of the first guess left one thread
 * waiting. */
static void share_plan(oshared *sh, uint32_t nc)
{
    opt_share_level(sh, nc >= 2 ? 0 : 1);
}

void opt_share_level(oshared *sh, int lv)
{
    sh->par_level = lv;
    sh->share_parts = sh->share != MM_SHARE_GUESSES;
}

oval opt_solve(oworker *w, int lv, const ogroup *G, const mm_code *S,
               uint32_t n, oval limit, int depth, bool ties, bool force,
               mm_code *guess)
{
    oshared *sh = w->sh;
    oval v;
    *guess = S[0];
    if (opt_trivial(n, depth, &v))
        return v;
    ozf z;
    onode nd = node_init(w, lv, G, S, n, limit, depth, ties, &z);
    if (node_open(&nd, force, guess, &v))
        return v;
    if (lv == 0 && !w->id && sh->track_root)   /* for progress and bounds */
        oprog_begin(sh, nd.l, nd.ncand, nd.nc, nd.minfail);
    if (lv == 0)
        share_plan(sh, nd.nc);
    bool shared = lv == sh->par_level && !w->id && sh->nhelpers > 0 && !nd.small && nd.nc >= 2;
    /* The first set on the path small enough gets a table of replies:
     * the small sets below it are scored from it (opt_score.c). */
    bool table = !nd.small && nd.nc > 0 && opt_replies_build(w, lv, S, n);
    oval r = shared ? solve_shared(&nd) : solve_serial(&nd);
    if (table)
        opt_replies_drop(w);
    if (r == OV_ABORT) {
        /* stopped: the best guess found, for a polish (the root's is
         * the driver's own, root_best) */
        if (nd.have && nd.cache && lv > 0)
            opt_incumbent_keep(sh, nd.h1, nd.h2, nd.depth, nd.best_q, nd.best);
        return OV_ABORT;
    }
    if (!nd.have)
        return node_store(&nd, nd.minfail, 0, MM_NO_CODE);
    *guess = nd.best_q;
    return node_store(&nd, nd.best, OC_EXACT | (ties ? OC_CANON : 0), nd.best_q);
}

bool opt_expand(oworker *w, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                oval limit, int depth, bool ties, oval *v, mm_code *guess, oexpand *x)
{
    *guess = S[0];
    if (opt_trivial(n, depth, v))
        return true;
    ozf z;
    onode nd = node_init(w, lv, G, S, n, limit, depth, ties, &z);
    if (node_open(&nd, false, guess, v))
        return true;
    if (nd.rest)
        list_rest(&nd);
    *x = (oexpand){nd.l->ci, nd.l->cand, nd.nc, nd.K, nd.minfail};
    return false;
}

/* ---- worst case only ---- */

/* The candidates of a feasibility test in l->ci, best first: fewest
 * codes in the largest part, then tie order; those whose largest part a
 * tree of depth - 1 cannot hold are dropped.  The number kept, or -1
 * when out of memory. */
static int64_t feasible_candidates(onode *nd)
{
    oworker *w = nd->w;
    const oshared *sh = w->sh;
    const mm_game *g = sh->g;
    olevel *l = nd->l;
    int R = g->nreplies;
    uint32_t ncand = nd->ncons, n = nd->n;
    if (!sh->consistent_only && !nd->fixed &&
        opt_cand_inconsistent(w, l, nd->G, nd->z, nd->S, n, nd->ncons, &ncand))
        return -1;
    for (uint32_t c = 0; c < ncand; c++) {
        uint32_t *h = l->hist + (size_t)c * R;
        opt_histogram(sh, l, n, l->cand[c], h);
        int k = 0;
        uint32_t big = 0;
        for (int s = 0; s < R; s++)
            if (h[s] && s != g->win) {
                k++;
                if (h[s] > big)
                    big = h[s];
            }
        if (!h[g->win] && k == 1)
            continue;
        if (k > nd->K)
            nd->K = k;
        l->ci[nd->nc++] = (ocand){(oval)big << 32 | c, c, (uint16_t)k};
    }
    if (nd->fixed)
        nd->K = sh->answers - 1;   /* the other guesses were not scored */
    uint64_t cap1 = 0, level = 1;   /* codes a tree of depth-1 can find */
    for (int d = 0; d < nd->depth - 1 && cap1 < n; d++) {
        cap1 += level;
        level *= (uint64_t)(nd->K > 0 ? nd->K : 1);
    }
    uint32_t keep = 0;
    for (uint32_t i = 0; i < nd->nc; i++)
        if ((l->ci[i].lb >> 32) <= cap1)
            l->ci[keep++] = l->ci[i];
    sort_cands(l->ci, 0, keep);
    return keep;
}

/* Does candidate ci lead to a tree of depth at most nd->depth?  1 yes, 0
 * no, -1 stopped. */
static int feasible_with(onode *nd, const ocand *ci)
{
    oworker *w = nd->w;
    const mm_game *g = w->sh->g;
    olevel *l = nd->l;
    mm_code q = l->cand[ci->idx];
    opart pt[MM_MAX_REPLIES];
    int np;
    uint32_t win;
    if (!opt_split(l, g, nd->S, nd->n, q, l->hist + (size_t)ci->idx * g->nreplies, pt, &np,
                   &win) ||
        ogroup_after(nd->G, g, q, &l->grp)) {
        out_of_memory(w);
        return -1;
    }
    /* The biggest part first: a guess that fails mostly fails there, and
     * the small parts it would have proven first are then not needed
     * (sets searched: MM(4,10)n 2.11 to 1.04 million, MM(4,7) 445,000 to
     * 385,000; the same trees). */
    sort_parts(pt, np);
    int res = 1;
    for (int j = np - 1; j >= 0 && res == 1; j--)
        res = opt_feasible(w, nd->lv + 1, &l->grp, l->parts + pt[j].start, pt[j].n,
                           nd->depth - 1, false, NULL);
    return res;
}

/* Two guesses are enough for a set of three codes or more when, and only
 * when, a guess separates them all: one that can be the code and gets a
 * different reply from each other code, or one that cannot and gets a
 * different reply from every code.  The consistent candidates are scored
 * as usual, the others read off the table of replies.  1 yes (*q that
 * guess), 0 no, -1 when there is no table. */
static int feasible_in_two(onode *nd, mm_code *q)
{
    oworker *w = nd->w;
    const oshared *sh = w->sh;
    if (w->rt.lv < 0 || nd->fixed)
        return -1;
    opt_score_range(sh, nd->l, nd->n, 0, nd->ncons, true);
    for (uint32_t c = 0; c < nd->ncons; c++)
        if (nd->l->nk[c] == nd->n) {
            *q = nd->l->cand[c];
            return 1;
        }
    return !sh->consistent_only && opt_replies_of_set(w, nd->S, nd->n, q) >= 0 &&
           *q != MM_NO_CODE;
}

int opt_feasible(oworker *w, int lv, const ogroup *G, const mm_code *S,
                 uint32_t n, int depth, bool force, mm_code *guess)
{
    oshared *sh = w->sh;
    mm_code q = n ? S[0] : MM_NO_CODE;
    if (guess)
        *guess = q;
    if (n <= 1)
        return depth >= (int)n;
    if (depth < 2)
        return 0;
    if (n == 2)
        return 1;
    ozf z;
    onode nd = {.w = w, .l = &w->lv[lv], .lv = lv, .depth = depth, .G = G, .S = S, .n = n,
                .z = &z, .cache = sh->use_cache && !(lv == 0 && sh->first != MM_NO_CODE)};
    if (lv + 1 >= w->nlv) {
        w->status = MM_ERR_LIMIT;
        atomic_store(&sh->abort, 1);
        return -1;
    }
    if (opt_stopping(w))
        return -1;
    oentry e;
    if (nd.cache) {
        opt_hash(sh, S, n, &nd.h1, &nd.h2);
        nd.h2 ^= 0x5bd1e9955bd1e995u;   /* feasibility facts apart */
        if (ocache_get(&sh->cache, nd.h1, nd.h2, depth, &e) &&
            (!force || !(oentry_flags(&e) & OC_EXACT) || e.guess < sh->g->ncodes)) {
            w->hits++;
            if (guess && e.guess < sh->g->ncodes)
                *guess = e.guess;
            return (oentry_flags(&e) & OC_EXACT) != 0;
        }
    }
    w->nodes++;
    if (!level_begin(&nd))
        return out_of_memory(w), -1;
    q = MM_NO_CODE;
    int res = depth == 2 ? feasible_in_two(&nd, &q) : -1;
    if (res < 0) {
        int64_t nc = feasible_candidates(&nd);
        if (nc < 0)
            return out_of_memory(w), -1;
        /* the sets below read their replies off a table (opt_score.c) */
        bool table = n > sh->small_max && nc > 0 && opt_replies_build(w, lv, S, n);
        res = 0;
        for (uint32_t i = 0; i < (uint32_t)nc && !res; i++) {
            if (lv == 0) {   /* for progress */
                atomic_store(&sh->feas_guess, nd.l->cand[nd.l->ci[i].idx]);
                atomic_store(&sh->feas_i, i);
                atomic_store(&sh->feas_n, (unsigned)nc);
            }
            res = feasible_with(&nd, &nd.l->ci[i]);
            if (res == 1)
                q = nd.l->cand[nd.l->ci[i].idx];
        }
        if (table)
            opt_replies_drop(w);
        if (res < 0)
            return -1;
    }
    node_store(&nd, res ? 0 : OV_INF, res ? OC_EXACT : 0, res ? q : MM_NO_CODE);
    if (guess && res)
        *guess = q;
    return res;
}
