/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Test helper: compile a game's tree in-process and render it, so the
 * render tests and tests/bench_render.sh need no tree file.
 *
 *   render_game [-p P] [-c C] [-n] [-r RULE] [-l tree|radial] [-d DEPTH]
 *               [-P PATH] [-m MAX_NODES] [-L LABEL_NODES] [-t RUNS] OUT
 *
 * -t RUNS renders RUNS times and prints the median wall time of one
 * rendering (compiling excluded) on stdout, in seconds.
 * Exit status: 0 ok, 2 error (message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mmtree/compile.h"
#include "mmtree/render.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int pegs = 4, colors = 6, runs = 0, opt;
    bool repeat = true;
    const char *rule = "knuth";
    mm_render_opts ro;
    mm_render_opts_init(&ro);
    while ((opt = getopt(argc, argv, "p:c:nr:l:d:P:m:L:t:")) != -1) {
        switch (opt) {
        case 'p': pegs = atoi(optarg); break;
        case 'c': colors = atoi(optarg); break;
        case 'n': repeat = false; break;
        case 'r': rule = optarg; break;
        case 'l': ro.layout = strcmp(optarg, "radial") ? MM_RENDER_TREE : MM_RENDER_RADIAL; break;
        case 'd': ro.depth = atoi(optarg); break;
        case 'P': ro.path = optarg; break;
        case 'm': ro.max_nodes = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 'L': ro.label_nodes = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 't': runs = atoi(optarg); break;
        default: return 2;
        }
    }
    if (optind != argc - 1 || runs < 0 || runs > 99) {
        fprintf(stderr, "render_game: bad usage\n");
        return 2;
    }
    mm_diag d;
    mm_diag_clear(&d);
    mm_game g;
    mm_tree t;
    mm_compile_opts co;
    mm_compile_opts_init(&co);
    if (mm_rule_parse(rule, &co.rule, &d) || mm_game_init(&g, pegs, colors, repeat, &d)) {
        fprintf(stderr, "render_game: %s\n", d.msg);
        return 2;
    }
    int rc = 0;
    if (mm_compile(&g, &co, &t, &d)) {
        fprintf(stderr, "render_game: %s\n", d.msg);
        mm_game_release(&g);
        return 2;
    }
    double times[99];
    mm_render_info info;
    for (int i = 0; i < (runs ? runs : 1); i++) {
        double t0 = now();
        mm_status st = mm_render_file(&t, &g, &ro, argv[optind], &info, &d);
        times[i] = now() - t0;
        if (st) {
            fprintf(stderr, "render_game: %s\n", d.msg);
            rc = 2;
            break;
        }
    }
    if (!rc) {
        fprintf(stderr, "render_game: %lu nodes drawn (%lu collapsed) of %llu, "
                "%d of %d levels%s\n",
                (unsigned long)info.nodes, (unsigned long)info.collapsed,
                (unsigned long long)info.subtree_nodes, info.depth, info.full_depth,
                info.mid_labels ? "" : ", replies at edge heads");
        if (runs) {
            qsort(times, (size_t)runs, sizeof *times, cmp_double);
            printf("%.3f\n", times[runs / 2]);
        }
    }
    mm_render_shutdown();
    mm_tree_release(&t);
    mm_game_release(&g);
    return rc;
}
