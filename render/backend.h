/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: the two writers behind mm_render_mem (render/output.c). */
#ifndef MM_RENDER_BACKEND_H
#define MM_RENDER_BACKEND_H

#include "core/strbuf.h"
#include "mmtree/render.h"

/* The HTML page of t (render/html.c), appended to out. */
mm_status html_render(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                      strbuf *out, mm_render_info *info, mm_diag *d);

/* A drawing through Graphviz (render/render.c; render/render_none.c
 * fails), o->format one of SVG, PNG, PDF and DOT, into *buf (malloc'd). */
mm_status gv_render(const mm_tree *t, const mm_game *g, const mm_render_opts *o,
                    char **buf, size_t *len, mm_render_info *info, mm_diag *d);

#endif
