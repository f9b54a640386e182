/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the XML reader (format/xml_read.c).  Any input must be read
 * or refused without a crash, leak or sanitizer report, within the
 * reader's budget (budget.h); a tree read
 * strictly must survive XML and binary round trips unchanged, and writing
 * must be deterministic.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "format/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write t in fmt, read it back (strictly), compare, write again and
 * compare bytes; abort on any difference. */
static void round_trip(const mm_tree *t, mm_format fmt)
{
    mm_write_opts wo = {.with_stats = true};
    char *a = NULL, *b = NULL;
    size_t la, lb;
    mm_tree u;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_tree_write_mem(t, fmt, &wo, &a, &la, &d))
        abort();
    if (mm_tree_read_mem("again", (const unsigned char *)a, la, fmt, 0, &u, &d) ||
        !mm_tree_equal(t, &u))
        abort();
    if (mm_tree_write_mem(&u, fmt, &wo, &b, &lb, &d) || la != lb || memcmp(a, b, la))
        abort();
    free(a);
    free(b);
    mm_tree_release(&u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mm_tree t;
    mm_diag d;
    mm_read_cost cost;
    mm_diag_clear(&d);
    mm_status st = mm_tree_read_mem_cost("fuzz", data, size, MM_FMT_XML, 0, &t, &cost, &d);
    fuzz_budget(MM_FMT_XML, size, &cost);
    if (st == MM_OK) {
        round_trip(&t, MM_FMT_XML);
        round_trip(&t, MM_FMT_BIN);
    }
    mm_tree_release(&t);
    /* A lenient read keeps what the document states; whatever it keeps
     * must be writable. */
    st = mm_tree_read_mem_cost("fuzz", data, size, MM_FMT_XML, MM_READ_LENIENT, &t, &cost, &d);
    fuzz_budget(MM_FMT_XML, size, &cost);
    if (st == MM_OK) {
        char *a;
        size_t la;
        if (xml_tree_write(&t, NULL, &a, &la, &d))
            abort();
        free(a);
    }
    mm_tree_release(&t);
    return 0;
}
