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
#include "choose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A score key: smaller is better.  Entropy keys need the part sizes too
 * for the exact comparison of near ties. */
typedef struct score {
    uint64_t key;
    uint32_t parts[MM_MAX_REPLIES];
} score;

static int score_cmp(const choose_shared *sh, const score *a, const score *b)
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
static uint64_t key_of(const choose_shared *sh, const uint32_t *h)
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
static void floor_score(const choose_shared *sh, uint32_t n, bool consistent, score *f)
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
static bool histogram(const choose_worker *w, mm_code x, uint32_t n, uint32_t *h,
                      uint64_t best, bool can_abort, uint64_t *key)
{
    const choose_shared *sh = w->sh;
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
static uint64_t small_key(choose_worker *w, mm_code x, uint32_t n)
{
    const choose_shared *sh = w->sh;
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

static void reverse(int *a, int n)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void symm_init(symm *y, const choose_shared *sh, const mm_code *S, uint32_t n,
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
        reverse(y->zero_list, y->nzero);
        reverse(y->free_list, y->nfree);
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
    choose_worker *w;
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
static void candidates(choose_worker *w, const mm_code *S, uint32_t n, uint16_t played,
                       uint32_t *ncand, uint32_t *ncons, bool *all)
{
    const choose_shared *sh = w->sh;
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
        return;
    }
    if (!reduce) {
        *all = true;
        *ncand = k;
        return;
    }
    gen st = {w, &y, k};
    gen_rec(&st, 0, 0, 0, 0, 0, 1);
    *ncand = st.count;
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
static mm_status branch2_consistent(choose_worker *w, uint32_t n, uint32_t ncons,
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
static bool consider(choose_worker *w, search *se, mm_code x, uint32_t n, bool cons)
{
    const choose_shared *sh = w->sh;
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

static mm_status choose(choose_worker *w, const mm_code *S, uint32_t n,
                        uint16_t played, mm_code *out)
{
    const choose_shared *sh = w->sh;
    const mm_game *g = sh->g;
    uint32_t ncand, ncons;
    bool all;
    candidates(w, S, n, played, &ncand, &ncons, &all);
    w->scored = sh->o->consistent_only ? ncons : all ? ncons + (g->ncodes - n) : ncand;
    b2val b2best = {0, 0};
    mm_code b2pick = S[0];
    bool branch2 = sh->o->rule == MM_RULE_BRANCH2;
    mm_status st;
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

/* ---- a worker ---- */

mm_status choose_worker_init(choose_worker *w, const choose_shared *sh)
{
    memset(w, 0, sizeof *w);
    w->sh = sh;
    w->in_s = calloc(sh->g->ncodes, 1);
    /* never more candidates than codes */
    w->cand = malloc((size_t)sh->g->ncodes * sizeof *w->cand);
    w->cand_mult = malloc((size_t)sh->g->ncodes * sizeof *w->cand_mult);
    return w->in_s && w->cand && w->cand_mult ? MM_OK : MM_ERR_NOMEM;
}

void choose_worker_release(choose_worker *w)
{
    free(w->in_s);
    slice_release(&w->sl);
    free(w->cand);
    free(w->cand_mult);
}

mm_status choose_guess(choose_worker *w, const mm_code *S, uint32_t n,
                       uint16_t played, mm_code fixed, mm_code *out)
{
    const choose_shared *sh = w->sh;
    w->scored = 0;
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

mm_status choose_shared_init(choose_shared *sh, const mm_game *g, const mm_compile_opts *o,
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

void choose_shared_release(choose_shared *sh)
{
    rules_tables_release(&sh->rt);
}
