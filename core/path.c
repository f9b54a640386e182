/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Replies and paths (include/mmtree/path.h). */
#include "mmtree/path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *mm_reply_format(const mm_game *g, int slot, char *buf)
{
    int n = 0;
    if (slot < 0 || slot >= g->nreplies) {
        buf[n++] = '?';
    } else {
        for (int i = 0; i < g->black[slot]; i++)
            buf[n++] = 'B';
        for (int i = 0; i < g->white[slot]; i++)
            buf[n++] = 'W';
        if (n == 0)
            buf[n++] = '-';
    }
    buf[n] = '\0';
    return buf;
}

mm_status mm_reply_parse(const mm_game *g, const char *s, size_t len, int *slot,
                         mm_diag *d)
{
    int black = 0, white = 0;
    if (len == 1 && s[0] == '-')
        goto found;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == 'B')
            black++;
        else if (s[i] == 'W')
            white++;
        else
            goto bad;
    }
    if (len == 0 || black + white > g->pegs)
        goto bad;
found:
    *slot = mm_reply_slot(g, black, white);
    if (black == g->pegs - 1 && white == 1)
        return mm_diag_set(d, MM_ERR_USAGE,
                           "'%.*s' is not a reply: %d black and 1 white cannot happen",
                           (int)len, s, black);
    if (*slot >= 0)
        return MM_OK;
bad:
    return mm_diag_set(d, MM_ERR_USAGE,
                       "'%.*s' is not a reply: write B per black hit and W per "
                       "white hit (at most %d), or '-' for none",
                       (int)(len > 32 ? 32 : len), s, g->pegs);
}

static mm_status parse_step(const mm_game *g, const char *s, size_t len,
                            uint32_t step, mm_step *out, mm_diag *d)
{
    const char *colon = memchr(s, ':', len);
    if (!colon)
        return mm_diag_set(d, MM_ERR_USAGE, "path step %u '%.*s': expected GUESS:REPLY",
                           step, (int)(len > 32 ? 32 : len), s);
    size_t glen = (size_t)(colon - s);
    mm_diag sub;
    mm_diag_clear(&sub);
    if (mm_code_parse(g, s, glen, &out->guess, &sub) ||
        mm_reply_parse(g, colon + 1, len - glen - 1, &out->slot, &sub))
        return mm_diag_set(d, MM_ERR_USAGE, "path step %u: %s", step, sub.msg);
    return MM_OK;
}

mm_status mm_path_parse(const mm_game *g, const char *text, mm_step *steps,
                        uint32_t max, uint32_t *n, mm_diag *d)
{
    *n = 0;
    if (!text || !*text)
        return MM_OK;
    for (const char *s = text;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (*n == max)
            return mm_diag_set(d, MM_ERR_LIMIT, "the path has more than %u steps", max);
        mm_status st = parse_step(g, s, len, *n + 1, &steps[*n], d);
        if (st)
            return st;
        ++*n;
        if (!comma)
            return MM_OK;
        s = comma + 1;
    }
}

char *mm_path_format(const mm_game *g, const mm_step *steps, uint32_t n,
                     char *buf, size_t size)
{
    size_t len = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n; i++) {
        char code[MM_MAX_PEGS + 1] = "?", reply[MM_REPLY_MAX];
        if (steps[i].guess < g->ncodes)
            mm_code_format(g, steps[i].guess, code);
        int w = snprintf(buf + len, size - len, "%s%s:%s", i ? "," : "", code,
                         mm_reply_format(g, steps[i].slot, reply));
        if (w < 0 || (size_t)w >= size - len) {
            if (size > 4)
                memcpy(buf + size - 4, "...", 4);
            break;
        }
        len += (size_t)w;
    }
    return buf;
}

mm_status mm_tree_follow(const mm_tree *t, const mm_game *g,
                         const mm_step *steps, uint32_t n, uint32_t *node,
                         mm_diag *d)
{
    if (!t->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "the tree is empty");
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        const mm_node *nd = &t->nodes[at];
        char have[MM_MAX_PEGS + 1], want[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
        mm_reply_format(g, steps[i].slot, reply);
        if (steps[i].guess < g->ncodes)
            mm_code_format(g, steps[i].guess, want);
        else
            strcpy(want, "?");
        if (nd->guess != steps[i].guess) {
            if (nd->guess >= g->ncodes)
                return mm_diag_set(d, MM_ERR_USAGE,
                                   "path step %u: the tree has no guess there", i + 1);
            return mm_diag_set(d, MM_ERR_USAGE,
                               "path step %u: the tree guesses %s there, not %s", i + 1,
                               mm_code_format(g, nd->guess, have), want);
        }
        if (steps[i].slot == g->win)
            return mm_diag_set(d, MM_ERR_USAGE,
                               "path step %u: reply %s to %s ends the game", i + 1,
                               reply, want);
        uint32_t c = mm_tree_child(t, at, steps[i].slot);
        if (c == MM_NO_NODE || c >= t->nnodes)
            return mm_diag_set(d, MM_ERR_USAGE,
                               "path step %u: no code still possible gives reply %s to %s",
                               i + 1, reply, want);
        at = c;
    }
    *node = at;
    return MM_OK;
}

mm_status mm_tree_find(const mm_tree *t, const mm_game *g, const char *path,
                       uint32_t *node, mm_diag *d)
{
    /* A path cannot be longer than its text allows: 2 characters a step
     * at the least ("1:-" is 3, with the comma 4). */
    size_t len = path ? strlen(path) : 0;
    uint32_t max = (uint32_t)(len / 4 + 1);
    mm_step small[64], *steps = max <= 64 ? small : malloc(max * sizeof *steps);
    if (!steps)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory");
    uint32_t n;
    mm_status st = mm_path_parse(g, path, steps, max, &n, d);
    if (!st)
        st = mm_tree_follow(t, g, steps, n, node, d);
    if (steps != small)
        free(steps);
    return st;
}
