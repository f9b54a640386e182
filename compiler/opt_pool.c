/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Both cores: the threads of a pool take work from the main search.
 *
 * The guesses of a set are handed out to the pool's threads and to the
 * main search (orootjob); each is solved with the budget that the best
 * value found so far leaves, read again before each of its parts.  Or the
 * parts after one guess are (opartjob): the first guess tried, mostly the
 * best, holds much of the work, and its value is the budget of the others.
 * One lock guards the jobs and their results; a thread drops it while it
 * searches.
 *
 * A thread that runs out of work while another still searches need not
 * wait: the other, at its next set big enough, shares out the parts of
 * the guess it is solving (opt_help_wanted), a job within its own.  The
 * jobs posted form a stack, each within the one below: only a thread at
 * work in the newest job posts another (share_job).  A thread waiting for
 * its own job to end helps only with those above it, whose sets lie
 * deeper than any level it still holds, and each job ends before the one
 * below it.
 */
#include "opt.h"

#include <stdlib.h>

/* The parts after one guess, shared out: each thread takes the next
 * part with the budget that the other parts' values leave at that
 * moment.  Values only rise, so a budget taken early is looser than
 * needed, never tighter: when the guess stays within its bound, every
 * part came back exact.  Smallest first, as on one thread: by the time
 * the big parts start, most small ones are exact, and the big parts get
 * budgets nearly as tight as one thread would give them (largest first
 * searched twice the sets on MM(4,6)). */
typedef struct opartjob {
    int lv;                 /* the parts' level */
    const ogroup *G;        /* the group after the guess */
    const mm_code *codes;   /* the parts, as split by the main search */
    opart *pt;
    int np;
    uint32_t n;
    oval bound;
    int depth;
    bool ties;
    int order[MM_MAX_REPLIES];
    int norder, next;
    int active;
    bool over;              /* the sum passed the bound: take no more */
    uint32_t idx;           /* the guess's idx, for progress at the root */
} opartjob;

/* A job posted: the guesses of a set or the parts after one guess. */
typedef struct ojob {
    orootjob *rj;
    opartjob *pj;
    struct ojob *below;
} ojob;

static void rjob_work(oworker *w, orootjob *rj);
static void pjob_work(oworker *w, opartjob *pj);

static bool job_open(const oshared *sh, const ojob *j)
{
    if (atomic_load(&((oshared *)sh)->abort))
        return false;
    if (j->pj)
        return j->pj->next < j->pj->norder && !j->pj->over;
    return j->rj->next < j->rj->nc;
}

/* The newest job above stop (NULL: any) with work left, or NULL.  Under
 * the lock. */
static ojob *open_job(const oshared *sh, const ojob *stop)
{
    for (ojob *j = sh->jobs; j && j != stop; j = j->below)
        if (job_open(sh, j))
            return j;
    return NULL;
}

static void job_work(oworker *w, ojob *j)
{
    ojob *was = w->cur;
    w->cur = j;
    if (j->pj)
        pjob_work(w, j->pj);
    else
        rjob_work(w, j->rj);
    w->cur = was;
}

/* A thread that joins a job with no table of replies (opt_score.c) makes
 * one of the job's set, S, as the thread that posted it has one of a set
 * on its path: the small sets below are scored from it.  Called with
 * sh->mx held, and the job held by the caller (active). */
static bool job_table(oworker *w, int lv, const mm_code *S, uint32_t n)
{
    if (w->rt.lv >= 0)
        return false;
    pthread_mutex_unlock(&w->sh->mx);
    bool made = opt_replies_build(w, lv, S, n);
    pthread_mutex_lock(&w->sh->mx);
    return made;
}

/* Wait for a job, or for one to end; counted as idle meanwhile. */
static void wait_idle(oshared *sh, pthread_cond_t *cv)
{
    atomic_fetch_add(&sh->idle, 1);
    pthread_cond_wait(cv, &sh->mx);
    atomic_fetch_sub(&sh->idle, 1);
}

static void *helper(void *arg)
{
    oworker *w = arg;
    oshared *sh = w->sh;
    pthread_mutex_lock(&sh->mx);
    for (;;) {
        ojob *j = NULL;   /* set whenever the loop goes on */
        while (!sh->pool_quit && !(j = open_job(sh, NULL)))
            wait_idle(sh, &sh->cv_job);
        if (sh->pool_quit)
            break;
        job_work(w, j);
    }
    pthread_mutex_unlock(&sh->mx);
    return NULL;
}

bool opt_help_wanted(const oshared *sh, uint32_t n, uint32_t nopen)
{
    return sh->nhelpers > 0 && nopen >= 2 && n > 2 * sh->small_max &&
           atomic_load_explicit(&((oshared *)sh)->idle, memory_order_relaxed) > 0;
}

/* Called and returns with sh->mx held. */
static void pjob_work(oworker *w, opartjob *pj)
{
    oshared *sh = w->sh;
    pj->active++;
    bool table = job_table(w, pj->lv - 1, pj->codes, pj->n);
    while (pj->next < pj->norder && !pj->over && !atomic_load(&sh->abort)) {
        int j = pj->order[pj->next++];
        oval lim = opt_part_limit(pj->n, pj->pt, pj->np, j, pj->bound);
        if (lim < pj->pt[j].v) {   /* its bound alone passes the budget */
            pj->over = true;
            break;
        }
        const mm_code *P = pj->codes + pj->pt[j].start;
        uint32_t m = pj->pt[j].n;
        pthread_mutex_unlock(&sh->mx);
        mm_code sub;
        oval v = opt_solve(w, pj->lv, pj->G, P, m, lim, pj->depth, pj->ties, false, &sub);
        pthread_mutex_lock(&sh->mx);
        if (v == OV_ABORT) {
            atomic_store(&sh->abort, 1);   /* stopped, or out of memory */
            continue;
        }
        pj->pt[j].exact = v <= lim;
        if (v > pj->pt[j].v || pj->pt[j].exact)
            pj->pt[j].v = v;
        oval sum = opt_sum_parts(pj->n, pj->pt, pj->np);
        if (sum > pj->bound)
            pj->over = true;
        if (pj->lv == 1) {   /* parts of a first guess: progress */
            oprog_bound(sh, pj->idx, sum);
            if (pj->pt[j].exact)
                oprog_settle(sh, pj->idx, m);
        }
    }
    if (table)
        opt_replies_drop(w);
    if (--pj->active == 0)
        pthread_cond_broadcast(&sh->cv_done);
}

/* Post a job (the guesses of a set, or the parts after one guess) to the
 * pool, work on it too, and return once every thread has left it; while
 * others are still on it, help with the jobs they post within it. */
static void share_job(oworker *w, orootjob *rj, opartjob *pj)
{
    oshared *sh = w->sh;
    const int *active = pj ? &pj->active : &rj->active;
    ojob job = {rj, pj, NULL};
    pthread_mutex_lock(&sh->mx);
    if (w->cur != sh->jobs) {
        /* not within the newest job (with three threads or more, another
         * thread posted one meanwhile): above it, this one would not lie
         * within the one below, and is done here alone */
        job_work(w, &job);
        pthread_mutex_unlock(&sh->mx);
        return;
    }
    job.below = sh->jobs;
    sh->jobs = &job;
    pthread_cond_broadcast(&sh->cv_job);
    pthread_cond_broadcast(&sh->cv_done);   /* waiting posters help too */
    job_work(w, &job);
    while (*active > 0) {
        ojob *j = open_job(sh, &job);
        if (j)
            job_work(w, j);
        else
            wait_idle(sh, &sh->cv_done);
    }
    sh->jobs = job.below;
    pthread_mutex_unlock(&sh->mx);
}

oval opt_share_parts(oworker *w, int lv, const ogroup *G, const mm_code *codes,
                     uint32_t n, opart *pt, int np, oval bound, int depth,
                     bool ties, uint32_t idx)
{
    oshared *sh = w->sh;
    opartjob pj = {lv, G, codes, pt, np, n, bound, depth, ties, {0}, 0, 0, 0, false, idx};
    for (int j = 0; j < np; j++)
        if (!pt[j].exact)
            pj.order[pj.norder++] = j;
    /* smallest first (see opartjob) */
    for (int a = 1; a < pj.norder; a++)
        for (int b = a; b > 0 && pt[pj.order[b]].n < pt[pj.order[b - 1]].n; b--) {
            int t = pj.order[b];
            pj.order[b] = pj.order[b - 1];
            pj.order[b - 1] = t;
        }
    share_job(w, NULL, &pj);
    if (atomic_load(&sh->abort))
        return OV_ABORT;
    return opt_sum_parts(n, pt, np);
}

/* The budget of first guess idx: the best so far to beat, or to equal
 * for a guess earlier in tie order. */
static oval rjob_bound_locked(const orootjob *rj, uint32_t idx)
{
    return (rj->have && rj->ties && idx < rj->best_idx) ? rj->best : rj->best - 1;
}

oval opt_rjob_bound(oshared *sh, orootjob *rj, uint32_t idx)
{
    pthread_mutex_lock(&sh->mx);
    oval b = rjob_bound_locked(rj, idx);
    pthread_mutex_unlock(&sh->mx);
    return b;
}

/* The first guesses shared out (see opt_solve): each thread takes the
 * next, with the budget the best value so far leaves.  Called and returns
 * with sh->mx held. */
static void rjob_work(oworker *w, orootjob *rj)
{
    oshared *sh = w->sh;
    const mm_game *g = sh->g;
    rj->active++;
    bool table = job_table(w, rj->lv, rj->S, rj->n);
    while (rj->next < rj->nc && !atomic_load(&sh->abort)) {
        const ocand ci = rj->l->ci[rj->next++];
        oval bound = rjob_bound_locked(rj, ci.idx);
        if (ci.lb > bound) {
            if (ci.lb < rj->minfail)
                rj->minfail = ci.lb;
            continue;
        }
        mm_code q = rj->l->cand[ci.idx];
        const uint32_t *h = rj->l->hist + (size_t)ci.idx * g->nreplies;
        if (rj->lv == 0) {   /* for the progress line */
            atomic_store(&sh->root_i, rj->next - 1);
            oprog_start(sh, q);
        }
        pthread_mutex_unlock(&sh->mx);
        oval reached;
        oval sum = opt_eval_cand(w, rj->lv, rj->G, rj->S, rj->n, q, h, rj->K, bound, rj->depth,
                             rj->ties, rj, ci.idx, false, &reached);
        pthread_mutex_lock(&sh->mx);
        bound = rjob_bound_locked(rj, ci.idx);
        if (sum == OV_ABORT) {
            atomic_store(&sh->abort, 1);   /* stopped, or out of memory */
            continue;
        }
        if (rj->lv == 0)
            oprog_finish(sh, ci.idx, sum);
        if (sum > bound) {
            if (sum < rj->minfail)
                rj->minfail = sum;
            continue;
        }
        if (!rj->have || sum < rj->best ||
            (rj->ties && sum == rj->best && ci.idx < rj->best_idx)) {
            rj->best = sum;
            rj->best_idx = ci.idx;
            rj->best_q = q;
            rj->have = true;
            if (rj->lv == 0) {
                sh->root_best = sum;
                sh->root_guess = q;
            }
        }
    }
    if (table)
        opt_replies_drop(w);
    if (--rj->active == 0)
        pthread_cond_broadcast(&sh->cv_done);
}

/* A set's level: its masks, its colour classes and its consistent
 * candidates, or the fixed first guess at the root.  False when out of
 * memory. */

void opt_share_guesses(oworker *w, orootjob *rj)
{
    share_job(w, rj, NULL);
}

void opt_pool_start(opool *p, oshared *sh, int threads)
{
    p->started = 0;
    p->hw = threads > 1 ? calloc((size_t)threads, sizeof *p->hw) : NULL;
    sh->pool_quit = false;
    for (int i = 1; p->hw && i < threads && i <= 64; i++) {
        oworker *h = &p->hw[p->started];
        if (oworker_init(h, sh))
            break;
        h->id = i;
        if (pthread_create(&p->tid[p->started], NULL, helper, h)) {
            oworker_release(h);
            break;
        }
        p->started++;
    }
    sh->nhelpers = p->started;
}

void opt_pool_stop(opool *p, oworker *main)
{
    oshared *sh = main->sh;
    pthread_mutex_lock(&sh->mx);
    sh->pool_quit = true;
    pthread_cond_broadcast(&sh->cv_job);
    pthread_mutex_unlock(&sh->mx);
    for (int i = 0; i < p->started; i++) {
        pthread_join(p->tid[i], NULL);
        if (p->hw[i].status && !main->status)
            main->status = p->hw[i].status;
        oworker_flush(&p->hw[i]);
        oworker_release(&p->hw[i]);
    }
    sh->nhelpers = 0;
    free(p->hw);
    p->hw = NULL;
    p->started = 0;
}
