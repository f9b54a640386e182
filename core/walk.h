/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The walk that follows the true codes down a tree: the one mechanism
 * behind the tree check (core/tree.c), the binary writer and reader
 * (format/bin.c), the bracket reader's expansion of condensed forms
 * (format/bracket_read.c) and the verifier (verify/verify.c).
 *
 * It is depth first, with an explicit stack (a tree read from a file may
 * be as deep as it has nodes).  An item on the stack is a node with its
 * true codes, the codes still possible there: a range [lo, hi) of one of
 * two arrays, ascending.  The root has every code.  A node's guess splits
 * its range by reply (mm_game_split, stable, so every part stays
 * ascending) into the other array, at the same place, and each child
 * takes its part.  The ranges of the items waiting on the stack never
 * overlap the range being split, so nothing is copied back, and a node's
 * own codes stay as they were while it is being looked at.
 *
 * The user decides at each node: it pops an item, reads or checks the
 * node's guess, splits, and pushes the children it wants to visit, last
 * first, so that they come off in reply order (ORDER REPLY): the walk is
 * in preorder, the order of every file format.
 *
 *     walk w;
 *     if ((st = walk_init(&w, g, 0, 0, d)))
 *         return st;
 *     for (walk_item it; walk_pop(&w, &it);) {
 *         walk_parts pt;
 *         ... the node's guess y ...
 *         walk_split(&w, &it, y, &pt);
 *         ... compare, then walk_push_children(&w, &it, &pt, replies, first)
 *     }
 *     walk_release(&w);
 */
#ifndef MM_CORE_WALK_H
#define MM_CORE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mmtree/diag.h"
#include "mmtree/game.h"

typedef struct walk_item {
    uint32_t node;   /* the tree's node */
    uint32_t ref;    /* the user's: what else it keeps of the node */
    uint32_t lo, hi; /* its true codes: walk_codes(), hi - lo of them */
    uint32_t depth;  /* guesses down to it, its own included: 1 at the root */
} walk_item;

/* The parts of a node's codes, by reply slot (ORDER REPLY): part s is
 * cnt[s] codes from start[s], in the numbering of walk_item ranges. */
typedef struct walk_parts {
    uint32_t cnt[MM_MAX_REPLIES];
    uint32_t start[MM_MAX_REPLIES];
    uint64_t replies; /* the slots that need a child: bit s for every part
                         but the win that has codes */
} walk_parts;

typedef struct walk {
    const mm_game *g;
    mm_code *buf[2];  /* the codes of an item of depth d are in buf[d & 1] */
    uint8_t *slot;    /* mm_game_split's scratch */
    walk_item *stack;
    size_t top, cap;
} walk;

/* Set up a walk of game g whose first item is the root: node root, the
 * user's ref, every code, depth 1.  MM_ERR_NOMEM with a message in d. */
mm_status walk_init(walk *w, const mm_game *g, uint32_t root, uint32_t ref, mm_diag *d);
void walk_release(walk *w);

/* The next item into *it; false when the walk is over. */
static inline bool walk_pop(walk *w, walk_item *it)
{
    if (!w->top)
        return false;
    *it = w->stack[--w->top];
    return true;
}

/* The item's true codes, hi - lo of them, ascending. */
static inline const mm_code *walk_codes(const walk *w, const walk_item *it)
{
    return w->buf[it->depth & 1] + it->lo;
}

/* Split the item's codes by their reply to guess into *pt. */
void walk_split(walk *w, const walk_item *it, mm_code guess, walk_parts *pt);

/* The codes of part s of an item split into *pt, pt->cnt[s] of them,
 * ascending. */
static inline const mm_code *walk_part(const walk *w, const walk_item *it,
                                       const walk_parts *pt, int s)
{
    return w->buf[(it->depth + 1) & 1] + pt->start[s];
}

/* The item for the child of it after reply s: node, the user's ref, and
 * the codes of part s. */
static inline walk_item walk_child(const walk_item *it, const walk_parts *pt, int s,
                                   uint32_t node, uint32_t ref)
{
    return (walk_item){node, ref, pt->start[s], pt->start[s] + pt->cnt[s], it->depth + 1};
}

/* A useless guess: it cannot be the code and leaves all n >= 1 codes in
 * one part, so that its only child has the same codes. */
bool walk_useless(const mm_game *g, const walk_parts *pt, uint32_t n);

/* Push an item; false when out of memory. */
bool walk_push_slow(walk *w, walk_item it);
static inline bool walk_push(walk *w, walk_item it)
{
    if (w->top == w->cap)
        return walk_push_slow(w, it);
    w->stack[w->top++] = it;
    return true;
}

/* Push the children of it for the slots in replies, nodes first, first + 1,
 * ... in slot order (ref 0), so that they come off in slot order; false
 * when out of memory. */
bool walk_push_children(walk *w, const walk_item *it, const walk_parts *pt,
                        uint64_t replies, uint32_t first);

#endif
