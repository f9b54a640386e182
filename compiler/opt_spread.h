/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The coordinator of a spread search, shared by its two files:
 * opt_spread.c searches (the top of the branch and bound, the units on
 * the workers), opt_spread_tree.c then gathers from the workers the
 * facts the tree needs.
 */
#ifndef MM_OPT_SPREAD_H
#define MM_OPT_SPREAD_H

#include "opt.h"
#include "opt_unit.h"

enum { N_NEW, N_QUEUED, N_RUNNING, N_EXPANDED, N_DONE };

typedef struct scand scand;
typedef struct snode snode;

/* A candidate guess of an expanded set. */
typedef struct sguess {
    mm_code q;
    oval lb;
    uint32_t idx;          /* its place in tie order */
} sguess;

struct snode {
    scand *up;             /* the guess this set is a part of; NULL: root */
    int part;              /* its place in up->pt: parts go smallest first */
    int slot;              /* its reply to up->q */
    int lv, depth;
    const ogroup *G;
    const mm_code *S;
    uint32_t n;
    oval limit;            /* the most its value can be of use */
    int state;
    bool dead;             /* cancelled: its result is not wanted */
    snode *fnext;          /* in the list of sets done, parents not told */
    uint64_t seq;          /* creation order: ties in the queue */
    /* a unit */
    uint64_t id;
    int worker;            /* that solved or solves it; -1: none */
    oval sent;             /* the limit the worker has */
    double sent_at;
    size_t heap;
    /* expanded */
    sguess *cands;
    uint32_t nc, next;     /* candidates; the next to start */
    int K;
    bool launched;         /* the first is done and the others started */
    oval minfail, best;
    bool have;
    uint32_t best_idx;
    mm_code best_q;
    scand *best_c;         /* the best guess so far, kept for the tree */
    scand *live;           /* guesses being evaluated */
    int nlive;
    /* done */
    oval v;
    bool exact;
};

struct scand {
    snode *up;
    scand *prev, *next;    /* in up->live */
    bool dead;
    mm_code q;
    uint32_t pos;          /* its place in up->cands: the order tried */
    uint32_t idx;
    oval bound;
    mm_code *codes;        /* the parts, as opt_split lays them out */
    ogroup grp;            /* the group after q */
    int np;
    opart pt[MM_MAX_REPLIES];
    snode *child[MM_MAX_REPLIES];
};

/* A task that builds the facts of a part of the tree. */
typedef struct sbuild {
    otask t;
    int pref;              /* the worker that solved it: its table knows */
    bool started;
} sbuild;

typedef struct spread {
    const mm_game *g;
    const olink *link;
    const ospread_opts *so;
    oshared *sh;
    oworker *w;            /* the driver's worker: expansions */
    mm_diag *d;
    bool ties;             /* the units': the driver's choice */
    bool biggest;          /* units biggest first, not in search order */
    snode *root;
    snode **heap;          /* the units waiting, biggest first */
    size_t nheap, hcap;
    snode **cur;           /* the unit each worker runs; NULL: none wanted */
    int *bcur;             /* the build each worker runs; -1: none */
    bool *busy;
    uint64_t next_id, seq;
    snode *finished;
    scand **grave;         /* freed once the sets done are told */
    size_t ngrave, gcap;
    bool halt;             /* stopped, or failed */
    mm_status fail;        /* the failure, described in d */
    double next_lower;
    ospread_stats st;
} spread;

/* A failure: st into sp->fail (the first one counts; the caller has
 * described it in sp->d, or it is memory or depth, described here), and
 * the search halts. */
void ospread_failed(spread *sp, mm_status st);
/* Worker r failed (res->status): ospread_failed, described by the
 * worker's own message, the worker named as the link names it. */
void ospread_worker_failed(spread *sp, int r, const oresult *res);
/* The path from the root to Y into t. */
void ospread_task_path(const snode *Y, otask *t);
/* The driver's second phase (oroot.facts): the facts of the parts of
 * the best guesses that workers solved, from the workers' tables into
 * the driver's; MM_OK or the failure. */
mm_status ospread_facts(void *arg, oworker *w, bool canonical, mm_diag *d);

#endif
