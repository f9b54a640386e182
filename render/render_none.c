/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * mmtree built without Graphviz (-Dgraphviz=disabled): drawings fail with
 * a message that points to HTML, which needs no Graphviz; everything else
 * in libmmtree works as usual.
 */
#include "backend.h"

mm_status gv_render(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                    char **buf, size_t *len, mm_render_info *info, mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE,
                       "this mmtree was built without Graphviz: it cannot draw %s; "
                       "it can write the tree as a page to explore (-o tree.html)",
                       mm_render_format_name(o->format));
}

int mm_render_shutdown(void)
{
    return 0;
}
