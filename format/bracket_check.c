/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The bracket reader's second pass (format/bracket.md): once the game is
 * known (header or inference), codes, the dialect, slots and names are
 * checked, so that expansion is bounded before it starts.
 */
#include "bracket_syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bracket_layout_init(bracket_layout *l, const mm_game *g,
                            mm_format dialect)
{
    int skip = dialect == MM_FMT_IRVING ? g->slot[g->pegs - 1][g->pegs] : -1;
    l->nslots = 0;
    l->semis = 0;
    for (int s = 0; s < g->nreplies; s++) {
        if (s == skip)
            continue;
        if (l->nslots && g->black[s] != g->black[l->slot[l->nslots - 1]])
            l->semis |= UINT64_C(1) << (l->nslots - 1);
        l->slot[l->nslots++] = (uint8_t)s;
    }
}

/* ---- the game ---- */

static bool has_code(const bnode *a)
{
    return a->form == BF_UNIQUE || a->form == BF_X || a->form == BF_FULL;
}

/* bracket.md, "Inferring the game without a header". */
static mm_status infer_game(bparser *p)
{
    int pegs = 0, max_digit = 0, max_wide = 0;
    bool wide_only = false, repeated = false;
    const bnode *nodes = NODES(p);
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        if (!has_code(a))
            continue;
        if (!pegs)
            pegs = a->len;
        if (a->len != pegs)
            return bracket_fail(p, MM_ERR_INPUT, a->code,
                        "code '%.*s' has %d pegs, the first code %d: without a header "
                        "line all codes must have the same length",
                        (int)a->len, p->s + a->code, a->len, pegs);
        unsigned seen = 0;
        for (int j = 0; j < a->len; j++) {
            char ch = p->s[a->code + (uint32_t)j];
            int v = mm_color_value(16, ch);
            if (ch == '0' || v >= 10)
                wide_only = true;
            if (ch >= '0' && ch <= '9' && ch - '0' > max_digit)
                max_digit = ch - '0';
            if (v > max_wide)
                max_wide = v;
            if (seen >> v & 1u)
                repeated = true;
            seen |= 1u << v;
        }
    }
    const bnode *root = &nodes[p->root];
    if (!pegs)
        return bracket_fail(p, MM_ERR_INPUT, root->off,
                    "cannot tell the game: the tree writes no code; add a header line "
                    "'# mmtree pegs=P colors=C repeat=yes|no'");
    int found = 0, colors = 0;
    bool repeat = false;
    for (int c = 1; c <= MM_MAX_COLORS; c++) {
        if (c <= 9 ? wide_only || max_digit > c : max_wide >= c)
            continue;
        for (int r = 0; r < 2; r++) {
            if ((!r && repeated) || mm_game_count(pegs, c, r) != root->count)
                continue;
            found++;
            colors = c;
            repeat = r;
        }
    }
    if (found != 1)
        return bracket_fail(p, MM_ERR_INPUT, root->off,
                    "cannot tell the game from %d-peg codes and %u codes at the root "
                    "(%s); add a header line '# mmtree pegs=P colors=C repeat=yes|no'",
                    pegs, root->count, found ? "more than one game fits" : "no game fits");
    p->pegs = pegs;
    p->colors = colors;
    p->repeat = repeat;
    p->inferred = true;
    return MM_OK;
}

mm_status bracket_choose_game(bparser *p)
{
    return p->have_game ? MM_OK : infer_game(p);
}

mm_status bracket_setup_game(bparser *p, mm_game *g)
{
    mm_diag ld;
    mm_diag_clear(&ld);
    mm_status st = mm_game_init(g, p->pegs, p->colors, p->repeat, &ld);
    if (st)
        return bracket_fail(p, st == MM_ERR_USAGE ? MM_ERR_INPUT : st,
                            p->inferred ? NODES(p)[p->root].off : p->game_off, "%s", ld.msg);
    return MM_OK;
}

/* Strict: a root count that cannot be right fails before the game's
 * tables are built (up to MM_MAX_CODES codes for a one-line header). */
mm_status bracket_check_root_count(bparser *p)
{
    const bnode *root = &NODES(p)[p->root];
    uint64_t n = p->have_game ? mm_game_count(p->pegs, p->colors, p->repeat) : 0;
    if (n && n <= MM_MAX_CODES && root->count != n)
        return bracket_fail(p, MM_ERR_INPUT, root->off, "the root states %u codes, but MM(%d,%d)%s has %llu",
                    root->count, p->pegs, p->colors, p->repeat ? "" : " without repetition",
                    (unsigned long long)n);
    return MM_OK;
}

mm_status bracket_parse_codes(bparser *p, const mm_game *g, mm_code *first)
{
    const bnode *nodes = NODES(p);
    mm_diag ld;
    mm_diag_clear(&ld);
    p->guess = malloc((p->nodes.n ? p->nodes.n : 1) * sizeof *p->guess);
    if (!p->guess)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        p->guess[k] = MM_NO_CODE;
        if (has_code(a) && mm_code_parse(g, p->s + a->code, a->len, &p->guess[k], &ld))
            return bracket_fail(p, MM_ERR_INPUT, a->code, "%s", ld.msg);
    }
    *first = MM_NO_CODE;
    if (p->first_len && mm_code_parse(g, p->s + p->first_off, p->first_len, first, &ld))
        return bracket_fail(p, MM_ERR_INPUT, p->first_off, "%s", ld.msg);
    return MM_OK;
}

/* ---- dialect and slots ---- */

size_t bracket_star_off(const bparser *p, const bnode *a)
{
    size_t q = (size_t)a->code + a->len;
    while (q < p->len && p->s[q] != '*')
        q++;
    return q;
}

static void group_sizes(const bracket_layout *l, char *buf, size_t size)
{
    size_t n = 0;
    int run = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->nslots && n + 4 < size; i++) {
        run++;
        if (l->semis >> i & 1u || i == l->nslots - 1) {
            n += (size_t)snprintf(buf + n, size - n, "%s%d", n ? "," : "", run);
            run = 0;
        }
    }
}

/* The slot counts of the full forms (and '*') tell the dialects apart;
 * then every full form must have exactly the layout of that dialect. */
mm_status bracket_check_slots(bparser *p, const mm_game *g, mm_format want,
                             bracket_layout *lay)
{
    const bnode *nodes = NODES(p);
    char buf[64];
    int nk = g->nreplies, ni = g->nreplies - 1;
    size_t knuth_at = SIZE_MAX, irving_at = SIZE_MAX;
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        if (a->form == BF_FULL && a->nkids != nk && a->nkids != ni)
            return bracket_fail(p, MM_ERR_INPUT, a->off,
                        "%s writes %d slots; for %d pegs knuth notation writes %d, irving %d",
                        bracket_describe(p, a, buf, sizeof buf), a->nkids, g->pegs, nk, ni);
        if (a->form == BF_FULL && a->nkids == nk && knuth_at == SIZE_MAX)
            knuth_at = k;
        if (((a->form == BF_FULL && a->nkids == ni) || a->star) && irving_at == SIZE_MAX)
            irving_at = k;
    }
    if (want == MM_FMT_AUTO)
        want = p->notation;
    if (want == MM_FMT_AUTO) {
        if (knuth_at != SIZE_MAX && irving_at != SIZE_MAX) {
            const bnode *a = &nodes[knuth_at > irving_at ? knuth_at : irving_at];
            return bracket_fail(p, MM_ERR_INPUT, a->off,
                        "%s mixes knuth notation (%d slots) and irving notation "
                        "(%d slots, '*')", bracket_describe(p, a, buf, sizeof buf), nk, ni);
        }
        want = irving_at != SIZE_MAX ? MM_FMT_IRVING : MM_FMT_KNUTH;
    } else if (p->notation != MM_FMT_AUTO && p->notation != want) {
        return bracket_fail(p, MM_ERR_INPUT, p->game_off, "the header says notation=%s, not %s",
                    mm_format_name(p->notation), mm_format_name(want));
    }
    bracket_layout_init(lay, g, want);
    const char *dname = mm_format_name(want);
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        if (a->star && want == MM_FMT_KNUTH)
            return bracket_fail(p, MM_ERR_INPUT, bracket_star_off(p, a),
                        "'*' after a guess is irving notation, not knuth");
        if (a->form != BF_FULL)
            continue;
        if (a->nkids != lay->nslots || a->semis != lay->semis) {
            char groups[64];
            group_sizes(lay, groups, sizeof groups);
            return bracket_fail(p, MM_ERR_INPUT, a->off,
                        "%s: %s notation for %d pegs writes %d slots in groups of %s, "
                        "separated by ';'", bracket_describe(p, a, buf, sizeof buf), dname,
                        g->pegs, lay->nslots, groups);
        }
        uint32_t win = KIDS(p)[a->kids + a->nkids - 1];
        if (win != KID_ZERO && (nodes[win].form != BF_BARE || nodes[win].count != 1))
            return bracket_fail(p, MM_ERR_INPUT, nodes[win].off,
                        "the last slot, reply (%d,0), holds 1 or 0: whether the guess can be the code",
                        g->pegs);
    }
    return MM_OK;
}

/* Strict, once the game is chosen and before it is set up: n(y) finds at
 * most one code a reply and n(yx) two, so neither can state more codes than its guess has
 * replies allow (y itself included). */
mm_status bracket_check_forms(bparser *p)
{
    const bnode *nodes = NODES(p);
    int pegs = p->pegs; /* chosen, and 1..8 */
    char buf[64];
    uint32_t replies = (uint32_t)((pegs + 1) * (pegs + 2) / 2);
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k], *b = bracket_body_of(p, a);
        if ((b->form != BF_UNIQUE && b->form != BF_X) || a->count == NO_COUNT)
            continue;
        uint32_t most = (b->form == BF_X ? 2 : 1) * (replies - 1) + 1;
        if (a->count > most)
            return bracket_fail(p, MM_ERR_INPUT, a->off,
                                "%s states %u codes; with %d pegs this form holds at most %u",
                                bracket_describe(p, a, buf, sizeof buf), a->count, pegs, most);
    }
    return MM_OK;
}

/* ---- names ---- */

static int cmp_def(const void *x, const void *y)
{
    const bdef *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->off < b->off ? -1 : a->off > b->off;
}

/* Resolve every use to its definition: each name is used exactly once,
 * so the expansion makes no more nodes than the text writes (condensed
 * forms aside); then find the names the tree never reaches. */
mm_status bracket_resolve_names(bparser *p)
{
    size_t nd = p->defs.n;
    bdef *defs = DEFS(p);
    bnode *nodes = NODES(p);
    mm_status st = MM_OK;
    if (nd)
        qsort(defs, nd, sizeof *defs, cmp_def);
    for (size_t j = 1; j < nd; j++)
        if (defs[j].key == defs[j - 1].key) {
            mm_srcpos w = bracket_pos(p, defs[j - 1].off);
            return bracket_fail(p, MM_ERR_INPUT, defs[j].off,
                        "sub-tree '%.*s' is defined twice (first at %u:%u)", (int)defs[j].len,
                        p->s + defs[j].off, w.line, w.col);
        }
    for (size_t k = 0; k < p->nodes.n; k++) {
        bnode *a = &nodes[k];
        if (a->form != BF_REF)
            continue;
        uint64_t key = bracket_name_key(p->s + a->code, a->len);
        size_t lo = 0, hi = nd;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (defs[mid].key < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == nd || defs[lo].key != key)
            return bracket_fail(p, MM_ERR_INPUT, a->code, "sub-tree '%.*s' is not defined",
                        (int)a->len, p->s + a->code);
        if (defs[lo].used) {
            mm_srcpos w = bracket_pos(p, defs[lo].use);
            return bracket_fail(p, MM_ERR_INPUT, a->off,
                                "sub-tree '%.*s' is used twice (first at %u:%u): a name "
                                "stands for one sub-tree", (int)a->len, p->s + a->code, w.line,
                                w.col);
        }
        defs[lo].used = 1;
        defs[lo].use = a->off;
        a->kids = (uint32_t)lo;
    }
    /* The names the tree reaches, through the regions of the root and of
     * the definitions it reaches.  Each name being used once, a name
     * that contains itself is never reached. */
    uint32_t *todo = malloc((nd + 1) * sizeof *todo);
    if (!todo)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    size_t top = 0;
    todo[top++] = (uint32_t)nd;
    while (top) {
        uint32_t def = todo[--top];
        uint32_t first = def == nd ? 0 : defs[def].first;
        uint32_t end = def == nd ? p->root_end : defs[def].end;
        for (uint32_t k = first; k < end; k++)
            if (nodes[k].form == BF_REF && !defs[nodes[k].kids].reached) {
                defs[nodes[k].kids].reached = 1;
                todo[top++] = nodes[k].kids;
            }
    }
    for (size_t j = 0; j < nd; j++)
        if (!defs[j].reached) {
            st = bracket_fail(p, MM_ERR_INPUT, defs[j].off, "sub-tree '%.*s' is defined but "
                              "never used by the tree%s", (int)defs[j].len, p->s + defs[j].off,
                              defs[j].used ? " (only inside itself)" : "");
            break;
        }
    free(todo);
    return st;
}

const bnode *bracket_body_of(const bparser *p, const bnode *a)
{
    return a->form == BF_REF ? &NODES(p)[DEFS(p)[a->kids].body] : a;
}

/* Strict: the slots of a full form add up to its count. */
mm_status bracket_check_sums(bparser *p)
{
    const bnode *nodes = NODES(p);
    const uint32_t *kids = KIDS(p);
    char buf[64];
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k], *b = bracket_body_of(p, a);
        if (b->form != BF_FULL || a->count == NO_COUNT)
            continue;
        uint64_t sum = 0;
        for (uint32_t j = 0; j < b->nkids; j++)
            if (kids[b->kids + j] != KID_ZERO)
                sum += nodes[kids[b->kids + j]].count;
        if (sum != a->count)
            return bracket_fail(p, MM_ERR_INPUT, a->off, "%s states %u codes, but its slots add up to %llu",
                        bracket_describe(p, a, buf, sizeof buf), a->count, (unsigned long long)sum);
    }
    return MM_OK;
}
