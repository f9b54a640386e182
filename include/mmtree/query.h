/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Queries: what a player asks of a game and of a strategy tree.
 *
 * The codes still possible after some guesses and replies, with or
 * without a tree; how many guesses the sub-tree at a node needs; the
 * game a tree plays against a secret; every code's number of guesses.
 * Positions are paths of steps (mmtree/path.h: mm_tree_follow takes a
 * path to its node); every split of codes by reply is mm_game_split's.
 *
 * Trees are taken as the readers and mm_compile leave them: checked
 * (mm_tree_check).  The guess a rule makes on a set of codes, for games
 * too big to store a tree, is mm_compile_guess (mmtree/compile.h); the
 * codes whose number of guesses differs between two trees are
 * mm_tree_diff_codes (mmtree/verify.h).
 */
#ifndef MMTREE_QUERY_H
#define MMTREE_QUERY_H

#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/game.h>
#include <mmtree/path.h>
#include <mmtree/tree.h>

/* The codes of g that give every step's reply to its guess, in lexical
 * order: *codes (malloc'd, the caller frees it; NULL when there is
 * none) and *count.  *count == 0 means that the replies contradict each
 * other; *empty_at (when not NULL) then receives the number of the step
 * (1-based) after which no code was left, else 0.  MM_ERR_USAGE, naming
 * the step, when a guess is not a code of g or a reply not a slot of
 * g; MM_ERR_NOMEM.  With a tree, the codes at the node the steps reach
 * (mm_tree_follow) are these. */
MM_EXPORT mm_status mm_codes_after(const mm_game *g, const mm_step *steps,
                                   uint32_t n, mm_code **codes,
                                   uint32_t *count, uint32_t *empty_at,
                                   mm_diag *d);

/* Depth statistics of the sub-tree of t at node, counted from the node:
 * its own guess is guess 1.  codes is the node's count; total, worst and
 * the histogram are over the codes found below it; nodes and
 * inconsistent count its nodes.  The expected number of guesses from
 * the node is total / codes.  From the structure alone, as
 * mm_tree_stats (which is this at the root); all zero for a node out of
 * range. */
MM_EXPORT void mm_node_stats(const mm_tree *t, uint32_t node, mm_stats *st);

/* The game t (a tree of g) plays against secret: at each node its guess
 * and the reply the secret gives, until the guess is the secret.  The
 * first max steps go to steps (the last step is the win, reply (p,0));
 * *n receives the number of guesses, *node (when not NULL) the node
 * that guesses the secret.  MM_ERR_USAGE when secret is not a code of g
 * or the tree is of another game; MM_ERR_INPUT, naming the guess, when
 * the tree does not find it. */
MM_EXPORT mm_status mm_tree_trace(const mm_tree *t, const mm_game *g,
                                  mm_code secret, mm_step *steps,
                                  uint32_t max, uint32_t *n, uint32_t *node,
                                  mm_diag *d);

/* Every code's number of guesses in a tree, found by playing the tree
 * against each code (mm_tree_trace), so that it checks what the
 * structure says. */
typedef struct mm_depths {
    uint32_t ncodes;
    uint32_t *guesses;  /* [ncodes]: guesses the tree needs for the code */
    uint32_t *node;     /* [ncodes]: the node that guesses it */
    /* codes, total, worst and histogram from the table; nodes and
     * inconsistent from the tree (mm_tree_stats) */
    mm_stats stats;
} mm_depths;

/* Fill r (released with mm_depths_release, also after a failure) for
 * t, a tree of g; the errors of mm_tree_trace, and MM_ERR_NOMEM. */
MM_EXPORT mm_status mm_tree_depths(const mm_tree *t, const mm_game *g,
                                   mm_depths *r, mm_diag *d);
MM_EXPORT void mm_depths_release(mm_depths *r);

#endif
