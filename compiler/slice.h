/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * A code set laid out bit-sliced, for scoring many guesses against it
 * (the one-step compiler and the optimal search both do).  Internal to
 * compiler/.
 *
 * For each block of 64 codes and each bit of the position and occurrence
 * masks (core/game.c: pos bit i*c+k, occ bit k*p+j), a word holds the
 * lanes of the block's codes that have the bit.  A guess's black pegs
 * against the 64 codes are then the lane-wise sum of the p words of its
 * position bits, its hits the sum of the p words of its occurrence bits:
 * about three operations a code instead of a dozen, and no memory
 * dependencies.
 */
#ifndef MM_SLICE_H
#define MM_SLICE_H

#include <stdint.h>

#include "mmtree/diag.h"
#include "mmtree/game.h"

typedef struct slice_set {
    uint64_t *pos, *occ;   /* blocks of nbits words each */
    uint32_t n;            /* codes laid out */
    uint32_t cap;          /* blocks allocated */
} slice_set;

/* The set bits of a guess's masks, as word indices into a block. */
typedef struct slice_guess {
    uint8_t pos[MM_MAX_PEGS], occ[MM_MAX_PEGS];
} slice_guess;

void slice_guess_bits(const mm_game *g, mm_code x, slice_guess *gb);

/* Lay out S (n codes); MM_ERR_NOMEM when it cannot grow.  A zeroed
 * slice_set is empty and ready. */
mm_status slice_load(slice_set *s, const mm_game *g, const mm_code *S, uint32_t n);
void slice_release(slice_set *s);

/* Add the replies of the guess against block blk to the slot histogram
 * h (g->nreplies counters). */
void slice_block(const slice_set *s, const mm_game *g, const slice_guess *gb,
                    uint32_t blk, uint32_t *h);

/* The whole histogram of the guess over the set, h zeroed first. */
void slice_histogram(const slice_set *s, const mm_game *g, const slice_guess *gb,
                        uint32_t *h);

#if defined(__x86_64__) && defined(__GNUC__)
/* The histograms of eight guesses, gb[j]'s into h[j] (not added to: set
 * whole), with AVX-512 (F and VPOPCNTDQ): only on a CPU that has them. */
void slice_histogram8(const slice_set *s, const mm_game *g,
                      const slice_guess *const gb[8], uint32_t *const h[8]);
#endif

#endif
