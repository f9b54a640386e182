#include <stdio.h>
#include <stdlib.h>
#include "mm_compile.h"
int main(int argc, char **argv)
{
    int p = argc > 1 ? atoi(argv[1]) : 4, c = argc > 2 ? atoi(argv[2]) : 6;
    for (int r = 0; r < MM_RULE_COUNT_ONE_STEP; r++) {
        mm_game g; mm_diag d; mm_tree t; mm_compile_opts o;
        mm_diag_clear(&d);
        if (mm_game_init(&g, p, c, true, &d)) { printf("%s\n", d.msg); return 1; }
        mm_compile_opts_init(&o); o.rule = r;
        if (mm_compile(&g, &o, &t, &d)) { printf("%s\n", d.msg); return 1; }
        mm_stats s; mm_tree_stats(&t, &s);
        mm_status st = mm_tree_check(&t, &g, &d);
        char b[9];
        printf("%-8s %s total %llu worst %d check %d %s |", mm_rule_name(r), mm_code_format(&g, t.nodes[0].guess, b), (unsigned long long)s.total, s.worst, st, d.msg);
        for (int i = 0; i < s.worst; i++) printf(" %llu", (unsigned long long)s.hist[i]);
        printf("\n");
        mm_tree_release(&t); mm_game_release(&g);
    }
    return 0;
}
