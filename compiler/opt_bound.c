/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Perfect-tree lower bounds (Ville 2013, 5.1): no tree for m codes whose
 * guesses make at most k parts besides the winning one needs fewer
 * guesses in total, or fewer levels, than the tree that fills every level
 * before the next, nor (with that total and depth) fewer codes at its
 * deepest level.  The search reads them from a table, one row a k.
 *
 * The agreement bound sharpens the total for a set of a game whose codes
 * are the permutations of its colours (MM(p,p) without repeats).  There a
 * reply is the number of pegs the guess has in place, and over a set S
 * those numbers add up to at most A(S), the most that any one code puts
 * in place over S (an assignment problem on the counts of each colour at
 * each peg).  A set's codes agree with most guesses in a peg or two, so
 * no guess splits it into parts of even size, as the perfect tree
 * assumes: the bound is |S| plus the least sum of the parts' perfect-tree
 * totals over every split of S whose parts, part k of the codes with k
 * pegs in place (the winning code p), have at most A(S) pegs in place in
 * all.  MM(7,7)'s 1854 codes with no peg in place after 1234567 get
 * 9638 from it where the perfect tree gives 9259.
 */
#include "opt.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "rules.h"

/* Smallest depth d with 1 + k + ... + k^(d-1) >= m. */
static int perfect_depth(uint64_t m, int k)
{
    uint64_t t = 0, level = 1;
    int d = 0;
    if (m == 0)
        return 0;
    if (k <= 1)   /* one code a level */
        return m > 63 ? 63 : (int)m;
    while (t < m) {
        t += level;
        d++;
        level = level > UINT64_MAX / (uint64_t)k ? UINT64_MAX / 2 : level * (uint64_t)k;
    }
    return d;
}

/* Codes on the last level of that tree: a tree that needs no more guesses
 * in total fills the levels above and puts the rest there, so no tree of
 * the bound's total and depth has fewer codes at its worst depth. */
static uint64_t last_level(uint64_t m, int k, int d)
{
    uint64_t above = 0, level = 1;
    if (k <= 1)
        return m ? 1 : 0;
    for (int i = 1; i < d && above < m; i++) {
        above += level;
        level = level > UINT64_MAX / (uint64_t)k ? UINT64_MAX / 2 : level * (uint64_t)k;
    }
    return above < m ? m - above : 0;
}

oval opt_lower_calc(uint64_t m, int k)
{
    if (k < 1)
        k = 1;
    int d = perfect_depth(m, k);
    return OV(rules_perfect_total(m, (uint64_t)k + 1), d > 63 ? 63 : d, last_level(m, k, d));
}

bool opt_lower_init(oshared *sh)
{
    const mm_game *g = sh->g;
    sh->lbmax = g->ncodes < 65536 ? g->ncodes : 65536;
    size_t R = (size_t)g->nreplies + 1;
    sh->lbtab = malloc(R * (sh->lbmax + 1) * sizeof *sh->lbtab);
    if (!sh->lbtab)
        return false;
    for (size_t k = 0; k < R; k++)
        for (uint32_t m = 0; m <= sh->lbmax; m++)
            sh->lbtab[k * (sh->lbmax + 1) + m] = opt_lower_calc(m, (int)k);
    return true;
}

/* ---- the agreement bound ---- */

/* The breakpoints of the relaxation below are at multiples of 1/AG_L:
 * lcm(1..MM_MAX_PEGS). */
#define AG_L 840
/* Values of up to AG_MEMO codes are kept once computed. */
#define AG_MEMO 256

_Static_assert(MM_MAX_PEGS <= 8, "AG_L must be a multiple of every peg count");

bool opt_agree_game(const mm_game *g)
{
    return !g->repeat && g->colors == g->pegs && g->pegs >= 3;
}

uint32_t opt_agree_pegs(const mm_game *g, const mm_code *S, uint32_t n)
{
    const int p = g->pegs;
    uint32_t cnt[64] = {0};   /* bit peg*p+colour of g->pos */
    for (uint32_t i = 0; i < n; i++)
        for (uint64_t b = g->pos[S[i]]; b; b &= b - 1)
            cnt[__builtin_ctzll(b)]++;
    /* Any u, v with u[i] + v[j] >= cnt[i][j] bound the assignment from
     * above by their sum (its linear programme's dual): the rows' maxima
     * and then each column's most over them (at most 0), and the same
     * the other way round; the less of the two. */
    int64_t rows = 0, cols = 0;
    uint32_t ru[MM_MAX_PEGS], cu[MM_MAX_PEGS];
    for (int i = 0; i < p; i++) {
        uint32_t r = 0, c = 0;
        for (int j = 0; j < p; j++) {
            r = cnt[i * p + j] > r ? cnt[i * p + j] : r;
            c = cnt[j * p + i] > c ? cnt[j * p + i] : c;
        }
        ru[i] = r;
        cu[i] = c;
        rows += r;
        cols += c;
    }
    for (int j = 0; j < p; j++) {
        int64_t vr = INT64_MIN, vc = INT64_MIN;
        for (int i = 0; i < p; i++) {
            int64_t x = (int64_t)cnt[i * p + j] - ru[i];
            int64_t y = (int64_t)cnt[j * p + i] - cu[i];
            vr = x > vr ? x : vr;
            vc = y > vc ? y : vc;
        }
        rows += vr;
        cols += vc;
    }
    return (uint32_t)(rows < cols ? rows : cols);
}

/* The least total of n slots, times AG_L: a part's slots are its perfect
 * tree's codes, 1 at depth 1, k at depth 2, k^2 at 3..., and a code of
 * part j costs its depth plus x*j/AG_L; the winning code costs x*p/AG_L.
 * There are k parts at most, and the least total takes the first k (no
 * code of a permutation has p - 1 pegs in place): a split with parts of
 * more pegs in place costs more. */
static int64_t agree_cheapest(uint32_t n, int k, int p, int64_t x)
{
    int64_t cost[MM_MAX_PEGS * 64 + 1];
    uint64_t count[MM_MAX_PEGS * 64 + 1];
    int ng = 0;
    cost[ng] = x * p;
    count[ng++] = 1;
    for (int j = 0; j < k && j <= p - 2; j++) {
        uint64_t level = 1, above = 0;
        for (int t = 1; above < n && t <= 64; t++) {
            int64_t c = (int64_t)AG_L * t + x * j;
            int at = ng++;   /* in order of cost, by insertion */
            for (; at > 0 && cost[at - 1] > c; at--) {
                cost[at] = cost[at - 1];
                count[at] = count[at - 1];
            }
            cost[at] = c;
            count[at] = level;
            above += level;
            level = level > n ? level : level * (uint64_t)k;
        }
    }
    int64_t sum = 0;
    uint64_t left = n;
    for (int i = 0; i < ng && left; i++) {
        uint64_t take = count[i] < left ? count[i] : left;
        sum += (int64_t)take * cost[i];
        left -= take;
    }
    return sum;
}

uint64_t opt_agree_calc(uint32_t n, uint32_t pegs, int k, int p)
{
    /* The least sum of the parts' totals, the pegs in place at most A,
     * is at least its Lagrangian relaxation at any x >= 0: the least sum
     * of (total + x/AG_L * pegs in place) over every split, less x/AG_L
     * * A.  For k >= 2 the parts' totals are convex in their sizes, so
     * the least is the cheapest n slots (agree_cheapest).  As a function
     * of x it is concave, its breakpoints where two slots' costs meet,
     * at multiples of 1/AG_L below the perfect depth of n: its greatest
     * is found by ternary search. */
    if (n < 2 || k < 2)
        return 0;
    int64_t lo = 0, hi = (int64_t)AG_L * (OV_W(opt_lower_calc(n, k)) + 1);
    while (hi - lo > 2) {
        int64_t x1 = lo + (hi - lo) / 3, x2 = hi - (hi - lo) / 3;
        int64_t f1 = agree_cheapest(n, k, p, x1) - x1 * (int64_t)pegs;
        int64_t f2 = agree_cheapest(n, k, p, x2) - x2 * (int64_t)pegs;
        if (f1 < f2)
            lo = x1 + 1;
        else
            hi = x2;
    }
    int64_t best = 0;
    for (int64_t x = lo; x <= hi; x++) {
        int64_t f = agree_cheapest(n, k, p, x) - x * (int64_t)pegs;
        best = f > best ? f : best;
    }
    return n + (uint64_t)((best + AG_L - 1) / AG_L);
}

uint64_t opt_agree(oshared *sh, const mm_code *S, uint32_t n, int k)
{
    const int p = sh->g->pegs;
    uint32_t pegs = opt_agree_pegs(sh->g, S, n);
    if (n > AG_MEMO || k < 0 || k >= MM_MAX_PEGS)
        return opt_agree_calc(n, pegs, k, p);
    if (pegs > (uint32_t)p * n)
        pegs = (uint32_t)p * n;
    /* rows of m = 0..AG_MEMO codes, row m holding pegs = 0..p*m */
    _Atomic uint16_t *memo = atomic_load_explicit(&sh->agree_memo[k], memory_order_acquire);
    if (!memo) {
        size_t size = (size_t)p * AG_MEMO * (AG_MEMO + 1) / 2 + AG_MEMO + 1;
        _Atomic uint16_t *fresh = calloc(size, sizeof *fresh), *none = NULL;
        if (!fresh)
            return opt_agree_calc(n, pegs, k, p);
        if (atomic_compare_exchange_strong(&sh->agree_memo[k], &none, fresh))
            memo = fresh;
        else {
            free(fresh);
            memo = none;
        }
    }
    _Atomic uint16_t *at = &memo[(size_t)p * n * (n - 1) / 2 + n + pegs];
    uint16_t v = atomic_load_explicit(at, memory_order_relaxed);
    if (!v) {   /* every value is at least n: 0 is "not yet" */
        v = (uint16_t)opt_agree_calc(n, pegs, k, p);
        atomic_store_explicit(at, v, memory_order_relaxed);
    }
    return v;
}
