/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The Graphviz side: one cgraph graph per rendering, laid out and
 * rendered by gvc in memory, then written atomically.
 *
 * Graphviz 2.4x takes `char *` where it only reads, so every call that
 * passes a string goes through the wrappers below, the only casts.
 * Graphviz reports problems through agerr(), which prints to stderr
 * unless a handler is set: for the duration of a rendering a handler
 * collects them, warnings for the caller's callback and the last error
 * for the diagnostic of a failure.
 *
 * PNG and PDF have a largest page (render.h): the depth is lowered until
 * the drawing's size, estimated from its labels and then measured after
 * the layout, fits.
 */
#include "mmtree/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "backend.h"
#include "view.h"

/* ---- Graphviz messages ------------------------------------------------ */

/* agerr() hands a handler a message in pieces: "Error" or "Warning",
 * then ": " and the text, which ends in a newline. */
static struct {
    char kind;                    /* 'E', 'W', or 0 between messages */
    char text[MM_DIAG_MSG_MAX];   /* the message being put together */
    char error[MM_DIAG_MSG_MAX];  /* the last error */
    const mm_render_opts *o;      /* whose warn callback gets warnings */
} gv_msgs;

static void gv_flush(void)
{
    char *m = gv_msgs.text;
    size_t n = strlen(m);
    while (n && (m[n - 1] == '\n' || m[n - 1] == ' '))
        m[--n] = '\0';
    while (*m == ':' || *m == ' ')
        m++;
    if (*m && gv_msgs.kind == 'E')
        snprintf(gv_msgs.error, sizeof gv_msgs.error, "%s", m);
    else if (*m && gv_msgs.o->warn)
        gv_msgs.o->warn(gv_msgs.o->warn_ctx, m);
    gv_msgs.text[0] = '\0';
    gv_msgs.kind = 0;
}

static int gv_capture(char *piece)
{
    if (!strcmp(piece, "Error") || !strcmp(piece, "Warning")) {
        gv_flush();
        gv_msgs.kind = piece[0];
        return 0;
    }
    size_t have = strlen(gv_msgs.text), room = sizeof gv_msgs.text - 1 - have;
    size_t n = strlen(piece);
    memcpy(gv_msgs.text + have, piece, n < room ? n : room);
    gv_msgs.text[have + (n < room ? n : room)] = '\0';
    if (strchr(piece, '\n'))
        gv_flush();
    return 0;
}

static mm_status gv_fail(mm_diag *d, const char *what)
{
    gv_flush();
    const char *why = gv_msgs.error;
    return mm_diag_set(d, MM_ERR_IO, "graphviz: %s failed%s%s", what, *why ? ": " : "",
                       why);
}

/* ---- Building the graph ----------------------------------------------- */

static bool declare(Agraph_t *g, int kind, const char *name, const char *def)
{
    return agattr(g, kind, (char *)name, (char *)def) != NULL;
}

static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, (char *)"");
}

/* Attribute defaults, declared once; every object overrides only what
 * differs, so the DOT text stays short. */
static bool declare_defaults(Agraph_t *g, const mm_render_opts *o, bool mid_labels)
{
    bool tree = o->layout == MM_RENDER_TREE;
    return declare(g, AGRAPH, "layout", tree ? "dot" : "twopi") &&
           declare(g, AGRAPH, "label", "") && declare(g, AGRAPH, "labelloc", "t") &&
           declare(g, AGRAPH, "fontname", "Helvetica") &&
           declare(g, AGRAPH, "fontsize", "12") &&
           /* newrank: the same ranks for a tree, in half the time on
            * thousands of nodes (dot's default ranking is superlinear). */
           (tree ? declare(g, AGRAPH, "ordering", "out") &&
                       declare(g, AGRAPH, "newrank", "true") &&
                       declare(g, AGRAPH, "nodesep", "0.12") &&
                       declare(g, AGRAPH, "ranksep", "0.4") &&
                       (o->rankdir != MM_RENDER_LR || declare(g, AGRAPH, "rankdir", "LR"))
                 : declare(g, AGRAPH, "root", "") &&
                       declare(g, AGRAPH, "ranksep", "1")) &&
           declare(g, AGNODE, "label", "\\N") && declare(g, AGNODE, "shape", "box") &&
           declare(g, AGNODE, "style", "rounded") &&
           declare(g, AGNODE, "fontname", "Helvetica") &&
           declare(g, AGNODE, "fontsize", "10") &&
           declare(g, AGNODE, "margin", "0.06,0.03") &&
           declare(g, AGNODE, "width", "0.3") && declare(g, AGNODE, "height", "0.3") &&
           declare(g, AGNODE, "color", "black") &&
           declare(g, AGNODE, "fontcolor", "black") &&
           declare(g, AGNODE, "fillcolor", "white") &&
           declare(g, AGNODE, "penwidth", "1") && declare(g, AGNODE, "tooltip", "") &&
           declare(g, AGEDGE, "fontname", "Helvetica") &&
           declare(g, AGEDGE, "fontsize", "9") &&
           declare(g, AGEDGE, "arrowsize", "0.5") &&
           declare(g, AGEDGE, "color", "black") && declare(g, AGEDGE, "penwidth", "1") &&
           declare(g, AGEDGE, "tooltip", "") &&
           (mid_labels ? declare(g, AGEDGE, "label", "")
                       : declare(g, AGEDGE, "headlabel", "") &&
                             declare(g, AGEDGE, "labelfontsize", "8"));
}

static void title(const mm_tree *t, const mm_render_opts *o, const view *v,
                  char *buf, size_t size)
{
    int n = snprintf(buf, size, "MM(%d,%d)%s", t->pegs, t->colors,
                     t->repeat ? "" : " without repeated colours");
    if (t->prov.rule && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", %s rule%s", t->prov.rule,
                      t->prov.consistent_only ? " (consistent only)" : "");
    if (o->path && *o->path && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", after %s", o->path);
    if (o->highlight && *o->highlight && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", the path of %s in red", o->highlight);
    if (v->depth < v->full_depth && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %d of %d levels", v->depth,
                 v->full_depth);
}

static bool is_leaf(const mm_node *n)
{
    return (n->flags & MM_NODE_CONSISTENT) && n->count == 1 && n->replies == 0;
}

/* The label of item it in DOT's escString ("\n" between lines); returns
 * its number of lines, and in *widest the characters of its longest. */
static int node_label(const mm_game *g, const mm_node *n, const view_item *it,
                      char *label, size_t size, int *widest)
{
    char code[MM_MAX_PEGS + 1];
    if (n->guess == MM_NO_CODE)
        strcpy(code, "?");
    else
        mm_code_format(g, n->guess, code);
    if (it->collapsed)
        snprintf(label, size, "%s\\nn=%lu\\nE=%.2f max=%d", code, (unsigned long)it->codes,
                 (double)it->total / (double)it->codes, it->worst);
    else if (is_leaf(n))
        snprintf(label, size, "%s", code);
    else
        snprintf(label, size, "%s\\nn=%lu", code, (unsigned long)n->count);
    int lines = 1, line = 0;
    *widest = 0;
    for (const char *p = label; *p; p++) {
        if (p[0] == '\\' && p[1] == 'n') {
            lines++;
            line = -1;
            p++;
        }
        if (++line > *widest)
            *widest = line;
    }
    return lines;
}

/* Each item's size in inches, as dot will about make it: 10-point digits
 * are about 0.09 inch wide and lines 0.17 inch apart; add the margins and
 * some room between neighbours. */
static void item_sizes(const mm_tree *t, const mm_game *g, const view *v, double *w, double *h)
{
    char label[96];
    for (uint32_t i = 0; i < v->n; i++) {
        int widest, lines = node_label(g, &t->nodes[v->items[i].node], &v->items[i], label,
                                       sizeof label, &widest);
        w[i] = 0.27 + 0.09 * widest;
        h[i] = lines > 1 ? 0.06 + 0.17 * lines : 0.3;
    }
}

static void style_node(Agnode_t *an, const mm_game *g, const mm_node *n,
                       const view_item *it)
{
    char label[96];
    int widest;
    bool consistent = n->flags & MM_NODE_CONSISTENT;
    node_label(g, n, it, label, sizeof label, &widest);
    if (it->collapsed) {
        set(an, "shape", "box3d");
        set(an, "style", consistent ? "filled" : "filled,dashed");
        set(an, "fillcolor", "#e6e6e6");
    } else if (is_leaf(n)) {
        set(an, "style", "rounded,filled");
        set(an, "fillcolor", "#d5efd5");
    } else if (!consistent) {
        set(an, "style", "rounded,dashed");
    }
    if (!consistent) {
        set(an, "color", "grey45");
        set(an, "fontcolor", "grey35");
        set(an, "fontname", "Helvetica-Oblique");
    }
    if (it->highlight) {
        set(an, "color", "#d62728");
        set(an, "penwidth", "2.5");
    }
    set(an, "label", label);
}

/* The steps from the root of the tree to item i: the start's path (pre,
 * npre steps) and the replies below it.  Returns the number of steps. */
static uint32_t item_steps(const mm_tree *t, const view *v, uint32_t i, const mm_step *pre,
                           uint32_t npre, mm_step *steps)
{
    uint32_t n = 0;
    for (uint32_t j = i; v->items[j].parent != VIEW_NO_PARENT; j = v->items[j].parent)
        n++;
    memcpy(steps, pre, npre * sizeof *steps);
    for (uint32_t j = i, k = npre + n; v->items[j].parent != VIEW_NO_PARENT;
         j = v->items[j].parent) {
        const view_item *it = &v->items[j];
        steps[--k] = (mm_step){t->nodes[v->items[it->parent].node].guess, it->slot};
    }
    return npre + n;
}

/* What hovering over item it shows (SVG): where it is, its path of k
 * steps in the syntax of --path, and its counts. */
static void item_tooltip(const mm_tree *t, const mm_game *g, const view_item *it,
                         const char *path, uint32_t k, char *buf, size_t size)
{
    char code[MM_MAX_PEGS + 1];
    const mm_node *n = &t->nodes[it->node];
    mm_code_format(g, n->guess, code);
    if (is_leaf(n)) {
        snprintf(buf, size, "%s: the code is %s, found with guess %lu", k ? path : "the start",
                 code, (unsigned long)k + 1);
        return;
    }
    int w = snprintf(buf, size, "%s: guess %s, %lu codes, E=%.2f max=%d%s",
                     k ? path : "the start", code, (unsigned long)n->count,
                     (double)it->total / (double)it->codes, it->worst,
                     n->flags & MM_NODE_CONSISTENT ? "" : ", cannot be the code");
    if (it->collapsed && w >= 0 && (size_t)w < size)
        snprintf(buf + w, size - (size_t)w, "; %llu nodes below not drawn",
                 (unsigned long long)it->hidden);
}

static mm_status build_graph(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                             const view *v, const mm_step *pre, uint32_t npre,
                             bool mid_labels, const double *width, Agraph_t **out,
                             mm_diag *d)
{
    char name[64 * MM_STEP_MAX], text[64 * MM_STEP_MAX + 128];
    mm_step steps[2 * 64];
    Agraph_t *ag = agopen((char *)"mmtree", Agdirected, NULL);
    Agnode_t **nodes = malloc((size_t)v->n * sizeof *nodes);
    if (!ag || !nodes || !declare_defaults(ag, o, mid_labels))
        goto nomem;
    title(t, o, v, text, sizeof text);
    set(ag, "label", text);
    for (uint32_t i = 0; i < v->n; i++) {
        const view_item *it = &v->items[i];
        /* Named by their path (in SVG, a node's <title>); "start" for
         * the root. */
        uint32_t k = item_steps(t, v, i, pre, npre, steps);
        mm_path_format(g, steps, k, name, sizeof name);
        if (!(nodes[i] = agnode(ag, k ? name : (char *)"start", 1)))
            goto nomem;
        if (i == 0 && o->layout == MM_RENDER_RADIAL)
            set(ag, "root", agnameof(nodes[0]));
        style_node(nodes[i], g, &t->nodes[it->node], it);
        item_tooltip(t, g, it, name, k, text, sizeof text);
        set(nodes[i], "tooltip", text);
        if (it->parent == VIEW_NO_PARENT)
            continue;
        Agedge_t *e = agedge(ag, nodes[it->parent], nodes[i], NULL, 1);
        if (!e)
            goto nomem;
        mm_reply_format(g, it->slot, text);
        set(e, mid_labels ? "label" : "headlabel", text);
        snprintf(text, sizeof text, "%s, %lu %s", name,
                 (unsigned long)t->nodes[it->node].count,
                 t->nodes[it->node].count == 1 ? "code" : "codes");
        set(e, "tooltip", text);
        if (it->highlight) {
            set(e, "color", "#d62728");
            set(e, "fontcolor", "#d62728");
            set(e, "penwidth", "2");
        }
    }
    if (o->layout == MM_RENDER_RADIAL) {
        view_ring_gaps(v, width, text, sizeof text);
        if (text[0])
            set(ag, "ranksep", text);
    }
    free(nodes);
    *out = ag;
    return MM_OK;
nomem:
    free(nodes);
    if (ag)
        agclose(ag);
    return mm_diag_set(d, MM_ERR_NOMEM, "out of memory building the graph");
}

/* ---- Output ----------------------------------------------------------- */

/* The DOT text of the graph as built: no layout, no positions, no
 * version, so the same tree gives the same bytes everywhere. */
static mm_status write_dot(Agraph_t *ag, char **buf, size_t *len, mm_diag *d)
{
    char *mem = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&mem, &n);
    if (!f)
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing the graph");
    int rc = agwrite(ag, f);
    if (fclose(f) != 0 || rc == EOF) {
        free(mem);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing the graph");
    }
    *buf = mem;
    *len = n;
    return MM_OK;
}

/* One Graphviz context for the whole process.  Graphviz 2.43's pango
 * text layout caches a pointer to the last font name, which lives in the
 * context: freeing a context and making another reads freed memory. */
static GVC_t *render_gvc;
static bool render_closed;

int mm_render_shutdown(void)
{
    int errors = 0;
    if (render_gvc)
        errors = gvFreeContext(render_gvc);
    render_gvc = NULL;
    render_closed = true;
    return errors;
}

/* Lay out ag; *w and *h receive its size in points. */
static mm_status layout(Agraph_t *ag, const mm_render_opts *o, double *w, double *h,
                        mm_diag *d)
{
    if (render_closed)
        return mm_diag_set(d, MM_ERR_USAGE, "rendering after mm_render_shutdown");
    if (!render_gvc && !(render_gvc = gvContext()))
        return mm_diag_set(d, MM_ERR_NOMEM, "graphviz: cannot create a context");
    if (gvLayout(render_gvc, ag, o->layout == MM_RENDER_TREE ? "dot" : "twopi") != 0)
        return gv_fail(d, "layout");
    /* gvLayout writes "llx lly urx ury" (dot -Tdot has commas). */
    double llx = 0, lly = 0, urx = 0, ury = 0;
    const char *bb = agget(ag, (char *)"bb");
    if (!bb || sscanf(bb, "%lf%*[ ,]%lf%*[ ,]%lf%*[ ,]%lf", &llx, &lly, &urx, &ury) != 4)
        return mm_diag_set(d, MM_ERR_IO, "graphviz: the layout has no bounding box");
    *w = urx - llx;
    *h = ury - lly;
    return MM_OK;
}

static mm_status render(Agraph_t *ag, mm_render_format fmt, char **buf, size_t *len,
                        mm_diag *d)
{
    char *data = NULL;
    unsigned int n = 0;
    if (gvRenderData(render_gvc, ag, mm_render_format_name(fmt), &data, &n) != 0 || !data)
        return gv_fail(d, "rendering");
    mm_status st = MM_OK;
    if ((*buf = malloc((size_t)n + 1))) {
        memcpy(*buf, data, n);
        (*buf)[n] = '\0';
        *len = n;
    } else {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the drawing");
    }
    gvFreeRenderData(data);
    return st;
}

/* ---- What to draw -------------------------------------------------------- */

/* The largest side of a page of format f in points (0: no limit), less
 * Graphviz's pad of 4 points a side; bitmaps have 96 pixels an inch. */
static double page_limit(mm_render_format f)
{
    if (f == MM_RENDER_PNG)
        return MM_RENDER_PNG_MAX_PX * 72.0 / 96.0 - 8;
    if (f == MM_RENDER_PDF)
        return MM_RENDER_PDF_MAX_PT - 8;
    return 0;
}

/* The steps of o->path and the code of o->highlight (MM_NO_CODE: none),
 * checked: the code must reach the start. */
static mm_status read_opts(const mm_game *g, const mm_render_opts *o, mm_step *steps,
                           uint32_t *n, mm_code *hl, mm_diag *d)
{
    mm_status st = mm_path_parse(g, o->path, steps, 64, n, d);
    *hl = MM_NO_CODE;
    if (st || !o->highlight || !*o->highlight)
        return st;
    mm_diag sub;
    mm_diag_clear(&sub);
    if (mm_code_parse(g, o->highlight, strlen(o->highlight), hl, &sub))
        return mm_diag_set(d, MM_ERR_USAGE, "highlight: %s", sub.msg);
    char guess[MM_MAX_PEGS + 1], got[MM_REPLY_MAX], want[MM_REPLY_MAX];
    for (uint32_t i = 0; i < *n; i++) {
        int s = mm_game_score(g, steps[i].guess, *hl);
        mm_code_format(g, steps[i].guess, guess);
        if (s == g->win)
            return mm_diag_set(d, MM_ERR_USAGE, "highlight: %s is found at path step %lu, "
                               "before the start of the drawing", o->highlight,
                               (unsigned long)i + 1);
        if (s != steps[i].slot)
            return mm_diag_set(d, MM_ERR_USAGE, "highlight: %s does not reach the start of "
                               "the drawing: %s gives it %s, not %s (path step %lu)",
                               o->highlight, guess, mm_reply_format(g, s, got),
                               mm_reply_format(g, steps[i].slot, want), (unsigned long)i + 1);
    }
    return MM_OK;
}

/* The view to draw: depth levels (0: what the budget allows), fewer when
 * the drawing would not fit the page.  *w, *h and *size receive the items'
 * sizes (malloc'd; the caller frees them). */
static mm_status choose_view(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                             uint32_t start, int depth, mm_code hl, view *v, double **size,
                             bool *size_cut, mm_diag *d)
{
    double limit = page_limit(o->format);
    for (;;) {
        mm_status st = view_build(t, start, depth, o->max_nodes, v, d);
        if (!st && !(*size = malloc(2 * (size_t)v->n * sizeof **size)))
            st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory for %lu nodes",
                             (unsigned long)v->n);
        if (st)
            return st;
        if (hl != MM_NO_CODE)
            view_highlight(t, g, v, hl);
        if (v->n > MM_RENDER_LAYOUT_MAX && !o->force && o->format != MM_RENDER_DOT)
            return mm_diag_set(d, MM_ERR_USAGE,
                               "the drawing would have %lu nodes: Graphviz takes minutes and "
                               "gigabytes to lay out more than %lu; draw fewer levels "
                               "(--depth, --max-nodes) or a sub-tree (--path), write the "
                               "page to explore (.html), or insist (--force)",
                               (unsigned long)v->n, (unsigned long)MM_RENDER_LAYOUT_MAX);
        item_sizes(t, g, v, *size, *size + v->n);
        double w, h;
        view_extent(v, *size, *size + v->n, o->layout == MM_RENDER_RADIAL,
                    o->rankdir == MM_RENDER_LR, &w, &h);
        if (!limit || v->depth == 1 || (w <= limit && h <= limit))
            return MM_OK;
        depth = v->depth - 1;
        *size_cut = true;
        free(*size);
        *size = NULL;
        view_release(v);
    }
}

mm_status gv_render(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                    char **buf, size_t *len, mm_render_info *info, mm_diag *d)
{
    mm_step pre[64];
    uint32_t npre, start;
    mm_code hl;
    mm_status st = mm_tree_find(t, g, o->path, &start, d);
    if (!st)
        st = read_opts(g, o, pre, &npre, &hl, d);
    if (!st && o->rankdir == MM_RENDER_LR && o->layout != MM_RENDER_TREE)
        st = mm_diag_set(d, MM_ERR_USAGE, "rankdir LR is for the tree layout, not radial");
    if (st)
        return st;

    agusererrf prev = agseterrf(gv_capture);
    gv_msgs.kind = 0;
    gv_msgs.text[0] = gv_msgs.error[0] = '\0';
    gv_msgs.o = o;
    double limit = page_limit(o->format), w = 0, h = 0, *size = NULL;
    bool size_cut = false, budget_cut = false, laid_out = false;
    view v = {0};
    Agraph_t *ag = NULL;
    for (int depth = o->depth;;) {
        if ((st = choose_view(t, g, o, start, depth, hl, &v, &size, &size_cut, d)))
            goto out;
        budget_cut |= v.budget_cut;
        if ((st = build_graph(t, g, o, &v, pre, npre, v.n <= o->label_nodes, size, &ag, d)))
            goto out;
        if (o->format == MM_RENDER_DOT)
            break;
        if ((st = layout(ag, o, &w, &h, d)))
            goto out;
        laid_out = true;
        /* The estimate may be short: check what dot made. */
        if (!limit || (w <= limit && h <= limit))
            break;
        if (v.depth == 1) {
            st = mm_diag_set(d, MM_ERR_USAGE, "the start node alone is larger than a %s page",
                             mm_render_format_name(o->format));
            goto out;
        }
        depth = v.depth - 1;
        size_cut = true;
        gvFreeLayout(render_gvc, ag);
        laid_out = false;
        agclose(ag);
        ag = NULL;
        free(size);
        size = NULL;
        view_release(&v);
    }
    st = o->format == MM_RENDER_DOT ? write_dot(ag, buf, len, d)
                                    : render(ag, o->format, buf, len, d);
    if (info) {
        *info = (mm_render_info){
            .start = start, .depth = v.depth, .full_depth = v.full_depth,
            .nodes = v.n, .subtree_nodes = v.subtree_nodes, .budget_cut = budget_cut,
            .size_cut = size_cut, .mid_labels = v.n <= o->label_nodes, .width = w,
            .height = h,
        };
        for (uint32_t i = 0; i < v.n; i++)
            info->collapsed += v.items[i].collapsed;
    }
out:
    gv_flush();
    if (laid_out)
        gvFreeLayout(render_gvc, ag);
    if (ag)
        agclose(ag);
    free(size);
    view_release(&v);
    agseterrf(prev);
    return st;
}
