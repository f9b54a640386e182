/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * What a checkpoint has proven about a position (mm_checkpoint_position_read):
 * the position's set and each part of each guess there are keyed as the
 * search keys them (opt_hash), and one pass over the checked file picks
 * out the facts about them.  A search of hours stops with most of its
 * work in such facts; read at the position it was in, they say which
 * guesses are settled and how far each of the others has got.
 */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

#include "mmtree/partition.h"
#include "position.h"

#define LOOK_MAX_WORK ((uint64_t)1 << 32)  /* replies scored: codes left x guesses */
#define LOOK_MAX_SETS ((size_t)1 << 24)    /* parts looked for */

/* A set looked for: its keys (salt 0), its size, and the guess and
 * reply it is the part of (the position itself: MM_NO_CODE). */
typedef struct want {
    uint64_t h1, h2;
    uint32_t n;
    mm_code guess;
} want;

/* A want's key 2 and its place, sorted by the key. */
typedef struct wkey {
    uint64_t h2;
    uint32_t i;
} wkey;

typedef struct look {
    want *w;
    mm_checkpoint_fact *fact;   /* one per want */
    size_t n, cap;
    wkey *by;                   /* the wants in order of h2 */
    uint32_t *head;             /* h2's bucket -> 1 + its first place in by */
    uint64_t mask;
    const mm_checkpoint_info *info;   /* filled before the first entry */
} look;

static mm_status add_want(look *L, uint64_t h1, uint64_t h2, uint32_t n, mm_code guess,
                          mm_diag *d)
{
    if (L->n == L->cap) {
        if (L->cap >= LOOK_MAX_SETS)
            return mm_diag_set(d, MM_ERR_LIMIT,
                               "more than %zu sets to look up at this position: give a "
                               "longer path",
                               LOOK_MAX_SETS);
        size_t cap = L->cap ? 2 * L->cap : 4096;
        want *w = realloc(L->w, cap * sizeof *w);
        if (!w)
            return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %zu sets", cap);
        L->w = w;
        L->cap = cap;
    }
    L->w[L->n++] = (want){h1, h2, n, guess};
    return MM_OK;
}

static int by_h2(const void *a, const void *b)
{
    const wkey *x = a, *y = b;
    return x->h2 < y->h2 ? -1 : x->h2 > y->h2;
}

/* The wants by h2, and a table from h2 to the first of each run. */
static mm_status index_wants(look *L, mm_diag *d)
{
    uint64_t size = 2;
    while (size < 2 * (uint64_t)L->n)
        size *= 2;
    L->by = malloc(L->n * sizeof *L->by);
    L->head = calloc(size, sizeof *L->head);
    L->fact = calloc(L->n, sizeof *L->fact);
    if (!L->by || !L->head || !L->fact)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %zu sets", L->n);
    for (size_t i = 0; i < L->n; i++)
        L->by[i] = (wkey){L->w[i].h2, (uint32_t)i};
    qsort(L->by, L->n, sizeof *L->by, by_h2);
    L->mask = size - 1;
    for (size_t i = 0; i < L->n; i++) {
        if (i && L->by[i - 1].h2 == L->by[i].h2)
            continue;
        uint64_t b = L->by[i].h2 & L->mask;
        while (L->head[b])
            b = (b + 1) & L->mask;
        L->head[b] = (uint32_t)i + 1;
    }
    return MM_OK;
}

/* Of two facts about a set, the one about more guesses (no limit the
 * most), and at the same depth a value before a bound. */
static int fact_rank(int within, bool exact)
{
    return 2 * (within ? within : OPT_NODEPTH) + exact;
}

/* The entry as a fact, where it ranks above the one known. */
static void offer(mm_checkpoint_fact *f, const oentry *e, int depth)
{
    const bool exact = oentry_flags(e) & OC_EXACT;
    const oval v = oentry_value(e);
    const int within = depth == OPT_NODEPTH ? 0 : depth;
    if (f->known && fact_rank(f->within, f->exact) >= fact_rank(within, exact))
        return;
    *f = (mm_checkpoint_fact){.known = true, .exact = exact, .within = within,
                              .guess = MM_NO_CODE};
    if (v >= OV_INF) {
        f->none = true;   /* no tree within the limit: a bound of none is a value */
        f->exact = true;
        return;
    }
    f->total = OV_T(v);
    if (exact) {
        f->worst = OV_W(v);
        f->at_worst = OV_N(v);
        f->guess = e->guess;
    }
}

static void visit(void *arg, const oentry *e)
{
    look *L = arg;
    const bool consistent =
        L->info->rule == MM_RULE_OPTIMAL_CONSISTENT || L->info->consistent_only;
    const uint64_t h2 = e->h2 - (consistent ? OPT_SALT_CONSISTENT : 0);
    const int depth = (int)(e->meta >> 56 & 63);
    for (uint64_t b = h2 & L->mask; L->head[b]; b = (b + 1) & L->mask) {
        size_t i = L->head[b] - 1;
        if (L->by[i].h2 != h2)
            continue;
        for (; i < L->n && L->by[i].h2 == h2; i++) {
            const want *w = &L->w[L->by[i].i];
            if (w->n == e->n && ocache_key1(w->h1, depth) == e->h1)
                offer(&L->fact[L->by[i].i], e, depth);
        }
        return;
    }
}

/* Keys of S[0..n) with salt 0, as opt_hash makes them. */
static void keys(const uint64_t *r1, const uint64_t *r2, const mm_code *S, uint32_t n,
                 uint64_t *h1, uint64_t *h2)
{
    uint64_t a = (uint64_t)n * OPT_KEY_SIZE, b = 0;
    for (uint32_t i = 0; i < n; i++) {
        a += r1[S[i]];
        b += r2[S[i]];
    }
    *h1 = a;
    *h2 = b;
}

/* A part of 1 or 2 codes: its value, which no table keeps. */
static mm_checkpoint_fact small_fact(const mm_code *part, uint32_t m)
{
    return (mm_checkpoint_fact){.known = true, .exact = true, .total = 2 * m - 1,
                                .worst = (int)m, .at_worst = 1, .guess = part[0]};
}

/* Every part of 3 codes or more of every guess that splits S, then S
 * itself. */
static mm_status want_parts(look *L, const mm_game *g, const mm_code *S, uint32_t n,
                            mm_diag *d)
{
    uint64_t *r1 = malloc((size_t)g->ncodes * sizeof *r1);
    uint64_t *r2 = malloc((size_t)g->ncodes * sizeof *r2);
    mm_code *sub = malloc((size_t)n * sizeof *sub);
    uint8_t *slot = malloc(n);
    mm_status st = MM_OK;
    if (!r1 || !r2 || !sub || !slot) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %u codes", g->ncodes);
        goto done;
    }
    opt_key_words(r1, r2, g->ncodes);
    for (mm_code x = 0; x < g->ncodes && !st; x++) {
        uint32_t cnt[MM_MAX_REPLIES], start[MM_MAX_REPLIES];
        mm_game_split(g, x, S, n, sub, slot, cnt, start);
        for (int s = 0; s < g->nreplies && !st; s++)
            if (cnt[s] >= 3 && cnt[s] < n) {   /* a guess that splits nothing is no move */
                uint64_t h1, h2;
                keys(r1, r2, sub + start[s], cnt[s], &h1, &h2);
                st = add_want(L, h1, h2, cnt[s], x, d);
            }
    }
    if (!st) {
        uint64_t h1, h2;
        keys(r1, r2, S, n, &h1, &h2);
        st = add_want(L, h1, h2, n, MM_NO_CODE, d);
    }
done:
    free(r1);
    free(r2);
    free(sub);
    free(slot);
    return st;
}

static int guess_order(const void *a, const void *b)
{
    const mm_checkpoint_guess *x = a, *y = b;
    if (x->bound != y->bound)
        return x->bound < y->bound ? -1 : 1;
    if (x->exact != y->exact)
        return x->exact ? -1 : 1;
    return x->guess < y->guess ? -1 : x->guess > y->guess;
}

/* The end of the wants of the guess whose first is i (a guess's are
 * together, in reply order; the position's, the last, is not one), and
 * whether the checkpoint knows any of them. */
static size_t guess_end(const look *L, size_t i, bool *any)
{
    size_t j = i;
    *any = false;
    for (; j + 1 < L->n && L->w[j].guess == L->w[i].guess; j++)
        *any |= L->fact[j].known;
    return j;
}

/* The guesses with a fact about one of their parts, each with all its
 * parts. */
static mm_status collect(const look *L, const mm_game *g, const mm_code *S, uint32_t n,
                         mm_checkpoint_position *out, mm_diag *d)
{
    const int b = __builtin_popcountll(mm_game_reply_set(g)) - 1;
    size_t count = 0;
    bool any;
    for (size_t i = 0, j; i + 1 < L->n; i = j) {
        j = guess_end(L, i, &any);
        count += any;
    }
    mm_code *sub = malloc((size_t)n * sizeof *sub);
    uint8_t *slot = malloc(n);
    out->guesses = calloc(count ? count : 1, sizeof *out->guesses);
    if (!sub || !slot || !out->guesses) {
        free(sub);
        free(slot);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %zu guesses", count);
    }
    for (size_t i = 0, j; i + 1 < L->n; i = j) {
        j = guess_end(L, i, &any);
        if (!any)
            continue;
        mm_checkpoint_guess *q = &out->guesses[out->nguesses++];
        uint32_t cnt[MM_MAX_REPLIES], start[MM_MAX_REPLIES];
        mm_game_split(g, L->w[i].guess, S, n, sub, slot, cnt, start);
        *q = (mm_checkpoint_guess){.guess = L->w[i].guess, .bound = n, .exact = true};
        size_t k = i;
        for (int s = 0; s < g->nreplies; s++) {
            if (!cnt[s] || s == g->win)
                continue;
            const uint32_t m = cnt[s];
            const mm_checkpoint_fact f = m < 3 ? small_fact(sub + start[s], m) : L->fact[k++];
            const uint64_t perfect = mm_perfect_total(m, b);
            const bool free_of_depth = f.known && !f.within && !f.none;
            q->slot[q->nparts] = s;
            q->codes[q->nparts] = m;
            q->part[q->nparts++] = f;
            q->bound += free_of_depth && f.total > perfect ? f.total : perfect;
            q->exact &= free_of_depth && f.exact;
        }
    }
    free(sub);
    free(slot);
    qsort(out->guesses, out->nguesses, sizeof *out->guesses, guess_order);
    return MM_OK;
}

mm_status mm_checkpoint_position_read(const char *path, const mm_game *g,
                                      const mm_step *steps, uint32_t nsteps,
                                      mm_checkpoint_position *out, mm_diag *d)
{
    memset(out, 0, sizeof *out);
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.after = steps;
    o.nafter = nsteps;
    mm_code *S;
    uint32_t n;
    uint16_t played;
    mm_status st = position_codes(g, &o, &S, &n, &played, d);
    if (st)
        return st;
    out->codes = n;
    look L = {.info = &out->info};
    if ((uint64_t)n * g->ncodes > LOOK_MAX_WORK)
        st = mm_diag_set(d, MM_ERR_LIMIT,
                         "%u codes left, each of the %u guesses to split them: give a "
                         "longer path",
                         n, g->ncodes);
    if (!st && n >= 3)
        st = want_parts(&L, g, S, n, d);
    if (!st && L.n)
        st = index_wants(&L, d);
    if (!st)
        st = ockpt_visit(path, &out->info, L.n ? visit : NULL, &L, d);
    if (!st && (out->info.pegs != g->pegs || out->info.colors != g->colors ||
                out->info.repeat != g->repeat))
        st = mm_diag_set(d, MM_ERR_INPUT, "checkpoint of MM(%d,%d%s), not of MM(%d,%d%s)",
                         out->info.pegs, out->info.colors, out->info.repeat ? "" : ", no repeat",
                         g->pegs, g->colors, g->repeat ? "" : ", no repeat");
    if (!st) {
        out->fact = n < 3 ? small_fact(S, n) : L.fact[L.n - 1];
        if (n >= 3)
            st = collect(&L, g, S, n, out, d);
    }
    if (st)
        mm_checkpoint_position_release(out);
    free(S);
    free(L.w);
    free(L.fact);
    free(L.by);
    free(L.head);
    return st;
}

void mm_checkpoint_position_release(mm_checkpoint_position *p)
{
    free(p->guesses);
    p->guesses = NULL;
    p->nguesses = 0;
}
