/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The coordinator of a spread search (opt_unit.h): the top of the branch
 * and bound on this thread, the sets below it on the workers.
 *
 * The coordinator keeps the top of the search as a tree of its own: a
 * set (snode) has candidate guesses, in the order opt_solve tries them; a
 * guess (scand) has parts, each a set again.  A set of more than `split`
 * codes is expanded here (opt_expand: its candidates and their bounds); a
 * smaller one is a unit, queued biggest first and handed to the next idle
 * worker with the budget its guess leaves.  As in opt_solve, a guess is
 * opened first (opt_open_cand: its parts at their bounds, raised to their
 * one-guess-ahead bounds), which drops most losing guesses before any of
 * their parts is solved.
 *
 * The first candidate of a set is the best one most of the time, so the
 * others wait until its value is known and then all start, each with the
 * budget that value leaves (the "young brothers wait" rule of parallel
 * game-tree search): the work runs ahead of the bounds only inside one
 * guess, whose parts are independent.  Whenever a value comes in, the
 * budgets around it are computed again: a guess whose parts' bounds pass
 * its budget is dropped and its units are cancelled; a unit whose budget
 * shrank is told so after it has run a while (the worker starts again
 * under the tighter limit; its table keeps what it had solved).  Values
 * only rise and budgets only shrink, so a budget handed out early is too
 * loose, never too tight: every exact value is exact.
 *
 * Ties: a set's value comes with the first optimal guess in tie order,
 * as one process finds it, because each candidate's budget lets a guess
 * earlier in tie order through at an equal value.  Every set's value goes
 * into the driver's table (as opt_solve would put it), which is what the
 * checkpoint saves.  The tree is then built from that table by the
 * driver; the workers first send the facts of the parts they solved
 * (what their own tables hold about each node of those subtrees).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "opt_spread.h"


static void cand_done(spread *sp, scand *A, oval v, bool exact);
static void cand_update(spread *sp, scand *A);
static void kill_cand(spread *sp, scand *A);

void ospread_failed(spread *sp, mm_status st)
{
    if (!sp->fail && st) {
        sp->fail = st;
        if (st == MM_ERR_NOMEM)
            mm_diag_set(sp->d, st, "out of memory in the optimal search");
        else if (st == MM_ERR_LIMIT)
            mm_diag_set(sp->d, st, "the search went deeper than %d guesses", OPT_MAX_LEVELS);
    }
    sp->halt = true;
}

void ospread_worker_failed(spread *sp, int r, const oresult *res)
{
    bool first = !sp->fail;
    ospread_failed(sp, res->status);
    if (first)   /* the worker's words, not ospread_failed's */
        mm_diag_set(sp->d, res->status, "%s %d: %s", sp->link->name ? sp->link->name : "worker",
                    r, res->msg);
}

/* ---- the queue ----
 * Units go out in the order one process would solve them: depth first,
 * a set's candidates in their order, a guess's parts smallest first.  A
 * unit then starts with the budget its smaller siblings' values leave,
 * as it would on one process, and a big set is expanded only when its
 * turn comes, with that budget.  (Biggest first, the rule for balancing
 * jobs of known sizes, costs more here: a big part that starts before
 * its siblings are solved gets a loose budget, and that loose budget
 * costs more than the balance gains; tests/bench_mpi.sh compares.) */

/* The sets from the root down to Y into a; their number. */
static int chain(const snode *Y, const snode **a)
{
    int k = 0;
    for (const snode *X = Y; X; X = X->up ? X->up->up : NULL)
        k++;
    int n = k;
    for (const snode *X = Y; X; X = X->up ? X->up->up : NULL)
        a[--k] = X;
    return n;
}

static bool heap_before(const spread *sp, const snode *a, const snode *b)
{
    if (sp->biggest && a->n != b->n)
        return a->n > b->n;
    if (!sp->biggest) {
        const snode *pa[OPT_MAX_LEVELS + 1], *pb[OPT_MAX_LEVELS + 1];
        int la = chain(a, pa), lb = chain(b, pb);
        for (int k = 1; k < la && k < lb; k++) {
            if (pa[k] == pb[k])
                continue;
            const scand *x = pa[k]->up, *y = pb[k]->up;
            if (x != y)
                return x->pos < y->pos;
            return pa[k]->part < pb[k]->part;
        }
    }
    return a->seq < b->seq;
}

static void heap_set(spread *sp, size_t i, snode *x)
{
    sp->heap[i] = x;
    x->heap = i;
}

static void heap_up(spread *sp, size_t i)
{
    snode *x = sp->heap[i];
    while (i > 0 && heap_before(sp, x, sp->heap[(i - 1) / 2])) {
        heap_set(sp, i, sp->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_set(sp, i, x);
}

static void heap_down(spread *sp, size_t i)
{
    snode *x = sp->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= sp->nheap)
            break;
        if (c + 1 < sp->nheap && heap_before(sp, sp->heap[c + 1], sp->heap[c]))
            c++;
        if (!heap_before(sp, sp->heap[c], x))
            break;
        heap_set(sp, i, sp->heap[c]);
        i = c;
    }
    heap_set(sp, i, x);
}

static void enqueue(spread *sp, snode *Y)
{
    snode **h = grow_array(sp->heap, &sp->hcap, sp->nheap + 1, 64, sizeof *h);
    if (!h) {
        ospread_failed(sp, MM_ERR_NOMEM);
        return;
    }
    sp->heap = h;
    Y->state = N_QUEUED;
    heap_set(sp, sp->nheap++, Y);
    heap_up(sp, sp->nheap - 1);
}

static void heap_remove(spread *sp, snode *Y)
{
    size_t i = Y->heap;
    snode *last = sp->heap[--sp->nheap];
    if (i == sp->nheap)
        return;
    heap_set(sp, i, last);
    heap_up(sp, i);
    heap_down(sp, last->heap);
}

/* ---- sets and guesses ---- */

/* The budget of candidate idx of X: the best so far to beat, or to equal
 * for a guess earlier in tie order, and never above X's limit. */
static oval cand_bound(const snode *X, uint32_t idx)
{
    oval b = (X->have && idx < X->best_idx) ? X->best : X->best - 1;
    return b < X->limit ? b : X->limit;
}

/* X's value, or a bound above its limit: into the table, and its parent
 * told once the current event is over. */
static void node_done(spread *sp, snode *X, oval v, mm_code q, bool exact, bool canon)
{
    oshared *sh = sp->sh;
    X->state = N_DONE;
    X->v = v;
    X->exact = exact;
    X->best_q = q;
    if (sh->use_cache && !(X->lv == 0 && sh->first != MM_NO_CODE)) {
        uint64_t h1, h2;
        opt_hash(sh, X->S, X->n, &h1, &h2);
        ocache_put(&sh->cache, h1, h2, X->depth, X->n, v,
                   exact ? OC_EXACT | (canon ? OC_CANON : 0) : 0, q);
    }
    X->fnext = sp->finished;
    sp->finished = X;
}

/* An expanded set whose candidates are all done. */
static void node_check(spread *sp, snode *X)
{
    if (X->state != N_EXPANDED || !X->launched || X->next < X->nc || X->nlive)
        return;
    if (X->have && X->best <= X->limit) {
        node_done(sp, X, X->best, X->best_q, true, true);
        return;
    }
    oval lb = X->minfail;
    if (X->have && X->best < lb)
        lb = X->best;
    node_done(sp, X, lb, MM_NO_CODE, false, false);
}

static void live_unlink(scand *A)
{
    snode *X = A->up;
    if (A->prev)
        A->prev->next = A->next;
    else
        X->live = A->next;
    if (A->next)
        A->next->prev = A->prev;
    A->prev = A->next = NULL;
    X->nlive--;
}

/* The guesses of X being evaluated, as they are now: a change to one may
 * drop others. */
static scand **live_snapshot(const snode *X, scand **buf, int *k)
{
    scand **a = X->nlive <= 64 ? buf : malloc((size_t)X->nlive * sizeof *a);
    *k = 0;
    if (a)
        for (scand *A = X->live; A; A = A->next)
            a[(*k)++] = A;
    return a;
}

static void update_live(spread *sp, snode *X)
{
    scand *buf[64];
    int k;
    scand **a = live_snapshot(X, buf, &k);
    if (!a) {
        ospread_failed(sp, MM_ERR_NOMEM);
        return;
    }
    for (int i = 0; i < k; i++)
        cand_update(sp, a[i]);
    if (a != buf)
        free(a);
}

/* Y's limit came down. */
static void node_limit(spread *sp, snode *Y, oval lim)
{
    if (lim >= Y->limit)
        return;
    Y->limit = lim;
    if (Y->state == N_EXPANDED)
        update_live(sp, Y);
}

static void kill_node(spread *sp, snode *Y)
{
    if (Y->dead)
        return;
    Y->dead = true;
    if (Y->state == N_QUEUED) {
        heap_remove(sp, Y);
    } else if (Y->state == N_RUNNING) {
        if (sp->cur[Y->worker] == Y) {
            sp->cur[Y->worker] = NULL;
            sp->st.cancelled++;
            mm_status st = sp->link->signal(sp->link->arg, Y->worker, Y->id, OV_ABORT, sp->d);
            if (st)
                ospread_failed(sp, st);
        }
    }
    while (Y->live) {
        scand *A = Y->live;
        live_unlink(A);
        kill_cand(sp, A);
    }
    if (Y->best_c)
        kill_cand(sp, Y->best_c);
    Y->best_c = NULL;
}

/* A's subtree is not wanted: its units are cancelled, and it is freed
 * once the current event is over. */
static void kill_cand(spread *sp, scand *A)
{
    if (A->dead)
        return;
    A->dead = true;
    for (int j = 0; j < A->np; j++)
        if (A->child[j])
            kill_node(sp, A->child[j]);
    scand **g = grow_array(sp->grave, &sp->gcap, sp->ngrave + 1, 64, sizeof *g);
    if (!g) {
        ospread_failed(sp, MM_ERR_NOMEM);
        return;
    }
    sp->grave = g;
    sp->grave[sp->ngrave++] = A;
}

static void free_node(snode *Y)
{
    free(Y->cands);
    free(Y);
}

static void bury(spread *sp)
{
    for (size_t i = 0; i < sp->ngrave; i++) {
        scand *A = sp->grave[i];
        for (int j = 0; j < A->np; j++)
            if (A->child[j])
                free_node(A->child[j]);
        free(A->codes);
        ogroup_release(&A->grp);
        free(A);
    }
    sp->ngrave = 0;
}

static void expand(spread *sp, snode *Y);

/* Parts of A that need solving: sets of their own, with their budgets. */
static void cand_children(spread *sp, scand *A)
{
    snode *X = A->up;
    const mm_game *g = sp->g;
    int cd = sp->sh->depth_mode ? X->depth - 1 : X->depth;
    for (int j = 0; j < A->np; j++) {
        if (A->pt[j].exact)
            continue;
        snode *Y = calloc(1, sizeof *Y);
        if (!Y) {
            ospread_failed(sp, MM_ERR_NOMEM);
            return;
        }
        Y->up = A;
        Y->part = j;
        Y->S = A->codes + A->pt[j].start;
        Y->n = A->pt[j].n;
        Y->slot = mm_game_score(g, A->q, Y->S[0]);
        Y->lv = X->lv + 1;
        Y->depth = cd;
        Y->G = &A->grp;
        Y->worker = -1;
        Y->seq = sp->seq++;
        Y->limit = opt_part_limit(X->n, A->pt, A->np, j, A->bound);
        A->child[j] = Y;
    }
    for (int j = 0; j < A->np && !sp->halt; j++)
        if (A->child[j])
            enqueue(sp, A->child[j]);
}

/* A first guess opened: its parts' codes, those already settled, and its
 * bound, for progress (opt_progress.c) as one process reports it. */
static void root_parts(spread *sp, const scand *A, oval reached)
{
    uint32_t settled = 0, size = 0;
    for (int j = 0; j < A->np; j++) {
        size += A->pt[j].n;
        settled += A->pt[j].exact ? A->pt[j].n : 0;
    }
    oprog_parts(sp->sh, A->idx, settled, size);
    oprog_bound(sp->sh, A->idx, reached);
}

/* Start candidate i of X: open it; what it leaves to solve goes out. */
static void cand_start(spread *sp, snode *X, uint32_t i)
{
    const mm_game *g = sp->g;
    const sguess c = X->cands[i];
    scand *A = calloc(1, sizeof *A);
    if (!A) {
        ospread_failed(sp, MM_ERR_NOMEM);
        return;
    }
    A->up = X;
    A->pos = i;
    A->q = c.q;
    A->idx = c.idx;
    A->bound = cand_bound(X, c.idx);
    A->next = X->live;
    if (X->live)
        X->live->prev = A;
    X->live = A;
    X->nlive++;
    uint32_t h[MM_MAX_REPLIES] = {0};
    for (uint32_t k = 0; k < X->n; k++)
        h[mm_game_score(g, c.q, X->S[k])]++;
    oval reached;
    oval sum = opt_open_cand(sp->w, X->lv, X->G, X->S, X->n, c.q, h, X->K, A->bound,
                             X->depth, true, A->pt, &A->np, &reached);
    if (sum == OV_ABORT) {
        ospread_failed(sp, sp->w->status);
        return;
    }
    if (X == sp->root)
        root_parts(sp, A, reached);
    if (sum > A->bound) {
        cand_done(sp, A, sum, false);
        return;
    }
    A->codes = malloc((size_t)X->n * sizeof *A->codes);
    if (!A->codes || ogroup_after(X->G, g, c.q, &A->grp)) {
        ospread_failed(sp, MM_ERR_NOMEM);
        return;
    }
    memcpy(A->codes, sp->w->lv[X->lv].parts, (size_t)X->n * sizeof *A->codes);
    cand_children(sp, A);
    if (!sp->halt)
        cand_update(sp, A);
}

/* Start the candidates of X after the first, each with the budget the
 * best value so far leaves; those whose bound passes it are done. */
static void launch(spread *sp, snode *X)
{
    X->launched = true;
    while (X->next < X->nc && !sp->halt) {
        const sguess *c = &X->cands[X->next++];
        if (c->lb > cand_bound(X, c->idx)) {
            if (c->lb < X->minfail)
                X->minfail = c->lb;
            uint32_t end = c->lb > X->best || c->lb > X->limit ? X->nc : X->next;
            for (uint32_t i = X->next - 1; X == sp->root && i < end; i++)
                oprog_finish(sp->sh, X->cands[i].idx, X->cands[i].lb);   /* dropped */
            X->next = end;   /* the others' bounds are no less */
            continue;
        }
        cand_start(sp, X, X->next - 1);
    }
    if (X == sp->root)
        atomic_store(&sp->sh->root_i, X->next);
}

static void cand_done(spread *sp, scand *A, oval v, bool exact)
{
    snode *X = A->up;
    live_unlink(A);
    if (X == sp->root)
        oprog_finish(sp->sh, A->idx, v);
    if (exact && v <= cand_bound(X, A->idx)) {
        if (X->best_c)
            kill_cand(sp, X->best_c);
        X->best_c = A;
        X->best = v;
        X->best_idx = A->idx;
        X->best_q = A->q;
        X->have = true;
        if (X == sp->root) {
            sp->sh->root_best = v;
            sp->sh->root_guess = A->q;
        }
        update_live(sp, X);
    } else {
        if (v < X->minfail)
            X->minfail = v;
        kill_cand(sp, A);
    }
    if (!X->launched)
        launch(sp, X);
    node_check(sp, X);
}

/* A's bound or parts changed: dropped, done, or its parts' budgets. */
static void cand_update(spread *sp, scand *A)
{
    if (A->dead || sp->halt)
        return;
    snode *X = A->up;
    A->bound = cand_bound(X, A->idx);
    oval sum = opt_sum_parts(X->n, A->pt, A->np);
    if (X == sp->root)
        oprog_bound(sp->sh, A->idx, sum);
    if (sum > A->bound) {
        cand_done(sp, A, sum, false);
        return;
    }
    bool exact = true;
    for (int j = 0; j < A->np; j++)
        exact = exact && A->pt[j].exact;
    if (exact) {
        cand_done(sp, A, sum, true);
        return;
    }
    for (int j = 0; j < A->np; j++)
        if (A->child[j] && !A->pt[j].exact)
            node_limit(sp, A->child[j], opt_part_limit(X->n, A->pt, A->np, j, A->bound));
}

static int cmp_guess(const void *a, const void *b)
{
    const sguess *x = a, *y = b;
    if (x->lb != y->lb)
        return x->lb < y->lb ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Expand Y here: its candidates, the first started. */
static void expand(spread *sp, snode *Y)
{
    double t0 = opt_now();
    oexpand x;
    oval v;
    mm_code q;
    sp->st.expanded++;
    if (opt_expand(sp->w, Y->lv, Y->G, Y->S, Y->n, Y->limit, Y->depth, true, &v, &q, &x)) {
        if (v == OV_ABORT)
            ospread_failed(sp, sp->w->status);
        else
            node_done(sp, Y, v, q, v <= Y->limit, true);
        goto out;
    }
    Y->state = N_EXPANDED;
    Y->cands = malloc((x.nc ? x.nc : 1) * sizeof *Y->cands);
    if (!Y->cands) {
        ospread_failed(sp, MM_ERR_NOMEM);
        goto out;
    }
    for (uint32_t i = 0; i < x.nc; i++)
        Y->cands[i] = (sguess){x.cand[x.ci[i].idx], x.ci[i].lb, x.ci[i].idx};
    qsort(Y->cands, x.nc, sizeof *Y->cands, cmp_guess);
    Y->nc = x.nc;
    Y->K = x.K;
    Y->minfail = x.minfail;
    Y->best = Y->limit + 1;
    Y->best_idx = UINT32_MAX;
    if (Y == sp->root)
        atomic_store(&sp->sh->root_nc, Y->nc);
    if (Y == sp->root && sp->sh->track_root) {   /* for progress and bounds */
        uint32_t ncand = 0;
        for (uint32_t i = 0; i < x.nc; i++)
            if (x.ci[i].idx >= ncand)
                ncand = x.ci[i].idx + 1;
        oprog_begin(sp->sh, &sp->w->lv[Y->lv], ncand, x.nc, x.minfail);
    }
    if (!Y->nc) {
        Y->launched = true;
        node_check(sp, Y);
    } else {
        Y->next = 1;
        cand_start(sp, Y, 0);
    }
out:
    sp->st.busy += opt_now() - t0;
}

/* Tell the parents of the sets done. */
static void drain(spread *sp)
{
    while (sp->finished && !sp->halt) {
        snode *Y = sp->finished;
        sp->finished = Y->fnext;
        if (Y->dead || !Y->up)
            continue;
        scand *A = Y->up;
        if (A->dead)
            continue;
        for (int j = 0; j < A->np; j++)
            if (A->child[j] == Y) {
                if (A->up == sp->root && Y->exact && !A->pt[j].exact)
                    oprog_settle(sp->sh, A->idx, Y->n);
                A->pt[j].exact = Y->exact;
                if (Y->exact || Y->v > A->pt[j].v)
                    A->pt[j].v = Y->v;
            }
        cand_update(sp, A);
    }
}

/* ---- the workers ---- */

void ospread_task_path(const snode *Y, otask *t)
{
    t->plen = Y->lv;
    for (const snode *X = Y; X->up; X = X->up->up) {
        t->guess[X->lv - 1] = X->up->q;
        t->reply[X->lv - 1] = (uint8_t)X->slot;
    }
}

static void dispatch(spread *sp)
{
    for (int r = 0; r < sp->link->n && sp->nheap && !sp->halt; r++) {
        if (sp->busy[r])
            continue;
        snode *Y = sp->heap[0];
        heap_remove(sp, Y);
        Y->state = N_NEW;   /* in no queue: an expansion that stops leaves it so */
        if (Y->n > sp->st.split) {
            expand(sp, Y);   /* its units join the queue */
            r--;
            continue;
        }
        otask t = {.id = ++sp->next_id, .kind = OTASK_SOLVE,
                   .consistent = sp->sh->consistent_only, .ties = sp->ties,
                   .depth = Y->depth, .limit = Y->limit};
        ospread_task_path(Y, &t);
        Y->state = N_RUNNING;
        Y->id = t.id;
        Y->worker = r;
        Y->sent = Y->limit;
        Y->sent_at = opt_now();
        sp->cur[r] = Y;
        sp->busy[r] = true;
        sp->st.units++;
        mm_status st = sp->link->start(sp->link->arg, r, &t, sp->d);
        if (st)
            ospread_failed(sp, st);
    }
}

/* Units whose budget shrank since they were sent, once they have run a
 * while: a unit that ends soon is not worth starting again. */
static void tighten(spread *sp)
{
    double after = sp->so && sp->so->tighten ? sp->so->tighten : 0.05;
    if (after < 0)
        return;
    double now = opt_now();
    for (int r = 0; r < sp->link->n; r++) {
        snode *Y = sp->cur[r];
        if (!Y || Y->limit >= Y->sent || now - Y->sent_at < after)
            continue;
        Y->sent = Y->limit;
        Y->sent_at = now;
        sp->st.tightened++;
        mm_status st = sp->link->signal(sp->link->arg, r, Y->id, Y->limit, sp->d);
        if (st)
            ospread_failed(sp, st);
    }
}

/* A result from worker r: its unit's value, or (builds) its facts. */
static void take_result(spread *sp, int r, oresult *res)
{
    snode *Y = sp->cur[r];
    sp->cur[r] = NULL;
    sp->busy[r] = false;
    atomic_fetch_add(&sp->sh->nodes, res->nodes);
    if (res->status) {
        ospread_worker_failed(sp, r, res);
        return;
    }
    if (!Y || Y->id != res->id || res->v == OV_ABORT)
        return;   /* cancelled */
    node_done(sp, Y, res->v, res->guess, res->v <= res->limit, sp->ties);
}

/* The proven bound on the root's value: the least bound of its guesses. */
static oval root_lower(const spread *sp)
{
    const snode *X = sp->root;
    oval lb = X->minfail;
    if (X->have && X->best < lb)
        lb = X->best;
    for (const scand *A = X->live; A; A = A->next) {
        oval s = opt_sum_parts(X->n, A->pt, A->np);
        if (s < lb)
            lb = s;
    }
    for (uint32_t i = X->next; i < X->nc; i++)
        if (X->cands[i].lb < lb)
            lb = X->cands[i].lb;
    return lb;
}

static void release_tree(spread *sp)
{
    if (sp->root) {
        kill_node(sp, sp->root);
        bury(sp);
        free_node(sp->root);
        sp->root = NULL;
    }
    sp->nheap = 0;
    sp->finished = NULL;
}

/* Stop the units: cancel those running, forget those queued. */
static void stop_units(spread *sp)
{
    for (int r = 0; r < sp->link->n; r++)
        if (sp->cur[r]) {
            snode *Y = sp->cur[r];
            sp->cur[r] = NULL;
            sp->st.cancelled++;
            (void)sp->link->signal(sp->link->arg, r, Y->id, OV_ABORT, sp->d);
        }
    for (size_t i = 0; i < sp->nheap; i++) {
        sp->heap[i]->state = N_DONE;
        sp->heap[i]->dead = true;
    }
    sp->nheap = 0;
}

static mm_status spread_solve(void *arg, oworker *w, const ogroup *root, const mm_code *all,
                              oval limit, int depth, bool ties, oval *v, mm_diag *d)
{
    spread *sp = arg;
    oshared *sh = w->sh;
    release_tree(sp);
    sp->sh = sh;
    sp->w = w;
    sp->d = d;
    sp->ties = ties;
    sp->halt = false;
    snode *X = calloc(1, sizeof *X);
    if (!X)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory in the optimal search");
    *X = (snode){.G = root, .S = all, .n = sp->g->ncodes, .depth = depth, .limit = limit,
                 .worker = -1};
    sp->root = X;
    /* the table of replies for the sets the coordinator scores, when the
     * root is small enough for one (opt_score.c) */
    bool table = opt_replies_build(w, 0, all, X->n);
    expand(sp, X);
    while (!sp->halt) {
        drain(sp);
        bury(sp);
        if (X->state == N_DONE || sp->halt)
            break;
        w->tick = 255;   /* the clock at every turn: turns wait for results */
        if (opt_stopping(w)) {
            sp->halt = true;
            break;
        }
        dispatch(sp);
        tighten(sp);
        double now = opt_now();
        if (now >= sp->next_lower && X->state == N_EXPANDED) {
            sh->root_lower = root_lower(sp);
            sp->next_lower = now + 0.5;
        }
        int r;
        oresult res;
        int got = sp->link->poll(sp->link->arg, 0.002, &r, &res, d);
        if (got < 0)
            ospread_failed(sp, MM_ERR_IO);
        else if (got > 0) {
            take_result(sp, r, &res);
            oresult_release(&res);
        }
    }
    if (table)
        opt_replies_drop(w);
    if (sp->fail) {
        stop_units(sp);
        return sp->fail;
    }
    if (X->state == N_DONE) {
        *v = X->v;
        return MM_OK;
    }
    if (X->state == N_EXPANDED)
        sh->root_lower = root_lower(sp);
    stop_units(sp);
    *v = OV_ABORT;
    return MM_OK;
}

mm_status opt_compile_spread(const mm_game *g, const mm_compile_opts *o, const olink *link,
                             const ospread_opts *so, ospread_stats *stats, mm_tree *t,
                             mm_diag *d)
{
    spread sp;
    mm_tree_init(t, g->pegs, g->colors, g->repeat);
    if (o->rule < MM_RULE_COUNT_ONE_STEP || o->rule >= MM_RULE_COUNT)
        return mm_diag_set(d, MM_ERR_USAGE, "a spread search needs an optimal rule");
    if (o->first != MM_NO_CODE && o->first >= g->ncodes)
        return mm_diag_set(d, MM_ERR_USAGE, "first guess is not a code of the game");
    if (o->bounds_from)
        return mm_diag_set(d, MM_ERR_USAGE, "bounds from an optimal search are for a search "
                           "on one machine (mmtree build)");
    memset(&sp, 0, sizeof sp);
    sp.g = g;
    sp.link = link;
    sp.so = so;
    sp.biggest = so && so->biggest;
    sp.d = d;
    int n = link->n > 0 ? link->n : 1;
    /* Sets of more codes than this are expanded here, not sent.  Finer
     * units balance better but cost more: each starts with a budget its
     * siblings running beside it have not tightened yet, and in a table
     * of its own worker's.  A first guess has 14 to 35 parts, enough
     * for a few workers: two workers solved MM(4,8) in 4.2 s with the
     * root's parts alone (45 units), in 6.1 s expanding sets of more
     * than 512 codes (3112 units).  So sets above twice the game's share
     * of a worker, never below what the scoring of small sets covers. */
    uint64_t split = 2 * (uint64_t)g->ncodes / (uint32_t)n;
    sp.st.split = so && so->split ? so->split
                  : split < 4 * SMALL_SET ? 4 * SMALL_SET : (uint32_t)split;
    sp.cur = calloc((size_t)n, sizeof *sp.cur);
    sp.bcur = malloc((size_t)n * sizeof *sp.bcur);
    sp.busy = calloc((size_t)n, sizeof *sp.busy);
    mm_status st;
    if (!sp.cur || !sp.bcur || !sp.busy) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory in the optimal search");
        goto out;
    }
    for (int r = 0; r < n; r++)
        sp.bcur[r] = -1;
    oroot rs = {spread_solve, ospread_facts, &sp};
    st = opt_compile_root(g, o, &rs, t, d);
out:
    release_tree(&sp);
    free(sp.grave);
    free(sp.heap);
    free(sp.cur);
    free(sp.bcur);
    free(sp.busy);
    if (stats)
        *stats = sp.st;
    return st;
}
