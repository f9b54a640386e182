/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Queries on a game and a tree (include/mmtree/query.h). */
#include "mmtree/query.h"

#include <stdlib.h>
#include <string.h>

mm_status mm_codes_after(const mm_game *g, const mm_step *steps, uint32_t n,
                         mm_code **codes, uint32_t *count, uint32_t *empty_at,
                         mm_diag *d)
{
    *codes = NULL;
    *count = 0;
    if (empty_at)
        *empty_at = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (steps[i].guess >= g->ncodes)
            return mm_diag_set(d, MM_ERR_USAGE, "step %u: the guess is not a code of the game",
                               i + 1);
        if (steps[i].slot < 0 || steps[i].slot >= g->nreplies)
            return mm_diag_set(d, MM_ERR_USAGE, "step %u: the reply is not one of the game",
                               i + 1);
    }
    uint32_t m = g->ncodes;
    mm_code *cur = malloc((size_t)m * sizeof *cur);
    mm_code *tmp = n ? malloc((size_t)m * sizeof *tmp) : NULL;
    uint8_t *slot = n ? malloc(m) : NULL;
    if (!cur || (n && (!tmp || !slot))) {
        free(cur);
        free(tmp);
        free(slot);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %u codes", m);
    }
    for (uint32_t x = 0; x < m; x++)
        cur[x] = x;
    for (uint32_t i = 0; i < n && m; i++) {
        uint32_t cnt[MM_MAX_REPLIES], start[MM_MAX_REPLIES];
        int s = steps[i].slot;
        mm_game_split(g, steps[i].guess, cur, m, tmp, slot, cnt, start);
        m = cnt[s];
        memcpy(cur, tmp + start[s], (size_t)m * sizeof *cur);
        if (!m && empty_at)
            *empty_at = i + 1;
    }
    free(tmp);
    free(slot);
    if (!m) {
        free(cur);
        return MM_OK;
    }
    mm_code *fit = realloc(cur, (size_t)m * sizeof *cur);
    *codes = fit ? fit : cur;
    *count = m;
    return MM_OK;
}

/* Depth-first walks use an explicit stack: a tree may be as deep as it
 * has nodes. */
typedef struct walk_item {
    uint32_t node, depth;
} walk_item;

void mm_node_stats(const mm_tree *t, uint32_t node, mm_stats *st)
{
    memset(st, 0, sizeof *st);
    if (node >= t->nnodes)
        return;
    st->codes = t->nodes[node].count;
    walk_item *stack = malloc((size_t)t->nnodes * sizeof *stack);
    if (!stack)
        return;
    size_t top = 0;
    stack[top++] = (walk_item){node, 1};
    while (top) {
        walk_item it = stack[--top];
        const mm_node *nd = &t->nodes[it.node];
        st->nodes++;
        if (nd->flags & MM_NODE_CONSISTENT) {
            st->total += it.depth;
            if ((int)it.depth > st->worst)
                st->worst = (int)it.depth;
            st->hist[it.depth <= 64 ? it.depth - 1 : 63]++;
        } else {
            st->inconsistent++;
        }
        int k = mm_tree_nchildren(t, it.node);
        for (int j = k - 1; j >= 0 && top < t->nnodes; j--)
            stack[top++] = (walk_item){nd->child + (uint32_t)j, it.depth + 1};
    }
    free(stack);
}

static mm_status same_game(const mm_tree *t, const mm_game *g, mm_diag *d)
{
    if (t->pegs != g->pegs || t->colors != g->colors || t->repeat != g->repeat)
        return mm_diag_set(d, MM_ERR_USAGE, "the tree is of MM(%d,%d%s), not of MM(%d,%d%s)",
                           t->pegs, t->colors, t->repeat ? "" : ", no repeat", g->pegs,
                           g->colors, g->repeat ? "" : ", no repeat");
    if (!t->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "the tree is empty");
    return MM_OK;
}

/* mm_tree_trace once the tree and the secret are known to be good.  A
 * checked tree ends every game within its depth; the bound on the steps
 * only keeps a bad one from looping. */
static mm_status trace(const mm_tree *t, const mm_game *g, mm_code secret,
                       mm_step *steps, uint32_t max, uint32_t *n, uint32_t *node,
                       mm_diag *d)
{
    char code[MM_MAX_PEGS + 1], guess[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    uint32_t at = 0;
    for (uint32_t k = 0; k < t->nnodes; k++) {
        mm_code x = t->nodes[at].guess;
        if (x >= g->ncodes)
            break;
        int s = mm_game_score(g, x, secret);
        if (k < max)
            steps[k] = (mm_step){x, s};
        if (s == g->win) {
            *n = k + 1;
            if (node)
                *node = at;
            return MM_OK;
        }
        uint32_t c = mm_tree_child(t, at, s);
        if (c == MM_NO_NODE || c >= t->nnodes)
            return mm_diag_set(d, MM_ERR_INPUT,
                               "the tree does not find %s: guess %u, %s, gets %s, which "
                               "the tree does not follow",
                               mm_code_format(g, secret, code), k + 1,
                               mm_code_format(g, x, guess), mm_reply_format(g, s, reply));
        at = c;
    }
    return mm_diag_set(d, MM_ERR_INPUT, "the tree does not find %s",
                       mm_code_format(g, secret, code));
}

mm_status mm_tree_trace(const mm_tree *t, const mm_game *g, mm_code secret,
                        mm_step *steps, uint32_t max, uint32_t *n, uint32_t *node,
                        mm_diag *d)
{
    mm_status st = same_game(t, g, d);
    if (st)
        return st;
    if (secret >= g->ncodes)
        return mm_diag_set(d, MM_ERR_USAGE, "the secret is not a code of the game");
    return trace(t, g, secret, steps, max, n, node, d);
}

mm_status mm_tree_depths(const mm_tree *t, const mm_game *g, mm_depths *r,
                         mm_diag *d)
{
    memset(r, 0, sizeof *r);
    mm_status st = same_game(t, g, d);
    if (st)
        return st;
    r->guesses = malloc((size_t)g->ncodes * sizeof *r->guesses);
    r->node = malloc((size_t)g->ncodes * sizeof *r->node);
    if (!r->guesses || !r->node)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %u codes", g->ncodes);
    r->ncodes = g->ncodes;
    mm_stats *s = &r->stats;
    mm_tree_stats(t, s);
    s->codes = g->ncodes;
    s->total = 0;
    s->worst = 0;
    memset(s->hist, 0, sizeof s->hist);
    for (mm_code x = 0; x < g->ncodes; x++) {
        uint32_t k;
        if ((st = trace(t, g, x, NULL, 0, &k, &r->node[x], d)))
            return st;
        r->guesses[x] = k;
        s->total += k;
        if ((int)k > s->worst)
            s->worst = (int)k;
        s->hist[k <= 64 ? k - 1 : 63]++;
    }
    return MM_OK;
}

void mm_depths_release(mm_depths *r)
{
    free(r->guesses);
    free(r->node);
    memset(r, 0, sizeof *r);
}
