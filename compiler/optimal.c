/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Exact optima: the driver around the branch and bound of opt_search.c.
 *
 *  optimal             least total over all strategies, then least worst
 *                      case, then fewest codes at the worst depth, then
 *                      the tie order of the one-step rules;
 *  optimal-consistent  the same over guesses that can still be the code
 *                      (Ville's MM*, Neuwirth's h_k of 2.4.9-2.4.11);
 *  optimal-worst       least worst case, then least total, then fewest
 *                      codes at the worst depth, then ties.
 *
 * The steps: an upper bound from the one-step rules or the caller's start
 * tree (and, for optimal, the consistent-only optimum, Ville 5.2), which
 * prunes but never changes the tree found; for optimal-worst the least
 * depth, by a search that only asks whether a depth is enough; the value
 * of the root by branch and bound; then the tree, walking down from the
 * root and taking at each node the first guess in tie order that reaches
 * the node's value (opt_tree.c).  With --value-only the search looks for
 * values alone (any optimal guess will do, Ville's suggestion), and the
 * walk searches each node of the tree again for its first optimal guess;
 * otherwise the search already keeps the first optimal guess of every
 * set it solves.  Both give the same tree.
 *
 * A search that stops (time limit, signal) returns the best tree it has:
 * its own when a first guess was solved below the incumbent (the best of
 * the one-step rules' trees and the tree o->start), else the incumbent,
 * marked not proven, with the lower bounds it did prove.
 * Every value in the table is a proven fact whether or not the search
 * went on, so a stopped search's table is saved and resumed from.
 */
#include "optimal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "position.h"
#include "core/cores.h"

typedef struct driver {
    const mm_game *g;
    const mm_compile_opts *o;
    mm_diag *d;
    oshared sh;
    oworker w;
    ogroup root;
    mm_code *all;          /* the codes of the position (the whole game,
                              or those left after o->after) */
    uint32_t n;
    mm_optimal_report rep;
    double t0, cpu0;       /* opt_now(), opt_cpu_now() at the start */
    bool consistent;       /* guesses that can be the code only */
    bool worst_mode;       /* optimal-worst: least depth first */
    ockpt_id ckid;         /* what its checkpoint is bound to */
    const oroot *rs;       /* another solver of the root, or NULL */
    mm_status rs_status;   /* its failure, described in d */
    /* the incumbent: a tree of a one-step rule, or the start tree */
    mm_tree heur;
    oval heur_v;
    mm_tree start;         /* o->start at the position, until it is the
                              incumbent */
    oval start_v;          /* OV_INF: none */
} driver;

static mm_status nomem(mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_NOMEM, "out of memory in the optimal search");
}

static oval tree_value(const mm_tree *t)
{
    mm_stats s;
    mm_tree_stats(t, &s);
    return OV(s.total, s.worst, s.hist[s.worst - 1]);
}

/* Is value a better than b in the rule's order?  Values order by total
 * first; optimal-worst wants the worst case first. */
static bool rule_better(const driver *dr, oval a, oval b)
{
    if (dr->worst_mode && OV_W(a) != OV_W(b))
        return OV_W(a) < OV_W(b);
    return a < b;
}

/* Take tree t of value v as the incumbent when it is within max_depth
 * and better than it (t is moved, or released). */
static void offer(driver *dr, mm_tree *t, oval v, int max_depth)
{
    if (OV_W(v) <= max_depth && (dr->heur_v == OV_INF || rule_better(dr, v, dr->heur_v))) {
        mm_tree_release(&dr->heur);
        dr->heur = *t;
        dr->heur_v = v;
        mm_tree_init(t, dr->g->pegs, dr->g->colors, dr->g->repeat);
    } else {
        mm_tree_release(t);
    }
}

/* The best of the one-step rules' trees and the start tree into
 * dr->heur; with a depth limit, the least total among those of worst
 * case at most max_depth.  Rules of consistent guesses cost little.
 * Those that may guess any code cost 10 to 70 times more, and are
 * better: MM(4,10) entropy 56209, consistent 57717, which a search
 * stopped early writes.  For optimal-worst they are tried always (a
 * worst case within the least depth, which the consistent ones often
 * miss); for optimal from ANY_CODES codes on, where they cost 2% at most
 * of a search that takes from seconds (MM(6,4): 7.8 s, MM(4,8): 14 s) to
 * days, and give the stopped search its tree.  Below, the search ends in
 * seconds, they prune nothing it does not, and they would cost up to 70%
 * of it (MM(4,6); 5% of MM(4,7)).  Not branch2 of any guess (no better
 * than the others, slower).  Once the search has stopped (cheap), irving
 * and entropy only, from ANY_CODES codes on: 3 s on one thread for
 * MM(5,8); for optimal-worst knuth's too. */
#define ANY_CODES 4000

/* Which of them heuristic_bound offers: the rules of consistent guesses,
 * those of any guess, the start tree. */
enum { HEUR_CONSISTENT = 1, HEUR_ANY = 2, HEUR_START = 4, HEUR_ALL = 7 };

/* Build the tree of one rule and offer it. */
static mm_status offer_rule(driver *dr, mm_compile_opts *ho, mm_rule rule, bool consistent,
                            int max_depth)
{
    mm_tree t;
    ho->rule = rule;
    ho->consistent_only = consistent;
    mm_status st = mm_compile(dr->g, ho, &t, dr->d);
    if (!st)
        offer(dr, &t, tree_value(&t), max_depth);
    return st;
}

static mm_status heuristic_bound(driver *dr, int max_depth, bool cheap, unsigned which)
{
    static const mm_rule rules[] = {   /* irving and entropy first: cheap */
        MM_RULE_IRVING, MM_RULE_ENTROPY, MM_RULE_E3, MM_RULE_KNUTH, MM_RULE_KOOI,
        MM_RULE_BRANCH2,
    };
    const size_t nr = sizeof rules / sizeof rules[0];
    bool any = !dr->consistent && (dr->n >= ANY_CODES || (dr->worst_mode && !cheap));
    mm_compile_opts ho;
    mm_compile_opts_init(&ho);
    ho.first = dr->o->first;
    ho.after = dr->o->after;
    ho.nafter = dr->o->nafter;
    ho.threads = dr->o->threads;
    mm_status st = MM_OK;
    for (size_t i = 0; i < nr && !st && (which & HEUR_CONSISTENT); i++)
        st = offer_rule(dr, &ho, rules[i], true, max_depth);
    for (size_t i = 0; i < nr && !st && any && (which & HEUR_ANY); i++) {
        /* of any guess: not branch2; once stopped, irving and entropy,
         * and for optimal-worst knuth's, the rule that aims at the worst
         * case (MM(7,7)n: 8 guesses, where irving and entropy need 9) */
        mm_rule r = rules[i];
        if (r == MM_RULE_BRANCH2 ||
            (cheap && i >= 2 && !(dr->worst_mode && r == MM_RULE_KNUTH)))
            continue;
        st = offer_rule(dr, &ho, r, false, max_depth);
    }
    if (st)
        return st;
    if ((which & HEUR_START) && dr->start_v != OV_INF && OV_W(dr->start_v) <= max_depth) {
        offer(dr, &dr->start, dr->start_v, max_depth);
        dr->start_v = OV_INF;
    }
    return MM_OK;
}

/* The report's work counts, and whether the worst case came first, from
 * the shared state: the one place the search keeps them. */
static void report_counts(driver *dr)
{
    oworker_flush(&dr->w);
    dr->rep.worst_first = dr->sh.worst_first;
    dr->rep.nodes = atomic_load(&dr->sh.nodes);
    dr->rep.cache_hits = atomic_load(&dr->sh.hits);
    dr->rep.guesses = atomic_load(&dr->sh.guesses);
    dr->rep.guesses_all = atomic_load(&dr->sh.guesses_all);
    dr->rep.elapsed = opt_now() - dr->t0;
    dr->rep.cpu = opt_cpu_now() - dr->sh.cpu0;
}

/* ---- the searches ---- */

void opt_set_mode(oshared *sh, bool consistent)
{
    sh->consistent_only = consistent;
    sh->salt = consistent ? OPT_SALT_CONSISTENT : 0;
}

static void set_mode(driver *dr, bool consistent)
{
    opt_set_mode(&dr->sh, consistent);
}

/* From now on nothing stops the search: the value is proven, or the
 * stopped search's own tree is being built from the table. */
static void stops_off(oshared *sh)
{
    atomic_store(&sh->abort, 0);
    sh->deadline = 0;
    sh->stop = NULL;
    sh->stop_after = 0;
    sh->track_root = false;   /* building the tree is no search to follow */
}

/* The perfect-tree bound of the position. */
static oval game_lower(const driver *dr)
{
    return opt_lower(&dr->sh, dr->n, dr->sh.answers - 1);
}

/* The threads a search runs on. */
static int threads(const driver *dr)
{
    return dr->o->threads > 0 ? dr->o->threads : cores_online();
}

static oval solve_root(driver *dr, oval limit, int depth, bool ties)
{
    oshared *sh = &dr->sh;
    mm_code q;
    sh->root_best = OV_INF;
    sh->root_guess = MM_NO_CODE;
    sh->root_lower = game_lower(dr);
    sh->upper = OV_T(limit);
    /* the root's first guesses are followed for progress, and for the
     * bound a stopped search reports; not those of the consistent-only
     * search, which bound another value */
    sh->track_root = sh->consistent_only == dr->consistent;
    oprog_end(sh);   /* what an earlier search followed bounds another value */
    if (dr->rs) {
        oval v;
        if (dr->n != dr->g->ncodes) {
            dr->rs_status = mm_diag_set(dr->d, MM_ERR_USAGE,
                                        "a position is solved on one machine only");
            return OV_ABORT;
        }
        dr->rs_status = dr->rs->solve(dr->rs->arg, &dr->w, &dr->root, dr->all, limit, depth,
                                      ties, &v, dr->d);
        return dr->rs_status ? OV_ABORT : v;
    }
    opool pool;
    opt_pool_start(&pool, sh, threads(dr));
    oval v = opt_solve(&dr->w, 0, &dr->root, dr->all, dr->n, limit, depth, ties,
                       false, &q);
    opt_pool_stop(&pool, &dr->w);
    return v;
}

/* Drop the incumbent (the search it was for is over). */
static void drop_incumbent(driver *dr)
{
    mm_tree_release(&dr->heur);
    dr->heur_v = OV_INF;
}

/* Does a tree within depth exist: 1 yes, 0 no, -1 stopped.  Progress
 * says which depth. */
static int feasible(driver *dr, int depth)
{
    atomic_store(&dr->sh.feas_depth, depth);
    int f = opt_feasible(&dr->w, 0, &dr->root, dr->all, dr->n, depth, false, NULL);
    atomic_store(&dr->sh.feas_depth, 0);
    return f;
}

/* Least depth: the perfect-tree bound first, then one depth after
 * another up to the least worst case of the incumbent or of the start
 * tree, which needs no search; -1 when stopped (sh->worst_lower: what is
 * proven). */
static int least_depth(driver *dr)
{
    oshared *sh = &dr->sh;
    int d = OV_W(game_lower(dr));
    int found = dr->heur_v != OV_INF ? OV_W(dr->heur_v) : 63;
    if (dr->start_v != OV_INF && OV_W(dr->start_v) < found)
        found = OV_W(dr->start_v);
    sh->worst_upper = found < 63 ? found : 0;
    for (; d < found; d++) {
        sh->worst_lower = d;
        int f = feasible(dr, d);
        if (f < 0)
            return -1;
        if (f)
            break;
    }
    sh->worst_lower = sh->worst_upper = d;
    return d;
}

/* The consistent-only optimum: a tighter start (Ville 5.2).  The search
 * here finds the best first guess first and prunes the others against
 * it, so the tighter start saves about what the consistent search costs
 * (MM(4,6), MM(4,7): see tests/bench_optimal.sh, which runs both): off
 * by default.  OV_ABORT when stopped; what that search proved bounds
 * MM*, not the optimum, so the root's bounds go back to the start. */
static oval consistent_bound(driver *dr, oval limit, int depth)
{
    set_mode(dr, true);
    oval vc = solve_root(dr, limit, depth, false);
    set_mode(dr, false);
    if (vc == OV_ABORT) {
        dr->sh.root_best = OV_INF;
        dr->sh.root_guess = MM_NO_CODE;
        dr->sh.root_lower = game_lower(dr);
    }
    return vc;
}

/* ---- the outcomes ---- */

/* The search failed (out of memory, too deep). */
static mm_status search_failed(driver *dr)
{
    if (dr->rs_status)
        return dr->rs_status;
    if (dr->w.status == MM_ERR_NOMEM)
        return nomem(dr->d);
    return mm_diag_set(dr->d, dr->w.status, "the search went deeper than %d guesses",
                       OPT_MAX_LEVELS);
}

/* The checkpoint at the end: saved when the search stopped, or when it
 * is to be kept; else removed.  A failure is reported in the report and
 * the diag, and the tree is returned all the same. */
static void final_checkpoint(driver *dr, bool stopped)
{
    const char *path = dr->o->checkpoint;
    if (!path || !dr->sh.use_cache)
        return;
    mm_diag_clear(dr->d);
    ockpt_time t = opt_ckpt_time(&dr->sh);
    if (stopped || dr->o->keep_checkpoint)
        dr->rep.checkpoint_failed =
            ockpt_save(&dr->sh.cache, path, &dr->ckid, &t, dr->d) != MM_OK;
    else if (remove(path) != 0 && errno != ENOENT)
        dr->rep.checkpoint_failed = mm_diag_set(dr->d, MM_ERR_IO, "cannot remove '%s': %s",
                                                path, strerror(errno)) != MM_OK;
}

/* The facts a tree built from the table needs, from another solver of
 * the root: the table on this machine has the rest. */
static mm_status root_facts(driver *dr, bool canonical)
{
    return dr->rs ? dr->rs->facts(dr->rs->arg, &dr->w, canonical, dr->d) : MM_OK;
}

/* The stopped search's own tree: the table holds an optimal guess for
 * every set below the best first guess solved, so the walk takes no
 * search to speak of.  MM_ERR_LIMIT when it cannot be built. */
static mm_status own_tree(driver *dr, int depth, mm_tree *t)
{
    oshared *sh = &dr->sh;
    stops_off(sh);
    mm_status st = root_facts(dr, false);
    if (st)
        return st;
    sh->first = sh->root_guess;
    mm_tree_init(t, dr->g->pegs, dr->g->colors, dr->g->repeat);
    st = opt_build_set(&dr->w, 0, &dr->root, dr->all, dr->n, sh->root_best, depth, false, t,
                       dr->d);
    sh->first = dr->o->first;
    if (st)
        mm_tree_release(t);
    if (st == MM_ERR_LIMIT && dr->w.status == MM_ERR_LIMIT)
        dr->w.status = MM_OK;
    return st;
}

/* No one-step tree is within the depth that a feasibility search found
 * to be enough: the tree its facts in the table give (the first guess
 * that worked at each node) is the incumbent, so that the search for the
 * least total starts with a budget, and a stopped one writes a tree of
 * that depth.  Stopped while it is built: no incumbent, as before. */
static mm_status within_tree(driver *dr, int depth)
{
    mm_tree t;
    mm_tree_init(&t, dr->g->pegs, dr->g->colors, dr->g->repeat);
    mm_status st = opt_build_within(&dr->w, 0, &dr->root, dr->all, dr->n, depth, &t, dr->d);
    if (!st)
        offer(dr, &t, tree_value(&t), depth);
    else
        mm_tree_release(&t);
    if (st == MM_ERR_LIMIT && !dr->w.status) {   /* stopped */
        mm_diag_clear(dr->d);
        st = MM_OK;
    }
    return st;
}

/* Tree by in place of t, which keeps its provenance. */
static void replace_tree(mm_tree *t, mm_tree *by)
{
    by->prov = t->prov;
    memset(&t->prov, 0, sizeof t->prov);
    mm_tree_release(t);
    *t = *by;
}

/* Tree t polished within cap, in place. */
static mm_status polish_one(driver *dr, int cap, mm_tree *t, opolish *r)
{
    mm_tree out;
    mm_status st = opt_polish(&dr->w, &dr->root, dr->all, dr->n, t, dr->o->polish, cap, &out,
                              r, dr->d);
    if (!st)
        replace_tree(t, &out);
    return st;
}

/* The stopped search's tree t polished (o->polish): within the depth
 * cap the rule has (optimal-worst: the least worst case once proven, else
 * the tree's, which is then never worse).  A start tree over that depth,
 * which the search could not start from, is polished too, and taken
 * when it is better once within the depth: the optimum of MM(6,7)n (one
 * code at 8 guesses) becomes a tree within 7, one guess more.  Each set
 * solved again shares its guesses among the threads as the root's do.
 * The stop flag rising again (a signal more) ends the polish with what
 * it has bettered. */
static mm_status polish_tree(driver *dr, int depth, mm_tree *t)
{
    oshared *sh = &dr->sh;
    int cap = dr->o->max_depth ? dr->o->max_depth : depth;
    if (dr->worst_mode && depth == OPT_NODEPTH) {
        mm_stats s;
        mm_tree_stats(t, &s);
        cap = s.worst;
    }
    stops_off(sh);
    if (dr->o->stop) {
        sh->stop = dr->o->stop;
        sh->stop_level = *dr->o->stop;
    }
    double t0 = opt_now();
    opolish r = {0}, rs = {0};
    opool pool;
    opt_pool_start(&pool, sh, threads(dr));
    sh->polishing = &r;
    mm_status st = polish_one(dr, cap, t, &r);
    if (!st && dr->start_v != OV_INF && !r.stopped) {
        sh->polishing = &rs;
        mm_tree s = dr->start;
        mm_tree_init(&dr->start, dr->g->pegs, dr->g->colors, dr->g->repeat);
        dr->start_v = OV_INF;
        st = polish_one(dr, cap, &s, &rs);
        oval vs = st ? OV_INF : tree_value(&s), vt = tree_value(t);
        bool fits = !sh->depth_mode || OV_W(vs) <= cap;   /* a tree within the */
        bool t_fits = !sh->depth_mode || OV_W(vt) <= cap; /* cap beats one over */
        if (!st && fits && (!t_fits || rule_better(dr, vs, vt))) {
            replace_tree(t, &s);
            r = rs;
        } else {
            mm_tree_release(&s);
        }
    }
    opt_pool_stop(&pool, &dr->w);
    sh->polishing = NULL;
    sh->stop = NULL;
    if (!st && dr->w.status)   /* a helper failed: its stop is no stop */
        st = search_failed(dr);
    if (st)
        return st;
    dr->rep.polish_stopped = r.stopped || rs.stopped;
    dr->rep.polish_solved = r.solved;
    dr->rep.polish_bettered = r.bettered;
    dr->rep.polish_saved = r.saved;
    dr->rep.polish_time = opt_now() - t0;
    return MM_OK;
}

/* Stopped (time limit or signal): the best tree found and the proven
 * lower bound into t.  The bound is read last: building the stopped
 * search's tree settles first guesses it had not reached, and can raise
 * it. */
static mm_status finish_stopped(driver *dr, int depth, mm_tree *t)
{
    oshared *sh = &dr->sh;
    mm_status st;
    mm_tree best;
    if (dr->w.status || dr->rs_status)
        return search_failed(dr);
    final_checkpoint(dr, true);
    if (sh->root_guess != MM_NO_CODE && sh->root_best < OV_INF &&
        (dr->heur_v == OV_INF || rule_better(dr, sh->root_best, dr->heur_v))) {
        st = own_tree(dr, depth, &best);
        if (st && st != MM_ERR_LIMIT)
            return st;
        if (!st)
            goto done;
    }
    if (dr->heur_v == OV_INF && depth != OPT_NODEPTH) {
        /* stopped before the tree within the depth was built: build it
         * now, so that the tree is of the least worst case proven */
        stops_off(sh);
        if ((st = within_tree(dr, depth)))
            return st;
    }
    if (dr->heur_v == OV_INF && (st = heuristic_bound(dr, 63, true, HEUR_ALL)))
        return st;   /* none within the depth: any will do, and soon */
    best = dr->heur;
    mm_tree_init(&dr->heur, dr->g->pegs, dr->g->colors, dr->g->repeat);
done:
    if (dr->o->polish && (st = polish_tree(dr, depth, &best))) {
        mm_tree_release(&best);
        return st;
    }
    oval lower = opt_root_lower(sh);
    if (lower < game_lower(dr))
        lower = game_lower(dr);
    oval v = tree_value(&best);
    mm_tree_release(t);
    *t = best;
    dr->rep.proven = false;
    dr->rep.total = OV_T(v);
    dr->rep.worst = dr->rep.worst_upper = OV_W(v);
    dr->rep.worst_lower = sh->worst_lower;   /* optimal-worst: the depth proven */
    dr->rep.lower = OV_T(lower) < OV_T(v) ? OV_T(lower) : OV_T(v);
    return MM_OK;
}

/* The value is proven: the tree is built whatever the clock says (the
 * table makes that quick). */
static mm_status finish_proven(driver *dr, oval v, int depth, mm_tree *t)
{
    stops_off(&dr->sh);
    mm_status st = root_facts(dr, true);
    if (!st)
        st = opt_build_set(&dr->w, 0, &dr->root, dr->all, dr->n, v, depth, true, t, dr->d);
    if (st)
        return st;
    dr->rep.proven = true;
    dr->rep.total = dr->rep.lower = OV_T(v);
    dr->rep.worst = dr->rep.worst_lower = dr->rep.worst_upper = OV_W(v);
    final_checkpoint(dr, false);
    return MM_OK;
}

static mm_status no_tree_within(const driver *dr, int cap)
{
    return mm_diag_set(dr->d, MM_ERR_USAGE, "every tree of these %u codes%s needs more than "
                       "%d guesses", dr->n,
                       dr->consistent ? " with guesses that can be the code" : "", cap);
}

static mm_status search(driver *dr, mm_tree *t)
{
    int depth = OPT_NODEPTH;
    mm_status st;
    if (dr->worst_mode) {
        /* the rules of consistent guesses first (they cost little): the
         * least worst case of their trees bounds the least depth for
         * progress, and is a depth that needs no search.  The incumbent is
         * then the same as if they came after (their least total among
         * those within the least depth), or none. */
        if ((st = heuristic_bound(dr, 63, false, HEUR_CONSISTENT)))
            return st;
        depth = least_depth(dr);
        if (depth < 0) {
            /* stopped: the consistent rules' trees are made, the others
             * and the start tree join them (the same offers, in the same
             * order, as from nothing) */
            if ((st = heuristic_bound(dr, 63, true, HEUR_ANY | HEUR_START)))
                return st;
            return finish_stopped(dr, OPT_NODEPTH, t);
        }
        if (dr->heur_v != OV_INF && OV_W(dr->heur_v) > depth)
            drop_incumbent(dr);   /* beyond the least depth: of no use */
    }
    int cap = dr->o->max_depth;
    if (cap && depth != OPT_NODEPTH && depth > cap)
        return no_tree_within(dr, cap);
    if (cap && !dr->worst_mode) {
        /* the least total among the trees within the cap */
        int f = feasible(dr, cap);
        if (f < 0)
            return finish_stopped(dr, OPT_NODEPTH, t);
        if (!f)
            return no_tree_within(dr, cap);
        depth = cap;
    }
    if ((st = heuristic_bound(dr, depth, false,
                              dr->worst_mode ? HEUR_ANY | HEUR_START : HEUR_ALL)))
        return st;
    if (dr->heur_v == OV_INF && depth != OPT_NODEPTH && (st = within_tree(dr, depth)))
        return st;
    dr->rep.upper_first = dr->heur_v < OV_INF ? OV_T(dr->heur_v) : 0;
    oval limit = dr->heur_v < OV_INF ? dr->heur_v : OV_INF - 1;
    if (!dr->consistent && !dr->worst_mode && dr->o->consistent_bound) {
        oval vc = consistent_bound(dr, limit, depth);
        if (vc == OV_ABORT)
            return finish_stopped(dr, depth, t);
        if (vc < limit)
            limit = vc;
    }
    oval v = solve_root(dr, limit, depth, !dr->o->value_only);
    if (v == OV_ABORT)
        return finish_stopped(dr, depth, t);
    if (v > limit)
        return mm_diag_set(dr->d, MM_ERR_INPUT, "internal error: no tree within the bound");
    return finish_proven(dr, v, depth, t);
}

/* ---- the start tree ---- */

/* o->start at the position o starts from, checked against the rule,
 * into out (initialised here; released on failure): MM_ERR_USAGE, or
 * the tree check's failure, saying why it cannot start the search. */
static mm_status start_tree(const mm_game *g, const mm_compile_opts *o, mm_tree *out,
                            mm_diag *d)
{
    const mm_tree *s = o->start;
    uint32_t node = 0;
    mm_tree_init(out, g->pegs, g->colors, g->repeat);
    if (s->pegs != g->pegs || s->colors != g->colors || s->repeat != g->repeat)
        return mm_diag_set(d, MM_ERR_USAGE, "a tree of MM(%d,%d%s), not of MM(%d,%d%s)",
                           s->pegs, s->colors, s->repeat ? "" : ", no repeat", g->pegs,
                           g->colors, g->repeat ? "" : ", no repeat");
    mm_status st = mm_tree_check(s, g, d);
    if (!st && o->nafter)
        st = mm_tree_follow(s, g, o->after, o->nafter, &node, d);
    uint32_t root;
    if (!st)
        st = mm_tree_alloc(out, 1, &root, d);
    if (!st)
        st = opt_copy_subtree(s, node, out, root, d);
    if (st) {
        mm_tree_release(out);
        return st;
    }
    mm_stats ts;
    char c1[MM_MAX_PEGS + 1], c2[MM_MAX_PEGS + 1];
    mm_tree_stats(out, &ts);
    if (o->first != MM_NO_CODE && out->nodes[0].guess != o->first)
        st = mm_diag_set(d, MM_ERR_USAGE, "its first guess is %s, not the fixed one %s",
                         mm_code_format(g, out->nodes[0].guess, c1),
                         mm_code_format(g, o->first, c2));
    else if ((o->rule == MM_RULE_OPTIMAL_CONSISTENT || o->consistent_only) && ts.inconsistent)
        st = mm_diag_set(d, MM_ERR_USAGE, "%llu of its guesses cannot be the code: not a "
                         "tree of consistent guesses", (unsigned long long)ts.inconsistent);
    else if (o->max_depth && ts.worst > o->max_depth && !o->polish)
        st = mm_diag_set(d, MM_ERR_USAGE, "it needs %d guesses, more than the depth limit %d",
                         ts.worst, o->max_depth);
    if (st)
        mm_tree_release(out);
    return st;
}

mm_status opt_start_check(const mm_game *g, const mm_compile_opts *o, mm_diag *d)
{
    mm_tree t;
    mm_status st = start_tree(g, o, &t, d);
    mm_tree_release(&t);
    return st;
}

/* ---- set-up ---- */

/* The table is reserved at the size asked for, else at 1 GiB and 64 KB a
 * code of the game at most (2000 sets a code, more than most searches
 * store: MM*(5,8)'s searched 8000 a code), 16 MB at least; it is used from
 * 1 MB as it fills (opt_cache.c). */
static size_t cache_bytes(const mm_game *g, const mm_compile_opts *o)
{
    if (o->no_cache)
        return 0;
    if (o->cache_mb) {   /* 16 MiB to 1 TiB, within half the address space */
        uint64_t mb = o->cache_mb < 16 ? 16 : o->cache_mb > (1u << 20) ? 1u << 20 : o->cache_mb;
        return (mb << 20) > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)(mb << 20);
    }
    size_t fit = (size_t)g->ncodes << 16;
    if (fit < ((size_t)16 << 20))
        fit = (size_t)16 << 20;
    size_t cache = (size_t)1024 << 20;
    return cache > fit ? fit : cache;
}

mm_status opt_shared_setup(oshared *sh, const mm_game *g, const mm_compile_opts *o)
{
    if (oshared_init(sh, g, cache_bytes(g, o)))
        return MM_ERR_NOMEM;
    sh->no_symmetry = o->no_symmetry;
    sh->no_simd = o->no_simd;
    sh->no_replies = o->no_replies;
    sh->depth_mode = o->rule == MM_RULE_OPTIMAL_WORST || o->max_depth > 0;
    sh->agree = !o->no_agree && !sh->depth_mode && opt_agree_game(g);
    sh->first = o->first;
    opt_set_mode(sh, o->rule == MM_RULE_OPTIMAL_CONSISTENT || o->consistent_only);
    return MM_OK;
}

/* The driver's part of the shared state: limits, stops, progress, what
 * the threads share (opt_solve decides where). */
static void shared_options(driver *dr)
{
    const mm_compile_opts *o = dr->o;
    oshared *sh = &dr->sh;
    sh->share = o->share;
    sh->stop = o->stop;
    sh->stop_after = o->stop_after;
    if (o->time_limit > 0)
        sh->deadline = dr->t0 + o->time_limit;
    sh->t0 = dr->t0;
    sh->cpu0 = dr->cpu0;
    sh->progress = o->progress;
    sh->progress_arg = o->progress_arg;
    if (o->progress_every > 0)
        sh->progress_every = o->progress_every;
    if (o->progress)
        sh->next_progress = dr->t0 + sh->progress_every;
    sh->ckpt_path = o->checkpoint;
    sh->ckpt_id = &dr->ckid;
    sh->ckpt_every = o->checkpoint_every > 0 ? o->checkpoint_every : 600;
    if (o->checkpoint)
        sh->next_ckpt = dr->t0 + sh->ckpt_every;
}

/* mm_compile_opts.bounds_from: the facts of an optimal search of the
 * same codes, into the table beside this search's own (their keys are
 * those of no depth limit, which this search has), for opt_fact. */
static mm_status load_bounds(driver *dr)
{
    const char *path = dr->o->bounds_from;
    if (!dr->sh.depth_mode)
        return mm_diag_set(dr->d, MM_ERR_USAGE, "bounds from an optimal search are for a "
                           "search within a depth: optimal-worst, or a depth cap");
    if (dr->consistent)
        return mm_diag_set(dr->d, MM_ERR_USAGE, "bounds from an optimal search are not "
                           "values of consistent-only trees");
    if (!dr->sh.use_cache)
        return mm_diag_set(dr->d, MM_ERR_USAGE, "bounds from an optimal search need the table "
                           "of solved sets");
    ockpt_id id;
    ockpt_time t;
    ockpt_id_init(&id, &dr->sh, 0, false, 0, dr->all, dr->n);
    mm_status st = ockpt_load_bounds(&dr->sh.cache, path, &id, &dr->rep.bounds_loaded, &t,
                                     dr->d);
    if (st)
        return st;
    dr->sh.nodepth_facts = true;
    dr->rep.cpu_bounds = (double)t.ms / 1000.0;
    dr->rep.runs_bounds = t.runs;
    /* the checkpoint this search saves holds them, its time not theirs */
    dr->sh.ckpt_base.partial = true;
    dr->rep.cpu_partial |= t.partial;
    return MM_OK;
}

static mm_status driver_init(driver *dr, const mm_game *g, const mm_compile_opts *o,
                             mm_diag *d)
{
    mm_status st;
    memset(dr, 0, sizeof *dr);
    dr->g = g;
    dr->o = o;
    dr->d = d;
    dr->t0 = opt_now();
    dr->cpu0 = opt_cpu_now();
    dr->consistent = o->rule == MM_RULE_OPTIMAL_CONSISTENT || o->consistent_only;
    dr->worst_mode = o->rule == MM_RULE_OPTIMAL_WORST;
    dr->heur_v = dr->start_v = OV_INF;
    mm_tree_init(&dr->heur, g->pegs, g->colors, g->repeat);
    mm_tree_init(&dr->start, g->pegs, g->colors, g->repeat);
    if (o->start) {
        if ((st = start_tree(g, o, &dr->start, d)))
            return st;
        dr->start_v = tree_value(&dr->start);
    }
    if (opt_shared_setup(&dr->sh, g, o))
        return nomem(d);
    shared_options(dr);
    dr->sh.worst_first = dr->worst_mode;
    if (oworker_init(&dr->w, &dr->sh) || ogroup_root(&dr->root, g, o->no_symmetry))
        return nomem(d);
    /* a position: its codes, and the symmetries its guesses keep */
    uint16_t played;
    if ((st = position_codes(g, o, &dr->all, &dr->n, &played, d)))
        return st;
    for (uint32_t i = 0; i < o->nafter; i++) {
        ogroup next;
        memset(&next, 0, sizeof next);
        if (ogroup_after(&dr->root, g, o->after[i].guess, &next)) {
            ogroup_release(&next);
            return nomem(d);
        }
        ogroup_release(&dr->root);
        dr->root = next;
    }
    ockpt_id_init(&dr->ckid, &dr->sh, (int)(o->rule - MM_RULE_OPTIMAL), o->consistent_only,
                  o->max_depth, dr->all, dr->n);
    if (o->checkpoint && dr->sh.use_cache &&
        (st = ockpt_load(&dr->sh.cache, o->checkpoint, &dr->ckid, &dr->rep.resumed,
                         &dr->sh.ckpt_base, d)))
        return st;
    dr->rep.cpu_before = (double)dr->sh.ckpt_base.ms / 1000.0;
    dr->rep.runs_before = dr->sh.ckpt_base.runs;
    dr->rep.cpu_partial = dr->sh.ckpt_base.partial;
    if (o->bounds_from && (st = load_bounds(dr)))
        return st;
    if (o->progress)   /* the search starts */
        o->progress(o->progress_arg, &dr->rep);
    return MM_OK;
}

static void driver_release(driver *dr)
{
    mm_tree_release(&dr->heur);
    mm_tree_release(&dr->start);
    free(dr->all);
    ogroup_release(&dr->root);
    oworker_release(&dr->w);
    if (dr->sh.g)
        oshared_release(&dr->sh);
}

/* What the tree can claim: proven optimal, or the bounds proven. */
static void set_proof(const driver *dr, mm_tree *t)
{
    mm_provenance *p = &t->prov;
    p->proof = dr->rep.proven ? MM_PROOF_PROVEN : MM_PROOF_UNPROVEN;
    p->lower_total = dr->rep.proven ? 0 : dr->rep.lower;
    p->lower_worst = dr->rep.proven || !dr->worst_mode ? 0 : dr->rep.worst_lower;
}

/* The last report: the search is over, proven (all of its work done) or
 * stopped; the first guess is the tree's. */
static void last_progress(driver *dr, const mm_tree *t)
{
    mm_optimal_report r = dr->rep;
    r.elapsed = opt_now() - dr->t0;
    r.done = dr->rep.proven ? 1 : opt_progress_done(&dr->sh);
    r.current = t->nnodes ? t->nodes[0].guess : MM_NO_CODE;
    r.ended = true;
    dr->o->progress(dr->o->progress_arg, &r);
}

mm_status opt_compile_root(const mm_game *g, const mm_compile_opts *o, const oroot *rs,
                           mm_tree *t, mm_diag *d)
{
    driver dr;
    mm_status st = driver_init(&dr, g, o, d);
    dr.rs = rs;
    if (rs)   /* the other processes' time is theirs */
        dr.sh.ckpt_base.partial = dr.rep.cpu_partial = true;
    if (!st)
        st = search(&dr, t);
    if (!st && mm_tree_set_rule(t, mm_rule_name(o->rule), o->consistent_only, o->first))
        st = nomem(d);
    if (!st)
        set_proof(&dr, t);
    if (!st)
        t->prov.max_depth = o->max_depth;
    if (dr.w.sh)
        report_counts(&dr);
    if (!st && o->progress)
        last_progress(&dr, t);
    if (o->report)
        *o->report = dr.rep;
    driver_release(&dr);
    return st;
}

mm_status opt_compile(const mm_game *g, const mm_compile_opts *o, mm_tree *t, mm_diag *d)
{
    return opt_compile_root(g, o, NULL, t, d);
}
