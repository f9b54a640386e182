/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Scoring kernels: how many replies, and how many codes of each, a guess
 * gets from a set.  Sets of at most SMALL_SET codes are kept as one
 * position mask and one colour-occurrence mask a code (game.h): a reply's
 * black count is a popcount of the position masks in common, black plus
 * white one of the occurrence masks.  With AVX2 four or eight guesses are
 * scored at once, one in each lane.  Larger sets are bit-sliced
 * (slice.c): 64 codes a step, and with AVX-512 eight guesses at once.
 * A set under the table of replies (below) is counted from the table's
 * rows, with AVX-512 when the CPU has it.  Every kernel gives the same
 * counts; the portable code is the reference (--no-simd, and CPUs
 * without AVX2), and tests/compiler/test_replies.c checks each against
 * mm_game_score.
 */
#include "opt.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define OPT_AVX2 1
#endif
static bool use_avx2, use_avx512;   /* set once, by detect_cpu */

static void detect_cpu(void)
{
#ifdef OPT_AVX2
    __builtin_cpu_init();
    use_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    use_avx512 = use_avx2 && __builtin_cpu_supports("avx512f") &&
                 __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") &&
                 __builtin_cpu_supports("avx512bitalg") &&
                 __builtin_cpu_supports("avx512vpopcntdq");
#endif
}

void opt_score_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, detect_cpu);
}

int opt_score_simd(void)
{
    opt_score_init();
    return use_avx512 ? 2 : use_avx2 ? 1 : 0;
}

bool opt_avx512(const oshared *sh)
{
    return use_avx512 && !sh->no_simd && !sh->no_avx512;
}

static bool load_masks(olevel *l, const mm_game *g, const mm_code *S, uint32_t n)
{
    size_t words = g->wide ? 2 : 1;
    if (n * words > l->scap) {
        size_t cap = grow_cap(l->scap, n * words, 64, sizeof *l->sp);
        uint64_t *a = cap ? realloc(l->sp, cap * sizeof *a) : NULL;
        if (!a)
            return false;
        l->sp = a;
        a = realloc(l->so, cap * sizeof *a);
        if (!a)
            return false;
        l->so = a;
        l->scap = cap;
    }
    for (uint32_t i = 0; i < n; i++) {
        memcpy(l->sp + words * i, g->pos + words * S[i], words * sizeof *l->sp);
        memcpy(l->so + words * i, g->occ + words * S[i], words * sizeof *l->so);
    }
    return true;
}

bool opt_load_set(olevel *l, const mm_game *g, const mm_code *S, uint32_t n)
{
    if (n > SMALL_SET)
        return slice_load(&l->sl, g, S, n) == MM_OK;
    return load_masks(l, g, S, n);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
void opt_histogram(const oshared *sh, const olevel *l, uint32_t n, mm_code x,
                   uint32_t *h)
{
    const mm_game *g = sh->g;
    const uint8_t *slot = &g->slot[0][0];
    if (n > SMALL_SET) {
        slice_histogram(&l->sl, g, &sh->gbits[x], h);
        return;
    }
    memset(h, 0, (size_t)g->nreplies * sizeof *h);
    if (g->wide) {
        uint64_t p0 = g->pos[2 * (size_t)x], p1 = g->pos[2 * (size_t)x + 1];
        uint64_t o0 = g->occ[2 * (size_t)x], o1 = g->occ[2 * (size_t)x + 1];
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(p0 & l->sp[2 * i]) + __builtin_popcountll(p1 & l->sp[2 * i + 1]);
            int t = __builtin_popcountll(o0 & l->so[2 * i]) + __builtin_popcountll(o1 & l->so[2 * i + 1]);
            h[slot[b * (MM_MAX_PEGS + 1) + t]]++;
        }
        return;
    }
    uint64_t gp = g->pos[x], go = g->occ[x];
    for (uint32_t i = 0; i < n; i++) {
        int b = __builtin_popcountll(gp & l->sp[i]);
        int t = __builtin_popcountll(go & l->so[i]);
        h[slot[b * (MM_MAX_PEGS + 1) + t]]++;
    }
}

/* How many different replies guess x gets from the codes of S (the
 * winning one included): bit b*(p+1)+hits stands for a reply, which fits
 * 64 bits up to 7 pegs. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static int reply_count(const mm_game *g, const olevel *l, uint32_t n, mm_code x)
{
    uint64_t m = 0;
    if (g->wide) {
        const uint8_t *slot = &g->slot[0][0];
        uint64_t p0 = g->pos[2 * (size_t)x], p1 = g->pos[2 * (size_t)x + 1];
        uint64_t o0 = g->occ[2 * (size_t)x], o1 = g->occ[2 * (size_t)x + 1];
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(p0 & l->sp[2 * i]) + __builtin_popcountll(p1 & l->sp[2 * i + 1]);
            int t = __builtin_popcountll(o0 & l->so[2 * i]) + __builtin_popcountll(o1 & l->so[2 * i + 1]);
            m |= UINT64_C(1) << slot[b * (MM_MAX_PEGS + 1) + t];
        }
        return __builtin_popcountll(m);
    }
    /* narrow: p*c <= 64, so p <= 7 unless c == 8... p = 8 needs c <= 8 */
    uint64_t gp = g->pos[x], go = g->occ[x];
    int w = g->pegs + 1;
    if (w * w <= 64) {
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(gp & l->sp[i]);
            int t = __builtin_popcountll(go & l->so[i]);
            m |= UINT64_C(1) << (b * w + t);
        }
    } else {
        const uint8_t *slot = &g->slot[0][0];
        for (uint32_t i = 0; i < n; i++) {
            int b = __builtin_popcountll(gp & l->sp[i]);
            int t = __builtin_popcountll(go & l->so[i]);
            m |= UINT64_C(1) << slot[b * (MM_MAX_PEGS + 1) + t];
        }
    }
    return __builtin_popcountll(m);
}

#ifdef OPT_AVX2
/* Per byte, black * w + hits for the bits of that byte: the popcount of
 * each nibble from a table, scaled by w for the position bits (bytes stay
 * below 256: 8 * 9 + 8).  Summing a lane's bytes gives the reply cell. */
typedef struct nibbles {
    __m256i lut, lutw, low;
} nibbles;

__attribute__((target("avx2")))
static inline nibbles nibbles_init(int w)
{
    nibbles k;
    k.lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                             0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    k.lutw = _mm256_mullo_epi16(k.lut, _mm256_set1_epi16((short)w));
    k.low = _mm256_set1_epi8(0x0f);
    return k;
}

/* a: position bits in common, b: occurrence bits in common. */
__attribute__((target("avx2")))
static inline __m256i byte_cells(const nibbles *k, __m256i a, __m256i b)
{
    return _mm256_add_epi8(
        _mm256_add_epi8(_mm256_shuffle_epi8(k->lutw, _mm256_and_si256(a, k->low)),
                        _mm256_shuffle_epi8(k->lutw, _mm256_and_si256(_mm256_srli_epi16(a, 4), k->low))),
        _mm256_add_epi8(_mm256_shuffle_epi8(k->lut, _mm256_and_si256(b, k->low)),
                        _mm256_shuffle_epi8(k->lut, _mm256_and_si256(_mm256_srli_epi16(b, 4), k->low))));
}

/* reply_count of four guesses at a time: the guesses in the lanes, the
 * codes of S broadcast one by one.  No work per guess beyond its lane,
 * which pays on small sets, where a guess's own loop is mostly set-up. */
__attribute__((target("avx2,popcnt")))
static void reply_counts_avx2(const uint64_t *sp, const uint64_t *so, uint32_t n,
                              const mm_game *g, const mm_code *cand, uint32_t nc,
                              uint8_t *out)
{
    const int w = g->pegs + 1;
    const nibbles k = nibbles_init(w);
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi64x(1);
    uint32_t c = 0;
    for (; c + 4 <= nc; c += 4) {
        const __m256i gp = _mm256_setr_epi64x((long long)g->pos[cand[c]], (long long)g->pos[cand[c + 1]],
                                              (long long)g->pos[cand[c + 2]], (long long)g->pos[cand[c + 3]]);
        const __m256i go = _mm256_setr_epi64x((long long)g->occ[cand[c]], (long long)g->occ[cand[c + 1]],
                                              (long long)g->occ[cand[c + 2]], (long long)g->occ[cand[c + 3]]);
        __m256i acc = zero;
        for (uint32_t i = 0; i < n; i++) {
            __m256i a = _mm256_and_si256(_mm256_set1_epi64x((long long)sp[i]), gp);
            __m256i b = _mm256_and_si256(_mm256_set1_epi64x((long long)so[i]), go);
            __m256i cell = _mm256_sad_epu8(byte_cells(&k, a, b), zero);
            acc = _mm256_or_si256(acc, _mm256_sllv_epi64(one, cell));
        }
        uint64_t m[4];
        _mm256_storeu_si256((__m256i *)m, acc);
        for (int j = 0; j < 4; j++)
            out[c + j] = (uint8_t)__builtin_popcountll(m[j]);
    }
    for (; c < nc; c++) {
        uint64_t m = 0, gp = g->pos[cand[c]], go = g->occ[cand[c]];
        for (uint32_t i = 0; i < n; i++)
            m |= UINT64_C(1) << (__builtin_popcountll(gp & sp[i]) * w +
                                 __builtin_popcountll(go & so[i]));
        out[c] = (uint8_t)__builtin_popcountll(m);
    }
}

/* The same with eight guesses in 32-bit lanes, when a code's masks fit
 * 32 bits (p * c <= 32) and so do its replies ((p + 1)^2 <= 32, p <= 4):
 * MM(4,6) to MM(4,8).  The byte sums of a lane are added by two
 * multiply-adds with ones. */
__attribute__((target("avx2,popcnt")))
static void reply_counts_avx2_32(const uint64_t *sp, const uint64_t *so, uint32_t n,
                                 const mm_game *g, const mm_code *cand, uint32_t nc,
                                 uint8_t *out)
{
    const nibbles k = nibbles_init(g->pegs + 1);
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
    const __m256i one = _mm256_set1_epi32(1);
    uint32_t c = 0;
    for (; c + 8 <= nc; c += 8) {
        uint32_t p8[8], o8[8];
        for (int j = 0; j < 8; j++) {
            p8[j] = (uint32_t)g->pos[cand[c + j]];
            o8[j] = (uint32_t)g->occ[cand[c + j]];
        }
        const __m256i gp = _mm256_loadu_si256((const __m256i *)p8);
        const __m256i go = _mm256_loadu_si256((const __m256i *)o8);
        __m256i acc = _mm256_setzero_si256();
        for (uint32_t i = 0; i < n; i++) {
            __m256i a = _mm256_and_si256(_mm256_set1_epi32((int)(uint32_t)sp[i]), gp);
            __m256i b = _mm256_and_si256(_mm256_set1_epi32((int)(uint32_t)so[i]), go);
            __m256i cell = _mm256_madd_epi16(_mm256_maddubs_epi16(byte_cells(&k, a, b), ones8),
                                             ones16);
            acc = _mm256_or_si256(acc, _mm256_sllv_epi32(one, cell));
        }
        uint32_t m[8];
        _mm256_storeu_si256((__m256i *)m, acc);
        for (int j = 0; j < 8; j++)
            out[c + j] = (uint8_t)__builtin_popcount(m[j]);
    }
    if (c < nc)
        reply_counts_avx2(sp, so, n, g, cand + c, nc - c, out + c);
}
#endif

/* The replies a histogram of R slots has. */
static inline int replies_in(const uint32_t *h, int R)
{
    int c = 0;
    for (int s = 0; s < R; s++)
        c += h[s] != 0;
    return c;
}

/* Replies x gets (the winning one counted); its histogram too unless
 * the set is small. */
static inline int score(const oshared *sh, const olevel *l, uint32_t n, mm_code x,
                        bool small, uint32_t *h)
{
    if (small)
        return reply_count(sh->g, l, n, x);
    opt_histogram(sh, l, n, x, h);
    return replies_in(h, sh->g->nreplies);
}

void opt_score_range(const oshared *sh, olevel *l, uint32_t n, uint32_t from,
                     uint32_t to, bool small)
{
    const mm_game *g = sh->g;
    small = small && n <= SMALL_SET;   /* larger: from their histograms */
#ifdef OPT_AVX2
    bool avx2 = use_avx2 && !sh->no_simd;
    if (small && avx2 && g->pegs <= 4 && g->pegs * g->colors <= 32) {
        reply_counts_avx2_32(l->sp, l->so, n, g, l->cand + from, to - from, l->nk + from);
        return;
    }
    if (small && avx2 && !g->wide && (g->pegs + 1) * (g->pegs + 1) <= 64) {
        reply_counts_avx2(l->sp, l->so, n, g, l->cand + from, to - from, l->nk + from);
        return;
    }
    if (!small && n > SMALL_SET && opt_avx512(sh)) {
        /* bit-sliced, eight guesses at a time */
        for (; from + 8 <= to; from += 8) {
            const slice_guess *gb[8];
            uint32_t *h[8];
            for (int j = 0; j < 8; j++) {
                gb[j] = &sh->gbits[l->cand[from + j]];
                h[j] = l->hist + (size_t)(from + j) * g->nreplies;
            }
            slice_histogram8(&l->sl, g, gb, h);
            for (int j = 0; j < 8; j++)
                l->nk[from + j] = (uint8_t)replies_in(h[j], g->nreplies);
        }
    }
#endif
    for (uint32_t c = from; c < to; c++)
        l->nk[c] = (uint8_t)score(sh, l, n, l->cand[c], small,
                                  l->hist + (size_t)c * g->nreplies);
}

/* ---- the table of replies ---- */

/* Columns of the table a set's replies are counted in at a time
 * (replies_of_set_narrow and the others). */
#define REPLIES_BLOCK 1024u

/* A table of more than this many bytes (a reply a byte) is not made:
 * the sets below smaller ones are where it pays (the rows of a small set
 * fit the caches), and a table costs a reply for each of its pairs to
 * make. */
#define REPLIES_MAX_BYTES ((size_t)32 << 20)

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
bool opt_replies_build(oworker *w, int lv, const mm_code *P, uint32_t n)
{
    const mm_game *g = w->sh->g;
    oreplies *rt = &w->rt;
    if (rt->lv >= 0 || n <= w->sh->small_max || w->sh->no_replies)
        return false;
    uint32_t stride = (g->ncodes + 63) & ~63u;   /* whole vectors of any kernel */
    size_t bytes = (size_t)n * stride;
    if (bytes > REPLIES_MAX_BYTES)
        return false;
    if (!rt->rowof) {
        rt->rowof = malloc((size_t)g->ncodes * sizeof *rt->rowof);
        /* aligned for the AVX2 code, which reads it as vectors */
        rt->acc = aligned_alloc(64, (size_t)REPLIES_BLOCK * sizeof(uint64_t));
        rt->k = malloc(stride);
        if (!rt->rowof || !rt->acc || !rt->k)
            return false;   /* searched without: the same values */
    }
    if (bytes > rt->cap) {
        uint8_t *b = realloc(rt->rows, bytes);
        if (!b)
            return false;
        rt->rows = b;
        rt->cap = bytes;
    }
    memset(rt->rowof, 0xff, (size_t)g->ncodes * sizeof *rt->rowof);
    for (uint32_t i = 0; i < n; i++) {
        rt->rowof[P[i]] = i;
        uint8_t *row = rt->rows + (size_t)i * stride;
        for (mm_code x = 0; x < g->ncodes; x++)
            row[x] = w->sh->rank[mm_game_score(g, x, P[i])];
        memset(row + g->ncodes, 0, stride - g->ncodes);
    }
    rt->stride = stride;
    rt->lv = lv;
    return true;
}

/* After the counts of columns x0..x0+len: 0 for the codes of S among
 * them; true, with the first code that gets n in *sep, when one does;
 * else *most raised to their most. */
static inline __attribute__((always_inline)) bool
block_most(oreplies *rt, const mm_code *S, uint32_t n, uint32_t x0, uint32_t len,
           uint32_t ncodes, uint32_t *most, mm_code *sep)
{
    uint8_t *k = rt->k;
    for (uint32_t j = 0; j < n; j++)
        if (S[j] - x0 < len)
            k[S[j]] = 0;
    uint32_t x1 = x0 + len < ncodes ? x0 + len : ncodes;
    uint8_t m = 0;
    for (uint32_t x = x0; x < x1; x++)
        m = k[x] > m ? k[x] : m;
    if (m == n)
        for (uint32_t x = x0; x < x1; x++)
            if (k[x] == n) {
                *sep = x;
                return true;
            }
    if (m > *most)
        *most = m;
    return false;
}

/* rt->k: for every code, the replies it gets from S (a bit for each of
 * its codes' replies, OR-ed, two rows at a time), 0 for the codes of S;
 * the most of any code.  When a code gets n, the first such code goes to
 * *sep and n is returned, rt->k then being complete only up to it; else
 * *sep is MM_NO_CODE.  The columns go a block at a time (every row of a
 * block before the next block), so that the block's accumulator stays
 * in the first-level cache: the whole row's, 4 bytes a code, did not
 * (37% of the scan's reads missed it on MM(6,5), cachegrind).  Plain C,
 * the reference for the vector kernels below.  For games of at most
 * 32 replies (p <= 6); the others are below. */
static uint32_t replies_of_set_narrow(oreplies *rt, const mm_code *S, uint32_t n,
                                      uint32_t ncodes, mm_code *sep)
{
    uint32_t *restrict acc = rt->acc;
    const uint32_t stride = rt->stride;
    uint32_t most = 0;
    *sep = MM_NO_CODE;
    for (uint32_t x0 = 0; x0 < stride; x0 += REPLIES_BLOCK) {
        const uint32_t len = stride - x0 < REPLIES_BLOCK ? stride - x0 : REPLIES_BLOCK;
        const uint8_t *rows = rt->rows + x0;
        const uint8_t *r0 = rows + (size_t)rt->rowof[S[0]] * stride;
        for (uint32_t x = 0; x < len; x++)
            acc[x] = UINT32_C(1) << r0[x];
        uint32_t i = 1;
        for (; i + 1 < n; i += 2) {
            const uint8_t *r1 = rows + (size_t)rt->rowof[S[i]] * stride;
            const uint8_t *r2 = rows + (size_t)rt->rowof[S[i + 1]] * stride;
            for (uint32_t x = 0; x < len; x++)
                acc[x] |= (UINT32_C(1) << r1[x]) | (UINT32_C(1) << r2[x]);
        }
        if (i < n) {
            const uint8_t *r1 = rows + (size_t)rt->rowof[S[i]] * stride;
            for (uint32_t x = 0; x < len; x++)
                acc[x] |= UINT32_C(1) << r1[x];
        }
        for (uint32_t x = 0; x < len; x++)
            rt->k[x0 + x] = (uint8_t)__builtin_popcount(acc[x]);
        if (block_most(rt, S, n, x0, len, ncodes, &most, sep))
            return n;
    }
    return most;
}

/* The same for games of more than 32 replies (p >= 7, at most 44), 64
 * bits a code: the reference for the AVX2 code below, which lays the
 * bits out otherwise. */
static uint32_t replies_of_set_wide(oreplies *rt, const mm_code *S, uint32_t n,
                                    uint32_t ncodes, mm_code *sep)
{
    uint64_t *acc = rt->acc;
    const uint32_t stride = rt->stride;
    uint32_t most = 0;
    *sep = MM_NO_CODE;
    for (uint32_t x0 = 0; x0 < stride; x0 += REPLIES_BLOCK) {
        const uint32_t len = stride - x0 < REPLIES_BLOCK ? stride - x0 : REPLIES_BLOCK;
        memset(acc, 0, (size_t)len * sizeof *acc);
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *r = rt->rows + (size_t)rt->rowof[S[i]] * stride + x0;
            for (uint32_t x = 0; x < len; x++)
                acc[x] |= UINT64_C(1) << r[x];
        }
        for (uint32_t x = 0; x < len; x++)
            rt->k[x0 + x] = (uint8_t)__builtin_popcountll(acc[x]);
        if (block_most(rt, S, n, x0, len, ncodes, &most, sep))
            return n;
    }
    return most;
}

static uint32_t replies_of_set(oreplies *rt, const mm_code *S, uint32_t n, uint32_t ncodes,
                               mm_code *sep, bool wide)
{
    if (wide)
        return replies_of_set_wide(rt, S, n, ncodes, sep);
    return replies_of_set_narrow(rt, S, n, ncodes, sep);
}

#ifdef OPT_AVX2
/* The bits set in each byte of v, from a table of nibbles. */
static inline __attribute__((target("avx2"), always_inline)) __m256i bits_of_bytes(__m256i v)
{
    const __m256i nibble = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    return _mm256_add_epi8(_mm256_shuffle_epi8(nibble, _mm256_and_si256(v, low)),
                           _mm256_shuffle_epi8(nibble,
                                               _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
}

/* k[x] = the bits set in acc[x], 32 elements at a time (n a multiple of
 * 32): the bits of each byte summed over an element's four bytes, the
 * sums packed into bytes and put back in order. */
__attribute__((target("avx2")))
static void count_bits_avx2(const uint32_t *acc, uint8_t *k, uint32_t n)
{
    const __m256i one8 = _mm256_set1_epi8(1), one16 = _mm256_set1_epi16(1);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (uint32_t x = 0; x < n; x += 32) {
        __m256i c[4];
        for (int j = 0; j < 4; j++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(acc + x + 8 * j));
            c[j] = _mm256_madd_epi16(_mm256_maddubs_epi16(bits_of_bytes(v), one8), one16);
        }
        /* per 128-bit lane: c0[0..3] c1[0..3] c2[0..3] c3[0..3], then the
         * upper halves in the other lane */
        __m256i b = _mm256_packus_epi16(_mm256_packs_epi32(c[0], c[1]),
                                        _mm256_packs_epi32(c[2], c[3]));
        _mm256_storeu_si256((__m256i *)(k + x), _mm256_permutevar8x32_epi32(b, order));
    }
}

/* Games of more than 32 replies: replies 0-31 OR-ed into 32 bits a code
 * as above (a shift by 32 or more gives 0), 32-39 and 40-47 into a byte
 * each, from a table of the reply less 31 (0 below 32).  Six bytes a
 * code where 64 bits would take eight, and GCC 12 leaves those scalar
 * (a byte widened to 64 bits). */
_Static_assert((MM_MAX_PEGS + 1) * (MM_MAX_PEGS + 2) / 2 - 1 <= 47,
               "a reply less 31 indexes a table of 16 bytes");

__attribute__((target("avx2")))
static void or_rows_split_avx2(uint32_t *lo, uint8_t *ha, uint8_t *hb, const uint8_t *r1,
                               const uint8_t *r2, uint32_t n, bool init)
{
    const __m256i one = _mm256_set1_epi32(1), v31 = _mm256_set1_epi8(31);
    const __m256i la = _mm256_setr_epi8(0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0,
                                        0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0);
    const __m256i lb = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64,
                                        0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64);
    for (uint32_t x = 0; x < n; x += 32) {
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(r1 + x));
        __m256i b2 = _mm256_loadu_si256((const __m256i *)(r2 + x));
        __m256i s1 = _mm256_subs_epu8(b1, v31), s2 = _mm256_subs_epu8(b2, v31);
        __m256i a = _mm256_or_si256(_mm256_shuffle_epi8(la, s1), _mm256_shuffle_epi8(la, s2));
        __m256i b = _mm256_or_si256(_mm256_shuffle_epi8(lb, s1), _mm256_shuffle_epi8(lb, s2));
        if (!init) {
            a = _mm256_or_si256(a, _mm256_loadu_si256((const __m256i *)(ha + x)));
            b = _mm256_or_si256(b, _mm256_loadu_si256((const __m256i *)(hb + x)));
        }
        _mm256_storeu_si256((__m256i *)(ha + x), a);
        _mm256_storeu_si256((__m256i *)(hb + x), b);
        for (int j = 0; j < 4; j++) {
            __m256i *l = (__m256i *)(lo + x + 8 * j);
            __m256i c1 = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(r1 + x + 8 * j)));
            __m256i c2 = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(r2 + x + 8 * j)));
            __m256i v = _mm256_or_si256(_mm256_sllv_epi32(one, c1), _mm256_sllv_epi32(one, c2));
            _mm256_storeu_si256(l, init ? v : _mm256_or_si256(v, _mm256_loadu_si256(l)));
        }
    }
}

/* Games of at most 32 replies: 32 columns of a row as four vectors of
 * one-hot replies, a dword's four bytes taken apart by shifts: vector j
 * holds columns 4i + j, i = 0..7.  The compiler widened the bytes with
 * shuffles instead, on the one port that does them (MM(6,5): half the
 * search's time in this loop). */
__attribute__((target("avx2")))
static inline void one_hot4(const uint8_t *r, __m256i b[4])
{
    const __m256i one = _mm256_set1_epi32(1), byte = _mm256_set1_epi32(0xff);
    __m256i v = _mm256_loadu_si256((const __m256i *)r);
    b[0] = _mm256_sllv_epi32(one, _mm256_and_si256(v, byte));
    b[1] = _mm256_sllv_epi32(one, _mm256_and_si256(_mm256_srli_epi32(v, 8), byte));
    b[2] = _mm256_sllv_epi32(one, _mm256_and_si256(_mm256_srli_epi32(v, 16), byte));
    b[3] = _mm256_sllv_epi32(one, _mm256_srli_epi32(v, 24));
}

/* The rows r1 and r2 OR-ed into acc, 32 columns four vectors as above;
 * init: acc is set, not OR-ed into. */
__attribute__((target("avx2")))
static void or_rows_avx2(__m256i *acc, const uint8_t *r1, const uint8_t *r2, uint32_t n,
                         bool init)
{
    for (uint32_t x = 0; x < n; x += 32, acc += 4) {
        __m256i b1[4], b2[4];
        one_hot4(r1 + x, b1);
        one_hot4(r2 + x, b2);
        for (int j = 0; j < 4; j++) {
            __m256i v = _mm256_or_si256(b1[j], b2[j]);
            acc[j] = init ? v : _mm256_or_si256(acc[j], v);
        }
    }
}

/* The bits set in each dword of acc, into k in column order: dword i of
 * the four vectors of 32 columns gives the bytes of columns 4i..4i+3. */
__attribute__((target("avx2")))
static void count_bits4_avx2(const __m256i *acc, uint8_t *k, uint32_t n)
{
    const __m256i one8 = _mm256_set1_epi8(1), one16 = _mm256_set1_epi16(1);
    for (uint32_t x = 0; x < n; x += 32, acc += 4) {
        __m256i c = _mm256_setzero_si256();
        for (int j = 0; j < 4; j++) {
            __m256i d = _mm256_madd_epi16(_mm256_maddubs_epi16(bits_of_bytes(acc[j]), one8),
                                          one16);
            c = _mm256_or_si256(c, _mm256_slli_epi32(d, 8 * j));
        }
        _mm256_storeu_si256((__m256i *)(k + x), c);
    }
}

/* replies_of_set_narrow or _wide with the layouts above: rt->acc holds
 * the block's replies 0-31 as four vectors for each 32 columns (narrow) or
 * 32 bits a column, then two bytes a column for the replies above (wide). */
__attribute__((target("avx2,popcnt")))
static uint32_t replies_of_set_avx2(oreplies *rt, const mm_code *S, uint32_t n, uint32_t ncodes,
                                    mm_code *sep, bool wide)
{
    const uint32_t stride = rt->stride;
    uint32_t *lo = rt->acc;
    uint8_t *ha = (uint8_t *)(lo + REPLIES_BLOCK), *hb = ha + REPLIES_BLOCK;
    uint32_t most = 0;
    *sep = MM_NO_CODE;
    for (uint32_t x0 = 0; x0 < stride; x0 += REPLIES_BLOCK) {
        const uint32_t len = stride - x0 < REPLIES_BLOCK ? stride - x0 : REPLIES_BLOCK;
        const uint8_t *rows = rt->rows + x0;
        for (uint32_t i = 0; i < n; i += 2) {
            const uint8_t *r1 = rows + (size_t)rt->rowof[S[i]] * stride;
            const uint8_t *r2 = i + 1 < n ? rows + (size_t)rt->rowof[S[i + 1]] * stride : r1;
            if (wide)
                or_rows_split_avx2(lo, ha, hb, r1, r2, len, i == 0);
            else
                or_rows_avx2((__m256i *)lo, r1, r2, len, i == 0);
        }
        uint8_t *k = rt->k + x0;
        if (!wide)
            count_bits4_avx2((const __m256i *)lo, k, len);
        else {
            count_bits_avx2(lo, k, len);
            for (uint32_t x = 0; x < len; x += 32) {
                __m256i a = _mm256_loadu_si256((const __m256i *)(ha + x));
                __m256i b = _mm256_loadu_si256((const __m256i *)(hb + x));
                __m256i c = _mm256_add_epi8(bits_of_bytes(a), bits_of_bytes(b));
                _mm256_storeu_si256((__m256i *)(k + x),
                                    _mm256_add_epi8(_mm256_loadu_si256((const __m256i *)(k + x)), c));
            }
        }
        if (block_most(rt, S, n, x0, len, ncodes, &most, sep))
            return n;
    }
    return most;
}

/* With AVX-512 VBMI and BITALG (Intel from Ice Lake, AMD from Zen 4),
 * one kernel for every game: a reply r goes to bit r % 8 of byte plane
 * r / 8 by a lookup of 64 columns at once (vpermb), a plane a lookup;
 * the planes are OR-ed four rows at a time (vpternlogd) and a column's
 * count is the sum of its bytes' bits (vpopcntb), in column order.  No
 * widening: 64 columns cost a plane's lookup where AVX2 widens 8. */
#define AVX512_TARGET "avx512f,avx512bw,avx512vbmi,avx512bitalg"
#define REPLY_PLANES 6   /* replies below 48 */
_Static_assert((MM_MAX_PEGS + 1) * (MM_MAX_PEGS + 2) / 2 - 1 < 8 * REPLY_PLANES,
               "a reply fits the byte planes");
_Static_assert(REPLY_PLANES * REPLIES_BLOCK <= REPLIES_BLOCK * sizeof(uint64_t),
               "the planes of a block fit the accumulator");

/* Rows r[0..3] OR-ed into the planes of acc (set, when init), 64
 * columns at a time: each row's bytes read once for all the planes. */
__attribute__((target(AVX512_TARGET)))
static inline void or_rows4_avx512(uint8_t *acc, const __m512i *tab, int planes,
                                   const uint8_t *const r[4], uint32_t len, bool init)
{
    for (uint32_t x = 0; x < len; x += 64) {
        __m512i v0 = _mm512_loadu_si512(r[0] + x), v1 = _mm512_loadu_si512(r[1] + x);
        __m512i v2 = _mm512_loadu_si512(r[2] + x), v3 = _mm512_loadu_si512(r[3] + x);
        for (int j = 0; j < planes; j++) {
            uint8_t *p = acc + (size_t)j * REPLIES_BLOCK + x;
            __m512i o = _mm512_ternarylogic_epi32(_mm512_permutexvar_epi8(v0, tab[j]),
                                                  _mm512_permutexvar_epi8(v1, tab[j]),
                                                  _mm512_permutexvar_epi8(v2, tab[j]),
                                                  0xfe);   /* a | b | c */
            __m512i d = _mm512_permutexvar_epi8(v3, tab[j]);
            if (!init)
                d = _mm512_or_si512(d, _mm512_loadu_si512(p));
            _mm512_storeu_si512(p, _mm512_or_si512(o, d));
        }
    }
}

__attribute__((target(AVX512_TARGET)))
static uint32_t replies_of_set_avx512(oreplies *rt, const mm_code *S, uint32_t n,
                                      uint32_t ncodes, int nreplies, mm_code *sep)
{
    const uint32_t stride = rt->stride;
    static const uint8_t bit[64] = {
        1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128,
        1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128,
        1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128,
        1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const int planes = (nreplies + 7) / 8;
    uint8_t *acc = rt->acc;
    /* plane j's table: bit r % 8 for the replies r of 8j..8j+7, else 0 */
    const __m512i bits = _mm512_loadu_si512(bit);
    __m512i tab[REPLY_PLANES];
    for (int j = 0; j < planes; j++)
        tab[j] = _mm512_maskz_mov_epi8((__mmask64)0xff << (8 * j), bits);
    uint32_t most = 0;
    *sep = MM_NO_CODE;
    for (uint32_t x0 = 0; x0 < stride; x0 += REPLIES_BLOCK) {
        const uint32_t len = stride - x0 < REPLIES_BLOCK ? stride - x0 : REPLIES_BLOCK;
        const uint8_t *rows = rt->rows + x0;
        for (uint32_t i = 0; i < n; i += 4) {
            const uint8_t *r[4];
            for (uint32_t j = 0; j < 4; j++)   /* a row again past the end: OR-ed twice */
                r[j] = rows + (size_t)rt->rowof[S[i + j < n ? i + j : i]] * stride;
            or_rows4_avx512(acc, tab, planes, r, len, i == 0);
        }
        for (uint32_t x = 0; x < len; x += 64) {
            __m512i c = _mm512_popcnt_epi8(_mm512_loadu_si512(acc + x));
            for (int j = 1; j < planes; j++)
                c = _mm512_add_epi8(c, _mm512_popcnt_epi8(
                                           _mm512_loadu_si512(acc + (size_t)j * REPLIES_BLOCK + x)));
            _mm512_storeu_si512(rt->k + x0 + x, c);
        }
        if (block_most(rt, S, n, x0, len, ncodes, &most, sep))
            return n;
    }
    return most;
}
#endif

int opt_replies_of_set(oworker *w, const mm_code *S, uint32_t n, mm_code *sep)
{
    oreplies *rt = &w->rt;
    if (rt->lv < 0 || !n)
        return -1;
    /* The table holds the replies' places among those the game can give,
     * not their slots: the kernels count distinct values, and a game
     * without repeats gives few (MM(6,7)n 12 of 28 slots: two byte
     * planes for four). */
    uint32_t ncodes = w->sh->g->ncodes;
    const int nr = w->sh->answers;
    bool wide = nr > 32;
#ifdef OPT_AVX2
    if (opt_avx512(w->sh))
        return (int)replies_of_set_avx512(rt, S, n, ncodes, nr, sep);
    if (use_avx2 && !w->sh->no_simd)
        return (int)replies_of_set_avx2(rt, S, n, ncodes, sep, wide);
#endif
    return (int)replies_of_set(rt, S, n, ncodes, sep, wide);
}

/* One pass, a code at a time.  Four runs of S with places of their
 * own, so that no code waits on the place the one before took, were
 * slower (a pass to score and count, one to move: 3.2 -> 3.8 s of CPU on
 * the 96 codes of MM(6,7) without repeats after 123456:WWWWW,
 * 234567:WWWWWW, whose sets split are mostly of 64 codes or fewer). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
bool opt_split(olevel *l, const mm_game *g, const mm_code *S, uint32_t n,
               mm_code q, const uint32_t *h, opart *pt, int *npart,
               uint32_t *win)
{
    uint32_t pos[MM_MAX_REPLIES];
    mm_code *parts = grow_array(l->parts, &l->pcap, n, 64, sizeof *parts);
    if (!parts)
        return false;
    l->parts = parts;
    uint32_t acc = 0;
    int np = 0;
    *win = 0;
    for (int s = 0; s < g->nreplies; s++) {
        pos[s] = acc;
        if (h[s] && s != g->win)
            pt[np++] = (opart){acc, h[s], 0, false};
        if (s == g->win)
            *win = h[s];
        acc += h[s];
    }
    assert(acc == n);   /* the parts make up the set */
    for (uint32_t i = 0; i < n; i++) {
        int s = mm_game_score(g, q, S[i]);
        assert(s >= 0 && s < g->nreplies);
        l->parts[pos[s]++] = S[i];
    }
#ifndef NDEBUG
    /* every slot filled exactly: the histogram is q's on S */
    for (uint32_t s = 0, end = 0; s < (uint32_t)g->nreplies; s++) {
        end += h[s];
        assert(pos[s] == end);
    }
#endif
    *npart = np;
    return true;
}
