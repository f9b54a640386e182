/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Tree files: the Knuth and Irving bracket notations, XML and binary.
 *
 * Readers build a complete mm_tree (condensed bracket forms expanded by
 * the convention of format/bracket.md) and check it against its game;
 * writers produce bytes in memory, which mm_file_write_atomic() puts in
 * place.  Every reader bounds what it allocates by the size of its input.
 */
#ifndef MMTREE_FORMAT_H
#define MMTREE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include <mmtree/diag.h>
#include <mmtree/tree.h>

typedef enum mm_format {
    MM_FMT_AUTO = 0,  /* readers: detect; writers: from the file name */
    MM_FMT_KNUTH,     /* Knuth 1976, Figure 1 */
    MM_FMT_IRVING,    /* Irving 1979 as in Neuwirth 1982's appendix */
    MM_FMT_XML,       /* schemas/mmtree.xsd */
    MM_FMT_BIN,       /* format/binary.md */
} mm_format;

typedef struct mm_write_opts {
    int name_subtrees;   /* bracket: name sub-trees of at least this many
                            codes with letters (0 = never) */
    int line_width;      /* bracket: wrap lines near this width (0 = 78) */
    bool with_stats;     /* xml: include a <stats> element */
} mm_write_opts;

/* "knuth", "irving", "xml", "bin" -> format; MM_FMT_AUTO when unknown. */
MM_EXPORT mm_format mm_format_parse(const char *name);
MM_EXPORT const char *mm_format_name(mm_format f);
/* Format implied by a file name's extension, in any case (.txt knuth,
 * .xml, .mmt bin), else AUTO. */
MM_EXPORT mm_format mm_format_from_path(const char *path);
/* The format to write path in: the one named (knuth, irving, xml, bin)
 * when name is not NULL, else the one its extension implies; knuth for
 * "-" and for a name without an extension (/dev/null).  MM_ERR_USAGE for
 * an unknown name or an unknown extension ("t.json", "t.mmt.xz"), so
 * that nothing is written in a format the name does not say. */
MM_EXPORT mm_status mm_format_for_output(const char *path, const char *name,
                                         mm_format *fmt, mm_diag *d);
/* Format of some bytes, by their first characters. */
MM_EXPORT mm_format mm_format_detect(const unsigned char *buf, size_t len);

/* Read a whole file ("-" = standard input) into memory, at most max bytes. */
MM_EXPORT mm_status mm_file_read(const char *path, size_t max, unsigned char **buf,
                       size_t *len, mm_diag *d);
/* Write buf to path through a temporary file in the same directory and a
 * rename, so a failure never leaves a partial file ("-" = standard output). */
MM_EXPORT mm_status mm_file_write_atomic(const char *path, const void *buf, size_t len,
                               mm_diag *d);

/* Read flags. */
#define MM_READ_LENIENT 0x1u /* keep stated counts and markers as written and
                                leave their truth to verify; condensed forms
                                the true codes do not allow become
                                MM_NODE_UNRESOLVED nodes.  Without it, a
                                reader fails unless mm_tree_check passes. */

/* Parse a tree from memory; name is used in diagnostics.  Readers record
 * every node's source position in t->where. */
MM_EXPORT mm_status mm_tree_read_mem(const char *name, const unsigned char *buf,
                           size_t len, mm_format fmt, unsigned flags,
                           mm_tree *t, mm_diag *d);

/* What a read cost.  Each reader bounds its memory and work by its input
 * and its game before it allocates (the "Budget" sections of
 * format/bracket.md, format/binary.md and schemas/mmtree.xsd): these
 * counts are how tests and fuzzers check that it kept to them. */
typedef struct mm_read_cost {
    uint64_t codes;   /* the codes of the game, once it is set up (0 before) */
    uint64_t nodes;   /* nodes the reader made or read: the syntax tree's
                         and the expansion's (bracket), the decoded ones
                         (binary), the <node> elements (XML) */
    uint64_t scored;  /* codes scored against a guess in the reader's own
                         partitions (bracket expansion, binary decoding);
                         a strict read's mm_tree_check adds at most one
                         pass over the codes a level of the tree */
} mm_read_cost;

/* mm_tree_read_mem, also filling *cost (on failure too). */
MM_EXPORT mm_status mm_tree_read_mem_cost(const char *name, const unsigned char *buf,
                                          size_t len, mm_format fmt, unsigned flags,
                                          mm_tree *t, mm_read_cost *cost, mm_diag *d);
MM_EXPORT mm_status mm_tree_read_file(const char *path, mm_format fmt, unsigned flags,
                            mm_tree *t, mm_diag *d);

/* Serialise a tree; *buf is malloc'd and owned by the caller. */
MM_EXPORT mm_status mm_tree_write_mem(const mm_tree *t, mm_format fmt,
                            const mm_write_opts *o, char **buf, size_t *len,
                            mm_diag *d);

#endif
