/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* The position a compile starts from (position.h). */
#include "position.h"

#include <stdlib.h>

#include "mmtree/query.h"
#include "mmtree/tree.h"

mm_status position_codes(const mm_game *g, const mm_compile_opts *o, mm_code **S,
                         uint32_t *n, uint16_t *played, mm_diag *d)
{
    char path[MM_STEP_MAX * 16];
    uint32_t empty_at = 0;
    *S = NULL;
    *n = 0;
    *played = 0;
    for (uint32_t i = 0; i < o->nafter; i++) {
        if (o->after[i].guess >= g->ncodes || o->after[i].slot < 0 ||
            o->after[i].slot >= g->nreplies)
            return mm_diag_set(d, MM_ERR_USAGE, "step %u of the position is not a guess "
                               "and a reply of the game", i + 1);
        *played |= g->colorset[o->after[i].guess];
        if (o->after[i].slot == g->win) {
            mm_path_format(g, o->after, i + 1, path, sizeof path);
            return mm_diag_set(d, MM_ERR_USAGE, "the game is over after %s", path);
        }
    }
    mm_status st = mm_codes_after(g, o->after, o->nafter, S, n, &empty_at, d);
    if (st || *n)
        return st;
    mm_path_format(g, o->after, empty_at, path, sizeof path);
    return mm_diag_set(d, MM_ERR_USAGE, "no code of MM(%d,%d%s) gives the replies %s",
                       g->pegs, g->colors, g->repeat ? "" : ", no repeat", path);
}

mm_status mm_position_stats(const mm_game *g, const mm_compile_opts *o,
                            const mm_step *steps, uint32_t n, mm_code guess,
                            mm_stats *st, mm_diag *d)
{
    mm_compile_opts po = *o;
    mm_tree t;
    po.after = steps;
    po.nafter = n;
    po.first = guess;
    mm_status rc = mm_compile(g, &po, &t, d);
    if (rc)
        return rc;
    mm_tree_stats(&t, st);
    mm_tree_release(&t);
    return MM_OK;
}
