/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * mm_render_mem and mm_render_file: the checks every output shares, then
 * the HTML writer (render/html.c) or Graphviz (render/render.c, or
 * render/render_none.c in a build without it).
 */
#include "mmtree/render.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core/file.h"

mm_status mm_render_mem(const mm_tree *t, const mm_game *g,
                        const mm_render_opts *o, char **buf, size_t *len,
                        mm_render_info *info, mm_diag *d)
{
    mm_render_opts def;
    if (!o) {
        mm_render_opts_init(&def);
        o = &def;
    }
    if (o->format == MM_RENDER_AUTO || (unsigned)o->format > MM_RENDER_HTML)
        return mm_diag_set(d, MM_ERR_USAGE, "no output format given");
    if (t->pegs != g->pegs || t->colors != g->colors || t->repeat != g->repeat)
        return mm_diag_set(d, MM_ERR_USAGE, "the tree is not of the game given");
    if (info)
        *info = (mm_render_info){0};
    if (o->format != MM_RENDER_HTML)
        return gv_render(t, g, o, buf, len, info, d);
    strbuf b = {0};
    mm_status st = html_render(t, g, o, &b, info, d);
    if (st) {
        strbuf_release(&b);
        return st;
    }
    if (!(*buf = strbuf_detach(&b, len)))
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for the page");
    return MM_OK;
}

mm_status mm_render_file(const mm_tree *t, const mm_game *g,
                         const mm_render_opts *o, const char *out,
                         mm_render_info *info, mm_diag *d)
{
    mm_render_opts oo;
    if (o)
        oo = *o;
    else
        mm_render_opts_init(&oo);
    if (oo.format == MM_RENDER_AUTO) {
        oo.format = mm_render_format_from_path(out);
        if (oo.format == MM_RENDER_AUTO) {
            const char *dot = strrchr(out, '.');
            if (dot && !strchr(dot, '/'))
                return mm_diag_set(d, MM_ERR_USAGE,
                                   "unknown output format '%s' of '%s': use .svg, "
                                   ".png, .pdf, .dot or .html", dot, out);
            return mm_diag_set(d, MM_ERR_USAGE,
                               "'%s' has no extension to tell the output format: "
                               "use .svg, .png, .pdf, .dot or .html", out);
        }
    }
    /* Open first: a layout can take a while, a failed open does not. */
    outfile f;
    mm_status st = outfile_open(&f, out, d);
    if (st)
        return st;
    char *buf = NULL;
    size_t len = 0;
    st = mm_render_mem(t, g, &oo, &buf, &len, info, d);
    if (!st)
        st = outfile_write(&f, buf, len, d);
    if (!st)
        st = outfile_commit(&f, d);
    outfile_abort(&f);
    free(buf);
    return st;
}
