/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * mmtree built without libxml2 (-Dxml=disabled): XML trees are refused
 * with a message, and the other formats work as usual.
 */
#include "formats.h"

static mm_status no_xml(mm_diag *d)
{
    return mm_diag_set(d, MM_ERR_USAGE, "this mmtree was built without libxml2: "
                                        "it cannot read or write XML");
}

mm_status xml_tree_read(const char *name, const unsigned char *buf, size_t len,
                        unsigned flags, mm_tree *t, mm_read_cost *cost, mm_diag *d)
{
    return no_xml(d);
}

mm_status xml_tree_write(const mm_tree *t, const mm_write_opts *o, char **buf,
                         size_t *len, mm_diag *d)
{
    return no_xml(d);
}
