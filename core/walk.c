/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* The walk that follows the true codes down a tree (core/walk.h). */
#include "walk.h"

#include <stdlib.h>

#include "grow.h"
#include "split.h"

mm_status walk_init(walk *w, const mm_game *g, uint32_t root, uint32_t ref, mm_diag *d)
{
    uint32_t n = g->ncodes;
    *w = (walk){.g = g};
    w->buf[0] = malloc((size_t)n * sizeof *w->buf[0]);
    w->buf[1] = malloc((size_t)n * sizeof *w->buf[1]);
    w->slot = malloc(n);
    if (!w->buf[0] || !w->buf[1] || !w->slot || !walk_push_slow(w, (walk_item){root, ref, 0, n, 1})) {
        walk_release(w);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the %lu codes of the game",
                           (unsigned long)n);
    }
    for (uint32_t i = 0; i < n; i++)
        w->buf[1][i] = i;
    return MM_OK;
}

void walk_release(walk *w)
{
    free(w->buf[0]);
    free(w->buf[1]);
    free(w->slot);
    free(w->stack);
    *w = (walk){0};
}

void walk_split(walk *w, const walk_item *it, mm_code guess, walk_parts *pt)
{
    uint64_t parts = game_split(w->g, guess, walk_codes(w, it), it->hi - it->lo,
                                w->buf[(it->depth + 1) & 1] + it->lo, w->slot + it->lo,
                                pt->cnt, pt->start, it->lo);
    pt->replies = parts & ~(UINT64_C(1) << w->g->win);
}

bool walk_useless(const mm_game *g, const walk_parts *pt, uint32_t n)
{
    if (!n || pt->cnt[g->win])
        return false;
    for (int s = 0; s < g->nreplies; s++)
        if (pt->cnt[s])
            return pt->cnt[s] == n;
    return false;
}

bool walk_push_slow(walk *w, walk_item it)
{
    walk_item *p = grow_array(w->stack, &w->cap, w->top + 1, 64, sizeof *p);
    if (!p)
        return false;
    w->stack = p;
    w->stack[w->top++] = it;
    return true;
}

bool walk_push_children(walk *w, const walk_item *it, const walk_parts *pt,
                        uint64_t replies, uint32_t first)
{
    uint32_t c = first + (uint32_t)__builtin_popcountll(replies);
    for (; replies; replies &= ~(UINT64_C(1) << (63 - __builtin_clzll(replies)))) {
        int s = 63 - __builtin_clzll(replies);
        if (!walk_push(w, walk_child(it, pt, s, --c, 0)))
            return false;
    }
    return true;
}
