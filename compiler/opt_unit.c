/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * A worker of a spread search (opt_unit.h): a search of its own, with its
 * table of solved sets and its pool of threads, that runs one task at a
 * time on a thread of its own, so that whoever drives it (a link over
 * MPI, or the coordinator's process) stays free to listen.
 *
 * A tighter limit stops the search and starts it again: what it had
 * solved is in the table, so it loses only the sets it was inside.
 */
#include "opt_unit.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/grow.h"
#include "opt.h"

struct ounit_bell {
    pthread_mutex_t mx;
    pthread_cond_t cv;
    unsigned rings;
};

struct ounit {
    oshared sh;
    oworker w;
    ogroup root, grp[2];
    mm_code *all, *set, *tset;
    /* the table of replies is kept for the path from the root to the
     * first set small enough for one, as one process keeps it */
    int tlen;           /* its length; -1: no table */
    mm_code tguess[OTASK_MAX_PATH];
    uint8_t treply[OTASK_MAX_PATH];
    int threads;
    ounit_bell *bell;
    pthread_t th;
    bool running;
    otask task;
    oresult res;
    ofact *facts;
    size_t nfacts, fcap;
    /* what the driver asks of the running task, under mx */
    pthread_mutex_t mx;
    oval tighter;       /* a tighter limit to solve under; 0: none */
    bool cancel;
    _Atomic bool done;
};

void oresult_release(oresult *r)
{
    free(r->facts);
    r->facts = NULL;
    r->nfacts = 0;
}

/* ---- the bell ---- */

ounit_bell *ounit_bell_new(void)
{
    ounit_bell *b = calloc(1, sizeof *b);
    if (b) {
        pthread_mutex_init(&b->mx, NULL);
        pthread_cond_init(&b->cv, NULL);
    }
    return b;
}

void ounit_bell_free(ounit_bell *b)
{
    if (!b)
        return;
    pthread_mutex_destroy(&b->mx);
    pthread_cond_destroy(&b->cv);
    free(b);
}

static void bell_ring(ounit_bell *b)
{
    if (!b)
        return;
    pthread_mutex_lock(&b->mx);
    b->rings++;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mx);
}

unsigned ounit_bell_rings(ounit_bell *b)
{
    pthread_mutex_lock(&b->mx);
    unsigned r = b->rings;
    pthread_mutex_unlock(&b->mx);
    return r;
}

bool ounit_bell_wait(ounit_bell *b, unsigned seen, double wait)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double t = (double)ts.tv_nsec * 1e-9 + (wait > 0 ? wait : 0);
    ts.tv_sec += (time_t)t;
    ts.tv_nsec = (long)((t - (double)(time_t)t) * 1e9);
    pthread_mutex_lock(&b->mx);
    int rc = 0;
    while (b->rings == seen && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&b->cv, &b->mx, &ts);
    bool rang = b->rings != seen;
    pthread_mutex_unlock(&b->mx);
    return rang;
}

/* ---- a worker ---- */

mm_status ounit_new(const mm_game *g, const mm_compile_opts *o, int threads,
                    ounit_bell *done, ounit **out)
{
    *out = NULL;
    ounit *u = calloc(1, sizeof *u);
    if (!u)
        return MM_ERR_NOMEM;
    /* the first guess is the coordinator's: a worker's sets are parts */
    mm_compile_opts wo = *o;
    wo.first = MM_NO_CODE;
    pthread_mutex_init(&u->mx, NULL);
    u->threads = threads > 0 ? threads : 1;
    u->bell = done;
    if (opt_shared_setup(&u->sh, g, &wo)) {
        pthread_mutex_destroy(&u->mx);
        free(u);
        return MM_ERR_NOMEM;
    }
    u->all = malloc((size_t)g->ncodes * sizeof *u->all);
    u->set = malloc((size_t)g->ncodes * sizeof *u->set);
    u->tset = malloc((size_t)g->ncodes * sizeof *u->tset);
    u->tlen = -1;
    if (oworker_init(&u->w, &u->sh) || ogroup_root(&u->root, g, o->no_symmetry) || !u->all ||
        !u->set || !u->tset) {
        ounit_free(u);
        return MM_ERR_NOMEM;
    }
    for (mm_code x = 0; x < g->ncodes; x++)
        u->all[x] = x;
    *out = u;
    return MM_OK;
}

void ounit_free(ounit *u)
{
    if (!u)
        return;
    if (u->running) {
        ounit_signal(u, u->task.id, OV_ABORT);
        pthread_join(u->th, NULL);
        oresult_release(&u->res);
    }
    free(u->facts);
    free(u->all);
    free(u->set);
    free(u->tset);
    ogroup_release(&u->root);
    ogroup_release(&u->grp[0]);
    ogroup_release(&u->grp[1]);
    if (u->w.sh)
        oworker_release(&u->w);
    if (u->sh.g)
        oshared_release(&u->sh);
    pthread_mutex_destroy(&u->mx);
    free(u);
}

/* The set the task's path leaves, in lexical order, into u->set, and its
 * path group; NULL when out of memory. */
static const ogroup *path_set(ounit *u, uint32_t *n)
{
    const mm_game *g = u->sh.g;
    const otask *t = &u->task;
    const ogroup *G = &u->root;
    uint32_t m = g->ncodes;
    memcpy(u->set, u->all, (size_t)m * sizeof *u->set);
    for (int i = 0; i < t->plen; i++) {
        uint32_t k = 0;
        for (uint32_t j = 0; j < m; j++)
            if (mm_game_score(g, t->guess[i], u->set[j]) == t->reply[i])
                u->set[k++] = u->set[j];
        m = k;
        if (ogroup_after(G, g, t->guess[i], &u->grp[i & 1]))
            return NULL;
        G = &u->grp[i & 1];
    }
    *n = m;
    return G;
}

/* The table of replies for the task (opt_score.c): one process makes it
 * for the first set on its path small enough, and scores every set below
 * from it, so a worker makes it for the first such set on the task's
 * path, and keeps it for the next task whose path goes through that set:
 * made for each unit, it cost MM(4,7) a sixth more instructions. */
static void replies_table(ounit *u)
{
    const mm_game *g = u->sh.g;
    const otask *t = &u->task;
    bool same = u->tlen >= 0 && u->tlen <= t->plen;
    for (int i = 0; same && i < u->tlen; i++)
        same = t->guess[i] == u->tguess[i] && t->reply[i] == u->treply[i];
    if (same)
        return;
    opt_replies_drop(&u->w);
    u->tlen = -1;
    uint32_t m = g->ncodes;
    memcpy(u->tset, u->all, (size_t)m * sizeof *u->tset);
    for (int i = 0; i <= t->plen; i++) {
        if (opt_replies_build(&u->w, 0, u->tset, m)) {
            u->tlen = i;
            memcpy(u->tguess, t->guess, (size_t)i * sizeof *u->tguess);
            memcpy(u->treply, t->reply, (size_t)i);
            return;
        }
        if (i == t->plen)
            return;
        uint32_t k = 0;
        for (uint32_t j = 0; j < m; j++)
            if (mm_game_score(g, t->guess[i], u->tset[j]) == t->reply[i])
                u->tset[k++] = u->tset[j];
        m = k;
    }
}

/* The set as the root of a search on the worker's threads. */
static oval solve_pooled(ounit *u, const ogroup *G, uint32_t n, oval limit, mm_code *q)
{
    oshared *sh = &u->sh;
    const otask *t = &u->task;
    sh->root_best = OV_INF;
    sh->root_guess = MM_NO_CODE;
    opool pool;
    opt_pool_start(&pool, sh, u->threads);
    oval v = opt_solve(&u->w, 0, G, u->set, n, limit, t->depth, t->ties, false, q);
    opt_pool_stop(&pool, &u->w);
    return v;
}

/* Go on after a stop?  With a tighter limit, yes; cancelled, no.  Under
 * the lock, so that a signal after this is not lost. */
static bool resume(ounit *u, oval *limit)
{
    pthread_mutex_lock(&u->mx);
    bool go = !u->cancel;
    if (go && u->tighter) {
        if (u->tighter < *limit)
            *limit = u->tighter;
        u->tighter = 0;
    }
    atomic_store(&u->sh.abort, u->cancel);
    pthread_mutex_unlock(&u->mx);
    return go;
}

static void fail(oresult *r, mm_status st, const char *msg)
{
    r->status = st;
    r->v = OV_ABORT;
    snprintf(r->msg, sizeof r->msg, "%s", msg);
}

static void worker_failed(ounit *u, oresult *r)
{
    if (u->w.status == MM_ERR_NOMEM)
        fail(r, MM_ERR_NOMEM, "out of memory in the optimal search");
    else
        fail(r, u->w.status, "the search went deeper than 64 guesses");
}

static void solve_task(ounit *u, const ogroup *G, uint32_t n, oresult *r)
{
    oval limit = u->task.limit;
    while (resume(u, &limit)) {
        mm_code q;
        oval v = solve_pooled(u, G, n, limit, &q);
        if (u->w.status) {
            worker_failed(u, r);
            return;
        }
        if (v != OV_ABORT) {
            r->v = v;
            r->guess = q;
            r->limit = limit;
            return;
        }
        pthread_mutex_lock(&u->mx);
        bool again = u->tighter && !u->cancel;
        pthread_mutex_unlock(&u->mx);
        if (!again)
            return;
    }
}

/* The facts of every node of t below node (set S of n codes): the
 * table's exact entries, which the build has just used or made. */
static bool collect(ounit *u, const mm_tree *t, uint32_t node, const mm_code *S, uint32_t n,
                    int depth)
{
    oshared *sh = &u->sh;
    const mm_game *g = sh->g;
    oentry e;
    uint64_t h1, h2;
    if (n >= 3) {
        opt_hash(sh, S, n, &h1, &h2);
        if (opt_fact(sh, h1, h2, depth, &e) && (oentry_flags(&e) & OC_EXACT)) {
            ofact *f = grow_array(u->facts, &u->fcap, u->nfacts + 1, 256, sizeof *f);
            if (!f)
                return false;
            u->facts = f;
            u->facts[u->nfacts++] = (ofact){h1, h2, oentry_value(&e), e.guess, n,
                                            (uint8_t)depth, (uint8_t)oentry_flags(&e)};
        }
    }
    const mm_node *nd = &t->nodes[node];
    if (!nd->replies)
        return true;
    uint32_t cnt[MM_MAX_REPLIES], pos[MM_MAX_REPLIES];
    mm_code *sub = malloc((size_t)n * (sizeof *sub + 1));
    if (!sub)
        return false;
    mm_game_split(g, nd->guess, S, n, sub, (uint8_t *)(sub + n), cnt, pos);
    int cd = sh->depth_mode ? depth - 1 : depth;
    uint32_t c = nd->child;
    bool ok = true;
    for (int s = 0; s < g->nreplies && ok; s++)
        if (nd->replies >> s & 1u)
            ok = collect(u, t, c++, sub + pos[s], cnt[s], cd);
    free(sub);
    return ok;
}

static void build_task(ounit *u, const ogroup *G, uint32_t n, oresult *r)
{
    const mm_game *g = u->sh.g;
    oval limit = u->task.limit;
    if (!resume(u, &limit))
        return;
    mm_tree t;
    mm_diag d;
    mm_tree_init(&t, g->pegs, g->colors, g->repeat);
    mm_diag_clear(&d);
    mm_status st = opt_build_set(&u->w, 0, G, u->set, n, u->task.limit, u->task.depth,
                                 u->task.ties, &t, &d);
    if (st) {
        if (!u->cancel)
            fail(r, st, d.msg);
    } else {
        u->nfacts = 0;
        if (!collect(u, &t, 0, u->set, n, u->task.depth)) {
            fail(r, MM_ERR_NOMEM, "out of memory in the optimal search");
        } else {
            r->v = u->task.limit;
            r->facts = u->facts;
            r->nfacts = (uint32_t)u->nfacts;
            u->facts = NULL;
            u->nfacts = u->fcap = 0;
        }
    }
    mm_tree_release(&t);
}

static void *run(void *arg)
{
    ounit *u = arg;
    oshared *sh = &u->sh;
    oresult *r = &u->res;
    uint64_t nodes = atomic_load(&sh->nodes);
    memset(r, 0, sizeof *r);
    r->id = u->task.id;
    r->v = OV_ABORT;
    r->guess = MM_NO_CODE;
    r->limit = u->task.limit;
    opt_set_mode(sh, u->task.consistent);
    uint32_t n = 0;
    const ogroup *G = path_set(u, &n);
    replies_table(u);
    if (!G)
        fail(r, MM_ERR_NOMEM, "out of memory in the optimal search");
    else if (u->task.kind == OTASK_SOLVE)
        solve_task(u, G, n, r);
    else
        build_task(u, G, n, r);
    oworker_flush(&u->w);
    r->nodes = atomic_load(&sh->nodes) - nodes;
    atomic_store(&u->done, true);
    bell_ring(u->bell);
    return NULL;
}

void ounit_start(ounit *u, const otask *t)
{
    u->task = *t;
    u->tighter = 0;
    u->cancel = false;
    atomic_store(&u->done, false);
    u->w.status = MM_OK;
    u->running = true;
    if (pthread_create(&u->th, NULL, run, u)) {
        run(u);   /* no thread to spare: run it here */
        u->running = false;
    }
}

bool ounit_poll(ounit *u, oresult *r)
{
    if (!atomic_load(&u->done))
        return false;
    if (u->running)
        pthread_join(u->th, NULL);
    u->running = false;
    atomic_store(&u->done, false);
    *r = u->res;
    memset(&u->res, 0, sizeof u->res);
    return true;
}

void ounit_signal(ounit *u, uint64_t id, oval limit)
{
    pthread_mutex_lock(&u->mx);
    if (u->running && u->task.id == id && !atomic_load(&u->done)) {
        if (limit == OV_ABORT)
            u->cancel = true;
        else if (!u->tighter || limit < u->tighter)
            u->tighter = limit;
        atomic_store(&u->sh.abort, 1);
    }
    pthread_mutex_unlock(&u->mx);
}

/* ---- workers in this process ---- */

static mm_status local_start(void *arg, int r, const otask *t, mm_diag *d)
{
    olocal *l = arg;
    (void)d;
    ounit_start(l->u[r], t);
    return MM_OK;
}

static mm_status local_signal(void *arg, int r, uint64_t id, oval limit, mm_diag *d)
{
    olocal *l = arg;
    (void)d;
    ounit_signal(l->u[r], id, limit);
    return MM_OK;
}

static int local_poll(void *arg, double wait, int *r, oresult *res, mm_diag *d)
{
    olocal *l = arg;
    (void)d;
    for (int pass = 0; pass < 2; pass++) {
        unsigned seen = l->bell ? ounit_bell_rings(l->bell) : 0;
        for (int k = 0; k < l->n; k++) {
            int i = (l->next + k) % l->n;
            if (ounit_poll(l->u[i], res)) {
                *r = i;
                l->next = (i + 1) % l->n;
                return 1;
            }
        }
        if (pass == 0 && l->bell)
            ounit_bell_wait(l->bell, seen, wait);
    }
    return 0;
}

void olocal_link(olocal *l, olink *link)
{
    *link = (olink){l->n, l, local_start, local_signal, local_poll, NULL};
}
