/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Scoring of one-step rules, shared by the compiler and the optimal
 * solvers.  Every rule is expressed as "smaller is better" over an exact
 * key so that equal partitions tie exactly.
 */
#ifndef MM_RULES_H
#define MM_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "mmtree/compile.h"
#include "mmtree/game.h"

/* Entropy keys are sum n_i log2 n_i in fixed point with 32 fraction bits.
 * Each table entry is within one unit of the truth, so two sums closer than
 * RULES_ENTROPY_TOL units are compared exactly (as integers prod n_i^n_i). */
#define RULES_ENTROPY_FRAC 32
#define RULES_ENTROPY_TOL 128

/* x = root^exp with root not a perfect power. */
typedef struct rules_power {
    uint32_t root;
    uint8_t exp;
} rules_power;

typedef struct rules_tables {
    uint32_t max;        /* largest part size the tables cover */
    uint64_t *nlogn;     /* [0..max]: n log2 n, fixed point */
    uint64_t *lower;     /* [0..max]: Neuwirth's e(M) total, perfect tree */
    int answers;         /* Neuwirth's n(A): replies the game can give */
    /* With logs (for branch2): [0..max] */
    long double *ln;     /* natural logarithms */
    rules_power *power;  /* perfect-power decomposition */
} rules_tables;

mm_status rules_tables_init(rules_tables *rt, const mm_game *g, uint32_t max, bool logs,
                            mm_diag *d);
void rules_tables_release(rules_tables *rt);

/* Least total number of guesses for m codes in a perfect tree with
 * branching factor b - 1 after each guess (Ville eqs. 15-20; Neuwirth's
 * e(M) times m). */
uint64_t rules_perfect_total(uint64_t m, uint64_t b);

/* Exact comparison of sum n_i log n_i for two multisets of part sizes
 * (arrays of k counts, zeros ignored): <0, 0, >0. */
int rules_nlogn_cmp_exact(const uint32_t *a, int ka, const uint32_t *b, int kb);

#endif
