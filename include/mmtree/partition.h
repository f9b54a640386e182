/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Partitions and lower bounds: what one guess does to a set of codes, and
 * what no strategy for the set can beat.
 *
 * The set is every code of the game, or the codes still possible after a
 * path (mm_codes_after, query.h).  A guess splits it by reply into parts,
 * in the order of replies of game.h; each one-step rule of compile.h
 * scores that partition, and mm_partition_make computes every score at
 * once, so the first-guess tables of the papers (Knuth 1976, Neuwirth
 * 1982, Kooi 2005, Ville 2013) can be read off; the guess a rule makes
 * there is mm_compile_guess's (compile.h).  mm_bounds_make gives the
 * lower bounds the exact search starts from (Neuwirth's Table 2, Ville's
 * eqs. 15-20).
 */
#ifndef MMTREE_PARTITION_H
#define MMTREE_PARTITION_H

#include <stdbool.h>
#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/game.h>

/* The partition guess makes of a set of codes and its score under each
 * one-step rule. */
typedef struct mm_partition {
    mm_code guess;
    uint32_t codes;                /* codes in the set */
    uint32_t size[MM_MAX_REPLIES]; /* codes per reply slot (ORDER REPLY) */
    bool consistent;               /* the guess is one of the codes */
    int parts;                     /* non-empty parts, the winning one
                                      included: kooi's score */
    uint32_t largest;              /* the largest part: knuth's score */
    uint64_t squares;              /* sum of squared sizes: irving's score
                                      (squares / codes: the expected size
                                      of the part the reply leaves) */
    double entropy;                /* of the partition, in bits: entropy's
                                      score */
    uint64_t e3;                   /* Neuwirth's e3: the perfect-tree
                                      totals of the parts but the winning
                                      one (lower is better) */
    /* Witteveen and van Eijck's branch2, by mm_partition_branch2 only
     * (it scores every code of the set): */
    uint32_t profile;              /* codes of the set whose parts have
                                      these sizes reply by reply (the
                                      guesses this one stands for); 0 when
                                      the guess cannot be the code */
    double branch2;                /* log_parts(codes - profile + 1); 0
                                      when that is 1 (lower is better) */
} mm_partition;

/* Partition codes[0..n) (distinct codes of g) by guess into *p: every
 * field but profile and branch2 (0), in time O(n). */
MM_EXPORT mm_status mm_partition_make(const mm_game *g, const mm_code *codes,
                                      uint32_t n, mm_code guess,
                                      mm_partition *p, mm_diag *d);

/* Fill p->profile and p->branch2 for the same set.  When the guess is
 * one of the codes this takes a histogram of the set for one code of
 * each class under the colours the set cannot tell apart (203 classes at
 * the root of MM(6,8)), O(n^2) at worst. */
MM_EXPORT void mm_partition_branch2(const mm_game *g, const mm_code *codes,
                                    uint32_t n, mm_partition *p);

/* How many different partitions, as multisets of part sizes, the guesses
 * of g make of codes[0..n) (Kooi 2005, s5, counts them after one reply):
 * one histogram for each class of guesses, as for mm_partition_branch2. */
MM_EXPORT mm_status mm_partition_shapes(const mm_game *g, const mm_code *codes,
                                        uint32_t n, uint32_t *shapes,
                                        mm_diag *d);

/* Lower bounds on every strategy for a set of codes, counted in guesses
 * from there on, the last one included (a set of one code: total 1).
 * A perfect tree is one in which every guess leaves at most b parts
 * besides the winning reply, all full: its total is the least any
 * strategy can have (Ville 2013, eq. 17) and its depth the least worst
 * case.  b is Neuwirth's n(A) - 1, or the most parts any guess makes of
 * the set (Ville's dynamic branching factor, what the exact search
 * uses).  The one-step bounds put each part of a first guess in a perfect
 * tree and take the best guess (Neuwirth's e1(q) and l1(q)). */
typedef struct mm_bounds {
    uint32_t codes;
    int answers;             /* n(A): replies the game can give */
    int branching;           /* most parts besides the winning one that a
                                guess makes of the set */
    uint64_t total;          /* perfect tree, b = answers - 1 */
    int worst;
    uint64_t total_dynamic;  /* perfect tree, b = branching */
    int worst_dynamic;
    uint64_t step_total;     /* one step, then perfect trees, b = answers - 1 */
    mm_code step_total_guess;/* the first guess (tie order "first") that
                                reaches it */
    int step_worst;
    mm_code step_worst_guess;
    uint64_t step_total_dynamic; /* the same with b = branching */
    int step_worst_dynamic;
} mm_bounds;

/* Bounds for codes[0..n) of g into *b.  played has bit k set when
 * colour k was in a guess before (as for mm_compile_guess): the colours
 * never played are interchangeable, and only one guess of each class is
 * scored; pass every colour for a set of other origin. */
MM_EXPORT mm_status mm_bounds_make(const mm_game *g, uint16_t played,
                                   const mm_code *codes, uint32_t n,
                                   mm_bounds *b, mm_diag *d);

/* Total and depth of a perfect tree for m codes in which every guess
 * leaves at most b parts besides the winning reply (b >= 1). */
MM_EXPORT uint64_t mm_perfect_total(uint64_t m, int b);
MM_EXPORT int mm_perfect_depth(uint64_t m, int b);

#endif
