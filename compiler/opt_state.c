/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The state of an exact search: what its threads share (the game's
 * tables, the table of solved sets, the incumbent at the root, the pool's
 * lock), each thread's scratch (one olevel a level of the search), set
 * hashes, and the clock that drives progress reports and checkpoints.
 */
#include "opt.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/grow.h"

double opt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double opt_cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

ockpt_time opt_ckpt_time(const oshared *sh)
{
    ockpt_time t = sh->ckpt_base;
    double run = opt_cpu_now() - sh->cpu0;
    t.ms += run > 0 ? (uint64_t)(run * 1000.0 + 0.5) : 0;
    t.runs++;
    return t;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void opt_key_words(uint64_t *r1, uint64_t *r2, uint32_t n)
{
    uint64_t seed = 0x6d6d74726565u;   /* fixed: checkpoints stay valid */
    for (uint32_t x = 0; x < n; x++) {
        r1[x] = splitmix(&seed);
        r2[x] = splitmix(&seed);
    }
}

bool opt_fact_bounded(oshared *sh, uint64_t h1, uint64_t h2, int depth, oentry *out)
{
    if (!sh->use_cache)
        return false;
    bool own = ocache_get(&sh->cache, h1, h2, depth, out);
    if (depth == OPT_NODEPTH || (own && (oentry_flags(out) & OC_EXACT)))
        return own;
    oentry f;
    if (!ocache_get(&sh->cache, h1, h2, OPT_NODEPTH, &f))
        return own;
    oval v = oentry_value(&f);
    if ((oentry_flags(&f) & OC_EXACT) && OV_W(v) <= depth) {
        *out = f;   /* its guess and its tie order are those within depth */
        return true;
    }
    if (own && oentry_value(out) >= v)
        return true;
    if (!own) {
        *out = f;
        out->guess = MM_NO_CODE;   /* a bound: no guess known within depth */
    }
    out->meta = v;
    return true;
}

/* The incumbent of set (h1, h2) within depth, or NULL; inc_mx held. */
static oincumbent *incumbent_at(oshared *sh, uint64_t h1, uint64_t h2, int depth)
{
    for (uint32_t i = 0; i < sh->ninc; i++)
        if (sh->inc[i].h1 == h1 && sh->inc[i].h2 == h2 && sh->inc[i].depth == depth)
            return &sh->inc[i];
    return NULL;
}

void opt_incumbent_keep(oshared *sh, uint64_t h1, uint64_t h2, int depth, mm_code q, oval v)
{
    pthread_mutex_lock(&sh->inc_mx);
    oincumbent *e = incumbent_at(sh, h1, h2, depth);
    if (!e && sh->ninc < OPT_MAX_INCUMBENTS) {
        oincumbent *a = grow_array(sh->inc, &sh->inc_cap, sh->ninc + 1, 64, sizeof *a);
        if (a) {
            sh->inc = a;
            e = &sh->inc[sh->ninc++];
            e->v = OV_INF;
        }
    }
    if (e && v < e->v)
        *e = (oincumbent){h1, h2, depth, q, v};
    pthread_mutex_unlock(&sh->inc_mx);
}

bool opt_incumbent_find(oshared *sh, uint64_t h1, uint64_t h2, int depth, oincumbent *out)
{
    pthread_mutex_lock(&sh->inc_mx);
    const oincumbent *e = incumbent_at(sh, h1, h2, depth);
    if (e)
        *out = *e;
    pthread_mutex_unlock(&sh->inc_mx);
    return e != NULL;
}

mm_status oshared_init(oshared *sh, const mm_game *g, size_t cache_bytes)
{
    memset(sh, 0, sizeof *sh);
    pthread_mutex_init(&sh->mx, NULL);
    pthread_mutex_init(&sh->inc_mx, NULL);
    pthread_cond_init(&sh->cv_job, NULL);
    pthread_cond_init(&sh->cv_done, NULL);
    sh->g = g;
    opt_score_init();
    uint64_t replies = mm_game_reply_set(g);
    for (int s = 0; s < g->nreplies; s++)
        if (replies >> s & 1) {
            sh->rank[s] = (uint8_t)sh->answers;
            sh->live[sh->answers++] = (uint8_t)s;
        }
    /* Below the table of replies a set scored by its replies alone costs
     * little, and the bound of 2m - 1 a part of m codes is as good as the
     * perfect-tree one while m is below the replies a guess can get:
     * about 4 times the replies is best (user time, one thread, at 32,
     * 48, 64, 96 and 128: MM(3,14) 32; MM(4,8) 48-64, 5.2 s against 7.2
     * at 32; MM(5,5) 96-128, 0.46 against 1.16; MM(6,4) 96, 3.1 against
     * 6.4; MM(4,9) without repetition 64-96). */
    sh->small_max = 4 * (uint32_t)sh->answers;
    if (sh->small_max < SMALL_SET)
        sh->small_max = SMALL_SET;
    if (sh->small_max > 4 * SMALL_SET)
        sh->small_max = 4 * SMALL_SET;
    sh->r1 = malloc((size_t)g->ncodes * sizeof *sh->r1);
    sh->r2 = malloc((size_t)g->ncodes * sizeof *sh->r2);
    sh->gbits = malloc((size_t)g->ncodes * sizeof *sh->gbits);
    if (!sh->r1 || !sh->r2 || !sh->gbits || !opt_lower_init(sh))
        goto nomem;
    for (mm_code x = 0; x < g->ncodes; x++)
        slice_guess_bits(g, x, &sh->gbits[x]);
    opt_key_words(sh->r1, sh->r2, g->ncodes);
    if (cache_bytes && ocache_init(&sh->cache, cache_bytes))
        goto nomem;
    sh->use_cache = cache_bytes != 0;
    atomic_init(&sh->abort, 0);
    atomic_flag_clear(&sh->clock_busy);
    sh->next_progress = sh->next_ckpt = 1e300;
    sh->progress_every = 1;
    sh->root_best = OV_INF;   /* no first guess solved yet */
    sh->root_guess = MM_NO_CODE;
    atomic_init(&sh->feas_guess, MM_NO_CODE);
    return MM_OK;
nomem:
    oshared_release(sh);
    return MM_ERR_NOMEM;
}

void oshared_release(oshared *sh)
{
    oprog_end(sh);
    free(sh->r1);
    free(sh->r2);
    free(sh->lbtab);
    for (int k = 0; k < MM_MAX_PEGS; k++)
        free((void *)sh->agree_memo[k]);
    free(sh->gbits);
    ocache_release(&sh->cache);
    pthread_mutex_destroy(&sh->mx);
    pthread_mutex_destroy(&sh->inc_mx);
    free(sh->inc);
    pthread_cond_destroy(&sh->cv_job);
    pthread_cond_destroy(&sh->cv_done);
    memset(sh, 0, sizeof *sh);
}

mm_status oworker_init(oworker *w, oshared *sh)
{
    memset(w, 0, sizeof *w);
    w->sh = sh;
    w->rt.lv = -1;
    w->nlv = OPT_MAX_LEVELS;
    w->lv = calloc(OPT_MAX_LEVELS, sizeof *w->lv);
    w->in_s = calloc(sh->g->ncodes, 1);
    if (!w->lv || !w->in_s) {
        oworker_release(w);
        return MM_ERR_NOMEM;
    }
    return MM_OK;
}

void oworker_release(oworker *w)
{
    if (w->lv)
        for (int i = 0; i < w->nlv; i++) {
            olevel *l = &w->lv[i];
            free(l->sp);
            free(l->so);
            slice_release(&l->sl);
            free(l->cand);
            free(l->nk);
            free(l->hist);
            free(l->ci);
            free(l->parts);
            ogroup_release(&l->grp);
        }
    if (w->reps)
        for (int i = 0; i < OREPS_SLOTS; i++)
            free(w->reps[i].reps);
    free(w->reps);
    free(w->lv);
    free(w->in_s);
    free(w->rt.rows);
    free(w->rt.rowof);
    free(w->rt.acc);
    free(w->rt.k);
    memset(w, 0, sizeof *w);
}

void oworker_flush(oworker *w)
{
    oshared *sh = w->sh;
    atomic_fetch_add(&sh->nodes, w->nodes);
    atomic_fetch_add(&sh->hits, w->hits);
    atomic_fetch_add(&sh->guesses, w->guesses);
    atomic_fetch_add(&sh->guesses_all, w->guesses_all);
    w->nodes = w->hits = w->guesses = w->guesses_all = 0;
}

bool olevel_reserve_cand(olevel *l, uint32_t need, int R)
{
    if (need <= l->ccap)
        return true;
    size_t c = grow_cap(l->ccap, need, 64, (size_t)R * sizeof *l->hist);
    mm_code *a = c ? realloc(l->cand, c * sizeof *a) : NULL;
    if (!a)
        return false;
    l->cand = a;
    uint8_t *k = realloc(l->nk, c);
    if (!k)
        return false;
    l->nk = k;
    uint32_t *h = realloc(l->hist, c * (size_t)R * sizeof *h);
    if (!h)
        return false;
    l->hist = h;
    ocand *ci = realloc(l->ci, c * sizeof *ci);
    if (!ci)
        return false;
    l->ci = ci;
    l->ccap = c;
    return true;
}

void opt_clock(oworker *w, double now)
{
    oshared *sh = w->sh;
    if (atomic_flag_test_and_set(&sh->clock_busy))
        return;
    if (sh->progress && now >= sh->next_progress) {
        sh->next_progress = now + sh->progress_every;
        mm_optimal_report r;
        memset(&r, 0, sizeof r);
        r.elapsed = now - sh->t0;
        r.nodes = atomic_load(&sh->nodes) + w->nodes;
        r.cache_hits = atomic_load(&sh->hits) + w->hits;
        opt_progress_fill(sh, &r);
        sh->progress(sh->progress_arg, &r);
    }
    if (sh->ckpt_path && sh->use_cache && now >= sh->next_ckpt) {
        sh->next_ckpt = now + sh->ckpt_every;
        /* a failed periodic save is tried again at the end, which reports */
        ockpt_time t = opt_ckpt_time(sh);
        (void)ockpt_save(&sh->cache, sh->ckpt_path, sh->ckpt_id, &t, NULL);
    }
    atomic_flag_clear(&sh->clock_busy);
}
