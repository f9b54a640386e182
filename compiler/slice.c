/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Bit-sliced code sets: see slice.h. */
#include "slice.h"

#include <stdlib.h>
#include <string.h>

void slice_guess_bits(const mm_game *g, mm_code x, slice_guess *gb)
{
    size_t words = g->wide ? 2 : 1;
    int np = 0, no = 0;
    for (size_t wd = 0; wd < words; wd++) {
        uint64_t mp = g->pos[words * x + wd], mo = g->occ[words * x + wd];
        /* p bits each; the bound only tells the compiler so */
        for (; mp && np < MM_MAX_PEGS; mp &= mp - 1)
            gb->pos[np++] = (uint8_t)(64 * wd + (size_t)__builtin_ctzll(mp));
        for (; mo && no < MM_MAX_PEGS; mo &= mo - 1)
            gb->occ[no++] = (uint8_t)(64 * wd + (size_t)__builtin_ctzll(mo));
    }
}

mm_status slice_load(slice_set *s, const mm_game *g, const mm_code *S, uint32_t n)
{
    size_t nbits = (size_t)g->pegs * (size_t)g->colors, words = g->wide ? 2 : 1;
    uint32_t blocks = (n + 63) / 64;
    if (blocks > s->cap) {
        uint64_t *tp = realloc(s->pos, blocks * nbits * sizeof *tp);
        if (tp)
            s->pos = tp;
        uint64_t *to = realloc(s->occ, blocks * nbits * sizeof *to);
        if (to)
            s->occ = to;
        if (!tp || !to)
            return MM_ERR_NOMEM;
        s->cap = blocks;
    }
    s->n = n;
    memset(s->pos, 0, blocks * nbits * sizeof *s->pos);
    memset(s->occ, 0, blocks * nbits * sizeof *s->occ);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t lane = UINT64_C(1) << (i & 63);
        uint64_t *M = s->pos + (i >> 6) * nbits, *O = s->occ + (i >> 6) * nbits;
        for (size_t wd = 0; wd < words; wd++) {
            uint64_t mp = g->pos[words * S[i] + wd], mo = g->occ[words * S[i] + wd];
            for (; mp; mp &= mp - 1)
                M[64 * wd + (size_t)__builtin_ctzll(mp)] |= lane;
            for (; mo; mo &= mo - 1)
                O[64 * wd + (size_t)__builtin_ctzll(mo)] |= lane;
        }
    }
    return MM_OK;
}

void slice_release(slice_set *s)
{
    free(s->pos);
    free(s->occ);
    memset(s, 0, sizeof *s);
}

/* Counts are kept in four bit planes (up to 15). */
static inline void plane_add(uint64_t pl[4], uint64_t m)
{
    uint64_t c0 = pl[0] & m, c1, c2;
    pl[0] ^= m;
    c1 = pl[1] & c0;
    pl[1] ^= c0;
    c2 = pl[2] & c1;
    pl[2] ^= c1;
    pl[3] ^= c2;
}

/* Lanes whose 4-bit count equals v. */
static inline uint64_t plane_eq(const uint64_t pl[4], int v)
{
    return (v & 1 ? pl[0] : ~pl[0]) & (v & 2 ? pl[1] : ~pl[1]) &
           (v & 4 ? pl[2] : ~pl[2]) & (v & 8 ? pl[3] : ~pl[3]);
}

/* The fewest hits (blacks and whites) a reply can have: without
 * repeated colours two codes of p colours out of c share at least 2p - c
 * of them, so replies of fewer hits are not counted (in MM(7,7) without
 * repeats every code has all 7 colours: 7 of the 35 pairs are left). */
static inline int least_hits(const mm_game *g, int p)
{
    return g->repeat || 2 * p <= g->colors ? 0 : 2 * p - g->colors;
}

/* The block's replies for a peg count known at compile time (the loops
 * unroll), or for any p when p is a variable. */
static inline __attribute__((always_inline)) void
block(const slice_set *s, const mm_game *g, const slice_guess *gb, uint32_t blk,
      uint32_t *h, const int p)
{
    int nbits = p * g->colors;
    const uint64_t *M = s->pos + (size_t)blk * (size_t)nbits;
    const uint64_t *O = s->occ + (size_t)blk * (size_t)nbits;
    uint64_t bp[4] = {0, 0, 0, 0}, hp[4] = {0, 0, 0, 0};
    uint64_t B[MM_MAX_PEGS + 1], H[MM_MAX_PEGS + 1];
    const bool all = least_hits(g, p) == p;   /* p hits in every pair: not counted */
    for (int i = 0; i < p; i++) {
        plane_add(bp, M[gb->pos[i]]);
        if (!all)
            plane_add(hp, O[gb->occ[i]]);
    }
    uint32_t left = s->n - 64 * blk;
    uint64_t valid = left >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << left) - 1;
    if (p < 8) {
        /* counts below 8: three planes, decoded in pairs */
        uint64_t pair[4] = {~bp[1] & ~bp[2], bp[1] & ~bp[2], ~bp[1] & bp[2], bp[1] & bp[2]};
        uint64_t hpair[4] = {~hp[1] & ~hp[2], hp[1] & ~hp[2], ~hp[1] & hp[2], hp[1] & hp[2]};
        for (int v = 0; v <= p; v++) {
            B[v] = pair[v >> 1] & (v & 1 ? bp[0] : ~bp[0]) & valid;
            H[v] = hpair[v >> 1] & (v & 1 ? hp[0] : ~hp[0]);
        }
    } else {
        for (int v = 0; v <= p; v++) {
            B[v] = plane_eq(bp, v) & valid;
            H[v] = plane_eq(hp, v);
        }
    }
    if (all)
        H[p] = ~UINT64_C(0);   /* the only count read, below */
    const int tmin = least_hits(g, p);
    for (int b = 0; b <= p; b++) {
        if (!B[b])
            continue;
        int top = b == p - 1 ? p - 1 : p;   /* (p-1, 1) cannot occur */
        for (int t = b > tmin ? b : tmin; t <= top; t++)
            h[g->slot[b][t]] += (uint32_t)__builtin_popcountll(B[b] & H[t]);
    }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
void slice_block(const slice_set *s, const mm_game *g, const slice_guess *gb,
                    uint32_t blk, uint32_t *h)
{
    switch (g->pegs) {   /* the common games get unrolled code */
    case 3: block(s, g, gb, blk, h, 3); break;
    case 4: block(s, g, gb, blk, h, 4); break;
    case 5: block(s, g, gb, blk, h, 5); break;
    default: block(s, g, gb, blk, h, g->pegs); break;
    }
}

void slice_histogram(const slice_set *s, const mm_game *g, const slice_guess *gb,
                        uint32_t *h)
{
    memset(h, 0, (size_t)g->nreplies * sizeof *h);
    for (uint32_t blk = 0; blk < (s->n + 63) / 64; blk++)
        slice_block(s, g, gb, blk, h);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define SLICE_AVX512 __attribute__((target("avx512f,avx512vpopcntdq")))

static inline __attribute__((always_inline)) SLICE_AVX512 void
plane_add8(__m512i pl[4], __m512i m)
{
    __m512i c0 = _mm512_and_si512(pl[0], m), c1, c2;
    pl[0] = _mm512_xor_si512(pl[0], m);
    c1 = _mm512_and_si512(pl[1], c0);
    pl[1] = _mm512_xor_si512(pl[1], c0);
    c2 = _mm512_and_si512(pl[2], c1);
    pl[2] = _mm512_xor_si512(pl[2], c1);
    pl[3] = _mm512_xor_si512(pl[3], c2);
}

/* Lanes (of 64 codes, one a guess) whose 4-bit count is v. */
static inline __attribute__((always_inline)) SLICE_AVX512 __m512i
plane_eq8(const __m512i pl[4], int v)
{
    __m512i r = _mm512_set1_epi64(-1);
    for (int k = 0; k < 4; k++)
        r = v >> k & 1 ? _mm512_and_si512(r, pl[k]) : _mm512_andnot_si512(pl[k], r);
    return r;
}

/* block() for eight guesses at once, a lane each: the words of a guess's
 * bits are gathered from the block (it is in the cache), the counts of
 * each reply summed lane-wise over the blocks. */
static inline __attribute__((always_inline)) SLICE_AVX512 void
blocks8(const slice_set *s, const mm_game *g, const slice_guess *const gb[8],
        uint32_t *const h[8], const int p)
{
    const int nbits = p * g->colors;
    __m512i ip[MM_MAX_PEGS], io[MM_MAX_PEGS];
    for (int i = 0; i < p; i++) {
        ip[i] = _mm512_set_epi64(gb[7]->pos[i], gb[6]->pos[i], gb[5]->pos[i], gb[4]->pos[i],
                                 gb[3]->pos[i], gb[2]->pos[i], gb[1]->pos[i], gb[0]->pos[i]);
        io[i] = _mm512_set_epi64(gb[7]->occ[i], gb[6]->occ[i], gb[5]->occ[i], gb[4]->occ[i],
                                 gb[3]->occ[i], gb[2]->occ[i], gb[1]->occ[i], gb[0]->occ[i]);
    }
    const int tmin = least_hits(g, p);
    const bool all = tmin == p;   /* every code has every colour: p hits */
    __m512i acc[MM_MAX_REPLIES];
    for (int r = 0; r < g->nreplies; r++)
        acc[r] = _mm512_setzero_si512();
    const uint32_t blocks = (s->n + 63) / 64;
    for (uint32_t blk = 0; blk < blocks; blk++) {
        const void *M = s->pos + (size_t)blk * (size_t)nbits;
        const void *O = s->occ + (size_t)blk * (size_t)nbits;
        __m512i bp[4], hp[4];
        for (int k = 0; k < 4; k++)
            bp[k] = hp[k] = _mm512_setzero_si512();
        for (int i = 0; i < p; i++) {
            plane_add8(bp, _mm512_i64gather_epi64(ip[i], M, 8));
            if (!all)
                plane_add8(hp, _mm512_i64gather_epi64(io[i], O, 8));
        }
        uint32_t left = s->n - 64 * blk;
        __m512i valid = _mm512_set1_epi64(left >= 64 ? -1 : (long long)((UINT64_C(1) << left) - 1));
        __m512i B[MM_MAX_PEGS + 1], H[MM_MAX_PEGS + 1];
        for (int v = 0; v <= p; v++) {
            B[v] = _mm512_and_si512(plane_eq8(bp, v), valid);
            H[v] = all ? _mm512_set1_epi64(-1) : plane_eq8(hp, v);
        }
        for (int b = 0; b <= p; b++) {
            if (!_mm512_test_epi64_mask(B[b], B[b]))
                continue;
            int top = b == p - 1 ? p - 1 : p;   /* (p-1, 1) cannot occur */
            for (int t = b > tmin ? b : tmin; t <= top; t++) {
                __m512i c = _mm512_popcnt_epi64(_mm512_and_si512(B[b], H[t]));
                acc[g->slot[b][t]] = _mm512_add_epi64(acc[g->slot[b][t]], c);
            }
        }
    }
    for (int r = 0; r < g->nreplies; r++) {
        uint64_t lane[8];
        _mm512_storeu_si512(lane, acc[r]);
        for (int j = 0; j < 8; j++)
            h[j][r] = (uint32_t)lane[j];
    }
}

SLICE_AVX512 void slice_histogram8(const slice_set *s, const mm_game *g,
                                   const slice_guess *const gb[8], uint32_t *const h[8])
{
    switch (g->pegs) {   /* the common games get unrolled code */
    case 4: blocks8(s, g, gb, h, 4); break;
    case 5: blocks8(s, g, gb, h, 5); break;
    case 6: blocks8(s, g, gb, h, 6); break;
    default: blocks8(s, g, gb, h, g->pegs); break;
    }
}
#endif
