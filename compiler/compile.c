/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * One-step rules: at every node, score candidate guesses by the partition
 * they make of the remaining set S and keep the best under the tie order
 * "better score, then a guess that can be the code, then lexical order".
 *
 * Candidates are scanned in exactly that tie order (consistent guesses in
 * lexical order, then the others), so a later guess wins only by a strictly
 * better score.  That makes three savings safe, none of which changes the
 * guess a rule picks:
 *  - symmetry (Ville 5.4): colours never played are interchangeable, and so
 *    are colours no remaining code contains; only the lexically first guess
 *    of each class is scored, and it is the one the tie order would take;
 *  - early abort: partial scores only get worse as codes are added, so a
 *    guess is dropped as soon as it cannot beat the best so far;
 *  - a floor: once the best reaches the best score any partition of |S|
 *    could have, nothing later can win.
 */
#include "mmtree/compile.h"

#include <pthread.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "optimal.h"
#include "position.h"
#include "rules.h"
#include "core/grow.h"
#include "slice.h"

#include <math.h>

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

mm_status mm_rule_parse(const char *name, mm_rule *rule, mm_diag *d)
{
    for (int r = 0; r < MM_RULE_COUNT; r++)
        if (strcmp(name, rule_names[r]) == 0) {
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
    for (int t = 0; t < MM_TIE_COUNT; t++)
        if (strcmp(name, tie_names[t]) == 0) {
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
    o->cache_mb = 1024;
}

/* Sets of at most SMALL codes are scored code by code (small_key): below
 * that, a bit-sliced block costs more than it saves. */
enum { SMALL = 32 };

/* small_key counts replies by cell = black * (MM_MAX_PEGS+1) + hits,
 * which needs no table. */
#define NCELLS ((MM_MAX_PEGS + 1) * (MM_MAX_PEGS + 1))

/* ---- shared, read-only during the build ---- */
typedef struct shared {
    const mm_game *g;
    const mm_compile_opts *o;
    mm_rule key;            /* the rule whose key the scans compute: the
                               rule itself, or kooi's for branch2 (below) */
    rules_tables rt;
    uint16_t all_colors;
    int answers;            /* replies that can occur in this game */
    /* The tie order (mm_tie_break): which group of candidates is scanned
     * first, and whether the guesses that cannot be the code are scanned
     * down in lexical order.  (Scanning both groups down would give the
     * image of the usual tree under reversing the colours: another tree,
     * but the same numbers.) */
    bool inc_first, inc_desc;
} shared;

/* ---- per thread ---- */
typedef struct worker {
    const shared *sh;
    uint8_t *in_s;          /* [ncodes] 1 while the code is in the current S */
    mm_code *cand;          /* candidate guesses of the current node */
    uint64_t *cand_mult;    /* class sizes (branch2 only) */
    slice_set sl;            /* S bit-sliced (slice.h) */
    /* Small S (n <= SMALL) as plain masks, 1 or 2 words a code. */
    uint64_t spos[2 * SMALL], socc[2 * SMALL];
    uint32_t scratch[NCELLS]; /* zero between small_key calls */
} worker;

/* A score key: smaller is better.  Entropy keys need the part sizes too
 * for the exact comparison of near ties. */
typedef struct score {
    uint64_t key;
    uint32_t parts[MM_MAX_REPLIES];
} score;

static int score_cmp(const shared *sh, const score *a, const score *b)
{
    if (sh->key == MM_RULE_ENTROPY) {
        uint64_t x = a->key, y = b->key;
        if (x + RULES_ENTROPY_TOL < y)
            return -1;
        if (y + RULES_ENTROPY_TOL < x)
            return 1;
        return rules_nlogn_cmp_exact(a->parts, sh->g->nreplies, b->parts,
                                  sh->g->nreplies);
    }
    return (a->key > b->key) - (a->key < b->key);
}

/* Key of a complete histogram. */
static uint64_t key_of(const shared *sh, const uint32_t *h)
{
    const mm_game *g = sh->g;
    int R = g->nreplies;
    uint64_t k = 0;
    switch (sh->key) {
    case MM_RULE_KNUTH:
        for (int s = 0; s < R; s++)
            k = h[s] > k ? h[s] : k;
        break;
    case MM_RULE_IRVING:
        for (int s = 0; s < R; s++)
            k += (uint64_t)h[s] * h[s];
        break;
    case MM_RULE_ENTROPY:
        for (int s = 0; s < R; s++)
            k += sh->rt.nlogn[h[s]];
        break;
    case MM_RULE_KOOI:     /* more parts = smaller key */
        for (int s = 0; s < R; s++)
            k -= h[s] != 0;
        break;
    case MM_RULE_E3:
        for (int s = 0; s < R; s++)
            k += s != g->win ? sh->rt.lower[h[s]] : 0;
        break;
    default:
        break;
    }
    return k;
}

/* The best score any partition of n codes could have: parts as equal as
 * the replies the game can give allow (with the winning part of size 1
 * when the guess is consistent). */
static void floor_score(const shared *sh, uint32_t n, bool consistent, score *f)
{
    uint32_t *h = f->parts;
    int k = sh->answers - 1;
    int off = 0;
    memset(h, 0, sizeof f->parts);
    if (consistent) {
        h[sh->g->win] = 1;
        n--;
    }
    if (k < 1)
        k = 1;
    if (k > sh->g->nreplies - 1)
        k = sh->g->nreplies - 1;
    for (int i = 0; i < k; i++, off++) {
        int s = off == sh->g->win ? ++off : off;
        h[s] = n / (uint32_t)k + ((uint32_t)i < n % (uint32_t)k);
    }
    f->key = key_of(sh, h);
}


/* Histogram of guess x over S into h (by slot), and its key.  With
 * can_abort, give up (return false) once the partial histogram shows
 * that the guess cannot be strictly better than `best`: every key only
 * grows as codes are added (kooi's can improve by at most one part a
 * code), so a partial key that loses already, loses. */
static bool histogram(const worker *w, mm_code x, uint32_t n, uint32_t *h,
                      uint64_t best, bool can_abort, uint64_t *key)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    mm_rule rule = sh->key;
    slice_guess gb;
    slice_guess_bits(g, x, &gb);
    for (int s = 0; s < g->nreplies; s++)
        h[s] = 0;
    can_abort = can_abort && !sh->o->no_prune;
    uint32_t blocks = (n + 63) / 64;
    for (uint32_t blk = 0; blk < blocks; blk++) {
        slice_block(&w->sl, g, &gb, blk, h);
        /* Knuth's largest part crosses the bound early; the other keys
         * rarely lose before most codes are in, so they are checked only
         * in the second half */
        if (!can_abort || blk + 1 == blocks ||
            (rule != MM_RULE_KNUTH && 2 * (blk + 1) < blocks))
            continue;
        uint64_t k = key_of(sh, h);
        if (rule == MM_RULE_KOOI) {
            /* -parts: at most `answers` parts, at most one more a code */
            uint64_t parts = (uint64_t)0 - k + (n - 64 * (blk + 1));
            k = (uint64_t)0 - (parts < (uint64_t)sh->answers ? parts : (uint64_t)sh->answers);
        }
        if (rule == MM_RULE_ENTROPY ? k > best + RULES_ENTROPY_TOL : k >= best)
            return false;
    }
    *key = key_of(sh, h);
    return true;
}

/* Key of guess x over a small S (n <= SMALL) without a full histogram:
 * count by black * (MM_MAX_PEGS+1) + hits (no slot table needed) into the
 * scratch histogram, then visit only the touched cells, resetting them,
 * so nothing needs clearing between guesses. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static uint64_t small_key(worker *w, mm_code x, uint32_t n)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    uint8_t cell[SMALL];
    uint32_t *h = w->scratch;
    uint64_t k = 0;
    if (g->wide) {
        const uint64_t *gp = g->pos + 2 * (size_t)x, *go = g->occ + 2 * (size_t)x;
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(gp[0] & w->spos[2 * i]) +
                    __builtin_popcountll(gp[1] & w->spos[2 * i + 1]);
            int t = __builtin_popcountll(go[0] & w->socc[2 * i]) +
                    __builtin_popcountll(go[1] & w->socc[2 * i + 1]);
            h[cell[i] = (uint8_t)(b * (MM_MAX_PEGS + 1) + t)]++;
        }
    } else {
        uint64_t p0 = g->pos[x], o0 = g->occ[x];
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(p0 & w->spos[i]);
            int t = __builtin_popcountll(o0 & w->socc[i]);
            h[cell[i] = (uint8_t)(b * (MM_MAX_PEGS + 1) + t)]++;
        }
    }
    switch (sh->key) {
    case MM_RULE_KNUTH:
        for (uint32_t j = 0; j < n; j++) {
            k = h[cell[j]] > k ? h[cell[j]] : k;
            h[cell[j]] = 0;
        }
        break;
    case MM_RULE_IRVING:
        for (uint32_t j = 0; j < n; j++) {
            k += (uint64_t)h[cell[j]] * h[cell[j]];
            h[cell[j]] = 0;
        }
        break;
    case MM_RULE_ENTROPY:
        for (uint32_t j = 0; j < n; j++) {
            k += sh->rt.nlogn[h[cell[j]]];
            h[cell[j]] = 0;
        }
        break;
    case MM_RULE_KOOI:
        for (uint32_t j = 0; j < n; j++) {
            k -= h[cell[j]] != 0;
            h[cell[j]] = 0;
        }
        break;
    case MM_RULE_E3: {
        unsigned win = (unsigned)g->pegs * (MM_MAX_PEGS + 2);  /* (p, p) */
        for (uint32_t j = 0; j < n; j++) {
            k += cell[j] != win ? sh->rt.lower[h[cell[j]]] : 0;
            h[cell[j]] = 0;
        }
        break;
    }
    default:
        for (uint32_t j = 0; j < n; j++)
            h[cell[j]] = 0;
        break;
    }
    return k;
}

/* ---- candidates ---- */

typedef struct symm {
    uint16_t zero;   /* colours no code of S contains */
    uint16_t free;   /* colours never played on the path, not zero */
    int nzero, nfree;
    int zero_list[MM_MAX_COLORS], free_list[MM_MAX_COLORS];
} symm;

static void symm_init(symm *y, const shared *sh, const mm_code *S, uint32_t n,
                      uint16_t played, bool desc)
{
    const mm_game *g = sh->g;
    uint16_t present = 0;
    for (uint32_t i = 0; i < n && present != sh->all_colors; i++)
        present |= g->colorset[S[i]];
    memset(y, 0, sizeof *y);
    if (sh->o->no_symmetry)
        return;
    y->zero = (uint16_t)(sh->all_colors & ~present);
    y->free = (uint16_t)(sh->all_colors & ~played & ~y->zero);
    for (int k = 0; k < g->colors; k++) {
        if (y->zero >> k & 1)
            y->zero_list[y->nzero++] = k;
        if (y->free >> k & 1)
            y->free_list[y->nfree++] = k;
    }
    if (desc) {
        /* Colours taken from the top of each list make the lexically
         * last code of a class its representative: the one a scan down
         * in lexical order reaches first. */
        for (int i = 0, j = y->nzero - 1; i < j; i++, j--) {
            int t = y->zero_list[i];
            y->zero_list[i] = y->zero_list[j];
            y->zero_list[j] = t;
        }
        for (int i = 0, j = y->nfree - 1; i < j; i++, j--) {
            int t = y->free_list[i];
            y->free_list[i] = y->free_list[j];
            y->free_list[j] = t;
        }
    }
}

static bool symm_reduces(const symm *y)
{
    return y->nzero >= 2 || y->nfree >= 2;
}

/* Is x the representative of its class (the lexically first code, or
 * the last with lists reversed), and how big is the class? */
static bool canonical(const mm_game *g, const symm *y, mm_code x,
                      uint64_t *mult)
{
    int nz = 0, nf = 0;
    int fmap[MM_MAX_COLORS];
    uint64_t m = 1;
    memset(fmap, -1, sizeof fmap);
    for (int i = 0; i < g->pegs; i++) {
        int k = mm_code_peg(g, x, i);
        if (y->zero >> k & 1) {
            int want = g->repeat ? y->zero_list[0] : y->zero_list[nz];
            if (k != want)
                return false;
            m *= g->repeat ? (uint64_t)y->nzero : (uint64_t)(y->nzero - nz);
            nz++;
        } else if (y->free >> k & 1) {
            if (fmap[k] < 0) {
                if (k != y->free_list[nf])
                    return false;
                m *= (uint64_t)(y->nfree - nf);
                fmap[k] = nf++;
            }
        }
    }
    if (mult)
        *mult = m;
    return true;
}

/* Generate the class representatives that are not in S, in lexical order,
 * by a depth-first walk over pegs that only ever offers the first zero
 * colour and the next unused free colour (of the lists as symm_init
 * ordered them). */
typedef struct gen {
    worker *w;
    const symm *y;
    uint32_t count;
} gen;

static void gen_rec(gen *st, int i, uint32_t idx, unsigned used, int nz, int nf,
                    uint64_t mult)
{
    const mm_game *g = st->w->sh->g;
    if (i == g->pegs) {
        /* the rank, built peg by peg as mm_game_index does (ORDER LEX) */
        if (st->w->in_s[idx])
            return;
        st->w->cand[st->count] = idx;
        st->w->cand_mult[st->count++] = mult;
        return;
    }
    const symm *y = st->y;
    for (int k = 0; k < g->colors; k++) {
        if (!g->repeat && (used >> k & 1u))
            continue;
        uint64_t m = mult;
        int nz2 = nz, nf2 = nf;
        if (y->zero >> k & 1) {
            if (k != (g->repeat ? y->zero_list[0] : y->zero_list[nz]))
                continue;
            m *= g->repeat ? (uint64_t)y->nzero : (uint64_t)(y->nzero - nz);
            nz2++;
        } else if (y->free >> k & 1) {
            if (!(used >> k & 1u)) {
                if (k != y->free_list[nf])
                    continue;
                m *= (uint64_t)(y->nfree - nf);
                nf2++;
            }
        }
        uint32_t next = g->repeat
            ? idx * (uint32_t)g->colors + (uint32_t)k
            : idx * (uint32_t)(g->colors - i) +
                  (uint32_t)__builtin_popcount(~used & ((1u << k) - 1));
        gen_rec(st, i + 1, next, used | 1u << k, nz2, nf2, m);
    }
}

/* Fill w->cand with the candidates, each group in lexical order; *ncons
 * of them (the first ones) are consistent.  When no symmetry applies,
 * only the consistent ones are listed and *all says that every code not
 * in S follows.  The representatives of classes are those the tie order
 * meets first (choose() scans each group up or down). */
static mm_status candidates(worker *w, const mm_code *S, uint32_t n,
                            uint16_t played, uint32_t *ncand, uint32_t *ncons,
                            bool *all)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    symm y, yc;
    symm_init(&y, sh, S, n, played, sh->inc_desc);
    symm_init(&yc, sh, S, n, played, false);
    bool reduce = symm_reduces(&y);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t m = 1;
        if (reduce && !canonical(g, &yc, S[i], &m))
            continue;
        w->cand[k] = S[i];
        w->cand_mult[k++] = m;
    }
    *ncons = k;
    *all = false;
    if (sh->o->consistent_only) {
        *ncand = k;
        return MM_OK;
    }
    if (!reduce) {
        *all = true;
        *ncand = k;
        return MM_OK;
    }
    if (reduce) {
        gen st = {w, &y, k};
        gen_rec(&st, 0, 0, 0, 0, 0, 1);
        k = st.count;
    } else {
        for (mm_code x = 0; x < g->ncodes; x++)
            if (!w->in_s[x]) {
                w->cand[k] = x;
                w->cand_mult[k++] = 1;
            }
    }
    *ncand = k;
    return MM_OK;
}

/* ---- choosing a guess ---- */

/* branch2Play (Witteveen and van Eijck 2014): minimise log_k(s - n + 1),
 * k parts, s = |S|, n = the number of candidate guesses with the same
 * feedback profile (the whole histogram) when the profile contains the
 * winning reply, else 1; 0 when s == n.  Only consistent guesses have the
 * winning reply, so only they need profiles; an inconsistent guess scores
 * log_k(s), best for the most parts: kooi's key, with all its pruning. */
typedef struct b2val {
    uint64_t x;   /* s - n + 1 */
    int k;        /* parts */
} b2val;

static int b2_cmp(const rules_tables *rt, b2val a, b2val b)
{
    /* value = log(x)/log(k); x == 1 gives 0; k == 1 (x > 1) is infinite. */
    bool za = a.x == 1, zb = b.x == 1;
    if (za || zb)
        return za && zb ? 0 : (za ? -1 : 1);
    bool ia = a.k == 1, ib = b.k == 1;
    if (ia || ib)
        return ia == ib ? 0 : (ia ? 1 : -1);
    if (a.k == b.k)
        return (a.x > b.x) - (a.x < b.x);
    if (a.x == b.x)
        return (a.k < b.k) - (a.k > b.k);
    /* With x = u^i and k = v^j (u, v not perfect powers) the value is
     * (i/j) log_v u: over the same (u, v) two values compare exactly as
     * the rationals i/j (log_4 16 = log_3 9 = 2).  Other pairs compare by
     * their logarithms: no exact tie is known between different (u, v). */
    const rules_power *pa = &rt->power[a.x], *pb = &rt->power[b.x];
    const rules_power *qa = &rt->power[a.k], *qb = &rt->power[b.k];
    if (pa->root == pb->root && qa->root == qb->root) {
        long long l = (long long)pa->exp * qb->exp, r = (long long)pb->exp * qa->exp;
        return (l > r) - (l < r);
    }
    long double l = rt->ln[a.x] * rt->ln[b.k], r = rt->ln[b.x] * rt->ln[a.k];
    return (l > r) - (l < r);
}

static uint64_t hash_hist(const uint32_t *h, int k)
{
    uint64_t x = 1469598103934665603u;
    for (int i = 0; i < k; i++) {
        x ^= h[i];
        x *= 1099511628211u;
    }
    return x;
}

/* The consistent half of branch2: every consistent candidate's full
 * profile, equal profiles counted with their class sizes. */
static mm_status branch2_consistent(worker *w, uint32_t n, uint32_t ncons,
                                    b2val *best, mm_code *pick)
{
    const mm_game *g = w->sh->g;
    int R = g->nreplies;
    uint32_t cap = 4;
    while (cap < 2 * ncons)
        cap <<= 1;
    uint32_t *hists = malloc((size_t)ncons * R * sizeof *hists);
    uint64_t *hash = malloc((size_t)ncons * sizeof *hash);
    uint32_t *group = malloc((size_t)ncons * sizeof *group);
    uint64_t *total = calloc(ncons, sizeof *total);
    uint32_t *slot = malloc((size_t)cap * sizeof *slot);
    mm_status st = MM_OK;
    if (!hists || !hash || !group || !total || !slot) {
        st = MM_ERR_NOMEM;
        goto out;
    }
    for (uint32_t c = 0; c < ncons; c++) {
        uint64_t unused;
        histogram(w, w->cand[c], n, hists + (size_t)c * R, 0, false, &unused);
        hash[c] = hash_hist(hists + (size_t)c * R, R);
    }
    /* Group equal profiles: open addressing over the candidates. */
    memset(slot, 0xff, (size_t)cap * sizeof *slot);
    for (uint32_t c = 0; c < ncons; c++) {
        uint32_t i = (uint32_t)hash[c] & (cap - 1);
        for (;;) {
            uint32_t o = slot[i];
            if (o == UINT32_MAX) {
                slot[i] = c;
                group[c] = c;
                break;
            }
            if (hash[o] == hash[c] &&
                !memcmp(hists + (size_t)o * R, hists + (size_t)c * R, R * sizeof *hists)) {
                group[c] = o;
                break;
            }
            i = (i + 1) & (cap - 1);
        }
        total[group[c]] += w->cand_mult[c];
    }
    for (uint32_t c = 0; c < ncons; c++) {
        const uint32_t *h = hists + (size_t)c * R;
        b2val v = {0, 0};
        for (int s = 0; s < R; s++)
            v.k += h[s] != 0;
        uint64_t cnt = total[group[c]];
        v.x = cnt >= n ? 1 : n - cnt + 1;
        if (c == 0 || b2_cmp(&w->sh->rt, v, *best) < 0) {
            *best = v;
            *pick = w->cand[c];
        }
    }
out:
    free(hists);
    free(hash);
    free(group);
    free(total);
    free(slot);
    return st;
}

typedef struct search {
    score best, cur, floor_c, floor_i;
    bool have;
    bool at_floor_c, at_floor_i;  /* best is as good as a consistent /
                                     inconsistent guess can be */
    mm_code pick;
} search;

/* Score guess x; returns true when no later guess of its group (cons:
 * those that can be the code) can win any more. */
static bool consider(worker *w, search *se, mm_code x, uint32_t n, bool cons)
{
    const shared *sh = w->sh;
    bool entropy = sh->key == MM_RULE_ENTROPY;
    if (cons ? se->at_floor_c : se->at_floor_i)
        return true;
    if (n <= SMALL) {
        /* the key alone first; the parts only for a guess that may win */
        uint64_t k = small_key(w, x, n);
        if (se->have && (entropy ? k > se->best.key + RULES_ENTROPY_TOL : k >= se->best.key))
            return false;
    }
    uint64_t bound = se->have ? se->best.key : UINT64_MAX - RULES_ENTROPY_TOL;
    if (!histogram(w, x, n, se->cur.parts, bound, se->have, &se->cur.key))
        return false;
    if (se->have && (entropy ? se->cur.key > se->best.key + RULES_ENTROPY_TOL
                             : se->cur.key >= se->best.key))
        return false;
    if (!se->have || score_cmp(sh, &se->cur, &se->best) < 0) {
        se->best = se->cur;
        se->pick = x;
        se->have = true;
        /* nothing can beat a floor, and later guesses must beat */
        se->at_floor_c = score_cmp(sh, &se->best, &se->floor_c) <= 0;
        se->at_floor_i = score_cmp(sh, &se->best, &se->floor_i) <= 0;
    }
    return false;
}

static mm_status choose(worker *w, const mm_code *S, uint32_t n,
                        uint16_t played, mm_code *out)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    uint32_t ncand, ncons;
    bool all;
    mm_status st = candidates(w, S, n, played, &ncand, &ncons, &all);
    if (st)
        return st;
    b2val b2best = {0, 0};
    mm_code b2pick = S[0];
    bool branch2 = sh->o->rule == MM_RULE_BRANCH2;
    if (branch2 && (st = branch2_consistent(w, n, ncons, &b2best, &b2pick)))
        return st;
    search se;
    se.have = se.at_floor_c = se.at_floor_i = false;
    se.pick = S[0];
    floor_score(sh, n, true, &se.floor_c);
    floor_score(sh, n, false, &se.floor_i);
    /* The two groups in tie order, each up or down in lexical order; a
     * later guess must score strictly better.  A group stops when the
     * best so far is as good as any of its guesses could be. */
    for (int pass = 0; pass < 2; pass++) {
        bool done = false;
        if ((pass == 0) != sh->inc_first) {
            if (branch2)
                continue;
            for (uint32_t i = 0; i < ncons && !done; i++)
                done = consider(w, &se, w->cand[i], n, true);
        } else if (sh->o->consistent_only) {
            continue;
        } else if (all) {
            /* no symmetry to use: every code not in S */
            for (mm_code i = 0; i < g->ncodes && !done; i++) {
                mm_code x = sh->inc_desc ? g->ncodes - 1 - i : i;
                if (!w->in_s[x])
                    done = consider(w, &se, x, n, false);
            }
        } else {
            for (uint32_t i = ncons; i < ncand && !done; i++)
                done = consider(w, &se, w->cand[sh->inc_desc ? ncand - 1 - (i - ncons) : i],
                                n, false);
        }
    }
    *out = se.pick;
    if (branch2) {
        /* the most parts among inconsistent guesses, against the best
         * consistent one, which wins ties unless they go the other way */
        b2val inc = {n, se.have ? (int)(0 - se.best.key) : 0};
        int c = se.have ? b2_cmp(&sh->rt, inc, b2best) : 1;
        *out = c < 0 || (c == 0 && sh->inc_first) ? se.pick : b2pick;
    }
    return MM_OK;
}

/* ---- building the tree ---- */

static mm_status worker_init(worker *w, const shared *sh)
{
    memset(w, 0, sizeof *w);
    w->sh = sh;
    w->in_s = calloc(sh->g->ncodes, 1);
    /* never more candidates than codes */
    w->cand = malloc((size_t)sh->g->ncodes * sizeof *w->cand);
    w->cand_mult = malloc((size_t)sh->g->ncodes * sizeof *w->cand_mult);
    if (!w->cand || !w->cand_mult)
        return MM_ERR_NOMEM;
    if (!w->in_s)
        return MM_ERR_NOMEM;
    return MM_OK;
}

static void worker_release(worker *w)
{
    free(w->in_s);
    slice_release(&w->sl);
    free(w->cand);
    free(w->cand_mult);
}

static mm_status pick_guess(worker *w, const mm_code *S, uint32_t n,
                            uint16_t played, mm_code fixed, mm_code *out)
{
    const shared *sh = w->sh;
    if (fixed != MM_NO_CODE) {
        *out = fixed;
        return MM_OK;
    }
    if (n <= 2 || sh->o->rule == MM_RULE_NAIVE) {
        *out = S[0];
        return MM_OK;
    }
    mm_status st = slice_load(&w->sl, sh->g, S, n);
    if (st)
        return st;
    if (n <= SMALL) {
        size_t words = sh->g->wide ? 2 : 1;
        for (uint32_t i = 0; i < n; i++) {
            memcpy(w->spos + words * i, sh->g->pos + words * S[i], words * sizeof *w->spos);
            memcpy(w->socc + words * i, sh->g->occ + words * S[i], words * sizeof *w->socc);
        }
    }
    for (uint32_t i = 0; i < n; i++)
        w->in_s[S[i]] = 1;
    st = choose(w, S, n, played, out);
    for (uint32_t i = 0; i < n; i++)
        w->in_s[S[i]] = 0;
    return st;
}

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

static mm_status solve(worker *w, mm_tree *t, uint32_t node, const mm_code *S,
                       uint32_t n, uint16_t played)
{
    const mm_game *g = w->sh->g;
    mm_status st;
    if (n == 1) {
        mm_node *nd = &t->nodes[node];
        nd->guess = S[0];
        nd->count = 1;
        nd->flags = MM_NODE_CONSISTENT;
        return MM_OK;
    }
    mm_code guess;
    if ((st = pick_guess(w, S, n, played, MM_NO_CODE, &guess)))
        return st;
    split sp;
    if ((st = do_split(g, S, n, guess, &sp)))
        return st;
    uint32_t first = MM_NO_NODE;
    int k = __builtin_popcountll(sp.replies);
    if (k && (st = mm_tree_alloc(t, (uint32_t)k, &first, NULL)))
        goto out;
    mm_node *nd = &t->nodes[node];
    nd->guess = guess;
    nd->count = n;
    nd->flags = sp.consistent ? MM_NODE_CONSISTENT : 0;
    nd->replies = sp.replies;
    nd->child = first;
    uint16_t now = (uint16_t)(played | g->colorset[guess]);
    int c = 0;
    for (int s = 0; s < g->nreplies && !st; s++)
        if (sp.replies >> s & 1u)
            st = solve(w, t, first + (uint32_t)c++, sp.sub + sp.start[s],
                       sp.start[s + 1] - sp.start[s], now);
out:
    free(sp.sub);
    return st;
}

/* ---- both cores: the root's parts are built in parallel ---- */

typedef struct task {
    const mm_code *S;
    uint32_t n;
    uint16_t played;      /* colours of the guesses above */
    uint32_t slot_node;   /* the child node in the final tree */
    mm_tree local;
    mm_status status;
} task;

typedef struct pool {
    const shared *sh;
    task *tasks;
    uint32_t *order;       /* tasks, biggest first */
    uint32_t ntasks;
    atomic_uint next;
} pool;

static void *pool_run(void *arg)
{
    pool *p = arg;
    worker w;
    mm_status st = worker_init(&w, p->sh);
    for (;;) {
        unsigned i = atomic_fetch_add(&p->next, 1);
        if (i >= p->ntasks)
            break;
        task *tk = &p->tasks[p->order[i]];
        uint32_t root;
        mm_tree_init(&tk->local, p->sh->g->pegs, p->sh->g->colors, p->sh->g->repeat);
        if (!st)
            st = mm_tree_alloc(&tk->local, 1, &root, NULL);
        tk->status = st ? st : solve(&w, &tk->local, 0, tk->S, tk->n, tk->played);
    }
    worker_release(&w);
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

static int ncores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static pool *sort_pool;
static int by_size_desc(const void *a, const void *b)
{
    uint32_t x = sort_pool->tasks[*(const uint32_t *)a].n;
    uint32_t y = sort_pool->tasks[*(const uint32_t *)b].n;
    return (x < y) - (x > y);
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

static mm_status expand(worker *w, mm_tree *t, uint32_t node, const mm_code *S,
                        uint32_t n, uint16_t played, mm_code fixed, uint32_t big,
                        plan *pl)
{
    const mm_game *g = w->sh->g;
    mm_status st;
    if (n == 1)
        return solve(w, t, node, S, n, played);
    mm_code guess;
    split sp;
    if ((st = pick_guess(w, S, n, played, fixed, &guess)) ||
        (st = do_split(g, S, n, guess, &sp)))
        return st;
    if ((st = plan_push(pl, NULL, sp.sub))) {
        free(sp.sub);
        return st;
    }
    int k = __builtin_popcountll(sp.replies);
    uint32_t first = MM_NO_NODE;
    if (k && (st = mm_tree_alloc(t, (uint32_t)k, &first, NULL)))
        return st;
    mm_node *nd = &t->nodes[node];
    nd->guess = guess;
    nd->count = n;
    nd->flags = sp.consistent ? MM_NODE_CONSISTENT : 0;
    nd->replies = sp.replies;
    nd->child = first;
    uint16_t now = (uint16_t)(played | g->colorset[guess]);
    int c = 0;
    for (int s = 0; s < g->nreplies && !st; s++) {
        if (!(sp.replies >> s & 1u))
            continue;
        task tk = {sp.sub + sp.start[s], sp.start[s + 1] - sp.start[s], now,
                   first + (uint32_t)c++, {0}, MM_OK};
        st = tk.n > big ? expand(w, t, tk.slot_node, tk.S, tk.n, now, MM_NO_CODE, big, pl)
                        : plan_push(pl, &tk, NULL);
    }
    return st;
}

static mm_status build_root(worker *w, mm_tree *t, const mm_code *all, uint32_t n,
                            uint16_t played, int threads)
{
    const shared *sh = w->sh;
    uint32_t root;
    plan pl = {0};
    uint32_t *order = NULL;
    mm_status st;
    if ((st = mm_tree_alloc(t, 1, &root, NULL)))
        return st;
    uint32_t big = threads > 1 ? n / (4 * (uint32_t)threads) : UINT32_MAX;
    if (big < 64)
        big = 64;   /* below that, sharing costs more than it saves */
    if ((st = expand(w, t, root, all, n, played, sh->o->first, big, &pl)))
        goto out;
    uint32_t k = pl.ntasks;
    if (threads > (int)k)
        threads = (int)k;
    if (threads <= 1) {
        for (uint32_t i = 0; i < k && !st; i++)
            st = solve(w, t, pl.tasks[i].slot_node, pl.tasks[i].S, pl.tasks[i].n,
                       pl.tasks[i].played);
        goto out;
    }
    if (!(order = malloc((size_t)k * sizeof *order))) {
        st = MM_ERR_NOMEM;
        goto out;
    }
    for (uint32_t i = 0; i < k; i++)
        order[i] = i;
    pool p = {sh, pl.tasks, order, k, 0};
    sort_pool = &p;
    qsort(order, (size_t)k, sizeof *order, by_size_desc);
    pthread_t tid[64];
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
    return MM_OK;
}

/* What every worker reads: the rule's tables cover parts of up to max
 * codes. */
static mm_status shared_init(shared *sh, const mm_game *g, const mm_compile_opts *o,
                             uint32_t max, mm_diag *d)
{
    memset(sh, 0, sizeof *sh);
    sh->g = g;
    sh->o = o;
    sh->inc_first = o->tie_break == MM_TIE_INCONSISTENT_FIRST;
    sh->inc_desc = o->tie_break == MM_TIE_LAST;
    sh->key = o->rule == MM_RULE_BRANCH2 ? MM_RULE_KOOI : o->rule;
    sh->all_colors = (uint16_t)((1u << g->colors) - 1);
    mm_status st = rules_tables_init(&sh->rt, g, max, o->rule == MM_RULE_BRANCH2, d);
    sh->answers = sh->rt.answers;
    return st;
}

mm_status mm_compile(const mm_game *g, const mm_compile_opts *o, mm_tree *t,
                     mm_diag *d)
{
    shared sh;
    worker w;
    mm_code *all = NULL;
    mm_status st;
    mm_tree_init(t, g->pegs, g->colors, g->repeat);
    if ((st = opts_check(g, o, d)))
        return st;
    if (o->rule >= MM_RULE_COUNT_ONE_STEP)
        return opt_compile(g, o, t, d);
    if ((st = shared_init(&sh, g, o, g->ncodes, d)))
        return st;

    uint32_t n;
    uint16_t played;
    if ((st = worker_init(&w, &sh)) || (st = position_codes(g, o, &all, &n, &played, d)))
        goto out;
    st = mm_tree_set_rule(t, mm_rule_name(o->rule), o->consistent_only, o->first);
    if (!st && o->tie_break != MM_TIE_FIRST)
        st = mm_tree_set_tie_break(t, mm_tie_break_name(o->tie_break));
    if (!st)
        st = build_root(&w, t, all, n, played, o->threads > 0 ? o->threads : ncores());
out:
    if (st == MM_ERR_NOMEM)
        mm_diag_set(d, st, "out of memory building the tree");
    free(all);
    worker_release(&w);
    rules_tables_release(&sh.rt);
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
    shared sh;
    worker w;
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
        *guess = S[0];   /* as pick_guess, without its tables */
        return MM_OK;
    }
    st = shared_init(&sh, g, o, n, d);
    if (!st)
        st = worker_init(&w, &sh);
    if (!st)
        st = pick_guess(&w, S, n, played, MM_NO_CODE, guess);
    if (st == MM_ERR_NOMEM)
        mm_diag_set(d, st, "out of memory choosing a guess");
    worker_release(&w);
    rules_tables_release(&sh.rt);
    return st;
}
