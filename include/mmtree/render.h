/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Drawing strategy trees with Graphviz: cgraph builds the graph, gvc lays
 * it out (dot for a top-down tree, twopi for a radial "flower") and
 * renders it to SVG, PNG or PDF; DOT output is the graph text itself,
 * before layout, so that it is the same on every machine.
 *
 * HTML output is not a drawing but a page to explore the whole tree in a
 * browser: one self-contained file (no network, no other file) holding
 * web/'s script and style, embedded when mmtree is built, and the tree as
 * data.  The page shows the tree from the root and opens a node on click,
 * finds a secret code or a path (deep links tree.html#code=3632 and
 * #path=1122:B,1344:W), and plays.  It needs no Graphviz: a build without
 * Graphviz writes HTML too.
 *
 * The data is one JSON object in <script type="application/json"
 * id="mmtree-data">, with the keys of `mmtree stats --json` (game,
 * provenance, stats), "path", "depth" and "highlight" (what the page
 * opens first; see mm_render_opts), "version" (mmtree's), and "mmt": the
 * tree as a file of the binary format (format/binary.md), base64.  That
 * format stores only the guesses, so the page recomputes every count from
 * the game with its own scoring, and checks its totals against the
 * JSON's.
 *
 * What a drawing shows (README.md, "Drawings", has the legend):
 *   - a node: its guess over "n=COUNT", the codes still possible there;
 *   - a guess that cannot be the code: dashed grey outline, oblique text;
 *   - a leaf (the code is known and guessed): the code alone, filled green;
 *   - a sub-tree cut off by the depth limit: one box3d node, filled grey,
 *     with its guess, its count and "E=x.xx max=w", the expected and the
 *     worst number of guesses from that node on, its own guess included;
 *   - an edge: the reply in Knuth's letters, one B per black hit then one
 *     W per white hit ("BWW"), "-" for no hit;
 *   - in red, the path of one code (mm_render_opts.highlight).
 * Nodes are named by their path from the root ("start" for the root):
 * that is an SVG node's <title>, and its tooltip adds the guess and the
 * counts.
 *
 * Views: a path of guesses and replies selects the sub-tree to draw
 * ("1122:B,1344:W": after guess 1122 got one black hit and 1344 one white
 * hit), a depth limit keeps that many levels, and a node budget lowers
 * the depth until the view fits; so does the largest page of PNG and PDF.
 * Large views drop the edge labels, which dot lays out as extra nodes,
 * and write each reply at the head of its edge instead; views of more
 * than MM_RENDER_LAYOUT_MAX nodes are refused unless forced.
 *
 * Graphviz keeps global state: render from one thread only.
 */
#ifndef MMTREE_RENDER_H
#define MMTREE_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/game.h>
#include <mmtree/path.h>
#include <mmtree/tree.h>

typedef enum mm_render_layout {
    MM_RENDER_TREE = 0, /* dot, top-down, children in reply order */
    MM_RENDER_RADIAL,   /* twopi, the root in the centre */
} mm_render_layout;

typedef enum mm_render_rankdir {
    MM_RENDER_TB = 0,   /* tree layout: root at the top, levels downwards */
    MM_RENDER_LR,       /* root at the left, levels rightwards: for trees
                           wide and shallow */
} mm_render_rankdir;

typedef enum mm_render_format {
    MM_RENDER_AUTO = 0, /* from the output file's extension */
    MM_RENDER_SVG,
    MM_RENDER_PNG,
    MM_RENDER_PDF,
    MM_RENDER_DOT,      /* the graph in the DOT language, not laid out */
    MM_RENDER_HTML,     /* a page to explore the tree (no Graphviz) */
} mm_render_format;

/* Default node budget: about what still reads as a picture when zoomed,
 * and what dot lays out in about a second.  The whole MM(4,6) tree of
 * Knuth's rule (2,000-odd nodes) fits. */
#define MM_RENDER_MAX_NODES 2500u
/* Default limit for reply labels in the middle of edges; above it the
 * replies are written at the edges' heads (no extra layout nodes). */
#define MM_RENDER_LABEL_NODES 1000u
/* Drawings of more nodes are refused unless forced: dot needs minutes and
 * gigabytes for them (the 34,824 nodes of the MM(5,8) entropy tree: 171 s
 * and 678 MB to SVG).  DOT output, not laid out, has no limit. */
#define MM_RENDER_LAYOUT_MAX 20000u
/* Largest PNG and PDF pages, on a side: a bitmap beyond 16,000 pixels is
 * more than viewers open comfortably (cairo scales anything beyond 32,767
 * down), and 14,400 points (200 inches) is the largest page PDF readers
 * take.  A drawing that would be larger is drawn with fewer levels. */
#define MM_RENDER_PNG_MAX_PX 16000
#define MM_RENDER_PDF_MAX_PT 14400

typedef struct mm_render_opts {
    mm_render_layout layout;
    mm_render_format format; /* AUTO: from the path given to mm_render_file */
    int depth;               /* levels drawn (1 = the start node alone);
                                0 = as many as max_nodes allows.  HTML:
                                levels open at first (0 = 2) */
    const char *path;        /* where to start: "G:R,G:R,..."; NULL or ""
                                = the root.  HTML: the node opened and
                                selected at first (the page holds the
                                whole tree) */
    uint32_t max_nodes;      /* node budget; 0 = none */
    uint32_t label_nodes;    /* edge-middle labels up to this many nodes */
    mm_render_rankdir rankdir; /* tree layout only */
    const char *highlight;   /* a code whose path from the start is drawn
                                in colour (HTML: opened at first); NULL or
                                "" = none */
    bool force;              /* lay out more than MM_RENDER_LAYOUT_MAX nodes */
    /* Graphviz's warnings, one call each (the library prints nothing);
     * NULL: dropped.  Errors end the rendering and fill the mm_diag. */
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
} mm_render_opts;

/* What a rendering drew, for the command's messages. */
typedef struct mm_render_info {
    uint32_t start;          /* tree index of the node drawn as the root */
    int depth;               /* levels drawn */
    int full_depth;          /* levels of the whole sub-tree under start */
    uint32_t nodes;          /* nodes drawn */
    uint32_t collapsed;      /* of which stand for a cut-off sub-tree */
    uint64_t subtree_nodes;  /* nodes of the whole sub-tree under start */
    bool budget_cut;         /* the budget lowered the depth asked for */
    bool size_cut;           /* the page size (PNG, PDF) lowered it */
    bool mid_labels;         /* replies in the middle of edges */
    double width, height;    /* the drawing's size in points, once laid out */
} mm_render_info;

/* Defaults: tree layout top-down, format AUTO, depth 0, no path, the
 * budgets above, no highlight, not forced, warnings dropped. */
MM_EXPORT void mm_render_opts_init(mm_render_opts *o);

/* ".svg" ".png" ".pdf" ".dot" (also ".gv") ".html" (also ".htm") ->
 * format, else AUTO. */
MM_EXPORT mm_render_format mm_render_format_from_path(const char *path);
MM_EXPORT const char *mm_render_format_name(mm_render_format f);

/* Render t (a checked tree of game g) as format o->format (not AUTO) into
 * *buf, malloc'd and owned by the caller, *len bytes and a NUL after them
 * (so that text formats are strings).  info may be NULL.  Without
 * Graphviz every format but HTML fails with MM_ERR_USAGE. */
MM_EXPORT mm_status mm_render_mem(const mm_tree *t, const mm_game *g,
                        const mm_render_opts *o, char **buf, size_t *len,
                        mm_render_info *info, mm_diag *d);

/* The same, written atomically to out (format from o->format, or from
 * out's extension when AUTO: an unknown one is MM_ERR_USAGE).  out is
 * opened before the rendering starts, so that an output that cannot be
 * written fails at once, not after the layout. */
MM_EXPORT mm_status mm_render_file(const mm_tree *t, const mm_game *g,
                         const mm_render_opts *o, const char *out,
                         mm_render_info *info, mm_diag *d);

/* Release the Graphviz context that renderings share (one a process:
 * Graphviz 2.43 cannot free one and make another safely).  Call it once,
 * at the end; later renderings to SVG, PNG or PDF fail.  Returns the
 * number of errors Graphviz recorded. */
MM_EXPORT int mm_render_shutdown(void);

#endif
