/*
 * The MM(5,8) tree of Knuth's rule (32768 codes) reads and checks in well
 * under a second as XML, and faster still as binary (the fastest format).
 * Best of three strict reads each; registered only in optimised builds
 * without sanitizers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mm_compile.h"
#include "mm_format.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best time of three strict reads of buf, or -1 when one fails. */
static double best_read(const char *buf, size_t len, const mm_tree *want)
{
    double best = -1;
    for (int i = 0; i < 3; i++) {
        mm_tree t;
        mm_diag d;
        double t0 = now();
        if (mm_tree_read_mem("speed", (const unsigned char *)buf, len, MM_FMT_AUTO, 0, &t, &d)) {
            printf("read: %s\n", d.msg);
            return -1;
        }
        double dt = now() - t0;
        bool same = mm_tree_equal(&t, want);
        mm_tree_release(&t);
        if (!same)
            return -1;
        if (best < 0 || dt < best)
            best = dt;
    }
    return best;
}

int main(void)
{
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_diag d;
    mm_write_opts wo = {.with_stats = true};
    char *xml, *bin;
    size_t xl, bl;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 5, 8, true, &d) || mm_compile(&g, &o, &t, &d) ||
        mm_tree_write_mem(&t, MM_FMT_XML, &wo, &xml, &xl, &d) ||
        mm_tree_write_mem(&t, MM_FMT_BIN, &wo, &bin, &bl, &d)) {
        printf("setup: %s\n", d.msg);
        return 1;
    }
    double tx = best_read(xml, xl, &t), tb = best_read(bin, bl, &t);
    printf("MM(5,8) knuth, %u nodes: xml %zu bytes %.1f ms, bin %zu bytes %.1f ms\n",
           t.nnodes, xl, tx * 1e3, bl, tb * 1e3);
    int rc = 0;
    if (tx < 0 || tb < 0)
        rc = 1;
    else if (tx >= 0.5)
        printf("FAIL: XML takes %.3f s, not well under a second\n", tx), rc = 1;
    else if (tb >= tx)
        printf("FAIL: binary is not faster than XML\n"), rc = 1;
    free(xml);
    free(bin);
    mm_tree_release(&t);
    mm_game_release(&g);
    return rc;
}
