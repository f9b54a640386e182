/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Partitions, their scores and lower bounds (include/mmtree/partition.h). */
#include "mmtree/partition.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "rules.h"

uint64_t mm_perfect_total(uint64_t m, int b)
{
    return rules_perfect_total(m, (uint64_t)(b < 1 ? 1 : b) + 1);
}

int mm_perfect_depth(uint64_t m, int b)
{
    uint64_t t = 0, level = 1;
    int d = 0;
    if (b <= 1)
        return m > INT32_MAX ? INT32_MAX : (int)m;
    while (t < m) {
        t += level;
        d++;
        level = level > UINT64_MAX / (uint64_t)b ? UINT64_MAX / 2 : level * (uint64_t)b;
    }
    return d;
}

static double entropy_bits(const uint32_t *size, int k, uint32_t n)
{
    double h = 0;
    for (int s = 0; s < k; s++)
        if (size[s]) {
            double p = (double)size[s] / (double)n;
            h -= p * log2(p);
        }
    return h;
}

static void histogram(const mm_game *g, const mm_code *codes, uint32_t n, mm_code guess,
                      uint32_t *size)
{
    memset(size, 0, MM_MAX_REPLIES * sizeof *size);
    for (uint32_t i = 0; i < n; i++)
        size[mm_game_score(g, guess, codes[i])]++;
}

mm_status mm_partition_make(const mm_game *g, const mm_code *codes, uint32_t n,
                            mm_code guess, mm_partition *p, mm_diag *d)
{
    if (guess >= g->ncodes)
        return mm_diag_set(d, MM_ERR_USAGE, "guess %u is not a code of the game", guess);
    if (n == 0)
        return mm_diag_set(d, MM_ERR_USAGE, "no codes to partition");
    memset(p, 0, sizeof *p);
    p->guess = guess;
    p->codes = n;
    histogram(g, codes, n, guess, p->size);
    p->consistent = p->size[g->win] != 0;
    int answers = __builtin_popcountll(mm_game_reply_set(g));
    for (int s = 0; s < g->nreplies; s++) {
        uint32_t m = p->size[s];
        p->parts += m != 0;
        p->largest = m > p->largest ? m : p->largest;
        p->squares += (uint64_t)m * m;
        if (s != g->win)
            p->e3 += rules_perfect_total(m, (uint64_t)answers);
    }
    p->entropy = entropy_bits(p->size, g->nreplies, n);
    return MM_OK;
}

/* The colours the set cannot tell apart.  Exchanging two of them in
 * every code of the set may give the set back (colours no guess played
 * yet, or that no code has); such exchanges compose, so the colours fall
 * into classes, and any permutation within the classes maps the set onto
 * itself and each guess onto one with the same parts.  So only one guess
 * of each class of codes needs a histogram: the one whose colours of each
 * class appear, in order of first appearance, as the smallest members of
 * the class; it stands for orbit codes. */
typedef struct symmetry {
    int group[MM_MAX_COLORS];                /* colour -> its class */
    int member[MM_MAX_COLORS][MM_MAX_COLORS]; /* the class, ascending */
    int size[MM_MAX_COLORS];
    int ngroups;
} symmetry;

static mm_code swap_colours(const mm_game *g, mm_code x, int a, int b)
{
    int pegs[MM_MAX_PEGS];
    for (int i = 0; i < g->pegs; i++) {
        int k = mm_code_peg(g, x, i);
        pegs[i] = k == a ? b : k == b ? a : k;
    }
    return mm_game_index(g, pegs);
}

static bool swap_keeps(const mm_game *g, const uint8_t *in, const mm_code *codes, uint32_t n,
                       int a, int b)
{
    for (uint32_t i = 0; i < n; i++) {
        mm_code y = swap_colours(g, codes[i], a, b);
        if (y == MM_NO_CODE || !in[y])
            return false;
    }
    return true;
}

/* The classes of the set codes[0..n); every colour alone when there is
 * no memory to find them (then every code stands for itself). */
static void symmetry_find(const mm_game *g, const mm_code *codes, uint32_t n, symmetry *sy)
{
    uint8_t *in = calloc(g->ncodes, 1);
    sy->ngroups = 0;
    if (in)
        for (uint32_t i = 0; i < n; i++)
            in[codes[i]] = 1;
    for (int k = 0; k < g->colors; k++) {
        int c = 0;
        while (c < sy->ngroups && !(in && swap_keeps(g, in, codes, n, sy->member[c][0], k)))
            c++;
        if (c == sy->ngroups)
            sy->size[sy->ngroups++] = 0;
        sy->group[k] = c;
        sy->member[c][sy->size[c]++] = k;
    }
    free(in);
}

/* Does x stand for its class, and for how many codes (*orbit)? */
static bool symmetry_first(const mm_game *g, const symmetry *sy, mm_code x, uint64_t *orbit)
{
    int next[MM_MAX_COLORS] = {0};
    unsigned seen = 0;
    uint64_t o = 1;
    for (int i = 0; i < g->pegs; i++) {
        int k = mm_code_peg(g, x, i);
        if (seen >> k & 1)
            continue;
        seen |= 1u << k;
        int c = sy->group[k];
        if (sy->member[c][next[c]] != k)
            return false;
        o *= (uint64_t)(sy->size[c] - next[c]);
        next[c]++;
    }
    *orbit = o;
    return true;
}

void mm_partition_branch2(const mm_game *g, const mm_code *codes, uint32_t n,
                          mm_partition *p)
{
    p->profile = 0;
    if (p->consistent) {
        /* the codes of the set with the same sizes, reply by reply: one
         * histogram for each class of codes */
        symmetry sy;
        symmetry_find(g, codes, n, &sy);
        uint32_t h[MM_MAX_REPLIES];
        for (uint32_t i = 0; i < n; i++) {
            uint64_t orbit;
            if (!symmetry_first(g, &sy, codes[i], &orbit))
                continue;
            histogram(g, codes, n, codes[i], h);
            if (!memcmp(h, p->size, (size_t)g->nreplies * sizeof *h))
                p->profile += (uint32_t)orbit;
        }
    }
    uint32_t x = p->profile ? n - p->profile + 1 : n;
    p->branch2 = x <= 1 ? 0 : p->parts <= 1 ? INFINITY : log((double)x) / log((double)p->parts);
}

static int cmp_u32_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

static int cmp_shape(const void *a, const void *b)
{
    return memcmp(a, b, MM_MAX_REPLIES * sizeof(uint32_t));
}

mm_status mm_partition_shapes(const mm_game *g, const mm_code *codes, uint32_t n,
                              uint32_t *shapes, mm_diag *d)
{
    typedef uint32_t shape[MM_MAX_REPLIES];
    shape *all = NULL;
    size_t cap = 0, k = 0;
    symmetry sy;
    symmetry_find(g, codes, n, &sy);
    /* a guess and every guess of its class make the same partition */
    for (mm_code x = 0; x < g->ncodes; x++) {
        uint64_t orbit;
        if (!symmetry_first(g, &sy, x, &orbit))
            continue;
        shape *a = grow_array(all, &cap, k + 1, 64, sizeof *all);
        if (!a) {
            free(all);
            return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the partitions");
        }
        all = a;
        histogram(g, codes, n, x, all[k]);
        qsort(all[k], MM_MAX_REPLIES, sizeof(uint32_t), cmp_u32_desc);
        k++;
    }
    qsort(all, k, sizeof *all, cmp_shape);
    uint32_t count = k ? 1 : 0;
    for (size_t x = 1; x < k; x++)
        count += cmp_shape(all[x - 1], all[x]) != 0;
    free(all);
    *shapes = count;
    return MM_OK;
}

/* Is x the lexically first code of its class under permutations of the
 * colours in free (never played, so interchangeable)? */
static bool first_of_class(const mm_game *g, uint16_t free, mm_code x)
{
    int next = 0;   /* free colours must appear in increasing order */
    uint16_t seen = 0;
    for (int i = 0; i < g->pegs; i++) {
        int k = mm_code_peg(g, x, i);
        if (!(free >> k & 1) || (seen >> k & 1))
            continue;
        while (next < g->colors && !(free >> next & 1))
            next++;
        if (k != next)
            return false;
        seen |= (uint16_t)(1u << k);
        next++;
    }
    return true;
}

/* One guess's one-step bounds with b branches: total and worst case. */
static void step_bound(const mm_game *g, const uint32_t *size, uint32_t n, int b,
                       uint64_t *total, int *worst)
{
    uint64_t t = n;
    int w = 1;
    for (int s = 0; s < g->nreplies; s++)
        if (size[s] && s != g->win) {
            t += mm_perfect_total(size[s], b);
            int dep = 1 + mm_perfect_depth(size[s], b);
            w = dep > w ? dep : w;
        }
    *total = t;
    *worst = w;
}

mm_status mm_bounds_make(const mm_game *g, uint16_t played, const mm_code *codes,
                         uint32_t n, mm_bounds *b, mm_diag *d)
{
    if (n == 0)
        return mm_diag_set(d, MM_ERR_USAGE, "no codes to bound");
    uint8_t *in = calloc(g->ncodes, 1);
    uint32_t (*h)[MM_MAX_REPLIES] = NULL;
    mm_code *cand = malloc((size_t)g->ncodes * sizeof *cand);
    if (!in || !cand) {
        free(in);
        free(cand);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the bounds");
    }
    memset(b, 0, sizeof *b);
    b->codes = n;
    b->answers = __builtin_popcountll(mm_game_reply_set(g));
    uint16_t all = (uint16_t)((1u << g->colors) - 1);
    uint16_t free_colors = (uint16_t)(all & ~played);
    /* Candidates in tie order: the codes of the set, then the others;
     * one of each class of free colours. */
    uint32_t nc = 0;
    for (uint32_t i = 0; i < n; i++) {
        in[codes[i]] = 1;
        if (first_of_class(g, free_colors, codes[i]))
            cand[nc++] = codes[i];
    }
    for (mm_code x = 0; x < g->ncodes; x++)
        if (!in[x] && first_of_class(g, free_colors, x))
            cand[nc++] = x;
    free(in);
    h = malloc((size_t)nc * sizeof *h);
    if (!h) {
        free(cand);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the bounds");
    }
    for (uint32_t c = 0; c < nc; c++) {
        histogram(g, codes, n, cand[c], h[c]);
        int k = 0;
        for (int s = 0; s < g->nreplies; s++)
            k += h[c][s] && s != g->win;
        b->branching = k > b->branching ? k : b->branching;
    }
    int bs[2] = {b->answers - 1, b->branching};
    b->total = mm_perfect_total(n, bs[0]);
    b->worst = mm_perfect_depth(n, bs[0]);
    b->total_dynamic = mm_perfect_total(n, bs[1]);
    b->worst_dynamic = mm_perfect_depth(n, bs[1]);
    b->step_total = b->step_total_dynamic = UINT64_MAX;
    b->step_worst = b->step_worst_dynamic = INT32_MAX;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t t;
        int w;
        step_bound(g, h[c], n, bs[0], &t, &w);
        if (t < b->step_total) {
            b->step_total = t;
            b->step_total_guess = cand[c];
        }
        if (w < b->step_worst) {
            b->step_worst = w;
            b->step_worst_guess = cand[c];
        }
        step_bound(g, h[c], n, bs[1], &t, &w);
        b->step_total_dynamic = t < b->step_total_dynamic ? t : b->step_total_dynamic;
        b->step_worst_dynamic = w < b->step_worst_dynamic ? w : b->step_worst_dynamic;
    }
    free(h);
    free(cand);
    return MM_OK;
}
