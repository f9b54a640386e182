/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: the part of a tree a rendering draws (render/view.c). */
#ifndef MM_RENDER_VIEW_H
#define MM_RENDER_VIEW_H

#include "mmtree/render.h"

#define VIEW_NO_PARENT UINT32_MAX

/* One drawn node.  Items are in breadth-first order, so a parent comes
 * before its children and siblings are in reply order. */
typedef struct view_item {
    uint32_t node;      /* tree index */
    uint32_t parent;    /* item index of the parent, or VIEW_NO_PARENT */
    int slot;           /* reply from the parent; -1 for the start */
    int level;          /* 0 for the start */
    bool collapsed;     /* stands for its whole sub-tree */
    bool highlight;     /* on the path of the code highlighted */
    /* The whole sub-tree under the item: */
    uint32_t codes;     /* codes found in it */
    uint64_t total;     /* guesses they need, counted from this node */
    int worst;          /* most guesses from this node */
    uint64_t hidden;    /* collapsed items: nodes of the sub-tree not drawn */
} view_item;

typedef struct view {
    view_item *items;
    uint32_t n;
    int depth;               /* levels drawn */
    int full_depth;          /* levels of the whole sub-tree */
    uint64_t subtree_nodes;  /* nodes of the whole sub-tree */
    bool budget_cut;
} view;

/* The view of the sub-tree under start: `depth` levels (0 = all), fewer
 * when more than `budget` nodes (0 = no budget) would be drawn.  Fails
 * with MM_ERR_INPUT when t is not a tree. */
mm_status view_build(const mm_tree *t, uint32_t start, int depth,
                     uint32_t budget, view *v, mm_diag *d);
void view_release(view *v);

/* Mark the items on the path of code x from the start (which x must
 * reach): down to the node that guesses it, or to the collapsed item it
 * goes into. */
void view_highlight(const mm_tree *t, const mm_game *g, view *v, mm_code x);

/* About the size in points of a layout of v (within 20% on Knuth's
 * MM(4,6) tree), from the items' sizes in inches, w[i] with room for its
 * neighbours and h[i]: dot puts a level side by side (in a row, or with
 * lr in a column), twopi on a ring. */
void view_extent(const view *v, const double *w, const double *h, bool radial, bool lr,
                 double *width, double *height);

/* Radii for a radial (twopi) drawing, as twopi's ranksep list "r1:r2:..."
 * of gaps between rings, in inches: wide enough that the nodes of each
 * ring, width[i] inches wide for item i, do not overlap where twopi puts
 * them.  buf is left empty when memory runs out. */
void view_ring_gaps(const view *v, const double *width, char *buf, size_t size);

#endif
