/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Choosing what to draw: the levels of a sub-tree that fit a depth limit
 * and a node budget, and a summary of every sub-tree cut off below them.
 *
 * The walk is breadth-first and stops before the level that would break
 * the budget, so it only touches the nodes it draws; summaries then walk
 * each cut-off sub-tree once.  Every walk counts the nodes it visits
 * against t->nnodes, so a malformed tree (a cycle, a shared node) ends in
 * an error instead of a loop.
 */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/grow.h"

static mm_status not_a_tree(mm_diag *d, uint32_t node)
{
    return mm_diag_set(d, MM_ERR_INPUT,
                       "node %lu is not part of a tree (bad child index, shared "
                       "node or cycle)",
                       (unsigned long)node);
}

/* Children of node i lie in [child, child+k): check that they exist. */
static bool children_ok(const mm_tree *t, uint32_t i)
{
    int k = mm_tree_nchildren(t, i);
    uint32_t c = t->nodes[i].child;
    return k == 0 || (c < t->nnodes && (uint64_t)c + (uint64_t)k <= t->nnodes);
}

static mm_status push_item(view *v, size_t *cap, view_item it, mm_diag *d)
{
    view_item *ni = grow_array(v->items, cap, (size_t)v->n + 1, 64, sizeof *ni);
    if (!ni)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %lu drawn nodes",
                           (unsigned long)v->n + 1);
    v->items = ni;
    v->items[v->n++] = it;
    return MM_OK;
}

typedef struct dfs_entry {
    uint32_t node;
    int depth;
} dfs_entry;

/* Fill the summary of collapsed item it; *visits counts tree nodes seen. */
static mm_status summarise(const mm_tree *t, view_item *it, uint64_t *visits,
                           dfs_entry **stack, size_t *cap, mm_diag *d)
{
    size_t top = 0;
    (*stack)[top++] = (dfs_entry){it->node, 1};
    it->codes = 0;
    it->total = 0;
    it->hidden = 0;
    it->worst = 0;
    while (top) {
        dfs_entry e = (*stack)[--top];
        const mm_node *n = &t->nodes[e.node];
        if (e.node != it->node) {
            it->hidden++;
            if (++*visits > t->nnodes)
                return not_a_tree(d, e.node);
        }
        if (n->flags & MM_NODE_CONSISTENT) {
            it->codes++;
            it->total += (uint64_t)e.depth;
            if (e.depth > it->worst)
                it->worst = e.depth;
        }
        if (!children_ok(t, e.node))
            return not_a_tree(d, e.node);
        int k = mm_tree_nchildren(t, e.node);
        dfs_entry *ns = grow_array(*stack, cap, top + (size_t)k, 64, sizeof *ns);
        if (!ns)
            return mm_diag_set(d, MM_ERR_NOMEM, "out of memory walking the tree");
        *stack = ns;
        for (int j = 0; j < k; j++)
            (*stack)[top++] = (dfs_entry){n->child + (uint32_t)j, e.depth + 1};
    }
    return MM_OK;
}

/* Add the children of items [begin, end) (one level) to the view. */
static mm_status add_level(const mm_tree *t, view *v, size_t *cap,
                           uint32_t begin, uint32_t end, mm_diag *d)
{
    for (uint32_t p = begin; p < end; p++) {
        uint32_t i = v->items[p].node;
        const mm_node *n = &t->nodes[i];
        int j = 0;
        for (int s = 0; s < 64; s++) {
            if (!(n->replies >> s & 1u))
                continue;
            view_item it = {.node = n->child + (uint32_t)j++, .parent = p,
                            .slot = s, .level = v->items[p].level + 1};
            mm_status st = push_item(v, cap, it, d);
            if (st)
                return st;
        }
    }
    return MM_OK;
}

mm_status view_build(const mm_tree *t, uint32_t start, int depth,
                     uint32_t budget, view *v, mm_diag *d)
{
    mm_status st;
    size_t cap = 0;
    *v = (view){0};
    if (start >= t->nnodes)
        return not_a_tree(d, start);
    st = push_item(v, &cap, (view_item){.node = start, .parent = VIEW_NO_PARENT,
                                        .slot = -1},
                   d);
    if (st)
        return st;

    /* Level by level until the depth limit, the budget or the last level. */
    uint32_t begin = 0, end = 1;
    int levels = 1;
    for (;;) {
        uint64_t next = 0;
        for (uint32_t p = begin; p < end; p++) {
            if (!children_ok(t, v->items[p].node))
                return not_a_tree(d, v->items[p].node);
            next += (uint64_t)mm_tree_nchildren(t, v->items[p].node);
        }
        if (next == 0 || (depth > 0 && levels >= depth))
            break;
        if (v->n + next > t->nnodes)
            return not_a_tree(d, v->items[begin].node);
        if (budget && v->n + next > budget) {
            v->budget_cut = true;
            break;
        }
        if ((st = add_level(t, v, &cap, begin, end, d)))
            return st;
        begin = end;
        end = v->n;
        levels++;
    }
    v->depth = levels;
    v->full_depth = levels;
    v->subtree_nodes = v->n;

    /* The last level's inner nodes stand for their sub-trees. */
    size_t scap = 64;
    dfs_entry *stack = malloc(scap * sizeof *stack);
    if (!stack)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory walking the tree");
    uint64_t visits = v->n;
    for (uint32_t p = begin; p < end; p++) {
        view_item *it = &v->items[p];
        if (!mm_tree_nchildren(t, it->node))
            continue;
        it->collapsed = true;
        if ((st = summarise(t, it, &visits, &stack, &scap, d)))
            break;
        v->subtree_nodes += it->hidden;
        if (it->level + it->worst > v->full_depth)
            v->full_depth = it->level + it->worst;
    }
    free(stack);
    if (st)
        return st;

    /* The other items' summaries from their children's: children come
     * after their parent, so a backward pass sees them first. */
    for (uint32_t i = v->n; i-- > 0;) {
        view_item *it = &v->items[i];
        if (!it->collapsed && (t->nodes[it->node].flags & MM_NODE_CONSISTENT)) {
            it->codes++;
            it->total++;
            if (it->worst < 1)
                it->worst = 1;
        }
        if (it->parent == VIEW_NO_PARENT)
            continue;
        view_item *p = &v->items[it->parent];
        p->codes += it->codes;
        p->total += it->total + it->codes;
        if (it->worst + 1 > p->worst)
            p->worst = it->worst + 1;
    }
    return MM_OK;
}

void view_release(view *v)
{
    free(v->items);
    *v = (view){0};
}

void view_highlight(const mm_tree *t, const mm_game *g, view *v, mm_code x)
{
    for (uint32_t i = 0; i < v->n;) {
        view_item *it = &v->items[i];
        it->highlight = true;
        const mm_node *n = &t->nodes[it->node];
        if (n->guess == x || it->collapsed)
            return;
        int s = mm_game_score(g, n->guess, x);
        uint32_t next = v->n;
        /* Children follow their parent, in a block of siblings, and
         * the search for the next goes on from there: one pass over the
         * items in all, whatever the depth (breadth-first order). */
        for (uint32_t j = i + 1; j < v->n && next == v->n; j++)
            if (v->items[j].parent == i && v->items[j].slot == s)
                next = j;
        i = next;
    }
}

void view_extent(const view *v, const double *w, const double *h, bool radial, bool lr,
                 double *width, double *height)
{
    /* w[] has room for neighbours already; in a column, the replies at
     * the edges' heads take about 0.1 inch more a node. */
    const double nodesep = 0.22, ranksep = 0.4, pi = 3.141592653589793;
    double across = 0, along = 0, widest = 0;
    for (uint32_t b = 0, e; b < v->n; b = e) {
        double sum = 0, deep = 0;
        for (e = b; e < v->n && v->items[e].level == v->items[b].level; e++) {
            sum += lr ? h[e] + nodesep : w[e];
            deep = fmax(deep, lr ? w[e] : h[e]);
            widest = fmax(widest, w[e]);
        }
        across = fmax(across, radial ? sum / pi : sum);
        along += deep + ranksep;
    }
    if (radial)
        *width = *height = 72 * (across + widest);
    else if (lr)
        *width = 72 * along, *height = 72 * across;
    else
        *width = 72 * across, *height = 72 * along;
}

/* twopi gives a node a share of its parent's angle in proportion to the
 * leaves under it and puts it in the middle of its share.  Neighbours a
 * and b on a ring, their centres an angle t apart, need a radius of
 * (w_a + w_b) / 2 / t; a ring needs at least the sum of its widths over
 * 2 pi all round.  Two one-leaf siblings near the root would push every
 * ring out to the outer radius, so the neighbour rule is capped by a
 * radius growing linearly with the ring up to the largest the ring sums
 * ask for. */
void view_ring_gaps(const view *v, const double *width, char *buf, size_t size)
{
    const double two_pi = 6.283185307179586, min_gap = 0.8;
    int rings = v->depth - 1;
    buf[0] = '\0';
    if (rings <= 0 || v->n < 2)
        return;
    double *leaves = calloc(v->n, sizeof *leaves);
    double *centre = calloc(v->n, sizeof *centre);
    double *cursor = calloc(v->n, sizeof *cursor);
    double *span = calloc(v->n, sizeof *span);
    if (!leaves || !centre || !cursor || !span)
        goto out; /* twopi's own spacing will do */
    for (uint32_t i = v->n; i-- > 0;) {
        if (leaves[i] == 0)
            leaves[i] = 1;
        if (v->items[i].parent != VIEW_NO_PARENT)
            leaves[v->items[i].parent] += leaves[i];
    }
    span[0] = two_pi;
    for (uint32_t i = 1; i < v->n; i++) {
        uint32_t p = v->items[i].parent;
        span[i] = span[p] * leaves[i] / leaves[p];
        centre[i] = cursor[p] + span[i] / 2;
        cursor[i] = cursor[p];
        cursor[p] += span[i];
    }
    /* Largest radius the ring sums ask for. */
    double outer = min_gap * rings;
    for (uint32_t b = 1, e; b < v->n; b = e) {
        double sum = 0;
        for (e = b; e < v->n && v->items[e].level == v->items[b].level; e++)
            sum += width[e];
        outer = fmax(outer, sum / two_pi);
    }
    double r = 0;
    size_t used = 0;
    for (uint32_t b = 1, e; b < v->n; b = e) {
        int k = v->items[b].level;
        double sum = width[b], tight = 0;
        for (e = b + 1; e < v->n && v->items[e].level == k; e++) {
            sum += width[e];
            tight = fmax(tight, (width[e] + width[e - 1]) / 2 /
                                    fmax(centre[e] - centre[e - 1], 1e-9));
        }
        if (e - b > 1)
            tight = fmax(tight, (width[b] + width[e - 1]) / 2 /
                                    fmax(centre[b] + two_pi - centre[e - 1], 1e-9));
        double need = fmax(sum / two_pi, fmin(tight, outer * k / rings));
        double next = fmax(r + min_gap, need);
        int w = snprintf(buf + used, size - used, "%s%.2f", used ? ":" : "", next - r);
        if (w < 0 || (size_t)w >= size - used) {
            buf[used] = '\0';
            break;
        }
        used += (size_t)w;
        r = next;
    }
out:
    free(leaves);
    free(centre);
    free(cursor);
    free(span);
}
