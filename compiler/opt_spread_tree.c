/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The facts of a spread search's tree (opt_spread.h).  Once the root's
 * value is known, the driver builds the tree from its table, which holds
 * the sets the coordinator expanded but not the subtrees of the units:
 * those are in the tables of the workers that solved them.  So each part
 * of a best guess that was a unit becomes a build task, handed to the
 * worker that solved it when that worker is free (its table knows the
 * answer), and the facts it sends back go into the driver's table.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "opt_spread.h"

typedef struct sbuilds {
    sbuild *b;
    size_t n, cap;
} sbuilds;

/* A task building part j of A, from the worker that solved it. */
static bool build_part(spread *sp, sbuilds *bs, const scand *A, int j, bool canonical)
{
    const snode *X = A->up, *Y = A->child[j];
    sbuild *b = grow_array(bs->b, &bs->cap, bs->n + 1, 16, sizeof *b);
    if (!b)
        return false;
    bs->b = b;
    b = &bs->b[bs->n++];
    memset(b, 0, sizeof *b);
    b->pref = Y ? Y->worker : -1;
    b->t = (otask){.id = ++sp->next_id, .kind = OTASK_BUILD,
                   .consistent = sp->sh->consistent_only, .ties = canonical,
                   .depth = sp->sh->depth_mode ? X->depth - 1 : X->depth,
                   .limit = A->pt[j].v};
    ospread_task_path(X, &b->t);
    b->t.guess[X->lv] = A->q;
    b->t.reply[X->lv] = (uint8_t)mm_game_score(sp->g, A->q, A->codes[A->pt[j].start]);
    b->t.plen = X->lv + 1;
    return true;
}

/* The parts of the best guesses that were solved as units: the subtrees
 * the coordinator's table lacks. */
static bool collect_builds(spread *sp, sbuilds *bs, const scand *A, bool canonical)
{
    for (int j = 0; j < A->np; j++) {
        const snode *Y = A->child[j];
        if (A->pt[j].n < 3)
            continue;
        if (Y && Y->best_c && Y->state == N_DONE) {
            if (!collect_builds(sp, bs, Y->best_c, canonical))
                return false;
        } else if (!build_part(sp, bs, A, j, canonical)) {
            return false;
        }
    }
    return true;
}

/* Hand the next build to worker r, the one it solved if any. */
static sbuild *next_build(sbuilds *bs, int r)
{
    sbuild *any = NULL;
    for (size_t i = 0; i < bs->n; i++) {
        sbuild *b = &bs->b[i];
        if (b->started)
            continue;
        if (b->pref == r)
            return b;
        if (!any)
            any = b;
    }
    return any;
}

static void take_facts(spread *sp, const oresult *res)
{
    for (uint32_t i = 0; i < res->nfacts; i++) {
        const ofact *f = &res->facts[i];
        ocache_put(&sp->sh->cache, f->h1, f->h2, f->depth, f->n, f->v, f->flags, f->guess);
    }
    sp->st.facts += res->nfacts;
}

mm_status ospread_facts(void *arg, oworker *w, bool canonical, mm_diag *d)
{
    spread *sp = arg;
    sbuilds bs = {0};
    sp->sh = w->sh;
    sp->d = d;
    sp->fail = MM_OK;
    if (!sp->sh->use_cache || !sp->root || !sp->root->best_c)
        return MM_OK;   /* the table has it, or the driver searches */
    if (!collect_builds(sp, &bs, sp->root->best_c, canonical)) {
        free(bs.b);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory in the optimal search");
    }
    size_t left = bs.n;
    while (left && !sp->fail) {
        for (int r = 0; r < sp->link->n; r++) {
            sbuild *b = sp->busy[r] ? NULL : next_build(&bs, r);
            if (!b)
                continue;
            b->started = true;
            sp->busy[r] = true;
            sp->bcur[r] = (int)(b - bs.b);
            sp->st.builds++;
            mm_status st = sp->link->start(sp->link->arg, r, &b->t, d);
            if (st)
                ospread_failed(sp, st);
        }
        int r;
        oresult res;
        int got = sp->link->poll(sp->link->arg, 0.002, &r, &res, d);
        if (got < 0) {
            ospread_failed(sp, MM_ERR_IO);
            break;
        }
        if (!got)
            continue;
        int bi = sp->bcur[r];
        sp->bcur[r] = -1;
        sp->cur[r] = NULL;
        sp->busy[r] = false;
        atomic_fetch_add(&sp->sh->nodes, res.nodes);
        if (res.status) {
            ospread_worker_failed(sp, r, &res);
        } else if (bi >= 0 && res.id == bs.b[bi].t.id) {
            take_facts(sp, &res);
            left--;
        }
        oresult_release(&res);
    }
    free(bs.b);
    return sp->fail;
}

