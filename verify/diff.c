/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Comparing two trees of one game: walk both in step, following the same
 * reply at each node, and stop at the first node on each path where they
 * part.  Below such a node the trees ask different questions, so nothing
 * further down can be matched; what the difference costs is told by the
 * guesses each side's codes need from there.
 */
#include "mmtree/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "mmtree/query.h"

typedef struct differ {
    const mm_tree *a, *b;
    mm_diff_report *r;
    size_t cap;
    uint32_t *pairs;           /* stack of (node in a, node in b) */
    uint32_t *sub;             /* scratch stack for subtree sums */
    uint32_t *mark_a, *mark_b; /* subtree stamps, so a bad tree cannot loop */
    uint32_t stamp;
    uint8_t *seen;             /* nodes of a the walk has pushed */
} differ;

/* Children in range? (Trees compiled or read strictly always are.) */
static bool kids_ok(const mm_tree *t, uint32_t i)
{
    const mm_node *nd = &t->nodes[i];
    uint32_t k = (uint32_t)mm_tree_nchildren(t, i);
    return !k || (nd->child < t->nnodes && k <= t->nnodes - nd->child);
}

/* Guesses the codes below node need, counted from it, and the most. */
static void subtree(differ *df, const mm_tree *t, uint32_t *mark, uint32_t node,
                    uint64_t *total, int *worst)
{
    size_t top = 0;
    *total = 0;
    *worst = 0;
    df->stamp++;
    df->sub[top++] = node;
    df->sub[top++] = 1;
    mark[node] = df->stamp;
    while (top) {
        uint32_t depth = df->sub[--top], i = df->sub[--top];
        const mm_node *nd = &t->nodes[i];
        if (nd->flags & MM_NODE_CONSISTENT) {
            *total += depth;
            if ((int)depth > *worst)
                *worst = (int)depth;
        }
        if (!kids_ok(t, i))
            continue;
        for (int c = 0; c < mm_tree_nchildren(t, i); c++) {
            uint32_t ch = nd->child + (uint32_t)c;
            if (mark[ch] == df->stamp)
                continue;
            mark[ch] = df->stamp;
            df->sub[top++] = ch;
            df->sub[top++] = depth + 1;
        }
    }
}

static bool add_item(differ *df, mm_diff_kind kind, uint32_t a, uint32_t b)
{
    mm_diff_report *r = df->r;
    mm_diff_item *ni = grow_array(r->items, &df->cap, (size_t)r->nitems + 1, 16, sizeof *ni);
    if (!ni)
        return false;
    r->items = ni;
    mm_diff_item *it = &r->items[r->nitems++];
    it->kind = kind;
    it->a = a;
    it->b = b;
    subtree(df, df->a, df->mark_a, a, &it->total_a, &it->worst_a);
    subtree(df, df->b, df->mark_b, b, &it->total_b, &it->worst_b);
    return true;
}

static mm_status walk(differ *df, mm_diag *d)
{
    const mm_tree *a = df->a, *b = df->b;
    mm_diff_report *r = df->r;
    size_t top = 0;
    /* Each node of a is pushed at most once, so the stack holds at most
     * a->nnodes pairs. */
    df->seen[0] = 1;
    df->pairs[top++] = 0;
    df->pairs[top++] = 0;
    while (top) {
        uint32_t j = df->pairs[--top], i = df->pairs[--top];
        const mm_node *x = &a->nodes[i], *y = &b->nodes[j];
        if (x->guess != y->guess || x->count != y->count || x->replies != y->replies ||
            ((x->flags ^ y->flags) & MM_NODE_CONSISTENT) || !kids_ok(a, i) ||
            !kids_ok(b, j)) {
            if (!add_item(df, x->guess != y->guess ? MM_DIFF_GUESS : MM_DIFF_SHAPE, i, j))
                return mm_diag_set(d, MM_ERR_NOMEM, "out of memory comparing the trees");
            continue;
        }
        for (int s = MM_MAX_REPLIES - 1; s >= 0; s--) {
            if (!(x->replies >> s & 1u))
                continue;
            uint32_t ci = mm_tree_child(a, i, s), cj = mm_tree_child(b, j, s);
            if (df->seen[ci])
                continue;
            df->seen[ci] = 1;
            r->paths.parent[ci] = i;
            r->paths.slot[ci] = (uint8_t)s;
            df->pairs[top++] = ci;
            df->pairs[top++] = cj;
        }
    }
    return MM_OK;
}

static mm_status same_games(const mm_tree *a, const mm_tree *b, const mm_game *g,
                            mm_diag *d)
{
    if (a->pegs != b->pegs || a->colors != b->colors || a->repeat != b->repeat)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "the trees are of different games: MM(%d,%d%s) and MM(%d,%d%s)",
                           a->pegs, a->colors, a->repeat ? "" : ", no repeat", b->pegs,
                           b->colors, b->repeat ? "" : ", no repeat");
    if (a->pegs != g->pegs || a->colors != g->colors || a->repeat != g->repeat)
        return mm_diag_set(d, MM_ERR_USAGE, "the trees are of MM(%d,%d%s), not of MM(%d,%d%s)",
                           a->pegs, a->colors, a->repeat ? "" : ", no repeat", g->pegs,
                           g->colors, g->repeat ? "" : ", no repeat");
    return MM_OK;
}

mm_status mm_tree_diff(const mm_tree *a, const mm_tree *b, const mm_game *g,
                       mm_diff_report *r, mm_diag *d)
{
    differ df;
    mm_status st = MM_OK;
    memset(r, 0, sizeof *r);
    memset(&df, 0, sizeof df);
    r->paths.t = a;
    if ((st = same_games(a, b, g, d)))
        return st;
    if (!a->nnodes || !b->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "a tree has no node");
    df.a = a;
    df.b = b;
    df.r = r;
    size_t na = a->nnodes, nb = b->nnodes, nmax = na > nb ? na : nb;
    df.pairs = malloc(2 * na * sizeof *df.pairs);
    df.sub = malloc(2 * nmax * sizeof *df.sub);
    df.mark_a = calloc(na, sizeof *df.mark_a);
    df.mark_b = calloc(nb, sizeof *df.mark_b);
    df.seen = calloc(na, 1);
    r->paths.parent = malloc(na * sizeof *r->paths.parent);
    r->paths.slot = calloc(na, 1);
    if (!df.pairs || !df.sub || !df.mark_a || !df.mark_b || !df.seen ||
        !r->paths.parent || !r->paths.slot) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory comparing the trees");
        goto out;
    }
    for (size_t i = 0; i < na; i++)
        r->paths.parent[i] = MM_NO_NODE;
    mm_tree_stats(a, &r->a);
    mm_tree_stats(b, &r->b);
    st = walk(&df, d);
out:
    free(df.pairs);
    free(df.sub);
    free(df.mark_a);
    free(df.mark_b);
    free(df.seen);
    if (st)
        mm_diff_report_release(r);
    return st;
}

void mm_diff_report_release(mm_diff_report *r)
{
    free(r->items);
    free(r->paths.parent);
    free(r->paths.slot);
    memset(r, 0, sizeof *r);
}

mm_status mm_tree_diff_codes(const mm_tree *a, const mm_tree *b, const mm_game *g,
                             mm_code_diff *r, mm_diag *d)
{
    mm_depths da, db;
    size_t cap = 0;
    memset(r, 0, sizeof *r);
    mm_status st = same_games(a, b, g, d);
    if (st)
        return st;
    st = mm_tree_depths(a, g, &da, d);
    if (!st)
        st = mm_tree_depths(b, g, &db, d);
    else
        memset(&db, 0, sizeof db);
    for (mm_code x = 0; !st && x < g->ncodes; x++) {
        if (da.guesses[x] == db.guesses[x])
            continue;
        mm_code_change *nc = grow_array(r->changes, &cap, (size_t)r->nchanges + 1, 64,
                                        sizeof *nc);
        if (!nc) {
            st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory comparing the trees");
            break;
        }
        r->changes = nc;
        r->changes[r->nchanges++] = (mm_code_change){x, da.guesses[x], db.guesses[x]};
    }
    r->a = da.stats;
    r->b = db.stats;
    mm_depths_release(&da);
    mm_depths_release(&db);
    if (st)
        mm_code_diff_release(r);
    return st;
}

void mm_code_diff_release(mm_code_diff *r)
{
    free(r->changes);
    memset(r, 0, sizeof *r);
}

char *mm_node_format(const mm_tree *t, const mm_game *g, uint32_t node,
                     char *buf, size_t size)
{
    const mm_node *nd = &t->nodes[node];
    char code[MM_MAX_PEGS + 1] = "?", reply[MM_MAX_PEGS + 1];
    size_t len = 0;
    if (!size)
        return buf;
    if (nd->guess < g->ncodes)
        mm_code_format(g, nd->guess, code);
    int w = snprintf(buf, size, "%u(%s%s", nd->count, code,
                     nd->flags & MM_NODE_CONSISTENT ? "" : "*");
    len = w > 0 ? (size_t)w : 0;
    bool kids = kids_ok(t, node);
    for (int s = 0, k = 0; kids && s < g->nreplies && len < size; s++) {
        uint32_t ch = mm_tree_child(t, node, s);
        if (ch == MM_NO_NODE)
            continue;
        w = snprintf(buf + len, size - len, "%s %s %u", k++ ? "," : ":",
                     mm_reply_format(g, s, reply), t->nodes[ch].count);
        len += w > 0 ? (size_t)w : 0;
    }
    if (len < size)
        snprintf(buf + len, size - len, ")");
    return buf;
}
