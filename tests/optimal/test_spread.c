/*
 * The exact search spread over workers (compiler/opt_spread.c) gives the
 * tree of one process, node for node, whatever the number of workers and
 * however deep the coordinator expands: here the workers are threads of
 * this process (mmtree-mpi puts them in other processes; tests/mpi/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/opt_unit.h"
#include "mmtree/compile.h"

static int failures;

static bool same_tree(const mm_tree *a, uint32_t x, const mm_tree *b, uint32_t y)
{
    const mm_node *p = &a->nodes[x], *q = &b->nodes[y];
    if (p->guess != q->guess || p->count != q->count || p->flags != q->flags ||
        p->replies != q->replies)
        return false;
    int k = __builtin_popcountll(p->replies);
    for (int i = 0; i < k; i++)
        if (!same_tree(a, p->child + (uint32_t)i, b, q->child + (uint32_t)i))
            return false;
    return true;
}

static void check(int p, int c, mm_rule rule, int workers, uint32_t split, bool value_only)
{
    mm_game g;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_game_init(&g, p, c, true, &d)) {
        printf("FAIL game: %s\n", d.msg);
        failures++;
        return;
    }
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = rule;
    o.threads = 1;
    o.value_only = value_only;
    mm_tree want, got;
    if (mm_compile(&g, &o, &want, &d)) {
        printf("FAIL MM(%d,%d) %s: %s\n", p, c, mm_rule_name(rule), d.msg);
        failures++;
        mm_game_release(&g);
        return;
    }
    olocal l = {calloc((size_t)workers, sizeof(ounit *)), workers, ounit_bell_new(), 0};
    for (int i = 0; i < workers; i++)
        if (ounit_new(&g, &o, 1, l.bell, &l.u[i])) {
            printf("FAIL out of memory\n");
            exit(1);
        }
    olink link;
    olocal_link(&l, &link);
    ospread_opts so = {.split = split};
    ospread_stats st;
    mm_status s = opt_compile_spread(&g, &o, &link, &so, &st, &got, &d);
    bool ok = !s && same_tree(&want, 0, &got, 0) && want.nnodes == got.nnodes &&
              got.prov.proof == MM_PROOF_PROVEN;
    printf("%s MM(%d,%d) %s%s, %d workers, split %u: %llu units, %llu expanded, "
           "%llu builds, %llu facts, %llu tightened, %llu cancelled%s%s\n",
           ok ? "ok" : "FAIL", p, c, mm_rule_name(rule), value_only ? " value-only" : "",
           workers, st.split, (unsigned long long)st.units, (unsigned long long)st.expanded,
           (unsigned long long)st.builds, (unsigned long long)st.facts,
           (unsigned long long)st.tightened, (unsigned long long)st.cancelled,
           s ? ": " : "", s ? d.msg : "");
    failures += !ok;
    for (int i = 0; i < workers; i++)
        ounit_free(l.u[i]);
    free(l.u);
    ounit_bell_free(l.bell);
    if (!s)
        mm_tree_release(&got);
    mm_tree_release(&want);
    mm_game_release(&g);
}

int main(void)
{
    static const mm_rule rules[] = {MM_RULE_OPTIMAL, MM_RULE_OPTIMAL_CONSISTENT,
                                    MM_RULE_OPTIMAL_WORST};
    for (int r = 0; r < 3; r++) {
        check(3, 5, rules[r], 1, 40, false);
        check(3, 7, rules[r], 3, 40, false);
        check(4, 4, rules[r], 2, 60, false);
        check(4, 5, rules[r], 3, 100, false);
    }
    check(4, 6, MM_RULE_OPTIMAL, 2, 0, false);
    check(4, 6, MM_RULE_OPTIMAL, 3, 50, true);
    return failures ? 1 : 0;
}
