/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the bracket reader (format/bracket.md).  Each input
 * is read strictly and leniently, within the reader's budget (budget.h);
 * a tree that reads strictly must write in both dialects (with and
 * without names), read back to the same tree and write the same bytes
 * again.  A failed property aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "mmtree/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const mm_tree *t, mm_format fmt, int names)
{
    mm_write_opts o = {.name_subtrees = names};
    char *a = NULL, *b = NULL;
    size_t alen, blen;
    mm_tree r;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_tree_write_mem(t, fmt, &o, &a, &alen, &d) ||
        mm_tree_read_mem("round-trip", (const unsigned char *)a, alen, MM_FMT_AUTO, 0, &r, &d))
        abort();
    if (!mm_tree_equal(t, &r) || mm_tree_write_mem(&r, fmt, &o, &b, &blen, &d) ||
        blen != alen || memcmp(a, b, alen))
        abort();
    mm_tree_release(&r);
    free(a);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mm_tree t;
    mm_diag d;
    mm_stats s;
    /* Inputs that look like XML or binary belong to those readers. */
    if (mm_format_detect(data, size) != MM_FMT_AUTO)
        return 0;
    mm_read_cost cost;
    mm_diag_clear(&d);
    mm_status st = mm_tree_read_mem_cost("fuzz", data, size, MM_FMT_AUTO, 0, &t, &cost, &d);
    fuzz_budget(MM_FMT_KNUTH, size, &cost);
    if (!st) {
        round_trip(&t, MM_FMT_KNUTH, 0);
        round_trip(&t, MM_FMT_IRVING, 0);
        round_trip(&t, MM_FMT_KNUTH, 2);
        mm_tree_release(&t);
    }
    st = mm_tree_read_mem_cost("fuzz", data, size, MM_FMT_AUTO, MM_READ_LENIENT, &t, &cost, &d);
    fuzz_budget(MM_FMT_KNUTH, size, &cost);
    if (!st) {
        mm_tree_stats(&t, &s);
        mm_tree_release(&t);
    }
    return 0;
}
