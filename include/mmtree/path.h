/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Replies and paths: the one way mmtree writes and reads a position.
 *
 * A reply is written in Knuth's letters, one B per black hit then one W
 * per white hit ("BWW"), and "-" for no hit, which his table leaves
 * blank; the letters may come in any order when read.  A path is the
 * guesses and replies from the root, "GUESS:REPLY" steps joined by
 * commas: "1122:B,1344:W" is the position after 1122 got one black hit
 * and then 1344 one white hit.  The empty path is the root.  verify,
 * diff, render --path and the query commands all print and read this.
 */
#ifndef MMTREE_PATH_H
#define MMTREE_PATH_H

#include <stddef.h>
#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/game.h>
#include <mmtree/tree.h>

/* Longest reply text: 8 letters and a NUL. */
#define MM_REPLY_MAX (MM_MAX_PEGS + 1)
/* Longest path step text, "GUESS:REPLY," and a NUL. */
#define MM_STEP_MAX (2 * MM_MAX_PEGS + 3)

/* One step of a path: the guess made and the reply slot that followed. */
typedef struct mm_step {
    mm_code guess;
    int slot;
} mm_step;

/* Knuth's letters for reply slot s into buf (>= MM_REPLY_MAX bytes);
 * "?" for a slot out of range.  Returns buf. */
MM_EXPORT char *mm_reply_format(const mm_game *g, int slot, char *buf);

/* Reply letters (B and W in any order, or "-") -> slot; MM_ERR_USAGE
 * with a message when the text is not a reply of g. */
MM_EXPORT mm_status mm_reply_parse(const mm_game *g, const char *s, size_t len,
                                   int *slot, mm_diag *d);

/* Parse a path into steps[0..max).  *n receives the number of steps; a
 * path of more than max steps is MM_ERR_LIMIT.  Errors (MM_ERR_USAGE)
 * name the step: "path step 2: '13x4' is not a code of MM(4,6)". */
MM_EXPORT mm_status mm_path_parse(const mm_game *g, const char *text,
                                  mm_step *steps, uint32_t max, uint32_t *n,
                                  mm_diag *d);

/* Write n steps as a path into buf; "" for none.  When it does not fit,
 * the text ends in "..." .  Returns buf. */
MM_EXPORT char *mm_path_format(const mm_game *g, const mm_step *steps,
                               uint32_t n, char *buf, size_t size);

/* Follow steps from the root of t (a checked tree of g).  At each step
 * the guess must be the tree's guess there, and the reply one that some
 * code still possible gives and that does not end the game.  *node gets
 * the node reached.  MM_ERR_USAGE otherwise, with a message that names
 * the step and says why. */
MM_EXPORT mm_status mm_tree_follow(const mm_tree *t, const mm_game *g,
                                   const mm_step *steps, uint32_t n,
                                   uint32_t *node, mm_diag *d);

/* mm_path_parse and mm_tree_follow in one: the node a path text reaches. */
MM_EXPORT mm_status mm_tree_find(const mm_tree *t, const mm_game *g,
                                 const char *path, uint32_t *node, mm_diag *d);

#endif
