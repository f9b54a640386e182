/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "mmtree/tree.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/query.h"
#include "walk.h"

void mm_tree_init(mm_tree *t, int pegs, int colors, bool repeat)
{
    memset(t, 0, sizeof *t);
    t->pegs = pegs;
    t->colors = colors;
    t->repeat = repeat;
    t->prov.first = MM_NO_CODE;
}

void mm_tree_release(mm_tree *t)
{
    free(t->nodes);
    free(t->where);
    free(t->prov.rule);
    free(t->prov.tie_break);
    free(t->prov.citation);
    memset(t, 0, sizeof *t);
    t->prov.first = MM_NO_CODE;
}

mm_status mm_tree_alloc(mm_tree *t, uint32_t n, uint32_t *first, mm_diag *d)
{
    if (n > UINT32_MAX - 1 - t->nnodes)
        return mm_diag_set(d, MM_ERR_LIMIT, "tree has too many nodes");
    if (t->nnodes + n > t->cap) {
        uint64_t cap = t->cap ? t->cap : 64;
        while (cap < (uint64_t)t->nnodes + n)
            cap *= 2;
        if (cap > UINT32_MAX - 1)
            cap = UINT32_MAX - 1;
        mm_node *nodes = realloc(t->nodes, cap * sizeof *nodes);
        if (!nodes)
            return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %llu tree nodes",
                               (unsigned long long)cap);
        t->nodes = nodes;
        if (t->where) {
            mm_srcpos *w = realloc(t->where, cap * sizeof *w);
            if (!w)
                return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %llu tree nodes",
                                   (unsigned long long)cap);
            t->where = w;
        }
        t->cap = (uint32_t)cap;
    }
    *first = t->nnodes;
    for (uint32_t i = 0; i < n; i++) {
        mm_node *nd = &t->nodes[t->nnodes + i];
        memset(nd, 0, sizeof *nd);
        nd->child = MM_NO_NODE;
        if (t->where)
            t->where[t->nnodes + i] = (mm_srcpos){0, 0, -1};
    }
    t->nnodes += n;
    return MM_OK;
}

mm_status mm_tree_track_where(mm_tree *t, mm_diag *d)
{
    if (t->where)
        return MM_OK;
    t->where = malloc((t->cap ? t->cap : 1) * sizeof *t->where);
    if (!t->where)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < t->nnodes; i++)
        t->where[i] = (mm_srcpos){0, 0, -1};
    return MM_OK;
}

static mm_status set_string(char **dst, const char *src)
{
    char *s = NULL;
    if (src && !(s = strdup(src)))
        return MM_ERR_NOMEM;
    free(*dst);
    *dst = s;
    return MM_OK;
}

mm_status mm_tree_set_rule(mm_tree *t, const char *rule, bool consistent_only,
                           mm_code first)
{
    t->prov.consistent_only = consistent_only;
    t->prov.first = first;
    return set_string(&t->prov.rule, rule);
}

mm_status mm_tree_set_tie_break(mm_tree *t, const char *tie_break)
{
    return set_string(&t->prov.tie_break, tie_break);
}

mm_status mm_tree_set_citation(mm_tree *t, const char *citation)
{
    return set_string(&t->prov.citation, citation);
}

void mm_tree_stats(const mm_tree *t, mm_stats *st)
{
    mm_node_stats(t, 0, st);
}

bool mm_tree_equal(const mm_tree *a, const mm_tree *b)
{
    if (a->pegs != b->pegs || a->colors != b->colors || a->repeat != b->repeat)
        return false;
    if (a->nnodes != b->nnodes)
        return false;
    if (!a->nnodes)
        return true;
    /* Compare by walking both in step: node layouts may differ. */
    uint32_t *stack = malloc(2 * (size_t)a->nnodes * sizeof *stack);
    if (!stack)
        return false;
    size_t top = 0;
    bool eq = true;
    stack[top++] = 0;
    stack[top++] = 0;
    while (top && eq) {
        uint32_t j = stack[--top], i = stack[--top];
        const mm_node *x = &a->nodes[i], *y = &b->nodes[j];
        if (x->guess != y->guess || x->count != y->count ||
            ((x->flags ^ y->flags) & MM_NODE_CONSISTENT) ||
            x->replies != y->replies) {
            eq = false;
            break;
        }
        int k = mm_tree_nchildren(a, i);
        for (int c = 0; c < k && top + 2 <= 2 * (size_t)a->nnodes; c++) {
            stack[top++] = x->child + (uint32_t)c;
            stack[top++] = y->child + (uint32_t)c;
        }
    }
    free(stack);
    return eq;
}

/* A problem at node i: placed at the node's source position when the tree
 * has them ("guess 1234: ..." at line:col or byte offset), else named by
 * the node's index ("node 12 (guess 1234): ..."). */
static mm_status node_error(const mm_tree *t, const mm_game *g, mm_diag *d,
                            uint32_t i, bool with_guess, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static mm_status node_error(const mm_tree *t, const mm_game *g, mm_diag *d,
                            uint32_t i, bool with_guess, const char *fmt, ...)
{
    char body[MM_DIAG_MSG_MAX], code[MM_MAX_PEGS + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (with_guess)
        mm_code_format(g, t->nodes[i].guess, code);
    const mm_srcpos *w = t->where ? &t->where[i] : NULL;
    if (w && (w->line || w->offset >= 0)) {
        if (w->line)
            return mm_diag_at(d, MM_ERR_INPUT, w->line, w->col, "%s%s%s",
                              with_guess ? "guess " : "this node",
                              with_guess ? code : "", body);
        return mm_diag_at_offset(d, MM_ERR_INPUT, w->offset, "%s%s%s",
                                 with_guess ? "guess " : "this node",
                                 with_guess ? code : "", body);
    }
    if (with_guess)
        return mm_diag_set(d, MM_ERR_INPUT, "node %u (guess %s)%s", i, code, body);
    return mm_diag_set(d, MM_ERR_INPUT, "node %u%s", i, body);
}

/* One node of the check, whose true codes are those of it: its guess and
 * count, then the parts its guess makes (into *pt) against its flag and
 * its children's slots. */
static mm_status check_node(const mm_tree *t, walk *w, const walk_item *it,
                            walk_parts *pt, mm_diag *d)
{
    const mm_game *g = w->g;
    const mm_node *nd = &t->nodes[it->node];
    uint32_t size = it->hi - it->lo;
    if (nd->guess >= g->ncodes)
        return node_error(t, g, d, it->node, false, ": guess %u is not a code", nd->guess);
    if (nd->count != size)
        return node_error(t, g, d, it->node, true, ": states %u codes, %u are possible",
                          nd->count, size);
    walk_split(w, it, nd->guess, pt);
    bool consistent = pt->cnt[g->win] != 0;
    if (consistent != !!(nd->flags & MM_NODE_CONSISTENT))
        return node_error(t, g, d, it->node, true, ": marked %s but it %s be the code",
                          consistent ? "inconsistent" : "consistent",
                          consistent ? "can" : "cannot");
    if (pt->replies != nd->replies)
        return node_error(t, g, d, it->node, true,
                          ": its children are not the parts of its codes");
    return MM_OK;
}

/* The children of a checked node: in range, and each reached from it
 * alone. */
static mm_status check_children(const mm_tree *t, const mm_game *g, uint8_t *seen,
                                const walk_item *it, mm_diag *d)
{
    const mm_node *nd = &t->nodes[it->node];
    uint32_t k = (uint32_t)mm_tree_nchildren(t, it->node);
    if (nd->child == MM_NO_NODE || nd->child > t->nnodes || k > t->nnodes - nd->child)
        return node_error(t, g, d, it->node, false, ": children out of range");
    for (uint32_t c = 0; c < k; c++) {
        if (seen[nd->child + c])
            return node_error(t, g, d, nd->child + c, false, " is reached twice");
        seen[nd->child + c] = 1;
    }
    return MM_OK;
}

/* The true codes followed down the tree (core/walk.h): O(codes x depth)
 * time, O(codes + nodes) space. */
mm_status mm_tree_check(const mm_tree *t, const mm_game *g, mm_diag *d)
{
    mm_status st;
    walk w;
    if (t->pegs != g->pegs || t->colors != g->colors || t->repeat != g->repeat)
        return mm_diag_set(d, MM_ERR_INPUT, "tree and game differ");
    if (!t->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "tree has no node");
    uint8_t *seen = calloc(t->nnodes, 1);
    if (!seen)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory checking the tree");
    if ((st = walk_init(&w, g, 0, 0, d))) {
        free(seen);
        return st;
    }
    seen[0] = 1;
    for (walk_item it; walk_pop(&w, &it);) {
        walk_parts pt;
        const mm_node *nd = &t->nodes[it.node];
        if ((st = check_node(t, &w, &it, &pt, d)))
            break;
        if (!nd->replies)
            continue;
        if ((st = check_children(t, g, seen, &it, d)))
            break;
        if (!walk_push_children(&w, &it, &pt, nd->replies, nd->child)) {
            st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory checking the tree");
            break;
        }
    }
    walk_release(&w);
    free(seen);
    return st;
}
