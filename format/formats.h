/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: the readers and writers behind mm_tree_read_mem/write_mem.
 * Readers add what they do to *cost (never NULL). */
#ifndef MM_FORMATS_H
#define MM_FORMATS_H

#include "mmtree/format.h"

/* Bracket notations (format/bracket.md); dialect is KNUTH or IRVING, or
 * AUTO for the reader to tell them apart. */
mm_status bracket_read(const char *name, const char *text, size_t len,
                       mm_format dialect, unsigned flags, mm_tree *t,
                       mm_read_cost *cost, mm_diag *d);
mm_status bracket_write(const mm_tree *t, mm_format dialect,
                           const mm_write_opts *o, char **buf, size_t *len,
                           mm_diag *d);

/* XML (schemas/mmtree.xsd). */
mm_status xml_tree_read(const char *name, const unsigned char *buf, size_t len,
                        unsigned flags, mm_tree *t, mm_read_cost *cost, mm_diag *d);
mm_status xml_tree_write(const mm_tree *t, const mm_write_opts *o, char **buf,
                       size_t *len, mm_diag *d);

/* Binary (format/binary.md). */
mm_status bin_read(const char *name, const unsigned char *buf, size_t len,
                   unsigned flags, mm_tree *t, mm_read_cost *cost, mm_diag *d);
mm_status bin_write(const mm_tree *t, char **buf, size_t *len, mm_diag *d);

#endif
