/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * A first program with libmmtree: build Knuth's strategy for MM(4,6),
 * write it in every format, read each file back, and print the total
 * number of guesses it needs (5801).
 *
 *     cc knuth.c $(pkg-config --cflags --libs mmtree) -o knuth && ./knuth
 */
#include <stdio.h>
#include <stdlib.h>

#include <mmtree/mmtree.h>

static int fail(const mm_diag *d, mm_status st)
{
    char where[MM_DIAG_FILE_MAX + 64];
    mm_diag_where(d, where, sizeof where);
    fprintf(stderr, "%serror: %s\n", where, d->msg[0] ? d->msg : mm_status_str(st));
    return 1;
}

int main(void)
{
    static const mm_format formats[] = {MM_FMT_KNUTH, MM_FMT_IRVING, MM_FMT_XML, MM_FMT_BIN};
    mm_diag d;
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_status st;
    mm_diag_clear(&d);

    if ((st = mm_game_init(&g, 4, 6, true, &d)))
        return fail(&d, st);
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if ((st = mm_compile(&g, &o, &t, &d)))
        return fail(&d, st);

    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        char *bytes;
        size_t len;
        mm_tree back;
        mm_stats s;
        if ((st = mm_tree_write_mem(&t, formats[i], NULL, &bytes, &len, &d))) {
            /* A libmmtree built without libxml2 says so here. */
            printf("%-6s %s\n", mm_format_name(formats[i]), d.msg);
            continue;
        }
        mm_tree_init(&back, 0, 0, true);
        st = mm_tree_read_mem("memory", (const unsigned char *)bytes, len, MM_FMT_AUTO, 0,
                              &back, &d);
        free(bytes);
        if (st)
            return fail(&d, st);
        mm_tree_stats(&back, &s);
        printf("%-6s %6zu bytes  total %llu  worst %d  %s\n", mm_format_name(formats[i]),
               len, (unsigned long long)s.total, s.worst,
               mm_tree_equal(&t, &back) ? "same tree" : "DIFFERENT");
        mm_tree_release(&back);
    }
    mm_tree_release(&t);
    mm_game_release(&g);
    printf("libmmtree %s\n", mm_version());
    return 0;
}
