/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The exact search spread over workers (mmtree-mpi).
 *
 * A worker (ounit, opt_unit.c) is a search of its own, with its table of
 * solved sets and its threads, that runs one task at a time: solve the set
 * of codes a path of guesses and replies leaves, under a limit; or give
 * the facts (set, value, guess) that the tree of such a set is built from.
 * It keeps its table from task to task, so a task stopped and started
 * again with a tighter limit costs little.
 *
 * The coordinator (opt_spread.c) runs the top of the branch and bound
 * itself, as opt_solve would: the first guesses in order, the parts of
 * each, the big parts expanded into their guesses in turn; the sets below
 * go out as units, biggest first, each with the budget its guess leaves,
 * tightened as the bounds around it improve and cancelled when its guess
 * is beaten.  It reaches its workers through a link (olink), which a
 * program implements over MPI, or over workers in the same process.
 */
#ifndef MM_OPT_UNIT_H
#define MM_OPT_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "mmtree/compile.h"
#include "opt_value.h"

#define OTASK_MAX_PATH 64

enum { OTASK_SOLVE = 1, OTASK_BUILD = 2 };

typedef struct otask {
    uint64_t id;
    int kind;           /* OTASK_SOLVE or OTASK_BUILD */
    bool consistent;    /* guesses that can be the code only */
    bool ties;          /* SOLVE: find the first optimal guess in tie
                           order; BUILD: the canonical tree */
    int depth;          /* the set's depth limit (optimal-worst) */
    oval limit;         /* SOLVE: the limit; BUILD: the set's value */
    int plen;           /* the path from the root to the set */
    mm_code guess[OTASK_MAX_PATH];
    uint8_t reply[OTASK_MAX_PATH];
} otask;

/* A set's entry in a table of solved sets, as the table keys it. */
typedef struct ofact {
    uint64_t h1, h2;
    oval v;
    mm_code guess;
    uint32_t n;
    uint8_t depth, flags;
} ofact;

typedef struct oresult {
    uint64_t id;
    oval v;             /* OV_ABORT: cancelled, or failed (status) */
    mm_code guess;
    oval limit;         /* the limit it was solved under: exact when
                           v <= limit, else a lower bound */
    uint64_t nodes;     /* sets searched */
    ofact *facts;       /* BUILD: the facts, owned by the result */
    uint32_t nfacts;
    mm_status status;   /* MM_OK, or why it failed (msg) */
    char msg[MM_DIAG_MSG_MAX];
} oresult;

void oresult_release(oresult *r);

/* ---- a worker (opt_unit.c) ---- */

typedef struct ounit ounit;
typedef struct ounit_bell ounit_bell;

/* A worker for game g and the search o asks for (its rule, symmetry,
 * table size; not its first guess, clock or checkpoint), on threads
 * threads; done, when not NULL, is signalled whenever a task ends. */
mm_status ounit_new(const mm_game *g, const mm_compile_opts *o, int threads,
                    ounit_bell *done, ounit **out);
void ounit_free(ounit *u);
/* Start t on the worker's own thread; it must be idle. */
void ounit_start(ounit *u, const otask *t);
/* True, with the result moved into *r, once the task has ended; the
 * worker is then idle. */
bool ounit_poll(ounit *u, oresult *r);
/* Task id, if it is the one running: solve again under the tighter limit
 * (OV_ABORT: stop; it ends with v = OV_ABORT). */
void ounit_signal(ounit *u, uint64_t id, oval limit);

/* Workers in one process ring a bell when a task ends: whoever waits
 * for any of them reads the count of rings, looks, and waits for the
 * count to change (true) or at most wait seconds. */
ounit_bell *ounit_bell_new(void);
void ounit_bell_free(ounit_bell *b);
unsigned ounit_bell_rings(ounit_bell *b);
bool ounit_bell_wait(ounit_bell *b, unsigned seen, double wait);

/* ---- the coordinator (opt_spread.c) ---- */

/* How the coordinator reaches workers 0..n-1.  start: hand an idle worker
 * a task; signal: ounit_signal on worker r; poll: the next result of any
 * worker, waiting at most wait seconds: 1 with *r and *res, 0 none, or -1
 * on failure (d says why).  start and signal return MM_OK or a failure. */
typedef struct olink {
    int n;
    void *arg;
    mm_status (*start)(void *arg, int r, const otask *t, mm_diag *d);
    mm_status (*signal)(void *arg, int r, uint64_t id, oval limit, mm_diag *d);
    int (*poll)(void *arg, double wait, int *r, oresult *res, mm_diag *d);
    const char *name;   /* a worker in messages ("rank"); NULL: "worker" */
} olink;

typedef struct ospread_opts {
    uint32_t split;     /* sets of more codes are expanded by the
                           coordinator, not sent (0: a default) */
    double tighten;     /* seconds a unit runs before its limit is
                           tightened (0: a default; < 0: never) */
    bool biggest;       /* units biggest first, not in search order */
} ospread_opts;

typedef struct ospread_stats {
    uint64_t units, builds, tightened, cancelled, expanded, facts;
    double busy;        /* seconds the coordinator spent expanding */
    uint32_t split;     /* the split size used */
} ospread_stats;

/* mm_compile for an optimal rule, the root solved by the workers of link;
 * the same tree.  stats, when not NULL, gets what the coordinator did. */
mm_status opt_compile_spread(const mm_game *g, const mm_compile_opts *o, const olink *link,
                             const ospread_opts *so, ospread_stats *stats, mm_tree *t,
                             mm_diag *d);

/* A link to workers in this process. */
typedef struct olocal {
    ounit **u;
    int n;
    ounit_bell *bell;
    int next;           /* where polling starts: fair among workers */
} olocal;

void olocal_link(olocal *l, olink *link);

#endif
