/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Development driver: mmtree-style run of an optimal rule, printing the
 * value, the first guess, the check and the work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compiler/opt_unit.h"
#include "mmtree/compile.h"
#include "mmtree/format.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: opt_run P C rule [norepeat] [nosym] [nocache] [nosimd] [noreplies] [noagree] [value] [cbound] [sguesses|sparts] [fFIRST] [SSTART_TREE] [jN] [tSECONDS] [kCHECKPOINT] [wWORKERS] [sSPLIT]\n");
        return 2;
    }
    int p = atoi(argv[1]), c = atoi(argv[2]);
    bool repeat = true;
    int workers = 0;   /* the search spread over this many workers (threads) */
    ospread_opts so = {0};
    ospread_stats ss = {0};
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_rule_parse(argv[3], &o.rule, &d)) { puts(d.msg); return 2; }
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "norepeat")) repeat = false;
        else if (!strcmp(argv[i], "nosym")) o.no_symmetry = true;
        else if (!strcmp(argv[i], "nocache")) o.no_cache = true;
        else if (!strcmp(argv[i], "nosimd")) o.no_simd = true;
        else if (!strcmp(argv[i], "noreplies")) o.no_replies = true;
        else if (!strcmp(argv[i], "noagree")) o.no_agree = true;
        else if (!strcmp(argv[i], "value")) o.value_only = true;
        else if (!strcmp(argv[i], "cbound")) o.consistent_bound = true;
        else if (!strcmp(argv[i], "sguesses")) o.share = MM_SHARE_GUESSES;
        else if (!strcmp(argv[i], "sparts")) o.share = MM_SHARE_PARTS;
        else if (argv[i][0] == 'j') o.threads = atoi(argv[i] + 1);
        else if (argv[i][0] == 't') o.time_limit = atof(argv[i] + 1);
        else if (argv[i][0] == 'k') o.checkpoint = argv[i] + 1;
        else if (argv[i][0] == 'w') workers = atoi(argv[i] + 1);
        else if (argv[i][0] == 's') so.split = (uint32_t)atoi(argv[i] + 1);
        else if (argv[i][0] == 'T') so.tighten = atof(argv[i] + 1);
        else if (!strcmp(argv[i], "biggest")) so.biggest = true;
    }
    mm_game g;
    if (mm_game_init(&g, p, c, repeat, &d)) { puts(d.msg); return 2; }
    mm_tree start;   /* SFILE: start from the tree in FILE */
    mm_tree_init(&start, p, c, repeat);
    for (int i = 4; i < argc; i++) {   /* after the game: fCODE, the first guess */
        if (argv[i][0] == 'f' && mm_code_parse(&g, argv[i] + 1, strlen(argv[i] + 1), &o.first, &d)) {
            puts(d.msg);
            return 2;
        }
        if (argv[i][0] == 'S') {
            if (mm_tree_read_file(argv[i] + 1, MM_FMT_AUTO, 0, &start, &d)) {
                puts(d.msg);
                return 2;
            }
            o.start = &start;
        }
    }
    mm_optimal_report r;
    o.report = &r;
    mm_tree t;
    mm_status st;
    if (workers > 0) {
        olocal l = {calloc((size_t)workers, sizeof(ounit *)), workers, ounit_bell_new(), 0};
        olink link;
        for (int i = 0; i < workers; i++)
            if (ounit_new(&g, &o, o.threads, l.bell, &l.u[i]))
                return 2;
        olocal_link(&l, &link);
        st = opt_compile_spread(&g, &o, &link, &so, &ss, &t, &d);
        for (int i = 0; i < workers; i++)
            ounit_free(l.u[i]);
        free(l.u);
        ounit_bell_free(l.bell);
    } else {
        st = mm_compile(&g, &o, &t, &d);
    }
    if (st) { printf("error %d: %s\n", st, d.msg); return 1; }
    mm_stats s;
    mm_tree_stats(&t, &s);
    st = mm_tree_check(&t, &g, &d);
    char b[9];
    printf("MM(%d,%d%s) %s: total %llu worst %d first %s check %s proven %d lower %llu | %.3f s nodes %llu hits %llu guesses %llu/%llu (%.1f%% removed) upper0 %llu\n",
           p, c, repeat ? "" : "n", argv[3], (unsigned long long)s.total, s.worst,
           mm_code_format(&g, t.nodes[0].guess, b), st ? d.msg : "ok", r.proven,
           (unsigned long long)r.lower, r.elapsed, (unsigned long long)r.nodes,
           (unsigned long long)r.cache_hits, (unsigned long long)r.guesses,
           (unsigned long long)r.guesses_all,
           r.guesses_all ? 100.0 * (1 - (double)r.guesses / (double)r.guesses_all) : 0.0,
           (unsigned long long)r.upper_first);
    if (workers > 0)
        printf("spread: %d workers, split %u: %llu units, %llu expanded (%.3f s), %llu builds, "
               "%llu facts, %llu tightened, %llu cancelled\n",
               workers, ss.split, (unsigned long long)ss.units, (unsigned long long)ss.expanded,
               ss.busy, (unsigned long long)ss.builds, (unsigned long long)ss.facts,
               (unsigned long long)ss.tightened, (unsigned long long)ss.cancelled);
    mm_tree_release(&t);
    mm_tree_release(&start);
    mm_game_release(&g);
    return st != 0;
}
