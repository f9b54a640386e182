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
#include "mm_compile.h"

#include <pthread.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "optimal.h"
#include "rules.h"

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

void mm_compile_opts_init(mm_compile_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rule = MM_RULE_KNUTH;
    o->first = MM_NO_CODE;
    o->checkpoint_every = 600;
    o->cache_mb = 1024;
}

/* ---- shared, read-only during the build ---- */
typedef struct shared {
    const mm_game *g;
    const mm_compile_opts *o;
    mm_rule_tables rt;
    uint16_t all_colors;
    int answers;            /* replies that can occur in this game */
} shared;

/* ---- per thread ---- */
typedef struct worker {
    const shared *sh;
    uint8_t *in_s;          /* [ncodes] 1 while the code is in the current S */
    mm_code *cand;          /* candidate guesses of the current node */
    uint64_t *cand_mult;    /* class sizes (branch2 only) */
    uint32_t *hists;        /* branch2: a histogram per candidate */
    uint32_t cand_cap;
    uint64_t *spos, *socc;  /* S in mask form, 1 or 2 words a code */
    uint32_t s_cap;
    mm_diag diag;
    mm_status status;
} worker;

/* A score key: smaller is better.  Entropy keys need the part sizes too
 * for the exact comparison of near ties. */
typedef struct score {
    uint64_t key;
    uint32_t parts[MM_MAX_REPLIES];
} score;

static int score_cmp(const shared *sh, const score *a, const score *b)
{
    if (sh->o->rule == MM_RULE_ENTROPY) {
        uint64_t x = a->key, y = b->key;
        if (x + MM_ENTROPY_TOL < y)
            return -1;
        if (y + MM_ENTROPY_TOL < x)
            return 1;
        return mm_nlogn_cmp_exact(a->parts, sh->g->nreplies, b->parts,
                                  sh->g->nreplies);
    }
    return (a->key > b->key) - (a->key < b->key);
}

/* Key of a complete histogram. */
static uint64_t key_of(const shared *sh, const uint32_t *h)
{
    const mm_game *g = sh->g;
    uint64_t k = 0;
    for (int s = 0; s < g->nreplies; s++) {
        uint32_t n = h[s];
        if (!n)
            continue;
        switch (sh->o->rule) {
        case MM_RULE_KNUTH: if (n > k) k = n; break;
        case MM_RULE_IRVING: k += (uint64_t)n * n; break;
        case MM_RULE_ENTROPY: k += sh->rt.nlogn[n]; break;
        case MM_RULE_KOOI: k--; break;     /* more parts = smaller key */
        case MM_RULE_E3: if (s != g->win) k += sh->rt.lower[n]; break;
        default: break;
        }
    }
    return k;
}

/* The best key any partition of n codes into at most k parts could have
 * (with the winning part of size 1 when the guess is consistent). */
static uint64_t floor_key(const shared *sh, uint32_t n, bool consistent)
{
    uint32_t h[MM_MAX_REPLIES] = {0};
    int k = sh->answers - 1;
    int off = 0;
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
    return key_of(sh, h);
}

static inline void score_masks(const worker *w, uint32_t i, const uint64_t *gp,
                               const uint64_t *go, int *black, int *hits)
{
    if (w->sh->g->wide) {
        *black = __builtin_popcountll(gp[0] & w->spos[2 * i]) +
                 __builtin_popcountll(gp[1] & w->spos[2 * i + 1]);
        *hits = __builtin_popcountll(go[0] & w->socc[2 * i]) +
                __builtin_popcountll(go[1] & w->socc[2 * i + 1]);
    } else {
        *black = __builtin_popcountll(gp[0] & w->spos[i]);
        *hits = __builtin_popcountll(go[0] & w->socc[i]);
    }
}

/* Histogram of guess x over S, giving up (returning false) as soon as the
 * partial key shows it cannot be strictly better than `best` (NULL: never
 * give up).  Partial keys only grow as codes are added, for every rule. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static bool histogram(const worker *w, mm_code x, uint32_t n, uint32_t *h,
                      uint64_t best, bool can_abort)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    size_t words = g->wide ? 2 : 1;
    const uint64_t *gp = g->pos + words * x, *go = g->occ + words * x;
    const uint64_t *nlogn = sh->rt.nlogn, *lower = sh->rt.lower;
    uint64_t part = 0;
    int parts = 0;
    int win = g->win;
    memset(h, 0, (size_t)g->nreplies * sizeof *h);
    if (!can_abort || sh->o->no_prune) {
        for (uint32_t i = 0; i < n; i++) {
            int b, t;
            score_masks(w, i, gp, go, &b, &t);
            h[g->slot[b][t]]++;
        }
        return true;
    }
    switch (sh->o->rule) {
    case MM_RULE_KNUTH:
        for (uint32_t i = 0; i < n; i++) {
            int b, t;
            score_masks(w, i, gp, go, &b, &t);
            if (++h[g->slot[b][t]] >= best)
                return false;
        }
        return true;
    case MM_RULE_IRVING:
        for (uint32_t i = 0; i < n; i++) {
            int b, t;
            score_masks(w, i, gp, go, &b, &t);
            uint32_t *c = &h[g->slot[b][t]];
            part += 2 * (uint64_t)*c + 1;
            ++*c;
            if (part >= best)
                return false;
        }
        return true;
    case MM_RULE_ENTROPY:
        for (uint32_t i = 0; i < n; i++) {
            int b, t;
            score_masks(w, i, gp, go, &b, &t);
            uint32_t *c = &h[g->slot[b][t]];
            part += nlogn[*c + 1] - nlogn[*c];
            ++*c;
            if (part > best + MM_ENTROPY_TOL)
                return false;
        }
        return true;
    case MM_RULE_E3:
        for (uint32_t i = 0; i < n; i++) {
            int b, t;
            score_masks(w, i, gp, go, &b, &t);
            int s = g->slot[b][t];
            uint32_t *c = &h[s];
            if (s != win)
                part += lower[*c + 1] - lower[*c];
            ++*c;
            if (part >= best)
                return false;
        }
        return true;
    case MM_RULE_KOOI: {
        /* key = -parts; an upper bound on parts is parts + codes left. */
        uint64_t need = best;   /* need -(parts) < best, i.e. parts > -best */
        for (uint32_t i = 0; i < n; i++) {
            int b, t;
            score_masks(w, i, gp, go, &b, &t);
            if (h[g->slot[b][t]]++ == 0)
                parts++;
            if ((i & 15) == 15) {
                uint64_t ub = (uint64_t)parts + (n - 1 - i);
                if (ub > (uint64_t)(sh->answers))
                    ub = (uint64_t)sh->answers;
                if ((uint64_t)0 - ub >= need)
                    return false;
            }
        }
        return true;
    }
    default:
        for (uint32_t i = 0; i < n; i++) {
            int b, t;
            score_masks(w, i, gp, go, &b, &t);
            h[g->slot[b][t]]++;
        }
        return true;
    }
}

/* ---- candidates ---- */

typedef struct symm {
    uint16_t zero;   /* colours no code of S contains */
    uint16_t free;   /* colours never played on the path, not zero */
    int nzero, nfree;
    int zero_list[MM_MAX_COLORS], free_list[MM_MAX_COLORS];
} symm;

static void symm_init(symm *y, const shared *sh, const mm_code *S, uint32_t n,
                      uint16_t played)
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
}

static bool symm_reduces(const symm *y)
{
    return y->nzero >= 2 || y->nfree >= 2;
}

/* Is x the lexically first code of its class, and how big is the class? */
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

static bool grow(worker *w, uint32_t need)
{
    if (need <= w->cand_cap)
        return true;
    uint32_t cap = w->cand_cap ? w->cand_cap : 256;
    while (cap < need)
        cap *= 2;
    mm_code *c = realloc(w->cand, cap * sizeof *c);
    if (!c)
        return false;
    w->cand = c;
    uint64_t *m = realloc(w->cand_mult, cap * sizeof *m);
    if (!m)
        return false;
    w->cand_mult = m;
    w->cand_cap = cap;
    return true;
}

/* Generate the class representatives that are not in S, in lexical order,
 * by a depth-first walk over pegs that only ever offers the first zero
 * colour and the next unused free colour. */
typedef struct gen {
    worker *w;
    const symm *y;
    uint32_t count;
    bool fail;
} gen;

static void gen_rec(gen *st, int i, int peg[], unsigned used, int nz, int nf,
                    uint64_t mult)
{
    const mm_game *g = st->w->sh->g;
    if (st->fail)
        return;
    if (i == g->pegs) {
        mm_code x = mm_game_index(g, peg);
        if (st->w->in_s[x])
            return;
        if (!grow(st->w, st->count + 1)) {
            st->fail = true;
            return;
        }
        st->w->cand[st->count] = x;
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
        peg[i] = k;
        gen_rec(st, i + 1, peg, used | 1u << k, nz2, nf2, m);
    }
}

/* Fill w->cand with the candidates in tie order; returns how many of them
 * (the first ones) are consistent, through *ncons. */
static mm_status candidates(worker *w, const mm_code *S, uint32_t n,
                            uint16_t played, uint32_t *ncand, uint32_t *ncons)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    symm y;
    symm_init(&y, sh, S, n, played);
    bool reduce = symm_reduces(&y);
    uint32_t k = 0;
    if (!grow(w, n))
        return MM_ERR_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t m = 1;
        if (reduce && !canonical(g, &y, S[i], &m))
            continue;
        w->cand[k] = S[i];
        w->cand_mult[k++] = m;
    }
    *ncons = k;
    if (sh->o->consistent_only) {
        *ncand = k;
        return MM_OK;
    }
    if (reduce) {
        gen st = {w, &y, k, false};
        int peg[MM_MAX_PEGS];
        gen_rec(&st, 0, peg, 0, 0, 0, 1);
        if (st.fail)
            return MM_ERR_NOMEM;
        k = st.count;
    } else {
        if (!grow(w, g->ncodes))
            return MM_ERR_NOMEM;
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

static mm_status choose_branch2(worker *w, uint32_t n, uint32_t ncand,
                                uint32_t ncons, mm_code *out);

static mm_status choose(worker *w, const mm_code *S, uint32_t n,
                        uint16_t played, mm_code *out)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    uint32_t ncand, ncons;
    mm_status st = candidates(w, S, n, played, &ncand, &ncons);
    if (st)
        return st;
    if (sh->o->rule == MM_RULE_BRANCH2)
        return choose_branch2(w, n, ncand, ncons, out);

    score best, cur;
    bool have = false;
    uint64_t floor_c = floor_key(sh, n, true), floor_i = floor_key(sh, n, false);
    mm_code pick = S[0];
    for (uint32_t c = 0; c < ncand; c++) {
        bool cons = c < ncons;
        if (have) {
            /* Nothing can beat the floor, and later guesses must beat. */
            uint64_t fl = cons ? floor_c : floor_i;
            if (sh->o->rule == MM_RULE_ENTROPY ? best.key + MM_ENTROPY_TOL <= fl
                                               : best.key <= fl) {
                if (!cons || sh->o->consistent_only || best.key <= floor_i)
                    break;
                c = ncons - 1;  /* skip to the inconsistent guesses */
                continue;
            }
        }
        uint64_t bound = have ? best.key : UINT64_MAX - MM_ENTROPY_TOL;
        if (!histogram(w, w->cand[c], n, cur.parts, bound, have))
            continue;
        cur.key = key_of(sh, cur.parts);
        if (!have || score_cmp(sh, &cur, &best) < 0) {
            best = cur;
            pick = w->cand[c];
            have = true;
        }
    }
    (void)g;
    *out = pick;
    return MM_OK;
}

/* branch2Play (Witteveen and van Eijck 2014): log_k(s - n + 1), k parts,
 * s = |S|, n = number of candidate guesses with the same feedback profile
 * when the profile contains the winning reply, else 1; 0 when s == n.
 * Profiles are whole histograms, so every candidate is scored in full. */
typedef struct b2val {
    uint64_t x;   /* s - n + 1 */
    int k;        /* parts */
} b2val;

/* Smallest u with x = u^e; returns u and sets *e. */
static uint64_t perfect_root(uint64_t x, int *e)
{
    for (int k = 63; k >= 2; k--) {
        long double r = powl((long double)x, 1.0L / k);
        for (uint64_t u = (uint64_t)r - (r >= 1), v; u <= (uint64_t)r + 1; u++) {
            if (u < 2)
                continue;
            v = 1;
            int i = 0;
            while (i < k && v <= x / u) {
                v *= u;
                i++;
            }
            if (i == k && v == x) {
                *e = k;
                return u;
            }
        }
    }
    *e = 1;
    return x;
}

static int b2_cmp(b2val a, b2val b)
{
    /* value = log(x)/log(k); x == 1 gives 0; k == 1 (x > 1) is infinite. */
    bool za = a.x == 1, zb = b.x == 1;
    if (za || zb)
        return za && zb ? 0 : (za ? -1 : 1);
    bool ia = a.k == 1, ib = b.k == 1;
    if (ia || ib)
        return ia == ib ? 0 : (ia ? 1 : -1);
    if ((uint64_t)a.k == (uint64_t)b.k)
        return (a.x > b.x) - (a.x < b.x);
    if (a.x == b.x)
        return (a.k < b.k) - (a.k > b.k);
    /* Compare log(xa) log(kb) with log(xb) log(ka). */
    long double l = logl((long double)a.x) * logl((long double)b.k);
    long double r = logl((long double)b.x) * logl((long double)a.k);
    long double diff = l - r, mag = l > r ? l : r;
    if (diff > mag * 1e-12L)
        return 1;
    if (-diff > mag * 1e-12L)
        return -1;
    /* A near tie is decided in integers: with x = u^i and k = v^j (u, v
     * not perfect powers) the value is (i/j) log_v u, so two values over
     * the same (u, v) compare as the rationals i/j. */
    int ia_, ja, ib_, jb;
    uint64_t ua = perfect_root(a.x, &ia_), va = perfect_root((uint64_t)a.k, &ja);
    uint64_t ub = perfect_root(b.x, &ib_), vb = perfect_root((uint64_t)b.k, &jb);
    if (ua == ub && va == vb) {
        long long p = (long long)ia_ * jb, q = (long long)ib_ * ja;
        return (p > q) - (p < q);
    }
    return (diff > 0) - (diff < 0);
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

static mm_status choose_branch2(worker *w, uint32_t n, uint32_t ncand,
                                uint32_t ncons, mm_code *out)
{
    const mm_game *g = w->sh->g;
    int R = g->nreplies;
    uint32_t *hists = malloc((size_t)ncand * R * sizeof *hists);
    uint64_t *hash = malloc((size_t)ncand * sizeof *hash);
    uint32_t *order = malloc((size_t)ncand * sizeof *order);
    if (!hists || !hash || !order) {
        free(hists);
        free(hash);
        free(order);
        return MM_ERR_NOMEM;
    }
    for (uint32_t c = 0; c < ncand; c++) {
        histogram(w, w->cand[c], n, hists + (size_t)c * R, 0, false);
        hash[c] = hash_hist(hists + (size_t)c * R, R);
    }
    /* Group equal profiles: open addressing over the candidates. */
    uint32_t cap = 1;
    while (cap < 2 * ncand)
        cap <<= 1;
    uint32_t *slot = malloc((size_t)cap * sizeof *slot);
    uint64_t *total = calloc(ncand, sizeof *total);
    if (!slot || !total) {
        free(hists); free(hash); free(order); free(slot); free(total);
        return MM_ERR_NOMEM;
    }
    memset(slot, 0xff, (size_t)cap * sizeof *slot);
    for (uint32_t c = 0; c < ncand; c++) {
        uint32_t i = (uint32_t)hash[c] & (cap - 1);
        for (;;) {
            uint32_t o = slot[i];
            if (o == UINT32_MAX) {
                slot[i] = c;
                order[c] = c;
                break;
            }
            if (hash[o] == hash[c] &&
                !memcmp(hists + (size_t)o * R, hists + (size_t)c * R, R * sizeof *hists)) {
                order[c] = o;
                break;
            }
            i = (i + 1) & (cap - 1);
        }
        total[order[c]] += w->cand_mult[c];
    }
    b2val best = {0, 0};
    mm_code pick = w->cand[0];
    for (uint32_t c = 0; c < ncand; c++) {
        const uint32_t *h = hists + (size_t)c * R;
        b2val v;
        v.k = 0;
        for (int s = 0; s < R; s++)
            v.k += h[s] != 0;
        uint64_t cnt = h[g->win] ? total[order[c]] : 1;
        v.x = cnt >= n ? 1 : n - cnt + 1;
        if (c == 0 || b2_cmp(v, best) < 0) {
            best = v;
            pick = w->cand[c];
        }
    }
    (void)ncons;
    free(hists); free(hash); free(order); free(slot); free(total);
    *out = pick;
    return MM_OK;
}

/* ---- building the tree ---- */

static mm_status worker_init(worker *w, const shared *sh)
{
    memset(w, 0, sizeof *w);
    w->sh = sh;
    size_t words = sh->g->wide ? 2 : 1;
    w->in_s = calloc(sh->g->ncodes, 1);
    w->spos = malloc((size_t)sh->g->ncodes * words * sizeof *w->spos);
    w->socc = malloc((size_t)sh->g->ncodes * words * sizeof *w->socc);
    if (!w->in_s || !w->spos || !w->socc)
        return MM_ERR_NOMEM;
    return MM_OK;
}

static void worker_release(worker *w)
{
    free(w->in_s);
    free(w->spos);
    free(w->socc);
    free(w->cand);
    free(w->cand_mult);
    free(w->hists);
}

static mm_status pick_guess(worker *w, const mm_code *S, uint32_t n,
                            uint16_t played, mm_code fixed, mm_code *out)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    if (fixed != MM_NO_CODE) {
        *out = fixed;
        return MM_OK;
    }
    if (n <= 2 || sh->o->rule == MM_RULE_NAIVE) {
        *out = S[0];
        return MM_OK;
    }
    size_t words = g->wide ? 2 : 1;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(w->spos + words * i, g->pos + words * S[i], words * sizeof *w->spos);
        memcpy(w->socc + words * i, g->occ + words * S[i], words * sizeof *w->socc);
        w->in_s[S[i]] = 1;
    }
    mm_status st = choose(w, S, n, played, out);
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
    uint32_t cnt[MM_MAX_REPLIES] = {0}, pos[MM_MAX_REPLIES];
    uint8_t *slot = malloc(n);
    sp->sub = malloc((size_t)n * sizeof *sp->sub);
    if (!slot || !sp->sub) {
        free(slot);
        free(sp->sub);
        sp->sub = NULL;
        return MM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < n; i++)
        cnt[slot[i] = (uint8_t)mm_game_score(g, guess, S[i])]++;
    uint32_t acc = 0;
    sp->replies = 0;
    for (int s = 0; s < g->nreplies; s++) {
        sp->start[s] = pos[s] = acc;
        acc += cnt[s];
        if (cnt[s] && s != g->win)
            sp->replies |= UINT64_C(1) << s;
    }
    sp->start[g->nreplies] = acc;
    for (uint32_t i = 0; i < n; i++)
        sp->sub[pos[slot[i]]++] = S[i];
    sp->guess = guess;
    sp->consistent = cnt[g->win] != 0;
    free(slot);
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
    uint32_t slot_node;   /* the child node in the final tree */
    mm_tree local;
    mm_status status;
} task;

typedef struct pool {
    const shared *sh;
    task *tasks;
    uint32_t *order;       /* tasks, biggest first */
    uint32_t ntasks;
    uint16_t played;
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
        tk->status = st ? st : solve(&w, &tk->local, 0, tk->S, tk->n, p->played);
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

static mm_status build_root(worker *w, mm_tree *t, const mm_code *all,
                            int threads)
{
    const shared *sh = w->sh;
    const mm_game *g = sh->g;
    uint32_t n = g->ncodes, root;
    mm_status st;
    if ((st = mm_tree_alloc(t, 1, &root, NULL)))
        return st;
    if (n == 1)
        return solve(w, t, root, all, n, 0);
    mm_code guess;
    if ((st = pick_guess(w, all, n, 0, sh->o->first, &guess)))
        return st;
    split sp;
    if ((st = do_split(g, all, n, guess, &sp)))
        return st;
    int k = __builtin_popcountll(sp.replies);
    uint32_t first = MM_NO_NODE;
    task *tasks = calloc((size_t)k + 1, sizeof *tasks);
    uint32_t *order = calloc((size_t)k + 1, sizeof *order);
    if (!tasks || !order) {
        st = MM_ERR_NOMEM;
        goto out;
    }
    if (k && (st = mm_tree_alloc(t, (uint32_t)k, &first, NULL)))
        goto out;
    mm_node *nd = &t->nodes[root];
    nd->guess = guess;
    nd->count = n;
    nd->flags = sp.consistent ? MM_NODE_CONSISTENT : 0;
    nd->replies = sp.replies;
    nd->child = first;
    int c = 0;
    for (int s = 0; s < g->nreplies; s++)
        if (sp.replies >> s & 1u) {
            tasks[c].S = sp.sub + sp.start[s];
            tasks[c].n = sp.start[s + 1] - sp.start[s];
            tasks[c].slot_node = first + (uint32_t)c;
            order[c] = (uint32_t)c;
            c++;
        }
    pool p = {sh, tasks, order, (uint32_t)k, (uint16_t)g->colorset[guess], 0};
    if (threads > k)
        threads = k;
    if (threads <= 1) {
        for (int i = 0; i < k && !st; i++)
            st = solve(w, t, tasks[i].slot_node, tasks[i].S, tasks[i].n, p.played);
        goto out;
    }
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
    for (int i = 0; i < k; i++) {
        if (!st)
            st = tasks[i].status;
        if (!st)
            st = graft(t, &tasks[i]);
        mm_tree_release(&tasks[i].local);
    }
out:
    free(tasks);
    free(order);
    free(sp.sub);
    return st;
}

mm_status mm_compile(const mm_game *g, const mm_compile_opts *o, mm_tree *t,
                     mm_diag *d)
{
    shared sh;
    worker w;
    mm_code *all = NULL;
    mm_status st;
    memset(&sh, 0, sizeof sh);
    mm_tree_init(t, g->pegs, g->colors, g->repeat);
    if ((unsigned)o->rule >= MM_RULE_COUNT)
        return mm_diag_set(d, MM_ERR_USAGE, "rule %d is unknown", (int)o->rule);
    if (o->first != MM_NO_CODE && o->first >= g->ncodes)
        return mm_diag_set(d, MM_ERR_USAGE, "first guess is not a code of the game");
    if (o->rule >= MM_RULE_COUNT_ONE_STEP)
        return mm_optimal_compile(g, o, t, d);
    sh.g = g;
    sh.o = o;
    sh.all_colors = (uint16_t)((1u << g->colors) - 1);
    if ((st = mm_rule_tables_init(&sh.rt, g, g->ncodes, d)))
        return st;
    sh.answers = sh.rt.answers;
    if ((st = worker_init(&w, &sh)))
        goto out;
    all = malloc((size_t)g->ncodes * sizeof *all);
    if (!all) {
        st = MM_ERR_NOMEM;
        goto out;
    }
    for (mm_code x = 0; x < g->ncodes; x++)
        all[x] = x;
    st = mm_tree_set_rule(t, mm_rule_name(o->rule), o->consistent_only, o->first);
    if (!st)
        st = build_root(&w, t, all, o->threads > 0 ? o->threads : ncores());
out:
    if (st == MM_ERR_NOMEM)
        mm_diag_set(d, st, "out of memory building the tree");
    free(all);
    worker_release(&w);
    mm_rule_tables_release(&sh.rt);
    if (st)
        mm_tree_release(t);
    return st;
}
