/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Options of a rendering and the output formats it knows. */
#include "mmtree/render.h"

#include <string.h>

void mm_render_opts_init(mm_render_opts *o)
{
    *o = (mm_render_opts){
        .layout = MM_RENDER_TREE,
        .format = MM_RENDER_AUTO,
        .max_nodes = MM_RENDER_MAX_NODES,
        .label_nodes = MM_RENDER_LABEL_NODES,
    };
}

mm_render_format mm_render_format_from_path(const char *path)
{
    static const struct {
        const char *ext;
        mm_render_format f;
    } exts[] = {
        {".svg", MM_RENDER_SVG}, {".png", MM_RENDER_PNG}, {".pdf", MM_RENDER_PDF},
        {".dot", MM_RENDER_DOT}, {".gv", MM_RENDER_DOT},   {".html", MM_RENDER_HTML},
        {".htm", MM_RENDER_HTML},
    };
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return MM_RENDER_AUTO;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i].ext) == 0)
            return exts[i].f;
    return MM_RENDER_AUTO;
}

const char *mm_render_format_name(mm_render_format f)
{
    static const char *const names[] = {
        [MM_RENDER_AUTO] = "auto", [MM_RENDER_SVG] = "svg", [MM_RENDER_PNG] = "png",
        [MM_RENDER_PDF] = "pdf",   [MM_RENDER_DOT] = "dot",  [MM_RENDER_HTML] = "html",
    };
    return (unsigned)f <= MM_RENDER_HTML ? names[f] : "?";
}
