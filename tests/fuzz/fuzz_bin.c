/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the binary reader (format/bin.c).  Any input must be
 * read or refused without a crash, leak or sanitizer report, within the
 * reader's budget (budget.h).  The format
 * has one encoding per tree, so a file that reads must be written back
 * byte for byte; the tree must also survive an XML round trip.  Each
 * input is also tried with its last four bytes replaced by the right
 * checksum, so mutations reach the fields behind it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "budget.h"
#include "format/formats.h"
#include "tests/bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const uint8_t *data, size_t size)
{
    mm_tree t, u;
    mm_diag d;
    char *out = NULL, *xml = NULL;
    size_t len, xlen;
    mm_diag_clear(&d);
    mm_tree_init(&u, 0, 0, false);
    mm_read_cost cost;
    mm_status st = mm_tree_read_mem_cost("fuzz", data, size, MM_FMT_BIN, 0, &t, &cost, &d);
    fuzz_budget(MM_FMT_BIN, size, &cost);
    if (st == MM_OK) {
        if (bin_write(&t, &out, &len, &d) || len != size || memcmp(out, data, size))
            abort();
#if MM_HAVE_XML
        if (xml_tree_write(&t, NULL, &xml, &xlen, &d) ||
            mm_tree_read_mem("xml", (const unsigned char *)xml, xlen, MM_FMT_XML, 0, &u, &d) ||
            !mm_tree_equal(&t, &u))
            abort();
#else
        (void)xlen;
#endif
    }
    free(out);
    free(xml);
    mm_tree_release(&t);
    mm_tree_release(&u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_with_crc(one, data, size);
    return 0;
}
