/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Reader of the Knuth and Irving bracket notations (format/bracket.md).
 *
 * Three passes.  bracket_parse.c scans the text into a syntax tree;
 * bracket_check.c sets up the game (header or inference), decides the
 * dialect and checks codes, slots and names, so that expansion is bounded
 * before it starts.  Last, here, the syntax tree is expanded into the
 * complete mm_tree by walking it with the true code set of every node,
 * which is what gives the condensed forms their meaning.
 */
#include "bracket_syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "core/walk.h"

/* ---- expansion ---- */

/* The expansion follows the true codes down the tree (core/walk.h); an
 * item's ref is its node of the syntax tree. */
typedef struct expander {
    bparser *p;
    const mm_game *g;
    mm_tree *t;
    mm_read_cost *cost;
    bool lenient;
    mm_format dialect;
    const bracket_layout *lay;
    walk w;
} expander;

/* Split the item's codes by their reply to y. */
static void partition(expander *x, const walk_item *it, mm_code y, walk_parts *pt)
{
    x->cost->scored += it->hi - it->lo;
    walk_split(&x->w, it, y, pt);
}

static mm_status alloc_nodes(expander *x, uint32_t n, uint32_t *first, mm_srcpos w)
{
    mm_status st = mm_tree_alloc(x->t, n, first, x->p->d);
    if (st)
        return st;
    x->cost->nodes += n;
    for (uint32_t k = 0; k < n; k++)
        x->t->where[*first + k] = w;
    return MM_OK;
}

/* Give node tn a child for every slot in replies, placed where tn was
 * read; *first receives the first child. */
static mm_status add_children(expander *x, uint32_t tn, uint64_t replies, uint32_t *first)
{
    int k = __builtin_popcountll(replies);
    x->t->nodes[tn].replies = replies;
    if (!k)
        return MM_OK;
    mm_status st = alloc_nodes(x, (uint32_t)k, first, x->t->where[tn]);
    if (!st)
        x->t->nodes[tn].child = *first;
    return st;
}

static void set_node(expander *x, uint32_t tn, mm_code guess, uint32_t count, uint32_t flags)
{
    mm_node *n = &x->t->nodes[tn];
    n->guess = guess;
    n->count = count;
    n->flags = flags;
}

/* The bare-number convention: guess the first of the n = 1 or 2 codes
 * in lexical order, then the other.  codes is ascending, as the walk
 * keeps every set of codes. */
static mm_status make_small(expander *x, uint32_t tn, const mm_code *codes, uint32_t n,
                            uint32_t count, uint32_t form)
{
    mm_code a = codes[0], b = n == 2 ? codes[1] : MM_NO_CODE;
    set_node(x, tn, a, count, MM_NODE_CONSISTENT | form);
    if (b == MM_NO_CODE)
        return MM_OK;
    uint32_t c;
    mm_status st = alloc_nodes(x, 1, &c, x->t->where[tn]);
    if (st)
        return st;
    set_node(x, c, b, 1, MM_NODE_CONSISTENT | MM_NODE_FORM_IMPLIED);
    x->t->nodes[tn].child = c;
    x->t->nodes[tn].replies = UINT64_C(1) << mm_game_score(x->g, a, b);
    return MM_OK;
}

static uint32_t form_flag(int form)
{
    switch (form) {
    case BF_BARE: return MM_NODE_FORM_BARE;
    case BF_UNIQUE: return MM_NODE_FORM_UNIQUE;
    case BF_X: return MM_NODE_FORM_X;
    default: return MM_NODE_FORM_FULL;
    }
}

/* A useless guess: a strict read fails at once, a lenient one keeps the
 * node as written and expands nothing below it (verify reports it). */
static mm_status useless(expander *x, const walk_item *it, const bnode *a, mm_code y,
                         uint32_t flags)
{
    char code[MM_MAX_PEGS + 1], buf[64];
    uint32_t n = it->hi - it->lo;
    if (x->lenient) {
        set_node(x, it->node, y, a->count, flags | MM_NODE_UNRESOLVED);
        return MM_OK;
    }
    return bracket_fail(x->p, MM_ERR_INPUT, a->off,
                        "%s: guess %s cannot be the code and leaves all %u codes in one "
                        "part: a useless guess", bracket_describe(x->p, a, buf, sizeof buf),
                        mm_code_format(x->g, y, code), n);
}

/* n(y), n(y*), n(yx): every part after y is expanded by make_small. */
static mm_status expand_condensed(expander *x, const walk_item *it, const bnode *a,
                                  const bnode *b)
{
    const mm_game *g = x->g;
    bparser *p = x->p;
    walk_parts pt;
    const uint32_t *cnt = pt.cnt;
    char buf[64], code[MM_MAX_PEGS + 1];
    mm_code y = p->guess[b - NODES(p)];
    partition(x, it, y, &pt);
    bool can = cnt[g->win] != 0;
    uint32_t flags = form_flag(b->form) | (b->star ? MM_NODE_STAR : 0);
    if (x->dialect == MM_FMT_IRVING ? !b->star : can)
        flags |= MM_NODE_CONSISTENT;
    if (!x->lenient && x->dialect == MM_FMT_IRVING && b->star == can) {
        mm_code_format(g, y, code);
        return b->star ? bracket_fail(p, MM_ERR_INPUT, bracket_star_off(p, b),
                              "'*' says %s cannot be the code, but it can", code)
                       : bracket_fail(p, MM_ERR_INPUT, b->code,
                              "%s cannot be the code here: irving notation writes %s*", code, code);
    }
    if (walk_useless(g, &pt, it->hi - it->lo))
        return useless(x, it, a, y, flags);
    uint32_t most = b->form == BF_X ? 2 : 1;
    uint64_t replies = 0;
    for (int s = 0; s < g->nreplies; s++) {
        if (s == g->win || !cnt[s])
            continue;
        if (cnt[s] > most) {
            if (x->lenient) {
                /* Keep the written guess: verify names it and searches
                 * for the guess that was meant. */
                set_node(x, it->node, y, a->count, flags | MM_NODE_UNRESOLVED);
                return MM_OK;
            }
            return bracket_fail(p, MM_ERR_INPUT, a->off,
                        "%s: reply (%d,%d) leaves %u codes; this form allows at most %u",
                        bracket_describe(p, a, buf, sizeof buf), g->black[s], g->white[s], cnt[s], most);
        }
        replies |= UINT64_C(1) << s;
    }
    set_node(x, it->node, y, a->count, flags);
    uint32_t c;
    mm_status st = add_children(x, it->node, replies, &c);
    if (st || !replies)
        return st;
    for (int s = 0; s < g->nreplies; s++)
        if (replies >> s & 1u)
            if ((st = make_small(x, c++, walk_part(&x->w, it, &pt, s), cnt[s], cnt[s],
                                 MM_NODE_FORM_IMPLIED)))
                return st;
    return MM_OK;
}

/* n(y: ...): a child for every non-zero slot, whose true codes are the
 * part of that reply; the children are pushed for the main loop. */
static mm_status expand_full(expander *x, const walk_item *it, const bnode *a,
                             const bnode *b)
{
    const mm_game *g = x->g;
    bparser *p = x->p;
    const uint32_t *kids = KIDS(p);
    walk_parts pt;
    const uint32_t *cnt = pt.cnt;
    char buf[64], code[MM_MAX_PEGS + 1];
    mm_code y = p->guess[b - NODES(p)];
    partition(x, it, y, &pt);
    int last = x->lay->nslots - 1;
    bool said = kids[b->kids + (uint32_t)last] != KID_ZERO, can = cnt[g->win] != 0;
    if (walk_useless(g, &pt, it->hi - it->lo))
        return useless(x, it, a, y, MM_NODE_FORM_FULL | (said ? MM_NODE_CONSISTENT : 0));
    if (!x->lenient && said != can)
        return bracket_fail(p, MM_ERR_INPUT, b->off, "%s: the last slot says %s %s be the code, but it %s",
                    bracket_describe(p, a, buf, sizeof buf), mm_code_format(g, y, code),
                    said ? "can" : "cannot", can ? "can" : "cannot");
    uint64_t replies = 0;
    uint32_t k = 0;
    for (int i = 0; i < last; i++) {
        int s = x->lay->slot[i];
        if (kids[b->kids + (uint32_t)i] != KID_ZERO) {
            replies |= UINT64_C(1) << s;
            k++;
        } else if (cnt[s] && !x->lenient) {
            return bracket_fail(p, MM_ERR_INPUT, b->off,
                        "%s: reply (%d,%d) leaves %u codes, but its slot says 0",
                        bracket_describe(p, a, buf, sizeof buf), g->black[s], g->white[s], cnt[s]);
        }
    }
    set_node(x, it->node, y, a->count, MM_NODE_FORM_FULL | (said ? MM_NODE_CONSISTENT : 0));
    uint32_t c;
    mm_status st = add_children(x, it->node, replies, &c);
    if (st || !replies)
        return st;
    /* Pushed last slot first, so the walk meets them in text order. */
    c += k;
    for (int i = last - 1; i >= 0; i--) {
        uint32_t kid = kids[b->kids + (uint32_t)i];
        if (kid == KID_ZERO)
            continue;
        if (!walk_push(&x->w, walk_child(it, &pt, x->lay->slot[i], --c, kid)))
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    }
    return MM_OK;
}

static mm_status expand_one(expander *x, const walk_item *it)
{
    bparser *p = x->p;
    const bnode *a = &NODES(p)[it->ref], *b = bracket_body_of(p, a);
    uint32_t n = it->hi - it->lo;
    char buf[64];
    x->t->where[it->node] = bracket_pos(p, a->off);
    /* A condensed form adds the levels of its expansion: n(yx) two. */
    uint32_t below = b->form == BF_X ? 2 : b->form == BF_UNIQUE || (b->form == BF_BARE && n == 2);
    if (it->depth + below > BRACKET_MAX_DEPTH)
        return bracket_fail(p, MM_ERR_LIMIT, a->off, "the tree is deeper than %d guesses",
                    BRACKET_MAX_DEPTH);
    if (!x->lenient && a->count != n)
        return bracket_fail(p, MM_ERR_INPUT, a->off, "%s states %u codes, but %u are possible here",
                    bracket_describe(p, a, buf, sizeof buf), a->count, n);
    switch (b->form) {
    case BF_BARE:
        if (a->count == n)
            return make_small(x, it->node, walk_codes(&x->w, it), n, a->count,
                              MM_NODE_FORM_BARE);
        set_node(x, it->node, MM_NO_CODE, a->count,
                 MM_NODE_FORM_BARE | MM_NODE_CONSISTENT | MM_NODE_UNRESOLVED);
        return MM_OK;
    case BF_UNIQUE:
    case BF_X:
        return expand_condensed(x, it, a, b);
    default:
        return expand_full(x, it, a, b);
    }
}

static mm_status expand(expander *x)
{
    mm_status st;
    uint32_t root;
    if ((st = mm_tree_track_where(x->t, x->p->d)) ||
        (st = alloc_nodes(x, 1, &root, (mm_srcpos){0, 0, -1})) ||
        (st = walk_init(&x->w, x->g, root, x->p->root, x->p->d)))
        return st;
    for (walk_item it; walk_pop(&x->w, &it);)
        if ((st = expand_one(x, &it)))
            return st;
    return MM_OK;
}

/* ---- entry point ---- */

static mm_status set_provenance(bparser *p, mm_tree *t, mm_code first)
{
    mm_status st = MM_OK;
    char *s;
    if (p->have_rule) {
        if (!(s = strndup(p->s + p->rule_off, p->rule_len)))
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        st = mm_tree_set_rule(t, s, p->consistent_only, first);
        free(s);
        t->prov.max_depth = p->max_depth;
        t->prov.extra_colors = p->extra_colors;
    }
    if (!st && p->tie_len) {
        if (!(s = strndup(p->s + p->tie_off, p->tie_len)))
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        st = mm_tree_set_tie_break(t, s);
        free(s);
    }
    if (!st && p->have_citation && p->cite_len) {
        if (!(s = strndup(p->s + p->cite_off, p->cite_len)))
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        st = mm_tree_set_citation(t, s);
        free(s);
    }
    if (st)
        return mm_diag_set(p->d, st, "out of memory");
    t->prov.proof = p->proof;
    t->prov.lower_total = p->lower_total;
    t->prov.lower_worst = p->lower_worst;
    return MM_OK;
}

mm_status bracket_read(const char *name, const char *text, size_t len,
                       mm_format dialect, unsigned flags, mm_tree *t,
                       mm_read_cost *cost, mm_diag *d)
{
    bparser p = {.s = text, .len = len, .d = d, .notation = MM_FMT_AUTO};
    expander x = {.p = &p, .cost = cost, .lenient = flags & MM_READ_LENIENT};
    bracket_layout lay;
    mm_game g = {0};
    mm_code first = MM_NO_CODE;
    mm_status st;

    mm_tree_init(t, 0, 0, true);
    mm_diag_file(d, name);
    if (d) {
        d->line = d->col = 0;
        d->offset = -1;
    }
    if (len >= UINT32_MAX)
        return mm_diag_set(d, MM_ERR_LIMIT, "a bracket file has less than 4 GiB");
    /* Everything that needs no game first: a strict read sets the game
     * up only for a text whose counts add up to its root and whose
     * condensed forms can hold them (format/bracket.md, "Budget"). */
    if ((st = bracket_parse(&p)) || (st = bracket_choose_game(&p)) ||
        (!x.lenient && (st = bracket_check_root_count(&p))) ||
        (st = bracket_resolve_names(&p)) ||
        (!x.lenient && ((st = bracket_check_sums(&p)) || (st = bracket_check_forms(&p)))) ||
        (st = bracket_setup_game(&p, &g)) ||
        (st = bracket_parse_codes(&p, &g, &first)) ||
        (st = bracket_check_slots(&p, &g, dialect, &lay)))
        goto out;
    cost->codes = g.ncodes;
    mm_tree_init(t, g.pegs, g.colors, g.repeat);
    x.g = &g;
    x.t = t;
    x.dialect = lay.nslots == g.nreplies ? MM_FMT_KNUTH : MM_FMT_IRVING;
    x.lay = &lay;
    if ((st = expand(&x)))
        goto out;
    if (!x.lenient) {
        mm_diag ld;
        mm_diag_clear(&ld);
        if ((st = mm_tree_check(t, &g, &ld))) {
            st = mm_diag_set(d, st, "%s", ld.msg);
            goto out;
        }
    }
    if ((st = set_provenance(&p, t, first)))
        goto out;
    char why[128];
    if (!x.lenient && !fmt_bounds_ok(t, why, sizeof why))
        st = bracket_fail(&p, MM_ERR_INPUT, p.proof_off, "%s", why);
out:
    cost->nodes += p.nodes.n;
    if (st)
        mm_tree_release(t);
    walk_release(&x.w);
    free(p.guess);
    mm_game_release(&g);
    free(p.lines);
    free(p.nodes.v);
    free(p.kids.v);
    free(p.pending.v);
    free(p.stack.v);
    free(p.defs.v);
    return st;
}
