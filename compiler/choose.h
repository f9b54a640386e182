/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Choosing a guess under a one-step rule (compile.c builds the tree from
 * the guesses chosen here): the rule's score of a partition, the
 * candidates a node scans, and the scan in tie order.  choose.c says how
 * and why.
 */
#ifndef MM_CHOOSE_H
#define MM_CHOOSE_H

#include <stdbool.h>
#include <stdint.h>

#include "mmtree/compile.h"
#include "mmtree/game.h"
#include "rules.h"
#include "slice.h"

/* Sets of at most SMALL codes are scored code by code (small_key): below
 * that, a bit-sliced block costs more than it saves. */
enum { SMALL = 32 };

/* small_key counts replies by cell = black * (MM_MAX_PEGS+1) + hits,
 * which needs no table. */
#define NCELLS ((MM_MAX_PEGS + 1) * (MM_MAX_PEGS + 1))

/* ---- shared, read-only during the build ---- */
typedef struct choose_shared {
    const mm_game *g;
    const mm_compile_opts *o;
    mm_rule key;            /* the rule whose key the scans compute: the
                               rule itself, or kooi's for branch2
                               (choose.c) */
    rules_tables rt;
    uint16_t all_colors;
    int answers;            /* replies that can occur in this game */
    /* The tie order (mm_tie_break): which group of candidates is scanned
     * first, and whether the guesses that cannot be the code are scanned
     * down in lexical order.  (Scanning both groups down would give the
     * image of the usual tree under reversing the colours: another tree,
     * but the same numbers.) */
    bool inc_first, inc_desc;
} choose_shared;

/* ---- per thread ---- */
typedef struct choose_worker {
    const choose_shared *sh;
    uint8_t *in_s;          /* [ncodes] 1 while the code is in the current S */
    mm_code *cand;          /* candidate guesses of the current node */
    uint64_t *cand_mult;    /* class sizes (branch2 only) */
    slice_set sl;            /* S bit-sliced (slice.h) */
    /* Small S (n <= SMALL) as plain masks, 1 or 2 words a code. */
    uint64_t spos[2 * SMALL], socc[2 * SMALL];
    uint32_t scratch[NCELLS]; /* zero between small_key calls */
    uint32_t scored;        /* candidates the last choose_guess could score
                               (0: it scored none), for the progress */
    struct build_progress *progress; /* compile.c's, or NULL */
} choose_worker;

/* What every worker reads: the rule's tables cover parts of up to max
 * codes.  Released by choose_shared_release, also after a failure. */
mm_status choose_shared_init(choose_shared *sh, const mm_game *g, const mm_compile_opts *o,
                             uint32_t max, mm_diag *d);
void choose_shared_release(choose_shared *sh);

/* A worker's scratch, one a thread; release it also after a failure. */
mm_status choose_worker_init(choose_worker *w, const choose_shared *sh);
void choose_worker_release(choose_worker *w);

/* The guess for the n codes S (sorted) after the colours played: fixed
 * when it is a code (the first guess), else the rule's. */
mm_status choose_guess(choose_worker *w, const mm_code *S, uint32_t n, uint16_t played,
                       mm_code fixed, mm_code *out);

#endif
