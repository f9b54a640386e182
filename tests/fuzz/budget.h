/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The readers' budgets (format/bracket.md, format/binary.md and
 * schemas/mmtree.xsd, "Budget") as an assertion: a fuzz input that makes
 * a reader do more work or make more nodes than its input and game allow
 * aborts, so a slow input is a finding like a crash.
 */
#ifndef MM_FUZZ_BUDGET_H
#define MM_FUZZ_BUDGET_H

#include <stdio.h>
#include <stdlib.h>

#include "mmtree/format.h"

/* Depth of a tree in any format; each level's codes are scored once. */
#define FUZZ_MAX_DEPTH 64

static inline void fuzz_budget(mm_format fmt, size_t len, const mm_read_cost *c)
{
    uint64_t nodes_max, scored_max = FUZZ_MAX_DEPTH * c->codes;
    switch (fmt) {
    case MM_FMT_BIN: /* a bit a node, and 2n - 1 nodes at most */
        nodes_max = 8 * (uint64_t)len < 2 * c->codes ? 8 * (uint64_t)len : 2 * c->codes;
        break;
    case MM_FMT_XML: /* 16 bytes a <node> at least; no partition of its own */
        nodes_max = len / 16 + 1;
        scored_max = 0;
        break;
    default: /* a node a byte written; n(yx) expands to 2 x 44 + 1 */
        nodes_max = 90 * ((uint64_t)len + 1);
        break;
    }
    if (c->codes > MM_MAX_CODES || c->nodes > nodes_max || c->scored > scored_max) {
        fprintf(stderr, "budget exceeded (%s, %zu bytes): %llu codes, %llu nodes (at most "
                "%llu), %llu scored (at most %llu)\n", mm_format_name(fmt), len,
                (unsigned long long)c->codes, (unsigned long long)c->nodes,
                (unsigned long long)nodes_max, (unsigned long long)c->scored,
                (unsigned long long)scored_max);
        abort();
    }
}

#endif
