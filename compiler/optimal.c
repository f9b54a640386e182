/*
 * Exact optima (issue 6): the driver around the branch and bound of
 * opt_search.c.
 *
 *  optimal             least total over all strategies, then least worst
 *                      case, then the tie order of the one-step rules;
 *  optimal-consistent  the same over guesses that can still be the code
 *                      (Ville's MM*, Neuwirth's h_k of 2.4.9-2.4.11);
 *  optimal-worst       least worst case, then least total, then ties.
 *
 * The steps: an upper bound from the one-step rules (and, for optimal,
 * the consistent-only optimum, Ville 5.2); for optimal-worst the least
 * depth, by a search that only asks whether a depth is enough; the value
 * of the root by branch and bound; then the tree, walking down from the
 * root and taking at each node the first guess in tie order that reaches
 * the node's value.  With --value-only the search looks for values alone
 * (any optimal guess will do, Ville's suggestion), and the walk searches
 * each node of the tree again for its first optimal guess; otherwise the
 * search already keeps the first optimal guess of every set it solves.
 * Both give the same tree.
 */
#include "optimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"

static const mm_rule heuristics[] = {
    MM_RULE_IRVING, MM_RULE_ENTROPY, MM_RULE_E3, MM_RULE_KNUTH, MM_RULE_KOOI,
    MM_RULE_BRANCH2,
};

typedef struct driver {
    const mm_game *g;
    const mm_compile_opts *o;
    mm_diag *d;
    oshared sh;
    oworker w;
    ogroup root;
    mm_code *all;
    mm_optimal_report rep;
    double t0, next_ckpt;
    char tag[96];
    /* the incumbent: a tree of a one-step rule, or the search's */
    mm_tree heur;
    oval heur_v;
} driver;

static mm_status nomem(mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_NOMEM, "out of memory in the optimal search");
}

static oval tree_value(const mm_tree *t)
{
    mm_stats s;
    mm_tree_stats(t, &s);
    return OV(s.total, s.worst);
}

/* Best tree of the one-step rules; for optimal-worst the least total
 * among those of worst case at most max_depth.  Rules that may guess any
 * code cost ten to a hundred times more than consistent ones, and for
 * the optimal rule the consistent optimum comes next and is far better,
 * so they are only tried for optimal-worst (all) and not at all else. */
static mm_status heuristic_bound(driver *dr, bool consistent, int max_depth)
{
    mm_compile_opts ho;
    mm_compile_opts_init(&ho);
    ho.first = dr->o->first;
    ho.threads = dr->o->threads;
    dr->heur_v = OV_INF;
    size_t nh = sizeof heuristics / sizeof heuristics[0];
    for (size_t i = 0; i < 2 * nh; i++) {
        mm_tree t;
        ho.rule = heuristics[i % nh];
        ho.consistent_only = i < nh;
        if (!ho.consistent_only && (consistent || !dr->sh.depth_mode))
            break;
        if (ho.rule == MM_RULE_BRANCH2 && !ho.consistent_only)
            continue;   /* seconds: no better than the others */
        mm_status st = mm_compile(dr->g, &ho, &t, dr->d);
        if (st)
            return st;
        oval v = tree_value(&t);
        if (OV_W(v) <= max_depth && v < dr->heur_v) {
            mm_tree_release(&dr->heur);
            dr->heur = t;
            dr->heur_v = v;
        } else {
            mm_tree_release(&t);
        }
    }
    return MM_OK;
}

static void report_counts(driver *dr)
{
    oworker_flush(&dr->w);
    dr->rep.nodes = atomic_load(&dr->sh.nodes);
    dr->rep.cache_hits = atomic_load(&dr->sh.hits);
    dr->rep.guesses = atomic_load(&dr->sh.guesses);
    dr->rep.guesses_all = atomic_load(&dr->sh.guesses_all);
    dr->rep.elapsed = opt_now() - dr->t0;
}

/* ---- building the tree ---- */

static int depth_below(const oshared *sh, int depth)
{
    return sh->depth_mode ? depth - 1 : depth;
}

/* Exact value of a part of a node whose value is known. */
static oval known_value(oworker *w, int lv, const ogroup *G, const mm_code *P,
                        uint32_t m, int depth)
{
    mm_code q;
    return opt_solve(w, lv, G, P, m, OV_INF - 1, depth, false, false, &q);
}

/* Why the search stopped while the tree was being built. */
static mm_status stopped_status(driver *dr)
{
    mm_status st = dr->w.status ? dr->w.status : MM_ERR_LIMIT;
    if (st == MM_ERR_NOMEM)
        return nomem(dr->d);
    return mm_diag_set(dr->d, st, "the search stopped while it built the tree");
}

static mm_status build(driver *dr, int lv, const ogroup *G, const mm_code *S,
                       uint32_t n, oval v, int depth, bool canonical,
                       mm_tree *t, uint32_t node)
{
    oshared *sh = &dr->sh;
    oworker *w = &dr->w;
    const mm_game *g = dr->g;
    mm_code q = S[0];
    mm_status st = MM_OK;
    if (n >= 3) {
        oentry e;
        uint64_t h1, h2;
        opt_hash(sh, S, n, &h1, &h2);
        bool have = sh->use_cache && ocache_get(&sh->cache, h1, h2, depth, &e) &&
                    (oentry_flags(&e) & OC_EXACT) && oentry_value(&e) == v &&
                    e.guess < g->ncodes && (!canonical || (oentry_flags(&e) & OC_CANON));
        if (have) {
            q = e.guess;
        } else {
            oval r = opt_solve(w, lv, G, S, n, v, depth, canonical, true, &q);
            if (r == OV_ABORT)
                return stopped_status(dr);
            if (r != v)
                return mm_diag_set(dr->d, MM_ERR_INPUT,
                                   "internal error: a set's value changed (%llu, %llu)",
                                   (unsigned long long)r, (unsigned long long)v);
        }
    }
    int R = g->nreplies;
    uint32_t cnt[MM_MAX_REPLIES] = {0}, pos[MM_MAX_REPLIES];
    mm_code *sub = malloc((size_t)n * sizeof *sub);
    ogroup cg = {0};
    if (!sub)
        return nomem(dr->d);
    for (uint32_t i = 0; i < n; i++)
        cnt[mm_game_score(g, q, S[i])]++;
    uint64_t replies = 0;
    uint32_t acc = 0;
    for (int s = 0; s < R; s++) {
        pos[s] = acc;
        acc += cnt[s];
        if (cnt[s] && s != g->win)
            replies |= UINT64_C(1) << s;
    }
    for (uint32_t i = 0; i < n; i++)
        sub[pos[mm_game_score(g, q, S[i])]++] = S[i];
    int k = __builtin_popcountll(replies);
    uint32_t first = MM_NO_NODE;
    if (k && (st = mm_tree_alloc(t, (uint32_t)k, &first, dr->d)))
        goto out;
    mm_node *nd = &t->nodes[node];
    nd->guess = q;
    nd->count = n;
    nd->flags = cnt[g->win] ? MM_NODE_CONSISTENT : 0;
    nd->replies = replies;
    nd->child = first;
    if (!k)
        goto out;
    if (ogroup_after(G, g, q, &cg)) {
        st = nomem(dr->d);
        goto out;
    }
    int c = 0;
    for (int s = 0; s < R && !st; s++) {
        if (!(replies >> s & 1u))
            continue;
        const mm_code *P = sub + pos[s] - cnt[s];
        int cd = depth_below(sh, depth);
        oval pv = cnt[s] >= 3 ? known_value(w, lv + 1, &cg, P, cnt[s], cd) : 0;
        if (pv == OV_ABORT) {
            st = stopped_status(dr);
            break;
        }
        st = build(dr, lv + 1, &cg, P, cnt[s], pv, cd, canonical, t, first + (uint32_t)c++);
    }
out:
    ogroup_release(&cg);
    free(sub);
    return st;
}

/* The tree of value v for the whole game, into t. */
static mm_status build_tree(driver *dr, oval v, int depth, bool canonical,
                            mm_tree *t)
{
    uint32_t root;
    mm_status st = mm_tree_alloc(t, 1, &root, dr->d);
    if (!st)
        st = build(dr, 0, &dr->root, dr->all, dr->g->ncodes, v, depth, canonical, t, root);
    return st;
}

/* ---- the searches ---- */

static void set_mode(driver *dr, bool consistent)
{
    dr->sh.consistent_only = consistent;
    dr->sh.salt = consistent ? 0x2545f4914f6cdd1du : 0;
}

static int ncores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static oval solve_root(driver *dr, oval limit, int depth, bool ties)
{
    oshared *sh = &dr->sh;
    mm_code q;
    int nt = dr->o->threads > 0 ? dr->o->threads : ncores();
    /* Below some 2000 codes one first guess holds most of the work: its
     * parts are shared out, then the other first guesses (opt_solve).
     * Above, only the first guesses are: a part taken early gets a looser
     * budget, which costs more on big games (MM(4,7): 3.9 s sharing
     * parts, 3.0 s sharing guesses; tests/bench_optimal.sh). */
    sh->share_parts = dr->o->share == MM_SHARE_AUTO ? dr->g->ncodes < 2000
                                                     : dr->o->share == MM_SHARE_PARTS;
    oworker *hw = nt > 1 ? calloc((size_t)nt, sizeof *hw) : NULL;
    pthread_t tid[64];
    int started = 0;
    sh->root_best = OV_INF;
    sh->root_guess = MM_NO_CODE;
    sh->root_lower = opt_lower(sh, dr->g->ncodes, sh->answers - 1);
    sh->upper = OV_T(limit);
    sh->pool_quit = false;
    for (int i = 1; hw && i < nt; i++) {
        oworker *h = &hw[started];
        if (oworker_init(h, sh))
            break;
        h->id = i;
        if (pthread_create(&tid[started], NULL, opt_helper, h)) {
            oworker_release(h);
            break;
        }
        started++;
    }
    sh->nhelpers = started;
    oval v = opt_solve(&dr->w, 0, &dr->root, dr->all, dr->g->ncodes, limit, depth, ties,
                       false, &q);
    pthread_mutex_lock(&sh->mx);
    sh->pool_quit = true;
    pthread_cond_broadcast(&sh->cv_job);
    pthread_mutex_unlock(&sh->mx);
    for (int i = 0; i < started; i++) {
        pthread_join(tid[i], NULL);
        if (hw[i].status && !dr->w.status)
            dr->w.status = hw[i].status;
        oworker_flush(&hw[i]);
        oworker_release(&hw[i]);
    }
    sh->nhelpers = 0;
    free(hw);
    return v;
}

/* Least depth: count bound first, then one depth after another. */
static int least_depth(driver *dr, int *res)
{
    int d = OV_W(opt_lower(&dr->sh, dr->g->ncodes, dr->sh.answers - 1));
    for (; d < 63; d++) {
        int f = opt_feasible(&dr->w, 0, &dr->root, dr->all, dr->g->ncodes, d);
        if (f < 0) {
            *res = -1;
            return d;
        }
        if (f)
            break;
        dr->rep.worst_lower = d + 1;
    }
    *res = 1;
    return d;
}

/* Stopped (time limit or signal): the best tree found and the proven
 * lower bound.  The best tree is the search's own when a first guess was
 * solved below the one-step rules' tree: the table holds an optimal guess
 * for every set below it, so the walk takes no search to speak of. */
static mm_status finish_stopped(driver *dr, oval lower, int depth, mm_tree *t)
{
    oshared *sh = &dr->sh;
    mm_status st;
    if (sh->root_best < dr->heur_v && sh->root_guess != MM_NO_CODE) {
        mm_tree own;
        mm_tree_init(&own, dr->g->pegs, dr->g->colors, dr->g->repeat);
        atomic_store(&sh->abort, 0);
        sh->deadline = 0;
        sh->stop = NULL;
        sh->first = sh->root_guess;
        st = mm_tree_set_rule(&own, mm_rule_name(dr->o->rule), dr->o->consistent_only,
                              dr->o->first);
        if (!st)
            st = build_tree(dr, sh->root_best, depth, false, &own);
        sh->first = dr->o->first;
        if (!st) {
            mm_tree_release(t);
            *t = own;
            goto done;
        }
        mm_tree_release(&own);
        if (st != MM_ERR_LIMIT)
            return st;
        dr->w.status = MM_OK;
    }
    mm_tree_release(t);
    *t = dr->heur;
    mm_tree_init(&dr->heur, dr->g->pegs, dr->g->colors, dr->g->repeat);
    if ((st = mm_tree_set_rule(t, mm_rule_name(dr->o->rule), dr->o->consistent_only,
                               dr->o->first)))
        return nomem(dr->d);
done:;
    oval v = tree_value(t);
    dr->rep.proven = false;
    dr->rep.total = OV_T(v);
    dr->rep.worst = OV_W(v);
    dr->rep.lower = OV_T(lower) < OV_T(v) ? OV_T(lower) : OV_T(v);
    return MM_OK;
}

mm_status opt_compile(const mm_game *g, const mm_compile_opts *o,
                             mm_tree *t, mm_diag *d)
{
    driver dr;
    mm_status st;
    memset(&dr, 0, sizeof dr);
    dr.g = g;
    dr.o = o;
    dr.d = d;
    dr.t0 = opt_now();
    mm_tree_init(&dr.heur, g->pegs, g->colors, g->repeat);
    bool consistent = o->rule == MM_RULE_OPTIMAL_CONSISTENT || o->consistent_only;
    bool worst_mode = o->rule == MM_RULE_OPTIMAL_WORST;
    /* The table is reserved at 64 KB a code of the game at most (2000
     * sets a code, more than any search here stores), 16 MB at least,
     * and used from 1 MB as it fills (opt_cache.c). */
    size_t cache = o->no_cache ? 0 : (o->cache_mb ? o->cache_mb : 1024) << 20;
    size_t fit = (size_t)g->ncodes << 16;
    if (fit < ((size_t)16 << 20))
        fit = (size_t)16 << 20;
    if (cache > fit)
        cache = fit;
    if ((st = oshared_init(&dr.sh, g, cache)))
        return nomem(d);
    dr.sh.no_symmetry = o->no_symmetry;
    dr.sh.no_simd = o->no_simd;
    dr.sh.depth_mode = worst_mode;
    dr.sh.first = o->first;
    dr.sh.stop = o->stop;
    if (o->time_limit > 0)
        dr.sh.deadline = dr.t0 + o->time_limit;
    set_mode(&dr, consistent);
    dr.sh.t0 = dr.t0;
    dr.sh.progress = o->progress;
    dr.sh.progress_arg = o->progress_arg;
    if (o->progress)
        dr.sh.next_progress = dr.t0 + 1;
    dr.sh.ckpt_path = o->checkpoint;
    dr.sh.ckpt_tag = dr.tag;
    dr.sh.ckpt_every = o->checkpoint_every > 0 ? o->checkpoint_every : 600;
    if (o->checkpoint)
        dr.sh.next_ckpt = dr.t0 + dr.sh.ckpt_every;
    if ((st = oworker_init(&dr.w, &dr.sh)) || (st = ogroup_root(&dr.root, g, o->no_symmetry)))
        goto nomem_out;
    dr.all = malloc((size_t)g->ncodes * sizeof *dr.all);
    if (!dr.all)
        goto nomem_out;
    for (mm_code x = 0; x < g->ncodes; x++)
        dr.all[x] = x;
    snprintf(dr.tag, sizeof dr.tag, "mmtree optimal 1 pegs %d colors %d%s", g->pegs,
             g->colors, g->repeat ? "" : " no-repeat");
    if (o->checkpoint && dr.sh.use_cache) {
        uint64_t loaded;
        if ((st = ocache_load(&dr.sh.cache, o->checkpoint, dr.tag, &loaded, d)))
            goto out;
    }
    st = mm_tree_set_rule(t, mm_rule_name(o->rule), o->consistent_only, o->first);
    if (st)
        goto nomem_out;

    int depth = OPT_NODEPTH;
    if (worst_mode) {
        int res;
        depth = least_depth(&dr, &res);
        if (res < 0)
            goto stopped_worst;
        dr.rep.worst_lower = depth;
    }
    if ((st = heuristic_bound(&dr, consistent, depth)))
        goto out;
    dr.rep.upper_first = dr.heur_v < OV_INF ? OV_T(dr.heur_v) : 0;
    oval limit = dr.heur_v < OV_INF ? dr.heur_v : OV_INF - 1;
    if (!consistent && !worst_mode && o->consistent_bound) {
        /* The consistent-only optimum: a tighter start (Ville 5.2).  The
         * search here finds the best first guess first and prunes the
         * others against it, so the tighter start saves about what the
         * consistent search costs (MM(4,6), MM(4,7): see
         * tests/bench_optimal.sh, which runs both): off by default. */
        set_mode(&dr, true);
        oval vc = solve_root(&dr, limit, depth, false);
        set_mode(&dr, false);
        if (vc == OV_ABORT) {
            /* what that search proved bounds MM*, not the optimum */
            dr.sh.root_best = OV_INF;
            dr.sh.root_lower = opt_lower(&dr.sh, g->ncodes, dr.sh.answers - 1);
            goto stopped;
        }
        if (vc < limit)
            limit = vc;
    }
    oval v = solve_root(&dr, limit, depth, !o->value_only);
    if (v == OV_ABORT)
        goto stopped;
    if (v > limit) {
        st = mm_diag_set(d, MM_ERR_INPUT, "internal error: no tree within the bound");
        goto out;
    }
    /* The value is proven: the tree is built whatever the clock says (the
     * table makes that quick). */
    dr.sh.deadline = 0;
    dr.sh.stop = NULL;
    if ((st = build_tree(&dr, v, depth, true, t)))
        goto out;
    dr.rep.proven = true;
    dr.rep.total = dr.rep.lower = OV_T(v);
    dr.rep.worst = OV_W(v);
    if (o->checkpoint && dr.sh.use_cache)
        st = ocache_save(&dr.sh.cache, o->checkpoint, dr.tag, 3, d);
    goto out;

stopped:
    if (dr.w.status)
        goto status_out;
    if (o->checkpoint && dr.sh.use_cache &&
        (st = ocache_save(&dr.sh.cache, o->checkpoint, dr.tag, 3, d)))
        goto out;
    st = finish_stopped(&dr, dr.sh.root_lower, depth, t);
    goto out;
stopped_worst:
    if (dr.w.status)
        goto status_out;
    /* no depth proven enough yet: fall back to the minimax rule */
    if ((st = heuristic_bound(&dr, consistent, 63)))
        goto out;
    if (o->checkpoint && dr.sh.use_cache &&
        (st = ocache_save(&dr.sh.cache, o->checkpoint, dr.tag, 3, d)))
        goto out;
    st = finish_stopped(&dr, 0, depth, t);
    goto out;
status_out:
    st = dr.w.status;
    if (st == MM_ERR_NOMEM)
        goto nomem_out;
    mm_diag_set(d, st, "the search went deeper than %d guesses", 64);
    goto out;
nomem_out:
    st = nomem(d);
out:
    report_counts(&dr);
    if (o->report)
        *o->report = dr.rep;
    mm_tree_release(&dr.heur);
    free(dr.all);
    ogroup_release(&dr.root);
    oworker_release(&dr.w);
    oshared_release(&dr.sh);
    return st;
}
