/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: what the bracket reader and writer share (format/bracket.md). */
#ifndef MM_BRACKET_H
#define MM_BRACKET_H

#include <stdint.h>

#include "fmt_common.h"
#include "formats.h"

/* Nesting of full forms in the text, and guesses on a path of the tree:
 * the depth the other formats hold. */
#define BRACKET_MAX_DEPTH FMT_MAX_DEPTH
/* Capital letters in a sub-tree name. */
#define BRACKET_NAME_MAX 8

/* The slots a full form writes, in order: knuth writes every reply slot,
 * irving all but (p-1, 1). */
typedef struct bracket_layout {
    int nslots;
    uint8_t slot[MM_MAX_REPLIES];  /* written slot -> game slot (ORDER REPLY) */
    uint64_t semis;                /* bit i: a ';' follows written slot i */
} bracket_layout;

void bracket_layout_init(bracket_layout *l, const mm_game *g,
                            mm_format dialect);

#endif
