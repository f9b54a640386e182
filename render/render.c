/*
 * The Graphviz side: one cgraph graph per rendering, laid out and
 * rendered by gvc in memory, then written atomically.
 *
 * Graphviz 2.4x takes `char *` where it only reads, so every call that
 * passes a string goes through the wrappers below, the only casts.
 * Graphviz reports problems through agerr(), which prints to stderr
 * unless a handler is set: for the duration of a rendering a handler
 * keeps the last message, which becomes the diagnostic of a failure.
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
 * ": ", then the text. */
static char gv_msg[MM_DIAG_MSG_MAX];

static int gv_capture(char *piece)
{
    if (!strcmp(piece, "Error") || !strcmp(piece, "Warning")) {
        gv_msg[0] = '\0';
        return 0;
    }
    size_t have = strlen(gv_msg);
    snprintf(gv_msg + have, sizeof gv_msg - have, "%s", piece);
    return 0;
}

static mm_status gv_fail(mm_diag *d, const char *what)
{
    size_t n = strlen(gv_msg);
    while (n && (gv_msg[n - 1] == '\n' || gv_msg[n - 1] == ' '))
        gv_msg[--n] = '\0';
    const char *why = gv_msg[0] == ':' ? gv_msg + 1 : gv_msg;
    while (*why == ' ')
        why++;
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
                       declare(g, AGRAPH, "ranksep", "0.4")
                 : declare(g, AGRAPH, "root", "n0") &&
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
           declare(g, AGEDGE, "fontname", "Helvetica") &&
           declare(g, AGEDGE, "fontsize", "9") &&
           declare(g, AGEDGE, "arrowsize", "0.5") &&
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
    if (v->depth < v->full_depth && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %d of %d levels", v->depth,
                 v->full_depth);
}

/* Style and label node an; returns the width of its label's longest line
 * in characters. */
static int style_node(Agnode_t *an, const mm_game *g, const mm_node *n,
                      const view_item *it)
{
    char code[MM_MAX_PEGS + 1], label[96];
    bool consistent = n->flags & MM_NODE_CONSISTENT;
    if (n->guess == MM_NO_CODE)
        strcpy(code, "?");
    else
        mm_code_format(g, n->guess, code);
    if (it->collapsed) {
        double e = it->codes ? (double)it->total / (double)it->codes : 0.0;
        snprintf(label, sizeof label, "%s\\nn=%lu\\nE=%.2f max=%d", code,
                 (unsigned long)it->codes, e, it->worst);
        set(an, "shape", "box3d");
        set(an, "style", consistent ? "filled" : "filled,dashed");
        set(an, "fillcolor", "#e6e6e6");
    } else if (consistent && n->count == 1 && n->replies == 0) {
        snprintf(label, sizeof label, "%s", code);
        set(an, "style", "rounded,filled");
        set(an, "fillcolor", "#d5efd5");
    } else {
        snprintf(label, sizeof label, "%s\\nn=%lu", code, (unsigned long)n->count);
        if (!consistent)
            set(an, "style", "rounded,dashed");
    }
    if (!consistent) {
        set(an, "color", "grey45");
        set(an, "fontcolor", "grey35");
        set(an, "fontname", "Helvetica-Oblique");
    }
    set(an, "label", label);
    int widest = 0, line = 0;
    for (const char *p = label; *p; p++) {
        if (p[0] == '\\' && p[1] == 'n') {
            line = -1;
            p++;
        }
        if (++line > widest)
            widest = line;
    }
    return widest;
}

static mm_status build_graph(const mm_tree *t, const mm_game *g,
                             const mm_render_opts *o, const view *v,
                             bool mid_labels, Agraph_t **out, mm_diag *d)
{
    char name[32], text[512];
    Agraph_t *ag = agopen((char *)"mmtree", Agdirected, NULL);
    Agnode_t **nodes = malloc((size_t)v->n * sizeof *nodes);
    double *width = malloc((size_t)v->n * sizeof *width);
    if (!ag || !nodes || !width || !declare_defaults(ag, o, mid_labels))
        goto nomem;
    title(t, o, v, text, sizeof text);
    set(ag, "label", text);
    for (uint32_t i = 0; i < v->n; i++) {
        const view_item *it = &v->items[i];
        snprintf(name, sizeof name, "n%lu", (unsigned long)i);
        if (!(nodes[i] = agnode(ag, name, 1)))
            goto nomem;
        /* 10-point digits are about 0.09 inch wide; add the margins and
         * some room between neighbours. */
        width[i] = 0.27 + 0.09 * style_node(nodes[i], g, &t->nodes[it->node], it);
        if (it->parent == VIEW_NO_PARENT)
            continue;
        Agedge_t *e = agedge(ag, nodes[it->parent], nodes[i], NULL, 1);
        if (!e)
            goto nomem;
        mm_reply_format(g, it->slot, text);
        set(e, mid_labels ? "label" : "headlabel", text);
    }
    if (o->layout == MM_RENDER_RADIAL) {
        view_ring_gaps(v, width, text, sizeof text);
        if (text[0])
            set(ag, "ranksep", text);
    }
    free(width);
    free(nodes);
    *out = ag;
    return MM_OK;
nomem:
    free(width);
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

static mm_status layout_render(Agraph_t *ag, const mm_render_opts *o,
                               mm_render_format fmt, char **buf, size_t *len,
                               mm_diag *d)
{
    mm_status st = MM_OK;
    char *data = NULL;
    unsigned int n = 0;
    if (render_closed)
        return mm_diag_set(d, MM_ERR_USAGE, "rendering after mm_render_shutdown");
    if (!render_gvc && !(render_gvc = gvContext()))
        return mm_diag_set(d, MM_ERR_NOMEM, "graphviz: cannot create a context");
    if (gvLayout(render_gvc, ag, o->layout == MM_RENDER_TREE ? "dot" : "twopi") != 0)
        return gv_fail(d, "layout");
    if (gvRenderData(render_gvc, ag, mm_render_format_name(fmt), &data, &n) != 0 || !data) {
        st = gv_fail(d, "rendering");
        goto out_layout;
    }
    if (!(*buf = malloc(n ? n : 1))) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the drawing");
        goto out_data;
    }
    memcpy(*buf, data, n);
    *len = n;
out_data:
    gvFreeRenderData(data);
out_layout:
    gvFreeLayout(render_gvc, ag);
    return st;
}

mm_status gv_render(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                    char **buf, size_t *len, mm_render_info *info, mm_diag *d)
{
    uint32_t start;
    mm_status st = mm_tree_find(t, g, o->path, &start, d);
    if (st)
        return st;
    view v;
    if ((st = view_build(t, start, o->depth, o->max_nodes, &v, d)))
        goto out_view;
    bool mid_labels = v.n <= o->label_nodes;
    if (info)
        *info = (mm_render_info){
            .start = start, .depth = v.depth, .full_depth = v.full_depth,
            .nodes = v.n, .subtree_nodes = v.subtree_nodes,
            .budget_cut = v.budget_cut, .mid_labels = mid_labels,
        };
    for (uint32_t i = 0; info && i < v.n; i++)
        info->collapsed += v.items[i].collapsed;

    agusererrf prev = agseterrf(gv_capture);
    gv_msg[0] = '\0';
    Agraph_t *ag = NULL;
    if ((st = build_graph(t, g, o, &v, mid_labels, &ag, d)))
        goto out_handler;
    if (o->format == MM_RENDER_DOT)
        st = write_dot(ag, buf, len, d);
    else
        st = layout_render(ag, o, o->format, buf, len, d);
    agclose(ag);
out_handler:
    agseterrf(prev);
out_view:
    view_release(&v);
    return st;
}
