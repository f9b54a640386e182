/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Progress of a search, as its reports show it: what is proven about the
 * root and how much of its work is done, followed candidate by candidate.
 *
 * Every first guess (candidate at the root) has a proven lower bound: its
 * perfect-tree bound to begin with, then the sum of its parts' values as
 * they are raised and solved, then its exact value (or the bound that
 * dropped it).  The root's value is at least the least of them, so that
 * bound moves as parts are proven, and it is the one a stopped search
 * reports.  The work done is the mean over the candidates kept of the
 * share of their parts' codes whose values are settled: a candidate
 * counts 0 before it starts and 1 once it is solved or dropped.
 */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

typedef struct oprog {
    uint32_t ncand;             /* candidates in tie order: idx < ncand */
    uint32_t nkept;             /* those kept after their bounds */
    oval minfail;               /* least bound of those not kept */
    _Atomic oval *lb;           /* per idx: proven bound, OV_INF if not kept */
    atomic_uint_fast32_t *settled, *size; /* per idx: codes settled, in all */
    atomic_bool *finished;
    bool *kept;                 /* per idx: among the nkept (set at the start) */
    _Atomic mm_code current;    /* the first guess being tried */
} oprog;

static void oprog_free(oprog *p)
{
    if (!p)
        return;
    free(p->lb);
    free(p->settled);
    free(p->size);
    free(p->finished);
    free(p->kept);
    free(p);
}

void oprog_begin(oshared *sh, const olevel *l, uint32_t ncand, uint32_t nkept, oval minfail)
{
    oprog *p = calloc(1, sizeof *p);
    if (p) {
        p->lb = malloc(ncand * sizeof *p->lb);
        p->settled = calloc(ncand, sizeof *p->settled);
        p->size = calloc(ncand, sizeof *p->size);
        p->finished = calloc(ncand, sizeof *p->finished);
        p->kept = calloc(ncand, sizeof *p->kept);
    }
    if (!p || !p->lb || !p->settled || !p->size || !p->finished || !p->kept) {
        oprog_end(sh);   /* progress is not worth failing for */
        oprog_free(p);
        return;
    }
    p->ncand = ncand;
    p->nkept = nkept;
    p->minfail = minfail;
    for (uint32_t i = 0; i < ncand; i++)
        atomic_init(&p->lb[i], OV_INF);
    for (uint32_t i = 0; i < nkept; i++) {
        atomic_store(&p->lb[l->ci[i].idx], l->ci[i].lb);
        p->kept[l->ci[i].idx] = true;
    }
    atomic_init(&p->current, MM_NO_CODE);
    oprog_end(sh);
    atomic_store(&sh->prog, p);
}

void oprog_end(oshared *sh)
{
    oprog_free(atomic_exchange(&sh->prog, NULL));
}

/* Candidate idx is at least v now (bounds only rise). */
void oprog_bound(oshared *sh, uint32_t idx, oval v)
{
    oprog *p = atomic_load(&sh->prog);
    if (!p || idx >= p->ncand || v == OV_ABORT)
        return;
    oval old = atomic_load(&p->lb[idx]);
    while (old < v && !atomic_compare_exchange_weak(&p->lb[idx], &old, v))
        ;
}

void oprog_parts(oshared *sh, uint32_t idx, uint32_t settled, uint32_t size)
{
    oprog *p = atomic_load(&sh->prog);
    if (!p || idx >= p->ncand)
        return;
    atomic_store(&p->size[idx], size);
    atomic_store(&p->settled[idx], settled);
}

void oprog_settle(oshared *sh, uint32_t idx, uint32_t codes)
{
    oprog *p = atomic_load(&sh->prog);
    if (p && idx < p->ncand)
        atomic_fetch_add(&p->settled[idx], codes);
}

void oprog_start(oshared *sh, mm_code q)
{
    oprog *p = atomic_load(&sh->prog);
    if (p)
        atomic_store(&p->current, q);
}

void oprog_finish(oshared *sh, uint32_t idx, oval v)
{
    oprog *p = atomic_load(&sh->prog);
    if (!p || idx >= p->ncand || v == OV_ABORT)
        return;
    oprog_bound(sh, idx, v);
    atomic_store(&p->finished[idx], true);
}

oval opt_root_lower(const oshared *sh)
{
    const oprog *p = atomic_load(&((oshared *)sh)->prog);
    if (!p)
        return sh->root_lower;
    oval lower = p->minfail;
    for (uint32_t i = 0; i < p->ncand; i++) {
        oval v = atomic_load(&p->lb[i]);
        if (v < lower)
            lower = v;
    }
    return lower > sh->root_lower ? lower : sh->root_lower;
}

/* The mean share of settled codes over the candidates kept. */
static double work_done(const oprog *p)
{
    double sum = 0;
    for (uint32_t i = 0; i < p->ncand; i++) {
        if (!p->kept[i])
            continue;
        uint32_t size = (uint32_t)atomic_load(&p->size[i]);
        if (atomic_load(&p->finished[i]))
            sum += 1;
        else if (size)
            sum += (double)atomic_load(&p->settled[i]) / size;
    }
    return p->nkept ? sum / p->nkept : 0;
}

double opt_progress_done(const oshared *sh)
{
    const oprog *p = atomic_load(&((oshared *)sh)->prog);
    if (p)
        return work_done(p);
    unsigned nc = atomic_load(&((oshared *)sh)->root_nc);
    return nc ? (double)atomic_load(&((oshared *)sh)->root_i) / nc : 0;
}

void opt_progress_fill(const oshared *sh, mm_optimal_report *r)
{
    r->worst_first = sh->worst_first;
    r->worst_lower = sh->worst_lower;
    r->worst_upper = sh->worst_upper;
    if (sh->polishing) {   /* the search is over: the polish's counts */
        r->polishing = true;
        r->polish_solved = sh->polishing->solved;
        r->polish_bettered = sh->polishing->bettered;
        r->polish_saved = sh->polishing->saved;
        r->current = MM_NO_CODE;
        return;
    }
    int trying = atomic_load(&((oshared *)sh)->feas_depth);
    if (trying) {   /* is a depth enough: no total, no share yet */
        r->trying = trying;
        r->current = atomic_load(&((oshared *)sh)->feas_guess);
        r->tried = atomic_load(&((oshared *)sh)->feas_i);
        r->candidates = atomic_load(&((oshared *)sh)->feas_n);
        return;
    }
    oval best = atomic_load(&((oshared *)sh)->root_best);   /* the incumbent, if any */
    r->total = best < OV_INF && OV_T(best) < sh->upper ? OV_T(best) : sh->upper;
    if (r->total >= OV_T(OV_INF - 1))
        r->total = 0;   /* no tree within the depth yet */
    r->lower = OV_T(opt_root_lower(sh));
    const oprog *p = atomic_load(&((oshared *)sh)->prog);
    r->current = p ? atomic_load(&p->current) : MM_NO_CODE;
    r->done = opt_progress_done(sh);
}
