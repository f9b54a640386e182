/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The tree of a set whose value is known: at each node the guess the
 * table holds for the node's set (when it reaches the node's value), or
 * else the one a search finds again; then the parts, each with its own
 * exact value.  canonical: take the first optimal guess in tie order, as
 * the one-step rules would.  Or a tree within a depth that a feasibility
 * search found to exist (within): at each node a guess its facts hold.
 * And a tree polished: its small sub-trees solved again, and those the
 * search betters built anew.
 */
#include "opt.h"

#include <stdlib.h>

typedef struct walk {
    oworker *w;
    bool canonical;
    bool within;   /* any tree within the depth, not an optimal one */
    mm_tree *t;
    mm_diag *d;
} walk;

static mm_status nomem(mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_NOMEM, "out of memory in the optimal search");
}

/* Why the search stopped while the tree was being built. */
static mm_status stopped_status(const walk *k)
{
    mm_status st = k->w->status ? k->w->status : MM_ERR_LIMIT;
    if (st == MM_ERR_NOMEM)
        return nomem(k->d);
    return mm_diag_set(k->d, st, "the search stopped while it built the tree");
}

/* The guess at set S of value v (within: of a tree within depth), into
 * *q. */
static mm_status node_guess(const walk *k, int lv, const ogroup *G, const mm_code *S,
                            uint32_t n, oval v, int depth, mm_code *q)
{
    oshared *sh = k->w->sh;
    oentry e;
    uint64_t h1, h2;
    *q = S[0];
    if (n < 3)
        return MM_OK;
    if (k->within) {
        int f = opt_feasible(k->w, lv, G, S, n, depth, true, q);
        if (f < 0)
            return stopped_status(k);
        return f ? MM_OK
                 : mm_diag_set(k->d, MM_ERR_INPUT,
                               "internal error: no tree of %u codes within %d guesses", n,
                               depth);
    }
    opt_hash(sh, S, n, &h1, &h2);
    if (opt_fact(sh, h1, h2, depth, &e) &&
        (oentry_flags(&e) & OC_EXACT) && oentry_value(&e) == v && e.guess < sh->g->ncodes &&
        (!k->canonical || (oentry_flags(&e) & OC_CANON))) {
        *q = e.guess;
        return MM_OK;
    }
    oval r = opt_solve(k->w, lv, G, S, n, v, depth, k->canonical, true, q);
    if (r == OV_ABORT)
        return stopped_status(k);
    if (r != v)
        return mm_diag_set(k->d, MM_ERR_INPUT,
                           "internal error: a set's value changed (%llu, %llu)",
                           (unsigned long long)r, (unsigned long long)v);
    return MM_OK;
}

static mm_status build(const walk *k, int lv, const ogroup *G, const mm_code *S,
                       uint32_t n, oval v, int depth, uint32_t node);

/* The children of node (guess q at set S): one a part, in slot order. */
static mm_status build_parts(const walk *k, int lv, const ogroup *G, const mm_code *S,
                             uint32_t n, mm_code q, int depth, uint32_t node)
{
    const mm_game *g = k->w->sh->g;
    uint32_t cnt[MM_MAX_REPLIES], pos[MM_MAX_REPLIES];
    /* the parts, then n bytes of scratch for mm_game_split */
    mm_code *sub = malloc((size_t)n * (sizeof *sub + 1));
    ogroup cg = {0};
    if (!sub)
        return nomem(k->d);
    mm_game_split(g, q, S, n, sub, (uint8_t *)(sub + n), cnt, pos);
    uint64_t replies = 0;
    for (int s = 0; s < g->nreplies; s++)
        if (cnt[s] && s != g->win)
            replies |= UINT64_C(1) << s;
    int nk = __builtin_popcountll(replies);
    uint32_t first = MM_NO_NODE;
    mm_status st = nk ? mm_tree_alloc(k->t, (uint32_t)nk, &first, k->d) : MM_OK;
    if (!st) {
        mm_node *nd = &k->t->nodes[node];
        nd->guess = q;
        nd->count = n;
        nd->flags = cnt[g->win] ? MM_NODE_CONSISTENT : 0;
        nd->replies = replies;
        nd->child = first;
    }
    if (!st && nk && ogroup_after(G, g, q, &cg))
        st = nomem(k->d);
    int cd = k->w->sh->depth_mode ? depth - 1 : depth;
    for (int s = 0, c = 0; s < g->nreplies && !st && nk; s++) {
        if (!(replies >> s & 1u))
            continue;
        const mm_code *P = sub + pos[s];
        mm_code pq;
        oval pv = cnt[s] >= 3 && !k->within ? opt_solve(k->w, lv + 1, &cg, P, cnt[s],
                                                        OV_INF - 1, cd, false, false, &pq)
                                            : 0;
        st = pv == OV_ABORT ? stopped_status(k)
                            : build(k, lv + 1, &cg, P, cnt[s], pv, cd, first + (uint32_t)c++);
    }
    ogroup_release(&cg);
    free(sub);
    return st;
}

static mm_status build(const walk *k, int lv, const ogroup *G, const mm_code *S,
                       uint32_t n, oval v, int depth, uint32_t node)
{
    mm_code q;
    mm_status st = node_guess(k, lv, G, S, n, v, depth, &q);
    return st ? st : build_parts(k, lv, G, S, n, q, depth, node);
}

/* The tree of S into k->t, its root a new node. */
static mm_status build_root(const walk *k, int lv, const ogroup *G, const mm_code *S,
                            uint32_t n, oval v, int depth)
{
    uint32_t node;
    mm_status st = mm_tree_alloc(k->t, 1, &node, k->d);
    return st ? st : build(k, lv, G, S, n, v, depth, node);
}

mm_status opt_build_set(oworker *w, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                        oval v, int depth, bool canonical, mm_tree *t, mm_diag *d)
{
    walk k = {w, canonical, false, t, d};
    return build_root(&k, lv, G, S, n, v, depth);
}

mm_status opt_build_within(oworker *w, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                           int depth, mm_tree *t, mm_diag *d)
{
    walk k = {w, false, true, t, d};
    return build_root(&k, lv, G, S, n, 0, depth);
}

mm_status opt_build_tree(oworker *w, const ogroup *root, const mm_code *all, oval v,
                         int depth, bool canonical, mm_tree *t, mm_diag *d)
{
    return opt_build_set(w, 0, root, all, w->sh->g->ncodes, v, depth, canonical, t, d);
}

/* ---- a tree polished ---- */

/* The sub-trees of `in` of at most `most` codes (below its root) are
 * solved again, exactly, and those the search can better are built
 * anew from it: a stopped search's tree holds parts of the one-step
 * rules' trees that the search never reached, and a part of 30 codes
 * that Knuth's rule solves in 117 guesses may take 90.  Each sub-tree
 * keeps within the depth left at its node (cap: the most guesses from
 * the root; OPT_NODEPTH for none), so the tree's worst case only goes
 * up where its total goes down, and not beyond the cap; a sub-tree over
 * it is replaced by any within it, whatever its total.  A stop ends it:
 * the sub-tree being solved and those after it stay as they were, and
 * one bettered is built whole first, the stop held off meanwhile. */
typedef struct polish {
    walk k;              /* k.t: the tree written */
    const mm_tree *in;
    uint32_t most;       /* 0: the table's values only, at every size */
    opolish *rep;
} polish;

/* The value the table holds of S (OV_ABORT: none exact); a sub-tree the
 * search solved before it stopped is known so, at any size. */
static oval known_value(oshared *sh, const mm_code *S, uint32_t n, int depth)
{
    uint64_t h1, h2;
    oentry e;
    opt_hash(sh, S, n, &h1, &h2);
    if (opt_fact(sh, h1, h2, depth, &e) && (oentry_flags(&e) & OC_EXACT))
        return oentry_value(&e);
    return OV_ABORT;
}

/* The best guess a stop left at S unfinished (opt_incumbent_keep), when
 * the table still holds every part of it exactly: its value (*q the
 * guess), else OV_ABORT.  The search had it; the table, which keeps
 * only what is proven of the set, does not. */
static oval incumbent_value(oshared *sh, const mm_code *S, uint32_t n, int depth, mm_code *q)
{
    const mm_game *g = sh->g;
    uint64_t h1, h2;
    oincumbent inc;
    opt_hash(sh, S, n, &h1, &h2);
    if (!opt_incumbent_find(sh, h1, h2, depth, &inc))
        return OV_ABORT;
    uint32_t cnt[MM_MAX_REPLIES], pos[MM_MAX_REPLIES];
    mm_code *sub = malloc((size_t)n * (sizeof *sub + 1));
    if (!sub)
        return OV_ABORT;
    mm_game_split(g, inc.guess, S, n, sub, (uint8_t *)(sub + n), cnt, pos);
    int cd = sh->depth_mode ? depth - 1 : depth;
    ovsum sum = ovsum_start(n);
    oval pv = 0;
    for (int s = 0; s < g->nreplies && pv != OV_ABORT; s++) {
        if (!cnt[s] || s == g->win)
            continue;
        if (!opt_trivial(cnt[s], cd, &pv))
            pv = known_value(sh, sub + pos[s], cnt[s], cd);
        if (pv != OV_ABORT)
            ovsum_add(&sum, pv);
    }
    free(sub);
    if (pv == OV_ABORT || ovsum_value(sum) != inc.v)
        return OV_ABORT;   /* a part no longer known (the table dropped it) */
    *q = inc.guess;
    return inc.v;
}

/* The value of in's sub-tree at node i, its guesses counted from there. */
static oval subtree_value(const mm_tree *t, uint32_t i)
{
    ovsum s = ovsum_start(t->nodes[i].count);
    for (int c = 0; c < mm_tree_nchildren(t, i); c++)
        ovsum_add(&s, subtree_value(t, t->nodes[i].child + (uint32_t)c));
    return ovsum_value(s);
}

static mm_status polish_node(polish *p, int lv, const ogroup *G, const mm_code *S,
                             uint32_t n, int depth, uint32_t i, uint32_t node);

/* Node i of s into node of out, as it is, with room for its children
 * (from *first). */
static mm_status copy_node(const mm_tree *s, uint32_t i, mm_tree *out, uint32_t node,
                           uint32_t *first, mm_diag *d)
{
    int nk = mm_tree_nchildren(s, i);
    *first = MM_NO_NODE;
    mm_status st = nk ? mm_tree_alloc(out, (uint32_t)nk, first, d) : MM_OK;
    if (!st) {
        out->nodes[node] = s->nodes[i];
        out->nodes[node].child = *first;
    }
    return st;
}

mm_status opt_copy_subtree(const mm_tree *s, uint32_t i, mm_tree *out, uint32_t node,
                           mm_diag *d)
{
    uint32_t first;
    mm_status st = copy_node(s, i, out, node, &first, d);
    for (int c = 0; c < mm_tree_nchildren(s, i) && !st; c++)
        st = opt_copy_subtree(s, s->nodes[i].child + (uint32_t)c, out, first + (uint32_t)c, d);
    return st;
}

/* Node i copied into node, and its parts polished. */
static mm_status polish_parts(polish *p, int lv, const ogroup *G, const mm_code *S,
                              uint32_t n, int depth, uint32_t i, uint32_t node)
{
    const mm_game *g = p->k.w->sh->g;
    const mm_node in = p->in->nodes[i];
    uint32_t cnt[MM_MAX_REPLIES], pos[MM_MAX_REPLIES];
    mm_code *sub = malloc((size_t)n * (sizeof *sub + 1));
    ogroup cg = {0};
    if (!sub)
        return nomem(p->k.d);
    mm_game_split(g, in.guess, S, n, sub, (uint8_t *)(sub + n), cnt, pos);
    int nk = mm_tree_nchildren(p->in, i);
    uint32_t first;
    mm_status st = copy_node(p->in, i, p->k.t, node, &first, p->k.d);
    if (!st && nk && ogroup_after(G, g, in.guess, &cg))
        st = nomem(p->k.d);
    int cd = p->k.w->sh->depth_mode ? depth - 1 : depth;
    for (int s = 0, c = 0; s < g->nreplies && !st && nk; s++) {
        if (!(in.replies >> s & 1u))
            continue;
        uint32_t ci = in.child + (uint32_t)c;
        if (p->in->nodes[ci].count != cnt[s])   /* a checked tree cannot */
            st = mm_diag_set(p->k.d, MM_ERR_INPUT, "internal error: a part of %u codes "
                             "is one of %u in the tree", cnt[s], p->in->nodes[ci].count);
        else
            st = polish_node(p, lv + 1, &cg, sub + pos[s], cnt[s], cd, ci,
                             first + (uint32_t)c);
        c++;
    }
    ogroup_release(&cg);
    free(sub);
    return st;
}

/* What a sub-tree must beat, in's at node i (*was its value) within the
 * depth left: its value, or anything when it is over that depth. */
static oval to_beat(const polish *p, uint32_t i, int depth, oval *was)
{
    *was = subtree_value(p->in, i);
    return p->k.w->sh->depth_mode && OV_W(*was) > depth ? OV_INF : *was;
}

/* The sub-tree at node bettered, from value was to v: built anew from
 * guess q, or (MM_NO_CODE) from the table's guesses for v, which make
 * it quick, so that no stop cuts it short. */
static mm_status rebuild(polish *p, int lv, const ogroup *G, const mm_code *S, uint32_t n,
                         int depth, uint32_t node, oval was, oval v, mm_code q)
{
    oshared *sh = p->k.w->sh;
    p->rep->bettered++;
    p->rep->saved += (int64_t)OV_T(was) - (int64_t)OV_T(v);
    const volatile sig_atomic_t *stop = sh->stop;
    sh->stop = NULL;
    mm_status st = q == MM_NO_CODE ? build(&p->k, lv, G, S, n, v, depth, node)
                                   : build_parts(&p->k, lv, G, S, n, q, depth, node);
    sh->stop = stop;
    return st;
}

static mm_status polish_node(polish *p, int lv, const ogroup *G, const mm_code *S,
                             uint32_t n, int depth, uint32_t i, uint32_t node)
{
    oshared *sh = p->k.w->sh;
    if ((sh->depth_mode && depth < 1) ||   /* a tree over the cap: no room */
        p->rep->stopped)
        return opt_copy_subtree(p->in, i, p->k.t, node, p->k.d);
    /* the table's pass looks at every size, the search's up to most */
    const bool here = lv > 0 && n >= 3 && (!p->most || n <= p->most);
    const oval known = here ? known_value(sh, S, n, depth) : OV_ABORT;
    if (here && !p->most && known == OV_ABORT) {
        /* not solved, but the stop left a guess with every part solved */
        mm_code q;
        oval v = incumbent_value(sh, S, n, depth, &q), was, old = to_beat(p, i, depth, &was);
        if (v != OV_ABORT && v < old) {
            p->rep->solved++;   /* known to the search, as the table's are */
            return rebuild(p, lv, G, S, n, depth, node, was, v, q);
        }
    }
    if (here && (p->most || known != OV_ABORT)) {
        oval was, old = to_beat(p, i, depth, &was);
        oval v = known;
        if (p->most && known == old)   /* the table's pass found it optimal */
            return opt_copy_subtree(p->in, i, p->k.t, node, p->k.d);
        if (p->most) {
            mm_code q;
            opt_share_level(sh, lv);   /* its guesses to every thread of the pool */
            v = opt_solve(p->k.w, lv, G, S, n, old - 1, depth, false, false, &q);
        }
        if (v == OV_ABORT || atomic_load(&sh->abort)) {
            if (p->k.w->status)   /* out of memory */
                return stopped_status(&p->k);
            p->rep->stopped = true;
            return opt_copy_subtree(p->in, i, p->k.t, node, p->k.d);
        }
        p->rep->solved++;
        if (v < old)
            return rebuild(p, lv, G, S, n, depth, node, was, v, MM_NO_CODE);
        /* optimal, and so are its parts */
        return opt_copy_subtree(p->in, i, p->k.t, node, p->k.d);
    }
    return polish_parts(p, lv, G, S, n, depth, i, node);
}

/* One pass over in into out: most, as polish's. */
static mm_status polish_pass(oworker *w, const ogroup *G, const mm_code *S, uint32_t n,
                             const mm_tree *in, uint32_t most, int cap, mm_tree *out,
                             opolish *rep, mm_diag *d)
{
    polish p = {{w, false, false, out, d}, in, most, rep};
    uint32_t node;
    mm_tree_init(out, in->pegs, in->colors, in->repeat);
    mm_status st = mm_tree_alloc(out, 1, &node, d);
    if (!st)
        st = polish_node(&p, 0, G, S, n, cap, 0, node);
    if (st)
        mm_tree_release(out);
    return st;
}

/* First the sub-trees, of any size, whose sets the table holds exactly
 * (the search solved them before it stopped: MM(7,7)n's part BBWWWWW
 * after 1234567, 924 codes, was 27 guesses over its optimum in the tree
 * the search started from), then the search's pass; the sets the first
 * found are not solved again. */
mm_status opt_polish(oworker *w, const ogroup *G, const mm_code *S, uint32_t n,
                     const mm_tree *in, uint32_t most, int cap, mm_tree *out,
                     opolish *rep, mm_diag *d)
{
    mm_tree known;
    mm_status st = polish_pass(w, G, S, n, in, 0, cap, &known, rep, d);
    if (st)
        return st;
    st = polish_pass(w, G, S, n, &known, most, cap, out, rep, d);
    mm_tree_release(&known);
    return st;
}
