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
    for (int i = 0; i < p; i++) {
        plane_add(bp, M[gb->pos[i]]);
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
    for (int b = 0; b <= p; b++) {
        if (!B[b])
            continue;
        int top = b == p - 1 ? p - 1 : p;   /* (p-1, 1) cannot occur */
        for (int t = b; t <= top; t++)
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
