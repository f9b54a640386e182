/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Writer of the Knuth and Irving bracket notations (format/bracket.md,
 * section 8).  The output is canonical: each node takes the first
 * condensed form that describes it exactly under the reader's expansion
 * convention, decided from the tree alone, so that writing what was read
 * gives the same bytes.
 */
#include "bracket.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "fmt_common.h"

#define INDENT 4
#define DEFAULT_WIDTH 78

enum { WF_LEAF, WF_TWO, WF_UNIQUE, WF_X, WF_FULL };

typedef struct text {
    char *s;
    size_t len, cap;
    bool nomem;
} text;

typedef struct writer {
    const mm_tree *t;
    mm_game g;
    mm_format dialect;
    bracket_layout lay;
    text out, chunk;    /* the file; the piece up to the next break */
    size_t col;         /* length of the current line */
    bool fresh;         /* nothing but indentation on the current line */
    size_t width;
    uint32_t *name;     /* per node: 0, or its name's number (1 = A) */
    uint32_t *named;    /* named nodes, in name order */
    uint32_t nnamed;
} writer;

static void add(text *b, const char *s, size_t n)
{
    if (b->nomem)
        return;
    char *ns = n < SIZE_MAX - 1 - b->len ? grow_array(b->s, &b->cap, b->len + n + 1, 4096, 1)
                                         : NULL;
    if (!ns) {
        b->nomem = true;
        return;
    }
    b->s = ns;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

__attribute__((format(printf, 2, 3)))
static void put(writer *w, const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    add(&w->chunk, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void trim(text *b)
{
    while (b->len && b->s[b->len - 1] == ' ')
        b->s[--b->len] = '\0';
}

/* The chunk is complete: start a new line for it if it would pass the
 * width and the line already holds something. */
static void brk(writer *w)
{
    size_t n = w->chunk.len, vis = n;
    while (vis && w->chunk.s[vis - 1] == ' ')
        vis--;
    if (!w->fresh && w->col + vis > w->width) {
        trim(&w->out);
        add(&w->out, "\n    ", 1 + INDENT);
        w->col = INDENT;
    }
    if (n)
        add(&w->out, w->chunk.s, n);
    w->col += n;
    w->fresh = w->fresh && !n;
    w->chunk.len = 0;
}

static void end_line(writer *w)
{
    brk(w);
    trim(&w->out);
    add(&w->out, "\n", 1);
    w->col = 0;
    w->fresh = true;
}

/* ---- forms ---- */

static bool is_leaf(const mm_tree *t, uint32_t i)
{
    const mm_node *n = &t->nodes[i];
    return n->count == 1 && (n->flags & MM_NODE_CONSISTENT) && !n->replies;
}

/* Two codes, the first guessed, then the second: the reader's convention
 * for a bare 2 (the tree is checked, so the node's codes are exactly its
 * guess and its one child's). */
static bool is_two(const mm_tree *t, uint32_t i)
{
    const mm_node *n = &t->nodes[i];
    return n->count == 2 && (n->flags & MM_NODE_CONSISTENT) &&
           mm_tree_nchildren(t, i) == 1 && is_leaf(t, n->child) &&
           t->nodes[n->child].guess > n->guess;
}

static int form_of(const writer *w, uint32_t i)
{
    const mm_tree *t = w->t;
    bool knuth = w->dialect == MM_FMT_KNUTH;
    if (is_leaf(t, i))
        return WF_LEAF;
    if (knuth && is_two(t, i))
        return WF_TWO;
    int k = mm_tree_nchildren(t, i), leaves = 0, twos = 0;
    for (int j = 0; j < k; j++) {
        uint32_t c = t->nodes[i].child + (uint32_t)j;
        if (is_leaf(t, c))
            leaves++;
        else if (is_two(t, c))
            twos++;
    }
    if (leaves == k)
        return WF_UNIQUE;
    if (knuth && leaves + twos == k)
        return WF_X;
    return WF_FULL;
}

static void name_text(uint32_t k, char *buf)
{
    char tmp[BRACKET_NAME_MAX];
    int n = 0;
    for (; k && n < BRACKET_NAME_MAX; k /= 26) {
        k--;
        tmp[n++] = (char)('A' + k % 26);
    }
    for (int j = 0; j < n; j++)
        buf[j] = tmp[n - 1 - j];
    buf[n] = '\0';
}

/* Everything but a full form, and named nodes: one unbreakable piece. */
static void put_simple(writer *w, uint32_t i, int form)
{
    const mm_node *n = &w->t->nodes[i];
    char code[MM_MAX_PEGS + 1];
    if (w->name[i]) {
        char name[BRACKET_NAME_MAX + 1];
        name_text(w->name[i], name);
        put(w, "%u%s", n->count, name);
        return;
    }
    switch (form) {
    case WF_LEAF: put(w, "1"); break;
    case WF_TWO: put(w, "2"); break;
    case WF_X: put(w, "%u(%sx)", n->count, mm_code_format(&w->g, n->guess, code)); break;
    default:
        put(w, "%u(%s%s)", n->count, mm_code_format(&w->g, n->guess, code),
            w->dialect == MM_FMT_IRVING && !(n->flags & MM_NODE_CONSISTENT) ? "*" : "");
    }
}

static void put_head(writer *w, uint32_t i, bool def)
{
    const mm_node *n = &w->t->nodes[i];
    char code[MM_MAX_PEGS + 1];
    mm_code_format(&w->g, n->guess, code);
    if (def)
        put(w, "(%s: ", code);
    else
        put(w, "%u(%s: ", n->count, code);
}

typedef struct wframe {
    uint32_t node;
    int slot;     /* next written slot */
} wframe;

/* One tree (the whole tree, or a definition's body) with an explicit
 * stack: a tree may be as deep as it has nodes. */
static mm_status emit(writer *w, uint32_t root, bool def, wframe *stack, mm_diag *d)
{
    const mm_tree *t = w->t;
    size_t top = 0;
    int form = def ? WF_FULL : form_of(w, root);
    if (form != WF_FULL) {
        put_simple(w, root, form);
        end_line(w);
        return MM_OK;
    }
    put_head(w, root, def);
    stack[top++] = (wframe){root, 0};
    while (top) {
        wframe *f = &stack[top - 1];
        if (f->slot == w->lay.nslots) {
            put(w, ")");
            top--;
            continue;
        }
        int i = f->slot++, s = w->lay.slot[i];
        if (i)
            put(w, "%c", w->lay.semis >> (i - 1) & 1u ? ';' : ',');
        brk(w);
        if (s == w->g.win) {
            put(w, "%d", t->nodes[f->node].flags & MM_NODE_CONSISTENT ? 1 : 0);
            continue;
        }
        uint32_t c = mm_tree_child(t, f->node, s);
        if (c == MM_NO_NODE) {
            put(w, "0");
            continue;
        }
        form = form_of(w, c);
        if (form != WF_FULL || w->name[c]) {
            put_simple(w, c, form);
            continue;
        }
        if (top >= t->nnodes)
            return mm_diag_set(d, MM_ERR_INPUT, "the tree is not a tree");
        put_head(w, c, false);
        stack[top++] = (wframe){c, 0};
    }
    end_line(w);
    return MM_OK;
}

/* The maximal sub-trees of at least `least` codes get names, breadth
 * first and in slot order within a node; nothing inside a named sub-tree
 * is named again.  That is how both papers did it: Knuth's Figure 1 is
 * N = 17..20, Irving's N = 6..20. */
static mm_status assign_names(writer *w, int least, mm_diag *d)
{
    const mm_tree *t = w->t;
    uint32_t *queue = malloc((size_t)t->nnodes * sizeof *queue);
    if (!queue)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory");
    size_t head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t i = queue[head++];
        int k = mm_tree_nchildren(t, i);
        for (int j = 0; j < k && tail < t->nnodes; j++) {
            uint32_t c = t->nodes[i].child + (uint32_t)j;
            if (t->nodes[c].count >= (uint32_t)least && form_of(w, c) == WF_FULL) {
                w->named[w->nnamed++] = c;
                w->name[c] = w->nnamed;
            } else {
                queue[tail++] = c;
            }
        }
    }
    free(queue);
    return MM_OK;
}

static bool is_space_or_control(char c)
{
    return (unsigned char)c <= ' ' || c == 127;
}

/* One word: blanks and control characters would change its meaning. */
static void put_word(writer *w, const char *word)
{
    for (const char *c = word; *c; c++)
        add(&w->out, is_space_or_control(*c) ? "-" : c, 1);
}

static void put_header(writer *w)
{
    const mm_tree *t = w->t;
    char line[160];
    snprintf(line, sizeof line, "# mmtree pegs=%d colors=%d repeat=%s notation=%s\n",
             t->pegs, t->colors, t->repeat ? "yes" : "no", mm_format_name(w->dialect));
    add(&w->out, line, strlen(line));
    const mm_provenance *pv = &t->prov;
    if (pv->rule && *pv->rule) {
        add(&w->out, "# rule: ", 8);
        put_word(w, pv->rule);
        if (pv->consistent_only)
            add(&w->out, " consistent-only", 16);
        if (pv->first != MM_NO_CODE && pv->first < w->g.ncodes) {
            char code[MM_MAX_PEGS + 1];
            snprintf(line, sizeof line, " first=%s", mm_code_format(&w->g, pv->first, code));
            add(&w->out, line, strlen(line));
        }
        if (pv->tie_break && *pv->tie_break) {
            add(&w->out, " tie-break=", 11);
            put_word(w, pv->tie_break);
        }
        if (pv->max_depth > 0) {
            snprintf(line, sizeof line, " max-depth=%d", pv->max_depth);
            add(&w->out, line, strlen(line));
        }
        if (pv->extra_colors > 0) {
            snprintf(line, sizeof line, " extra-colors=%d", pv->extra_colors);
            add(&w->out, line, strlen(line));
        }
        add(&w->out, "\n", 1);
    }
    if (pv->proof == MM_PROOF_PROVEN)
        add(&w->out, "# proof: proven\n", 16);
    if (pv->proof == MM_PROOF_UNPROVEN) {
        snprintf(line, sizeof line, "# proof: unproven lower-bound=%llu",
                 (unsigned long long)pv->lower_total);
        add(&w->out, line, strlen(line));
        if (pv->lower_worst > 0) {
            snprintf(line, sizeof line, " worst-lower-bound=%d", pv->lower_worst);
            add(&w->out, line, strlen(line));
        }
        add(&w->out, "\n", 1);
    }
    const char *cite = t->prov.citation;
    if (cite) {
        /* One line, without control characters, trimmed as the reader
         * trims it. */
        const char *a = cite, *e = cite + strlen(cite);
        while (a < e && is_space_or_control(*a))
            a++;
        while (e > a && is_space_or_control(e[-1]))
            e--;
        if (a < e) {
            add(&w->out, "# citation: ", 12);
            for (; a < e; a++)
                add(&w->out, is_space_or_control(*a) ? " " : a, 1);
            add(&w->out, "\n", 1);
        }
    }
}

static mm_status check_writable(const writer *w, mm_diag *d)
{
    const mm_tree *t = w->t;
    mm_diag ld;
    char why[160];
    if (!t->nnodes)
        return mm_diag_set(d, MM_ERR_INPUT, "cannot write an empty tree");
    if (!fmt_provenance_ok(&t->prov, false, why, sizeof why))
        return mm_diag_set(d, MM_ERR_INPUT, "cannot write this provenance: %s", why);
    for (uint32_t i = 0; i < t->nnodes; i++)
        if (t->nodes[i].flags & MM_NODE_UNRESOLVED)
            return mm_diag_set(d, MM_ERR_INPUT,
                               "cannot write a tree with unresolved nodes (node %u)", i);
    mm_diag_clear(&ld);
    if (mm_tree_check(t, &w->g, &ld))
        return mm_diag_set(d, MM_ERR_INPUT, "cannot write an invalid tree: %s", ld.msg);
    uint32_t u = fmt_find_useless(t);
    if (u != MM_NO_NODE)
        return mm_diag_set(d, MM_ERR_INPUT, "cannot write a useless guess (node %u leaves "
                           "all its codes in one part): no reader takes one", u);
    return MM_OK;
}

mm_status bracket_write(const mm_tree *t, mm_format dialect,
                           const mm_write_opts *o, char **buf, size_t *len,
                           mm_diag *d)
{
    writer w = {.t = t, .dialect = dialect == MM_FMT_IRVING ? MM_FMT_IRVING : MM_FMT_KNUTH,
                .fresh = true};
    wframe *stack = NULL;
    mm_status st = mm_game_init(&w.g, t->pegs, t->colors, t->repeat, d);
    if (st)
        return st;
    w.width = o && o->line_width > 0 ? (size_t)o->line_width : DEFAULT_WIDTH;
    bracket_layout_init(&w.lay, &w.g, w.dialect);
    if ((st = check_writable(&w, d)))
        goto out;
    w.name = calloc(t->nnodes, sizeof *w.name);
    w.named = malloc((size_t)t->nnodes * sizeof *w.named);
    stack = malloc((size_t)t->nnodes * sizeof *stack);
    if (!w.name || !w.named || !stack) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (o && o->name_subtrees > 0 && (st = assign_names(&w, o->name_subtrees, d)))
        goto out;
    put_header(&w);
    if ((st = emit(&w, 0, false, stack, d)))
        goto out;
    if (w.nnamed) {
        add(&w.out, "where\n", 6);
        for (uint32_t k = 0; k < w.nnamed; k++) {
            char name[BRACKET_NAME_MAX + 1];
            name_text(k + 1, name);
            put(&w, "%s = ", name);
            if ((st = emit(&w, w.named[k], true, stack, d)))
                goto out;
        }
    }
    if (w.out.nomem || w.chunk.nomem) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing the tree");
        goto out;
    }
    *buf = w.out.s;
    *len = w.out.len;
    w.out.s = NULL;
out:
    free(stack);
    free(w.named);
    free(w.name);
    free(w.chunk.s);
    free(w.out.s);
    mm_game_release(&w.g);
    return st;
}
