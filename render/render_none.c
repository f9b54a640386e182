/*
 * mmtree built without Graphviz (-Dgraphviz=disabled): the functions that
 * draw say so, and everything else in libmmtree works as usual.
 */
#include "mmtree/render.h"

static mm_status no_graphviz(mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "this mmtree was built without Graphviz: "
                                        "it cannot draw trees");
}

mm_status mm_render_mem(const mm_tree *t, const mm_game *g,
                        const mm_render_opts *o, char **buf, size_t *len,
                        mm_render_info *info, mm_diag *d)
{
    return no_graphviz(d);
}

mm_status mm_render_file(const mm_tree *t, const mm_game *g,
                         const mm_render_opts *o, const char *out,
                         mm_render_info *info, mm_diag *d)
{
    return no_graphviz(d);
}

int mm_render_shutdown(void)
{
    return 0;
}
