/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * A big tree through every format: the MM(5,8) tree of Knuth's rule
 * (32768 codes) written as Knuth text, Irving text, XML and binary reads
 * back strictly, node for node the same tree.  Registered in optimised
 * builds only (the compile is slow under sanitizers).  How fast the
 * formats read is measured by tests/bench_formats.sh, not here.
 */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>

#include "mmtree/compile.h"
#include "mmtree/format.h"

/* Strict read of buf; 0 when it gives back want. */
static int read_back(const char *what, const char *buf, size_t len, const mm_tree *want)
{
    mm_tree t;
    mm_diag d;
    if (mm_tree_read_mem(what, (const unsigned char *)buf, len, MM_FMT_AUTO, 0, &t, &d)) {
        printf("FAIL: %s: %s\n", what, d.msg);
        return 1;
    }
    bool same = mm_tree_equal(&t, want);
    mm_tree_release(&t);
    if (!same) {
        printf("FAIL: %s: the tree read back differs\n", what);
        return 1;
    }
    return 0;
}

int main(void)
{
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_diag d;
    mm_write_opts wo = {.with_stats = true};
    static const mm_format fmts[] = {MM_FMT_KNUTH, MM_FMT_IRVING, MM_FMT_XML, MM_FMT_BIN};
    static const char *const names[] = {"knuth", "irving", "xml", "bin"};
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 5, 8, true, &d) || mm_compile(&g, &o, &t, &d)) {
        printf("setup: %s\n", d.msg);
        return 1;
    }
    int rc = 0;
    size_t sizes[4];
    for (int i = 0; i < 4; i++) {
        char *buf;
        if (mm_tree_write_mem(&t, fmts[i], &wo, &buf, &sizes[i], &d)) {
            printf("FAIL: write %s: %s\n", names[i], d.msg);
            rc = 1;
            continue;
        }
        rc |= read_back(names[i], buf, sizes[i], &t);
        free(buf);
    }
    printf("MM(5,8) knuth, %u nodes: knuth %zu, irving %zu, xml %zu, bin %zu bytes\n",
           t.nnodes, sizes[0], sizes[1], sizes[2], sizes[3]);
    if (!rc && !(sizes[3] < sizes[0] && sizes[0] < sizes[2])) {
        printf("FAIL: expected bin < knuth text < xml in size\n");
        rc = 1;
    }
    mm_tree_release(&t);
    mm_game_release(&g);
    return rc;
}
