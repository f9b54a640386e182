/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The verifier: follows the true codes down a tree and compares every
 * statement the tree makes with them (see mmtree/verify.h).
 *
 * The walk is the tree check's (core/walk.h), depth first with an
 * explicit stack (a file can nest as deep as it has nodes); it visits
 * every node at most once, so time is O(codes x depth + nodes).  An
 * item's ref says what its codes mean.  The words of a report are
 * problem.c's.
 */
#include "mmtree/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/walk.h"

/* What a node's code range means. */
enum {
    ST_REACHED,   /* the true codes at the node */
    ST_EMPTY,     /* the tree has a child here but no code gets to it */
    ST_UNREACHED, /* below an EMPTY node, a guess that is no code, or a node
                     whose codes are not those its author meant: nothing
                     to compare with; only structure and claims count */
};

typedef struct verifier {
    const mm_tree *t;
    const mm_game *g;
    const mm_verify_opts *o;
    mm_verify_report *r;
    uint64_t cap;             /* of r->problems */
    walk w;
    uint32_t *last;           /* [ncodes] node where a code's path ends */
    int8_t *last_slot;        /* [ncodes] and the reply that leads nowhere */
    uint32_t *nclaim, *claim; /* [ncodes] claims, and the first claimant */
    uint32_t *found_at;       /* [ncodes] the claimant the truth agrees with */
    uint64_t *member;         /* [ncodes bits] the codes of the node whose
                                 guess is being searched for */
    uint64_t *spos, *socc;    /* [ncodes x words] and their position and
                                 colour bits, gathered once a search */
    uint32_t *order;          /* [nnodes] nodes in the order walked */
    uint32_t norder;
    uint8_t *seen;            /* [nnodes] */
} verifier;

void mm_verify_opts_init(mm_verify_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_problems = 100;
}


/* ---- collecting problems ---- */

static mm_srcpos place_of(const verifier *v, uint32_t node)
{
    const mm_tree *t = v->t;
    while (t->where && node != MM_NO_NODE && node < t->nnodes) {
        mm_srcpos w = t->where[node];
        if (w.line || w.offset >= 0)
            return w;
        node = v->r->paths.parent[node];
    }
    return (mm_srcpos){0, 0, -1};
}

/* Count the problem; keep it if there is room.  Returns the kept copy (so
 * the caller can add suggestions), NULL when it was only counted, and
 * sets *oom when memory ran out. */
static mm_problem *add_problem(verifier *v, const mm_problem *p, bool *oom)
{
    mm_verify_report *r = v->r;
    r->nproblems++;
    if (r->nkept >= v->o->max_problems)
        return NULL;
    if (r->nkept == v->cap) {
        uint64_t cap = v->cap ? 2 * v->cap : 16;
        if (cap > v->o->max_problems)
            cap = v->o->max_problems;
        mm_problem *np = realloc(r->problems, (size_t)cap * sizeof *np);
        if (!np) {
            *oom = true;
            return NULL;
        }
        r->problems = np;
        v->cap = cap;
    }
    mm_problem *q = &r->problems[r->nkept++];
    *q = *p;
    q->where = place_of(v, p->node);
    return q;
}

static mm_problem new_problem(mm_problem_kind kind, uint32_t node, mm_code code)
{
    mm_problem p;
    memset(&p, 0, sizeof p);
    p.kind = kind;
    p.node = node;
    p.code = code;
    p.slot = -1;
    p.other = MM_NO_NODE;
    return p;
}

/* ---- suggestions ---- */

/* What a suggested guess must do with the node's true codes: make exactly
 * the parts want[] (by slot, the win included), or else leave at most
 * maxpart codes after every reply but the win, and be (win = 1) or not be
 * (win = 0) one of them, or either (win = -1).  Guesses are listed in the
 * order: as the node says of its guess (prefer), fewest pegs changed. */
typedef struct wish {
    const uint32_t *want;
    uint32_t maxpart;
    int win;
    int prefer;   /* list first the guesses that can (1) or cannot (0) be
                     the code, as the node says of its own; -1: no order */
} wish;

static int pegs_changed(const mm_game *g, mm_code a, mm_code b)
{
    int n = 0;
    if (a >= g->ncodes || b >= g->ncodes)
        return 0;
    for (int i = 0; i < g->pegs; i++)
        n += mm_code_peg(g, a, i) != mm_code_peg(g, b, i);
    return n;
}

/* Does guess x split the n codes gathered in spos/socc as w wants?
 * *work counts the codes scored (a candidate is dropped at the first
 * part that overflows), to which the search adds a step for each guess
 * it passes over.  The scoring is mm_game_score's, on bits laid out
 * one after the other rather than fetched code by code. */
static bool splits_as(const verifier *v, mm_code x, uint32_t n, const wish *w, bool *can,
                      uint64_t *work)
{
    const mm_game *g = v->g;
    uint32_t cnt[MM_MAX_REPLIES] = {0};
    int wide = g->wide ? 2 : 1;
    const uint64_t *gp = g->pos + (size_t)wide * x, *go = g->occ + (size_t)wide * x;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t *p = v->spos + (size_t)wide * i, *o = v->socc + (size_t)wide * i;
        int black = __builtin_popcountll(gp[0] & p[0]), hits = __builtin_popcountll(go[0] & o[0]);
        if (wide == 2) {
            black += __builtin_popcountll(gp[1] & p[1]);
            hits += __builtin_popcountll(go[1] & o[1]);
        }
        int s = g->slot[black][hits];
        cnt[s]++;
        if (w->want ? cnt[s] > w->want[s] : (s != g->win && cnt[s] > w->maxpart)) {
            *work += i + 1;
            return false;
        }
    }
    *work += n;
    if (w->want) {
        for (int s = 0; s < g->nreplies; s++)
            if (cnt[s] != w->want[s])
                return false;
    } else if (w->win >= 0 && (cnt[g->win] != 0) != (w->win != 0)) {
        return false;
    }
    *can = cnt[g->win] != 0;
    return true;
}

/* The codes of the game in order of pegs changed from a guess: itself,
 * then 1 peg changed, 2, ... p (within a distance in no useful order),
 * each code once; in lexical order when there is no guess to start from. */
typedef struct near_iter {
    const mm_game *g;
    mm_code from, next;       /* from MM_NO_CODE: lexical, next to give */
    bool started;             /* from itself was given */
    int base[MM_MAX_PEGS];    /* the colours of from */
    int d;                    /* pegs changed */
    unsigned mask;            /* which: d bits of p */
    int off[MM_MAX_PEGS];     /* colour offset 1..c-1 of each peg in mask */
    uint64_t steps;           /* tuples made, codes or not (a game without
                                 repetition has up to 120 a code) */
} near_iter;

static void near_init(near_iter *it, const mm_game *g, mm_code from)
{
    memset(it, 0, sizeof *it);
    it->g = g;
    it->from = from < g->ncodes ? from : MM_NO_CODE;
    for (int i = 0; it->from != MM_NO_CODE && i < g->pegs; i++)
        it->base[i] = mm_code_peg(g, from, i);
}

/* The next offsets of the pegs in mask, else the next mask of d bits
 * (Gosper's hack), else the first of d + 1; false after the last. */
static bool near_step(near_iter *it)
{
    int p = it->g->pegs, c = it->g->colors;
    for (int i = p - 1; i >= 0; i--) {
        if (!(it->mask >> i & 1u))
            continue;
        if (++it->off[i] < c)
            return true;
        it->off[i] = 1;
    }
    unsigned m = it->mask;
    if (m) {
        unsigned low = m & -m, r = m + low;
        m = (((r ^ m) >> 2) / low) | r;
    }
    if (!m || m >> p) {
        if (++it->d > p || c < 2)
            return false;
        m = (1u << it->d) - 1;
    }
    it->mask = m;
    for (int i = 0; i < p; i++)
        it->off[i] = 1;
    return true;
}

/* The next code, or MM_NO_CODE after the last. */
static mm_code near_next(near_iter *it)
{
    const mm_game *g = it->g;
    if (it->from == MM_NO_CODE)
        return it->next < g->ncodes ? it->next++ : MM_NO_CODE;
    if (!it->started) {
        it->started = true;
        return it->from;
    }
    while (near_step(it)) {
        int pegs[MM_MAX_PEGS];
        it->steps++;
        for (int i = 0; i < g->pegs; i++)
            pegs[i] = it->mask >> i & 1u ? (it->base[i] + it->off[i]) % g->colors : it->base[i];
        mm_code x = mm_game_index(g, pegs);
        if (x != MM_NO_CODE)
            return x;
    }
    return MM_NO_CODE;
}

/* Search the guesses for those that make w true of the n codes of a
 * node, nearest the written guess first, within what is left of the
 * budget; keep the nearest MM_VERIFY_SUGGEST_MAX. */
static void suggest(verifier *v, mm_problem *p, const mm_code *codes, uint32_t n,
                    const wish *w)
{
    const mm_game *g = v->g;
    int dist[MM_VERIFY_SUGGEST_MAX];
    /* The budget is checked before each guess, which may score the
     * node's codes once more: searches end within that of it. */
    uint64_t *work = &v->r->suggest_work;
    uint64_t left = *work < MM_VERIFY_SUGGEST_BUDGET ? MM_VERIFY_SUGGEST_BUDGET - *work : 0;
    uint64_t stop = *work + (left < MM_VERIFY_SUGGEST_WORK ? left : MM_VERIFY_SUGGEST_WORK);
    /* A guess that must be the code, or can be it, is one of the node's
     * codes: only those are tried. */
    bool inside = w->want ? w->want[g->win] != 0 : w->win == 1;
    p->searched = true;
    p->ncandidates = inside ? n : g->ncodes;
    if (inside)
        for (uint32_t i = 0; i < n; i++)
            v->member[codes[i] >> 6] |= UINT64_C(1) << (codes[i] & 63);
    size_t words = g->wide ? 2 : 1;
    for (uint32_t i = 0; i < n; i++) {
        memcpy(v->spos + words * i, g->pos + words * codes[i], words * sizeof *v->spos);
        memcpy(v->socc + words * i, g->occ + words * codes[i], words * sizeof *v->socc);
    }
    near_iter it;
    near_init(&it, g, p->code);
    for (mm_code x; (x = near_next(&it)) != MM_NO_CODE;) {
        /* Tuples that are no code, and codes not tried, cost a step. */
        *work += it.steps;
        it.steps = 0;
        if (*work >= stop) {
            p->partial = true;
            break;
        }
        if (inside && !(v->member[x >> 6] >> (x & 63) & 1u)) {
            (*work)++;
            continue;
        }
        bool can;
        p->ntried++;
        if (!splits_as(v, x, n, w, &can, work))
            continue;
        p->nsuggest++;
        /* One sort key: the preference, then the distance, then the code. */
        int d = pegs_changed(g, p->code, x) +
                (w->prefer >= 0 && can != (w->prefer != 0) ? MM_MAX_PEGS + 1 : 0);
        uint32_t k = p->nsuggest_kept;
        if (k == MM_VERIFY_SUGGEST_MAX &&
            (dist[k - 1] < d || (dist[k - 1] == d && p->suggest[k - 1] < x)))
            continue;
        if (k < MM_VERIFY_SUGGEST_MAX)
            p->nsuggest_kept++;
        else
            k--;
        while (k > 0 && (dist[k - 1] > d || (dist[k - 1] == d && p->suggest[k - 1] > x))) {
            dist[k] = dist[k - 1];
            p->suggest[k] = p->suggest[k - 1];
            p->suggest_star = (p->suggest_star & ~(UINT32_C(1) << k)) |
                              (p->suggest_star >> (k - 1) & 1u) << k;
            k--;
        }
        dist[k] = d;
        p->suggest[k] = x;
        p->suggest_star = (p->suggest_star & ~(UINT32_C(1) << k)) | (uint32_t)!can << k;
    }
    if (inside)
        for (uint32_t i = 0; i < n; i++)
            v->member[codes[i] >> 6] = 0;
}

/* ---- the walk ---- */

static void structure(verifier *v, uint32_t node, uint32_t other, int slot,
                      const char *note, bool *oom)
{
    mm_problem p = new_problem(MM_PROBLEM_STRUCTURE, node, v->t->nodes[node].guess);
    p.other = other;
    p.slot = slot;
    p.note = note;
    add_problem(v, &p, oom);
}

/* Are the node's children in range, with none for the win or for a slot
 * the game lacks? */
static bool children_ok(verifier *v, uint32_t i, bool *oom)
{
    const mm_tree *t = v->t;
    const mm_node *nd = &t->nodes[i];
    if (!nd->replies)
        return true;
    uint64_t slots = (UINT64_C(1) << v->g->nreplies) - 1;
    uint32_t k = (uint32_t)mm_tree_nchildren(t, i);
    const char *note = NULL;
    if (nd->replies & ~slots)
        note = "children for replies the game does not have";
    else if (nd->replies >> v->g->win & 1u)
        note = "a child for the winning reply";
    else if (nd->child == MM_NO_NODE || nd->child >= t->nnodes || k > t->nnodes - nd->child)
        note = "children out of range";
    if (!note)
        return true;
    structure(v, i, MM_NO_NODE, -1, note, oom);
    return false;
}

/* Record that n codes end their path at node, after reply slot (-1: at
 * the node itself). */
static void lose(verifier *v, const mm_code *codes, uint32_t n, uint32_t node, int slot)
{
    for (uint32_t i = 0; i < n; i++) {
        v->last[codes[i]] = node;
        v->last_slot[codes[i]] = (int8_t)slot;
    }
}

/* Push the children of a node, last slot first so the walk is in tree
 * order.  pt gives each slot's true codes (NULL: none).  Not
 * walk_push_children, which serves trees already checked: here a child
 * may also hang below another node (it is reported and not pushed
 * twice), each child records its parent for the report's paths, and
 * each carries its own state (reached, empty or unreached, the last
 * without codes). */
static void push_children(verifier *v, walk_item it, const walk_parts *pt, bool *oom)
{
    const mm_tree *t = v->t;
    const mm_node *nd = &t->nodes[it.node];
    uint32_t ch = nd->child + (uint32_t)mm_tree_nchildren(t, it.node);
    for (uint64_t left = nd->replies; left;) {
        int s = 63 - __builtin_clzll(left);
        left &= ~(UINT64_C(1) << s);
        ch--;
        if (v->seen[ch]) {
            structure(v, it.node, ch, s, "a child that is also reached from another node", oom);
            continue;
        }
        v->seen[ch] = 1;
        v->r->paths.parent[ch] = it.node;
        v->r->paths.slot[ch] = (uint8_t)s;
        walk_item w = {ch, ST_UNREACHED, 0, 0, it.depth + 1};
        if (it.ref == ST_REACHED)
            w = walk_child(&it, pt, s, ch, pt->cnt[s] ? ST_REACHED : ST_EMPTY);
        if (!walk_push(&v->w, w))
            *oom = true;
    }
}

/* Do the counts the children of a node with valid children state differ
 * from the parts of its codes (the win aside)? */
static bool parts_differ(const mm_tree *t, const mm_node *nd, const walk_parts *pt)
{
    uint32_t c = nd->child;
    for (uint64_t left = nd->replies | pt->replies; left; left &= left - 1) {
        int s = __builtin_ctzll(left);
        uint32_t stated = nd->replies >> s & 1u ? t->nodes[c++].count : 0;
        if (stated != pt->cnt[s])
            return true;
    }
    return false;
}

/* The sum of the parts a node states: its children's counts and 1 when it
 * says its guess can be the code.  Only a full form states its parts; a
 * condensed form's children are made from the truth and say nothing, so
 * its own count stands for them. */
static uint64_t stated_sum(const mm_tree *t, uint32_t n, bool kids)
{
    const mm_node *nd = &t->nodes[n];
    if ((nd->flags & (MM_NODE_FORM_MASK | MM_NODE_UNRESOLVED)) != MM_NODE_FORM_FULL)
        return nd->count;
    uint64_t sum = !!(nd->flags & MM_NODE_CONSISTENT);
    for (int c = 0; kids && c < mm_tree_nchildren(t, n); c++)
        sum += t->nodes[nd->child + (uint32_t)c].count;
    return sum;
}

/* Give up on a node's codes: they end their paths here, and below it
 * only structure and claims are checked. */
static void give_up(verifier *v, walk_item it, bool kids, bool *oom)
{
    lose(v, walk_codes(&v->w, &it), it.hi - it.lo, it.node, -1);
    it.ref = ST_UNREACHED;
    if (kids)
        push_children(v, it, NULL, oom);
}

/* A count that is not the number of the node's codes.  When a full form's
 * parts add up to the truth, the count alone is wrong (a misprinted
 * number) and the rest can still be judged: returns false.  Otherwise the
 * node got other codes than its author meant, because of a problem
 * above, and all below would follow from that one: returns true.  A
 * condensed form states no parts, so its statements are taken to be about
 * other codes. */
static bool count_is_lost(verifier *v, const walk_item *it, bool kids, bool *oom)
{
    const mm_node *nd = &v->t->nodes[it->node];
    uint32_t size = it->hi - it->lo;
    if (nd->count == size)
        return false;
    uint64_t sum = stated_sum(v->t, it->node, kids);
    mm_problem p = new_problem(MM_PROBLEM_COUNT, it->node, nd->guess);
    p.stated = nd->count;
    p.actual = size;
    p.parts_sum = sum;
    add_problem(v, &p, oom);
    /* A condensed form's sum is its count, which is not size. */
    return sum != size;
}

/* A guess that is no code: a form the reader could not expand (a marker
 * problem, with guesses that would do when asked) or a bad number. */
static void not_a_code(verifier *v, const walk_item *it, bool *oom)
{
    const mm_node *nd = &v->t->nodes[it->node];
    uint32_t size = it->hi - it->lo;
    bool unresolved = nd->flags & MM_NODE_UNRESOLVED;
    mm_problem p = new_problem(unresolved ? MM_PROBLEM_MARKER : MM_PROBLEM_NOT_CODE,
                               it->node, nd->guess);
    p.marker = MM_MARKER_UNRESOLVED;
    p.actual = size;
    mm_problem *q = add_problem(v, &p, oom);
    uint32_t form = nd->flags & MM_NODE_FORM_MASK;
    if (q && unresolved && v->o->suggest &&
        (form == MM_NODE_FORM_UNIQUE || form == MM_NODE_FORM_X)) {
        wish w = {NULL, form == MM_NODE_FORM_X ? 2 : 1, nd->flags & MM_NODE_STAR ? 0 : -1,
                  !!(nd->flags & MM_NODE_CONSISTENT)};
        suggest(v, q, walk_codes(&v->w, it), size, &w);
    }
}

/* The children against the parts (and the win against what the node
 * says of its guess); true when they differ.  An unresolved node has no
 * children to compare: its marker problem says why. */
static bool check_parts(verifier *v, const walk_item *it, const walk_parts *pt, bool kids,
                        bool *oom)
{
    const mm_tree *t = v->t;
    const mm_game *g = v->g;
    const mm_node *nd = &t->nodes[it->node];
    if (!kids || (nd->flags & MM_NODE_UNRESOLVED) || !parts_differ(t, nd, pt))
        return false;
    /* Problems are large: build one only when there is one. */
    mm_problem p = new_problem(MM_PROBLEM_PARTITION, it->node, nd->guess);
    for (int s = 0; s < g->nreplies; s++) {
        uint32_t ch = mm_tree_child(t, it->node, s);
        p.stated_parts[s] = s == g->win ? !!(nd->flags & MM_NODE_CONSISTENT)
                            : ch == MM_NO_NODE ? 0 : t->nodes[ch].count;
    }
    memcpy(p.actual_parts, pt->cnt, sizeof pt->cnt);
    mm_problem *q = add_problem(v, &p, oom);
    if (q && v->o->suggest)
        suggest(v, q, walk_codes(&v->w, it), it->hi - it->lo,
                &(wish){q->stated_parts, 0, -1, -1});
    return true;
}

/* What the node says of its guess (its '*', last part or form) against
 * whether it can be the code.  A wrong guess makes the win wrong too:
 * that is in the partition, so this is asked only when the parts agree.
 * Suggest guesses that make the node's statements true as written: its
 * parts (full form), or its form and what it says. */
static void check_consistent(verifier *v, const walk_item *it, const walk_parts *pt,
                             bool *oom)
{
    const mm_game *g = v->g;
    const mm_node *nd = &v->t->nodes[it->node];
    bool can = pt->cnt[g->win] != 0, says = nd->flags & MM_NODE_CONSISTENT;
    if (can == says)
        return;
    mm_problem p = new_problem(MM_PROBLEM_CONSISTENT, it->node, nd->guess);
    p.stated = says;
    p.actual = can;
    mm_problem *q = add_problem(v, &p, oom);
    if (!q || !v->o->suggest)
        return;
    for (int s = 0; s < g->nreplies; s++)
        q->stated_parts[s] = s == g->win ? says : pt->cnt[s];
    wish w = {q->stated_parts, 0, -1, -1};
    uint32_t form = nd->flags & MM_NODE_FORM_MASK;
    if (form == MM_NODE_FORM_UNIQUE || form == MM_NODE_FORM_X)
        w = (wish){NULL, form == MM_NODE_FORM_X ? 2 : 1, says, -1};
    suggest(v, q, walk_codes(&v->w, it), it->hi - it->lo, &w);
}

/* The condensed forms: what n, n(y) and n(yx) promise of the parts, and
 * a form the reader left unexpanded. */
static void check_form(verifier *v, const walk_item *it, const walk_parts *pt, bool *oom)
{
    const mm_node *nd = &v->t->nodes[it->node];
    uint32_t size = it->hi - it->lo, largest = 0;
    int at = -1;
    for (uint64_t left = pt->replies; left; left &= left - 1) {
        int s = __builtin_ctzll(left);
        if (pt->cnt[s] > largest) {
            largest = pt->cnt[s];
            at = s;
        }
    }
    uint32_t form = nd->flags & MM_NODE_FORM_MASK;
    int marker = -1;
    uint64_t most = 0, found = largest;
    if (form == MM_NODE_FORM_BARE && size > 2) {
        marker = MM_MARKER_BARE;
        most = 2;
        found = size;
        at = -1;
    } else if (form == MM_NODE_FORM_UNIQUE && largest > 1) {
        marker = MM_MARKER_UNIQUE;
        most = 1;
    } else if (form == MM_NODE_FORM_X && largest != 2) {
        marker = MM_MARKER_X;
        most = 2;
    } else if (nd->flags & MM_NODE_UNRESOLVED) {
        marker = MM_MARKER_UNRESOLVED;
        found = size;
        at = -1;
    }
    if (marker < 0)
        return;
    mm_problem mk = new_problem(MM_PROBLEM_MARKER, it->node, nd->guess);
    mk.marker = (mm_marker)marker;
    mk.stated = most;
    mk.actual = found;
    mk.slot = at;
    mm_problem *q = add_problem(v, &mk, oom);
    if (q && v->o->suggest && (marker == MM_MARKER_UNIQUE ||
                               (marker == MM_MARKER_X && largest > 2)))
        suggest(v, q, walk_codes(&v->w, it), size,
                &(wish){NULL, (uint32_t)most, nd->flags & MM_NODE_STAR ? 0 : -1,
                        !!(nd->flags & MM_NODE_CONSISTENT)});
}

/* Where the node's codes go: the guess found here (counted in the stats
 * when the node says so, else lost at the win), and the parts that have
 * no child end their paths here. */
static void settle(verifier *v, const walk_item *it, const walk_parts *pt, bool kids)
{
    const mm_game *g = v->g;
    const mm_node *nd = &v->t->nodes[it->node];
    if (pt->cnt[g->win]) {
        mm_stats *st = &v->r->stats;
        v->r->found++;
        st->total += it->depth;
        if ((int)it->depth > st->worst)
            st->worst = (int)it->depth;
        st->hist[it->depth <= 64 ? it->depth - 1 : 63]++;
        if (nd->flags & MM_NODE_CONSISTENT)
            v->found_at[nd->guess] = it->node;
        else
            lose(v, walk_part(&v->w, it, pt, g->win), 1, it->node, g->win);
    }
    for (uint64_t left = pt->replies & ~(kids ? nd->replies : 0); left; left &= left - 1) {
        int s = __builtin_ctzll(left);
        lose(v, walk_part(&v->w, it, pt, s), pt->cnt[s], it->node, s);
    }
}

/* Check one node whose true codes are those of it. */
static void check_node(verifier *v, walk_item it, bool *oom)
{
    const mm_node *nd = &v->t->nodes[it.node];
    bool kids = children_ok(v, it.node, oom);
    if (count_is_lost(v, &it, kids, oom)) {
        give_up(v, it, kids, oom);
        return;
    }
    if (nd->guess >= v->g->ncodes) {
        not_a_code(v, &it, oom);
        give_up(v, it, kids, oom);
        return;
    }
    walk_parts pt;
    walk_split(&v->w, &it, nd->guess, &pt);
    if (!check_parts(v, &it, &pt, kids, oom))
        check_consistent(v, &it, &pt, oom);
    check_form(v, &it, &pt, oom);
    settle(v, &it, &pt, kids);
    if (kids)
        push_children(v, it, &pt, oom);
}

/* Coverage: every code claimed by exactly one node. */
static void check_coverage(verifier *v, bool *oom)
{
    const mm_tree *t = v->t;
    const mm_game *g = v->g;
    for (uint32_t k = 0; k < v->norder; k++) {
        const mm_node *nd = &t->nodes[v->order[k]];
        if ((nd->flags & MM_NODE_CONSISTENT) && nd->guess < g->ncodes &&
            v->nclaim[nd->guess]++ == 0)
            v->claim[nd->guess] = v->order[k];
    }
    /* Of several claimants, the false ones are reported. */
    for (mm_code x = 0; x < g->ncodes; x++)
        if (v->found_at[x] != MM_NO_NODE)
            v->claim[x] = v->found_at[x];
    for (uint32_t k = 0; k < v->norder && !*oom; k++) {
        uint32_t i = v->order[k];
        const mm_node *nd = &t->nodes[i];
        if ((nd->flags & MM_NODE_CONSISTENT) && nd->guess < g->ncodes &&
            v->claim[nd->guess] != i) {
            mm_problem p = new_problem(MM_PROBLEM_FOUND_TWICE, i, nd->guess);
            p.other = v->claim[nd->guess];
            p.stated = v->nclaim[nd->guess];
            p.actual = 1;
            add_problem(v, &p, oom);
        }
    }
    for (mm_code x = 0; x < g->ncodes && !*oom; x++) {
        /* Codes below a form the reader could not expand are lost because
         * of the marker (or count) problem reported there. */
        if (v->nclaim[x] || (t->nodes[v->last[x]].flags & MM_NODE_UNRESOLVED))
            continue;
        mm_problem p = new_problem(MM_PROBLEM_NOT_FOUND, v->last[x], x);
        p.slot = v->last_slot[x];
        p.stated = 0;
        p.actual = 1;
        add_problem(v, &p, oom);
    }
}

static mm_status follow(verifier *v, mm_diag *d)
{
    const mm_tree *t = v->t;
    bool oom = false;
    v->seen[0] = 1;
    for (walk_item it; !oom && walk_pop(&v->w, &it);) {
        v->order[v->norder++] = it.node;
        const mm_node *nd = &t->nodes[it.node];
        if (!(nd->flags & MM_NODE_CONSISTENT))
            v->r->stats.inconsistent++;
        if (it.ref == ST_REACHED) {
            check_node(v, it, &oom);
            continue;
        }
        if (it.ref == ST_EMPTY) {
            /* Its parent's partition problem says no code comes here;
             * say it at the node too, and check nothing below. */
            mm_problem p = new_problem(MM_PROBLEM_COUNT, it.node, nd->guess);
            p.stated = nd->count;
            p.actual = 0;
            p.parts_sum = nd->count;
            add_problem(v, &p, &oom);
        }
        it.ref = ST_UNREACHED;
        if (children_ok(v, it.node, &oom))
            push_children(v, it, NULL, &oom);
    }
    if (!oom)
        check_coverage(v, &oom);
    v->r->stats.nodes = v->norder;
    v->r->stats.codes = v->r->found;
    if (oom)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory verifying the tree");
    return MM_OK;
}

mm_status mm_tree_verify(const mm_tree *t, const mm_game *g,
                         const mm_verify_opts *o, mm_verify_report *r,
                         mm_diag *d)
{
    mm_verify_opts def;
    verifier v;
    mm_status st = MM_OK;
    memset(r, 0, sizeof *r);
    memset(&v, 0, sizeof v);
    if (!o) {
        mm_verify_opts_init(&def);
        o = &def;
    }
    r->g = g;
    r->paths.t = t;
    if (t->pegs != g->pegs || t->colors != g->colors || t->repeat != g->repeat)
        return mm_diag_set(d, MM_ERR_USAGE, "the tree is not of the game it is checked against");
    if (!t->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "the tree has no node");
    v.t = t;
    v.g = g;
    v.o = o;
    v.r = r;
    size_t n = g->ncodes, m = t->nnodes;
    if ((st = walk_init(&v.w, g, 0, ST_REACHED, d)))
        return st;
    v.last = malloc(n * sizeof *v.last);
    v.last_slot = malloc(n);
    v.nclaim = calloc(n, sizeof *v.nclaim);
    v.claim = malloc(n * sizeof *v.claim);
    v.found_at = malloc(n * sizeof *v.found_at);
    if (o->suggest) {
        size_t words = g->wide ? 2 : 1;
        v.member = calloc(n / 64 + 1, sizeof *v.member);
        v.spos = malloc(n * words * sizeof *v.spos);
        v.socc = malloc(n * words * sizeof *v.socc);
    }
    v.order = malloc(m * sizeof *v.order);
    v.seen = calloc(m, 1);
    r->paths.parent = malloc(m * sizeof *r->paths.parent);
    r->paths.slot = calloc(m, 1);
    if (!v.last || !v.last_slot || !v.nclaim || !v.claim || !v.found_at ||
        !v.order || !v.seen || !r->paths.parent || !r->paths.slot ||
        (o->suggest && (!v.member || !v.spos || !v.socc))) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory verifying the tree");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        v.last[i] = 0;
        v.last_slot[i] = -1;
        v.claim[i] = v.found_at[i] = MM_NO_NODE;
    }
    for (size_t i = 0; i < m; i++)
        r->paths.parent[i] = MM_NO_NODE;
    st = follow(&v, d);
    r->valid = st == MM_OK && r->nproblems == 0;
out:
    walk_release(&v.w);
    free(v.last);
    free(v.last_slot);
    free(v.nclaim);
    free(v.claim);
    free(v.found_at);
    free(v.member);
    free(v.spos);
    free(v.socc);
    free(v.order);
    free(v.seen);
    if (st)
        mm_verify_report_release(r);
    return st;
}

void mm_verify_report_release(mm_verify_report *r)
{
    free(r->problems);
    free(r->paths.parent);
    free(r->paths.slot);
    memset(r, 0, sizeof *r);
}
