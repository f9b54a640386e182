/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Symmetry (Ville 2013, 5.4, and positions): a code is scored only when it
 * is the lexically first of its class, the classes being those of the
 * colour and position permutations that keep every guess of the path in
 * place, with colours never played ("free") interchangeable and colours
 * no code of the set contains ("zero") interchangeable peg by peg.  All
 * codes of a class make partitions that the permutation maps onto each
 * other, so they have the same value; the first of a class is the one the
 * tie order would take.
 *
 * The group of a path is kept as a list of position permutations, each
 * with the colour map it forces on the colours played so far.
 *
 * Games of p pegs and p colours without repetition have one symmetry
 * more: every code is a permutation, a reply only counts the pegs two
 * permutations share (the others are white), and x and y share as many as
 * their inverses do (x(j) = y(j) says x^-1 and y^-1 agree at colour
 * x(j)).  So a code's inverse, its positions read as colours and its
 * colours as positions, followed by any element of the other kind, is
 * an element too: those are the ones marked inv, twice the group.  After
 * 1234567 the stabiliser of MM(7,7) without repetition has 10080 elements
 * where positions and colours alone give 5040.
 */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

static atomic_uint_fast64_t group_serial = 1;   /* 0: the root's group */

static mm_status group_reserve(ogroup *G, int n)
{
    if ((size_t)n <= G->cap)
        return MM_OK;
    size_t cap = grow_cap(G->cap, (size_t)n, 8, sizeof *G->cmap);
    void *p = cap ? realloc(G->perm, cap * sizeof *G->perm) : NULL;
    if (!p)
        return MM_ERR_NOMEM;
    G->perm = p;
    p = realloc(G->cmap, cap * sizeof *G->cmap);
    if (!p)
        return MM_ERR_NOMEM;
    G->cmap = p;
    p = realloc(G->inv, cap * sizeof *G->inv);
    if (!p)
        return MM_ERR_NOMEM;
    G->inv = p;
    G->cap = cap;
    return MM_OK;
}

void ogroup_release(ogroup *G)
{
    free(G->perm);
    free(G->cmap);
    free(G->inv);
    memset(G, 0, sizeof *G);
}

/* Does the game have the inverse among its symmetries (every code a
 * permutation of the colours)? */
static bool inverse_game(const mm_game *g)
{
    return !g->repeat && g->pegs == g->colors;
}

/* The next permutation of a[0..p) in lexical order; false after the last. */
static bool next_perm(int *a, int p)
{
    int i = p - 2;
    while (i >= 0 && a[i] > a[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = p - 1;
    while (a[j] < a[i])
        j--;
    int t = a[i]; a[i] = a[j]; a[j] = t;
    for (int l = i + 1, r = p - 1; l < r; l++, r--) {
        t = a[l]; a[l] = a[r]; a[r] = t;
    }
    return true;
}

/* Every position permutation but the identity: 40319 at 8 pegs, 25
 * bytes each; in a game of permutations each also after the inverse,
 * and the inverse alone.  The root's group is this long only until the
 * first guess, whose stabiliser is small (MM(8,3), 11112233: 4!·2!·2!·2
 * elements). */
mm_status ogroup_root(ogroup *G, const mm_game *g, bool no_symmetry)
{
    memset(G, 0, sizeof *G);
    int p = g->pegs;
    if (no_symmetry || p < 2)
        return MM_OK;
    int a[MM_MAX_PEGS];
    for (int i = 0; i < p; i++)
        a[i] = i;
    bool identity = true;
    do {
        for (int inv = identity; inv <= (int)inverse_game(g); inv++) {
            if (group_reserve(G, G->ne + 1)) {
                ogroup_release(G);
                return MM_ERR_NOMEM;
            }
            for (int k = 0; k < p; k++)
                G->perm[G->ne][k] = (uint8_t)a[k];
            memset(G->cmap[G->ne], 0xff, sizeof G->cmap[G->ne]);
            G->inv[G->ne] = inv;
            G->ne++;
        }
        identity = false;
    } while (next_perm(a, p));
    return MM_OK;
}

/* x's inverse: y[k] the position of colour k, read as a colour. */
static void inverse(int p, const int *x, int *y)
{
    for (int j = 0; j < p; j++)
        y[x[j]] = j;
}

/* Keep the elements that, extended by the colour map guess q forces,
 * still map every guess of the path onto itself.  An element maps code x
 * to img, img[perm[j]] = cmap[x[j]] (inv: cmap[x^-1[j]]). */
mm_status ogroup_after(const ogroup *G, const mm_game *g, mm_code q,
                       ogroup *out)
{
    int p = g->pegs, x[MM_MAX_PEGS], y[MM_MAX_PEGS];
    for (int j = 0; j < p; j++)
        x[j] = mm_code_peg(g, q, j);
    if (inverse_game(g))
        inverse(p, x, y);
    out->played = (uint16_t)(G->played | g->colorset[q]);
    out->serial = atomic_fetch_add(&group_serial, 1);
    out->ne = 0;
    if (group_reserve(out, G->ne))
        return MM_ERR_NOMEM;
    for (int e = 0; e < G->ne; e++) {
        uint8_t cm[MM_MAX_COLORS];
        memcpy(cm, G->cmap[e], sizeof cm);
        bool ok = true;
        for (int j = 0; j < p && ok; j++) {
            int from = G->inv[e] ? y[j] : x[j], to = x[G->perm[e][j]];
            if (cm[from] != 0xff) {
                ok = cm[from] == to;
                continue;
            }
            /* to must not be the image of another colour already */
            for (int k = 0; k < g->colors && ok; k++)
                ok = cm[k] != to;
            cm[from] = (uint8_t)to;
        }
        if (!ok)
            continue;
        memcpy(out->perm[out->ne], G->perm[e], sizeof out->perm[0]);
        memcpy(out->cmap[out->ne], cm, sizeof cm);
        out->inv[out->ne] = G->inv[e];
        out->ne++;
    }
    return MM_OK;
}

void opt_zf_init(ozf *z, const oshared *sh, const ogroup *G, const mm_code *S,
                 uint32_t n)
{
    const mm_game *g = sh->g;
    uint16_t all = (uint16_t)((1u << g->colors) - 1), present = 0;
    memset(z, 0, sizeof *z);
    if (sh->no_symmetry)
        return;
    for (uint32_t i = 0; i < n && present != all; i++)
        present |= g->colorset[S[i]];
    z->zero = (uint16_t)(all & ~present);
    z->free = (uint16_t)(all & ~G->played & ~z->zero);
    for (int k = 0; k < g->colors; k++) {
        if (z->zero >> k & 1)
            z->zl[z->nzero++] = k;
        if (z->free >> k & 1)
            z->fl[z->nfree++] = k;
    }
}

/* Is x the first code of its class under zero and free colour changes
 * (normalize(x) == x)?  One pass, out at the first difference. */
static bool is_normal(const ozf *z, bool repeat, int p, const int *x)
{
    int nf = 0, nz = 0;
    unsigned fset = 0;
    for (int j = 0; j < p; j++) {
        int k = x[j];
        if (z->zero >> k & 1) {
            if (k != (repeat ? z->zl[0] : z->zl[nz++]))
                return false;
        } else if ((z->free >> k & 1) && !(fset >> k & 1)) {
            if (k != z->fl[nf++])
                return false;
            fset |= 1u << k;
        }
    }
    return true;
}

/* Compare the first code of img's class under zero and free colour
 * changes with x, position by position, out at the first difference:
 * each zero colour of img becomes the first zero one (without
 * repetition: the next), each free colour the next free one not used
 * yet.  Maps are read only where their bit says they were written. */
static int normal_cmp(const ozf *z, bool repeat, int p, const int *img, const int *x)
{
    int fmap[MM_MAX_COLORS], nf = 0, nz = 0;
    unsigned fset = 0;
    for (int j = 0; j < p; j++) {
        int k = img[j], y;
        if (z->zero >> k & 1) {
            y = repeat ? z->zl[0] : z->zl[nz++];
        } else if (z->free >> k & 1) {
            if (!(fset >> k & 1)) {
                fset |= 1u << k;
                fmap[k] = z->fl[nf++];
            }
            y = fmap[k];
        } else {
            y = k;
        }
        if (y != x[j])
            return y < x[j] ? -1 : 1;
    }
    return 0;
}

/* Is x (already normal under zero and free colours) the first of its
 * class under the group? */
static bool group_first(const ogroup *G, const ozf *z, bool repeat, int p,
                        const int *x)
{
    int img[MM_MAX_PEGS], y[MM_MAX_PEGS];
    bool have_y = false;
    for (int e = 0; e < G->ne; e++) {
        const uint8_t *s = G->perm[e], *cm = G->cmap[e];
        const int *from = x;
        if (G->inv[e]) {
            if (!have_y)
                inverse(p, x, y);
            have_y = true;
            from = y;
        }
        for (int j = 0; j < p; j++) {
            int k = from[j];
            img[s[j]] = (G->played >> k & 1) ? cm[k] : k;
        }
        if (normal_cmp(z, repeat, p, img, x) < 0)
            return false;
    }
    return true;
}

typedef struct gen {
    const mm_game *g;
    oreps *r;
    const ogroup *G;
    const ozf *z;
    bool fail;
} gen;

/* Class representatives, in lexical order, into st->r: a walk over the
 * pegs offering only the first zero colour (the next unused one without
 * repetition) and the next free colour not used yet, the code's rank
 * kept on the way. */
static void gen_rec(gen *st, int i, int *peg, unsigned used, int nz, int nf,
                    uint64_t rank)
{
    const mm_game *g = st->g;
    const ozf *z = st->z;
    if (st->fail)
        return;
    if (i == g->pegs) {
        if (!group_first(st->G, z, g->repeat, g->pegs, peg))
            return;
        oreps *o = st->r;
        mm_code *r = grow_array(o->reps, &o->cap, o->nreps + 1, 64, sizeof *r);
        if (!r) {
            st->fail = true;
            return;
        }
        o->reps = r;
        o->reps[o->nreps++] = (mm_code)rank;
        return;
    }
    for (int k = 0; k < g->colors; k++) {
        if (!g->repeat && (used >> k & 1u))
            continue;
        int nz2 = nz, nf2 = nf;
        if (z->zero >> k & 1) {
            if (k != (g->repeat ? z->zl[0] : z->zl[nz]))
                continue;
            nz2++;
        } else if (z->free >> k & 1) {
            if (!(used >> k & 1u)) {
                if (k != z->fl[nf])
                    continue;
                nf2++;
            }
        }
        peg[i] = k;
        uint64_t r = g->repeat ? rank * (uint64_t)g->colors + (uint64_t)k
                               : rank * (uint64_t)(g->colors - i) +
                                     (uint64_t)__builtin_popcount(~used & ((1u << k) - 1));
        gen_rec(st, i + 1, peg, used | 1u << k, nz2, nf2, r);
    }
}

/* What a list of representatives depends on, into key (OREPS_KEY_MAX
 * bytes): its length. */
static uint32_t reps_key(const mm_game *g, const ogroup *G, const ozf *z, uint8_t *key)
{
    uint32_t n = 0;
    key[n++] = (uint8_t)z->zero;
    key[n++] = (uint8_t)(z->zero >> 8);
    key[n++] = (uint8_t)G->played;
    key[n++] = (uint8_t)(G->played >> 8);
    if (G->ne > OREPS_BY_CONTENT) {
        key[n++] = 0xff;
        memcpy(key + n, &G->serial, sizeof G->serial);
        return n + (uint32_t)sizeof G->serial;
    }
    key[n++] = (uint8_t)G->ne;
    for (int e = 0; e < G->ne; e++) {
        memcpy(key + n, G->perm[e], (size_t)g->pegs);
        n += (uint32_t)g->pegs;
        key[n++] = G->inv[e];
        for (int k = 0; k < g->colors; k++)
            if (G->played >> k & 1)
                key[n++] = G->cmap[e][k];
    }
    return n;
}

/* The list of representatives under G and z, from the worker's lists or
 * made: NULL when out of memory. */
static const oreps *reps_of(oworker *w, const ogroup *G, const ozf *z)
{
    const mm_game *g = w->sh->g;
    uint8_t key[OREPS_KEY_MAX];
    uint32_t klen = reps_key(g, G, z, key);
    uint64_t h = UINT64_C(14695981039346656037);   /* FNV-1a */
    for (uint32_t i = 0; i < klen; i++)
        h = (h ^ key[i]) * UINT64_C(1099511628211);
    if (!w->reps && !(w->reps = calloc(OREPS_SLOTS, sizeof *w->reps)))
        return NULL;
    oreps *a = &w->reps[(h >> 32) & (OREPS_SLOTS - 2)], *b = a + 1;
    w->reps_tick++;
    for (oreps *o = a; o <= b; o++)
        if (o->klen == klen && o->hash == h && !memcmp(o->key, key, klen)) {
            o->used = w->reps_tick;
            return o;
        }
    oreps *o = a->used <= b->used ? a : b;
    o->klen = 0;
    o->nreps = 0;
    gen st = {g, o, G, z, false};
    int peg[MM_MAX_PEGS];
    gen_rec(&st, 0, peg, 0, 0, 0, 0);
    if (st.fail)
        return NULL;
    o->hash = h;
    o->klen = klen;
    memcpy(o->key, key, klen);
    o->used = w->reps_tick;
    return o;
}

mm_status opt_cand_consistent(oworker *w, olevel *l, const ogroup *G,
                              const ozf *z, const mm_code *S, uint32_t n,
                              uint32_t *ncons)
{
    const mm_game *g = w->sh->g;
    if (!olevel_reserve_cand(l, n, g->nreplies))
        return MM_ERR_NOMEM;
    uint32_t k = 0;
    int x[MM_MAX_PEGS];
    for (uint32_t i = 0; i < n; i++) {
        for (int j = 0; j < g->pegs; j++)
            x[j] = mm_code_peg(g, S[i], j);
        if (!is_normal(z, g->repeat, g->pegs, x) || !group_first(G, z, g->repeat, g->pegs, x))
            continue;
        l->cand[k++] = S[i];
    }
    *ncons = k;
    w->guesses += k;
    w->guesses_all += n;
    return MM_OK;
}

mm_status opt_cand_inconsistent(oworker *w, olevel *l, const ogroup *G,
                                const ozf *z, const mm_code *S, uint32_t n,
                                uint32_t ncons, uint32_t *ncand)
{
    const mm_game *g = w->sh->g;
    for (uint32_t i = 0; i < n; i++)
        w->in_s[S[i]] = 1;
    uint32_t count = ncons;
    bool fail = false;
    if (G->ne == 0 && z->nfree <= 1 && (g->repeat || z->nzero <= 1)) {
        /* Common deep in the tree: a class is one code, up to a single
         * zero colour and a single free colour; a scan is faster. */
        uint16_t other = (uint16_t)((z->zero & ~(z->nzero ? 1u << z->zl[0] : 0u)) |
                                    (z->free & ~(z->nfree ? 1u << z->fl[0] : 0u)));
        fail = !olevel_reserve_cand(l, ncons + g->ncodes - n, g->nreplies);
        for (mm_code x = 0; x < g->ncodes && !fail; x++)
            if (!w->in_s[x] && !(g->colorset[x] & other))
                l->cand[count++] = x;
    } else {
        const oreps *r = reps_of(w, G, z);
        fail = !r || !olevel_reserve_cand(l, ncons + r->nreps, g->nreplies);
        for (uint32_t i = 0; !fail && i < r->nreps; i++)
            if (!w->in_s[r->reps[i]])
                l->cand[count++] = r->reps[i];
    }
    for (uint32_t i = 0; i < n; i++)
        w->in_s[S[i]] = 0;
    if (fail)
        return MM_ERR_NOMEM;
    *ncand = count;
    w->guesses += count - ncons;
    w->guesses_all += g->ncodes - n;
    return MM_OK;
}

/* Append to cand, from count on, the codes x that get at least lo
 * replies (2 <= lo <= 127) and use none of the colours other, and their
 * counts to nk, until there are end; the new count.  Eight counts are tested at once, a
 * byte above lo - 1 setting its top bit in (v + 127 - (lo - 1)) | v (no
 * count exceeds 127, so no byte carries into the next), and a run of
 * eight with none is passed over. */
static inline __attribute__((always_inline)) uint32_t
collect(mm_code *restrict cand, uint8_t *restrict nk, uint32_t count, uint32_t end,
        const uint8_t *k, const uint16_t *cs, uint16_t other, uint8_t lo, uint32_t ncodes)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
    const uint64_t add = ones * (uint64_t)(128 - lo);
    mm_code x = 0;
    for (; x + 8 <= ncodes && count < end; x += 8) {
        uint64_t v;
        memcpy(&v, k + x, 8);
        if (!(((v + add) | v) & high))
            continue;
        for (mm_code y = x; y < x + 8; y++)
            if (k[y] >= lo && !(cs[y] & other)) {
                nk[count] = k[y];
                cand[count++] = y;
            }
    }
    for (; x < ncodes && count < end; x++)
        if (k[x] >= lo && !(cs[x] & other)) {
            nk[count] = k[x];
            cand[count++] = x;
        }
    return count;
}

/* collect_avx512's results without it: the counts first, in a loop
 * the compiler vectorises (kx is 0 for the codes of S and those of the
 * other colours), then collect. */
static uint32_t collect_counted(mm_code *restrict cand, uint8_t *restrict nk, uint32_t count,
                                const uint8_t *k, const uint16_t *cs, uint16_t other,
                                uint8_t lo, uint32_t ncodes, uint8_t *top, uint8_t *under,
                                uint32_t *nreps)
{
    uint8_t t = 0, u = 0;
    uint32_t any = 0, keep = 0;
    for (mm_code x = 0; x < ncodes; x++) {
        uint8_t kx = (uint8_t)(k[x] & -((cs[x] & other) == 0));
        uint8_t below_lo = (uint8_t)(kx & -(kx < lo));
        t = kx > t ? kx : t;
        u = below_lo > u ? below_lo : u;
        any += kx != 0;
        keep += kx >= lo;
    }
    *top = t;
    *under = u;
    *nreps = any;
    return keep ? collect(cand, nk, count, count + keep, k, cs, other, lo, ncodes) : count;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
/* The counts of a small set's guesses with AVX-512, in one pass: the
 * codes that get lo replies or more and use none of the colours other
 * appended to cand from count on (their counts to nk), packed into place
 * 16 at a time (vpcompressd); *top the most replies of those codes,
 * *under the most below lo, *nreps those that get any.  On small sets
 * most codes stay within the limit: collect's byte-by-byte loop was 69%
 * of this function on MM(6,5), and the counting pass before it, widened
 * to 32 bits by the compiler, a tenth of MM(7,4)'s search (perf).  It
 * stores 16 codes at cand + count each time: the caller leaves room for
 * 16 more. */
__attribute__((target("avx512f,avx512bw,popcnt")))
static uint32_t collect_avx512(mm_code *restrict cand, uint8_t *restrict nk, uint32_t count,
                               const uint8_t *k, const uint16_t *cs, uint16_t other, uint8_t lo,
                               uint32_t ncodes, uint8_t *top, uint8_t *under, uint32_t *nreps)
{
    const __m512i vlo = _mm512_set1_epi8((char)lo), voth = _mm512_set1_epi16((short)other);
    const __m512i step = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512i vtop = _mm512_setzero_si512(), vunder = _mm512_setzero_si512();
    uint32_t any = 0;
    for (mm_code x = 0; x < ncodes; x += 64) {
        const uint64_t lim = ncodes - x >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << (ncodes - x)) - 1;
        uint64_t ok = lim;   /* in range, of none of the colours other */
        if (other) {
            const __m512i c0 = _mm512_maskz_loadu_epi16((__mmask32)lim, cs + x);
            const __m512i c1 = _mm512_maskz_loadu_epi16((__mmask32)(lim >> 32), cs + x + 32);
            ok &= ~((uint64_t)_mm512_test_epi16_mask(c0, voth) |
                    (uint64_t)_mm512_test_epi16_mask(c1, voth) << 32);
        }
        const __m512i kx = _mm512_maskz_loadu_epi8(ok, k + x);
        const uint64_t keep = _mm512_cmpge_epu8_mask(kx, vlo);
        vtop = _mm512_max_epu8(vtop, kx);
        vunder = _mm512_max_epu8(vunder, _mm512_maskz_mov_epi8(~keep, kx));
        any += (uint32_t)__builtin_popcountll(_mm512_test_epi8_mask(kx, kx));
        if (!keep)
            continue;
        uint8_t kb[64];   /* the counts a quarter at a time, none read past ncodes */
        _mm512_storeu_si512(kb, kx);
        for (int j = 0; j < 4; j++) {
            const __mmask16 m = (__mmask16)(keep >> (16 * j));
            const __m512i idx = _mm512_add_epi32(_mm512_set1_epi32((int)(x + 16 * j)), step);
            const __m512i kj = _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)(kb + 16 * j)));
            _mm512_storeu_si512(cand + count, _mm512_maskz_compress_epi32(m, idx));
            _mm_storeu_si128((void *)(nk + count),
                             _mm512_cvtepi32_epi8(_mm512_maskz_compress_epi32(m, kj)));
            count += (uint32_t)__builtin_popcount(m);
        }
    }
    uint8_t lt[64], lu[64], t = 0, u = 0;
    _mm512_storeu_si512(lt, vtop);
    _mm512_storeu_si512(lu, vunder);
    for (int i = 0; i < 64; i++) {
        t = lt[i] > t ? lt[i] : t;
        u = lu[i] > u ? lu[i] : u;
    }
    *top = t;
    *under = u;
    *nreps = any;
    return count;
}
#define COLLECT_AVX512 1

/* The representatives' counts with AVX-512, as opt_cand_replies's loop
 * below does them, 16 at a time: their counts gathered (four bytes read
 * at each code's, so the codes within four of the end, the last in
 * lexical order, are left to the caller), those that get least replies
 * or more packed into cand and nk from count on.  It stores 16 at cand +
 * count each time: the caller leaves room for 16 more.  The new count;
 * *done the representatives gone through. */
__attribute__((target("avx512f,avx512bw,popcnt")))
static uint32_t reps_avx512(mm_code *restrict cand, uint8_t *restrict nk, uint32_t count,
                            const uint8_t *k, const mm_code *reps, uint32_t nreps,
                            uint32_t ncodes, uint32_t least, uint32_t *top, uint32_t *under,
                            uint32_t *any, uint32_t *done)
{
    const __m512i vlo = _mm512_set1_epi32((int)least), byte = _mm512_set1_epi32(0xff);
    __m512i vtop = _mm512_setzero_si512(), vunder = _mm512_setzero_si512();
    uint32_t a = 0, i = 0;
    for (; i + 16 <= nreps && reps[i + 15] + 4 <= ncodes; i += 16) {
        const __m512i r = _mm512_loadu_si512(reps + i);
        const __m512i kx = _mm512_and_si512(_mm512_i32gather_epi32(r, k, 1), byte);
        const __mmask16 in = _mm512_cmpge_epu32_mask(kx, vlo);
        vtop = _mm512_max_epu32(vtop, kx);
        vunder = _mm512_max_epu32(vunder, _mm512_maskz_mov_epi32((__mmask16)~in, kx));
        a += (uint32_t)__builtin_popcount(_mm512_test_epi32_mask(kx, kx));
        _mm512_storeu_si512(cand + count, _mm512_maskz_compress_epi32(in, r));
        _mm_storeu_si128((void *)(nk + count),
                         _mm512_cvtepi32_epi8(_mm512_maskz_compress_epi32(in, kx)));
        count += (uint32_t)__builtin_popcount(in);
    }
    *top = (uint32_t)_mm512_reduce_max_epu32(vtop);
    *under = (uint32_t)_mm512_reduce_max_epu32(vunder);
    *any = a;
    *done = i;
    return count;
}

/* opt_list_most with AVX-512: 64 counts compared at once. */
__attribute__((target("avx512f,avx512bw,popcnt")))
static uint32_t list_most_avx512(uint8_t *nk, uint32_t from, uint32_t to, uint8_t most,
                                 oval lb, ocand *ci, uint32_t nc, uint8_t *next,
                                 uint32_t *first)
{
    const __m512i vmost = _mm512_set1_epi8((char)most);
    __m512i vmax = _mm512_setzero_si512();
    for (uint32_t c = from; c < to; c += 64) {
        const __mmask64 valid = to - c >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << (to - c)) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(valid, nk + c);
        const __mmask64 eq = _mm512_mask_cmpeq_epi8_mask(valid, v, vmost);
        vmax = _mm512_max_epu8(vmax, _mm512_maskz_mov_epi8(~eq, v));
        if (!eq)
            continue;
        _mm512_mask_storeu_epi8(nk + c, eq, _mm512_setzero_si512());
        for (uint64_t e = eq; e; e &= e - 1)
            ci[nc++] = (ocand){lb, c + (uint32_t)__builtin_ctzll(e), most};
    }
    uint8_t lane[64], m = 0;
    _mm512_storeu_si512(lane, vmax);
    for (int i = 0; i < 64; i++)
        m = lane[i] > m ? lane[i] : m;
    *next = m;
    *first = UINT32_MAX;
    const __m512i vnext = _mm512_set1_epi8((char)m);
    for (uint32_t c = from; m && c < to; c += 64) {
        const __mmask64 valid = to - c >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << (to - c)) - 1;
        const __mmask64 eq =
            _mm512_mask_cmpeq_epi8_mask(valid, _mm512_maskz_loadu_epi8(valid, nk + c), vnext);
        if (eq) {
            *first = c + (uint32_t)__builtin_ctzll(eq);
            break;
        }
    }
    return nc;
}
#endif

uint32_t opt_list_most(const oshared *sh, uint8_t *nk, uint32_t from, uint32_t to,
                       uint8_t most, oval lb, ocand *ci, uint32_t nc, uint8_t *next,
                       uint32_t *first)
{
#ifdef COLLECT_AVX512
    if (opt_avx512(sh))
        return list_most_avx512(nk, from, to, most, lb, ci, nc, next, first);
#endif
    uint8_t m = 0;
    *first = UINT32_MAX;
    for (uint32_t c = from; c < to; c++) {
        if (nk[c] == most) {
            nk[c] = 0;
            ci[nc++] = (ocand){lb, c, most};
        } else if (nk[c] > m) {
            m = nk[c];
            *first = c;
        }
    }
    *next = m;
    return nc;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
mm_status opt_cand_replies(oworker *w, olevel *l, const ogroup *G, const ozf *z,
                           uint32_t n, uint32_t ncons, const uint8_t *k, uint32_t least,
                           uint32_t *ncand, uint32_t *most, uint32_t *below)
{
    const mm_game *g = w->sh->g;
    uint32_t count = ncons, nreps = 0, top = 0, under = 0;
    if (G->ne == 0 && z->nfree <= 1 && (g->repeat || z->nzero <= 1)) {
        /* As opt_cand_inconsistent: one code a class, but those of the
         * zero and free colours after the first; the codes of S get 0. */
        const uint16_t other = (uint16_t)((z->zero & ~(z->nzero ? 1u << z->zl[0] : 0u)) |
                                          (z->free & ~(z->nfree ? 1u << z->fl[0] : 0u)));
        const uint8_t lo = least < 255 ? (uint8_t)least : 255;
        uint8_t t, u;
        /* room for every code, and for collect_avx512's last store */
        if (!olevel_reserve_cand(l, ncons + g->ncodes + 16, g->nreplies))
            return MM_ERR_NOMEM;
#ifdef COLLECT_AVX512
        if (opt_avx512(w->sh))
            count = collect_avx512(l->cand, l->nk, count, k, g->colorset, other, lo, g->ncodes,
                                   &t, &u, &nreps);
        else
#endif
            count = collect_counted(l->cand, l->nk, count, k, g->colorset, other, lo,
                                    g->ncodes, &t, &u, &nreps);
        top = t;
        under = u;
    } else {
        const oreps *r = reps_of(w, G, z);
        /* 16 more for reps_avx512's last store */
        if (!r || !olevel_reserve_cand(l, ncons + r->nreps + 16, g->nreplies))
            return MM_ERR_NOMEM;
        /* Branch-free: every representative is written at count, which
         * moves on past those that get least replies or more.  Whether
         * one does is a coin toss the branch predictor lost: with the
         * branch, this loop was a quarter of MM(7,4)'s search (perf). */
        mm_code *restrict cand = l->cand;
        uint8_t *restrict nk = l->nk;
        const mm_code *reps = r->reps;
        const uint32_t nr = r->nreps;
        uint32_t i = 0;
#ifdef COLLECT_AVX512
        if (opt_avx512(w->sh))
            count = reps_avx512(cand, nk, count, k, reps, nr, g->ncodes, least, &top, &under,
                                &nreps, &i);
#endif
        for (; i < nr; i++) {
            const uint32_t kx = k[reps[i]], in = kx >= least;
            nreps += kx != 0;
            top = kx > top ? kx : top;
            const uint32_t out = in ? 0 : kx;
            under = out > under ? out : under;
            nk[count] = (uint8_t)kx;
            cand[count] = reps[i];
            count += in;
        }
    }
    *ncand = count;
    *most = top;
    *below = under;
    w->guesses += nreps;
    w->guesses_all += g->ncodes - n;
    return MM_OK;
}
