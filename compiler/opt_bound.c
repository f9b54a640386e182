/*
 * Perfect-tree lower bounds (Ville 2013, 5.1): no tree for m codes whose
 * guesses make at most k parts besides the winning one needs fewer
 * guesses in total, or fewer levels, than the tree that fills every level
 * before the next.  The search reads them from a table, one row a k.
 */
#include "opt.h"

#include <stdlib.h>

#include "rules.h"

/* Smallest depth d with 1 + k + ... + k^(d-1) >= m. */
static int perfect_depth(uint64_t m, int k)
{
    uint64_t t = 0, level = 1;
    int d = 0;
    if (m == 0)
        return 0;
    if (k <= 1)   /* one code a level */
        return m > 63 ? 63 : (int)m;
    while (t < m) {
        t += level;
        d++;
        level = level > UINT64_MAX / (uint64_t)k ? UINT64_MAX / 2 : level * (uint64_t)k;
    }
    return d;
}

oval opt_lower_calc(uint64_t m, int k)
{
    if (k < 1)
        k = 1;
    int d = perfect_depth(m, k);
    return OV(rules_perfect_total(m, (uint64_t)k + 1), d > 63 ? 63 : d);
}

bool opt_lower_init(oshared *sh)
{
    const mm_game *g = sh->g;
    sh->lbmax = g->ncodes < 65536 ? g->ncodes : 65536;
    size_t R = (size_t)g->nreplies + 1;
    sh->lbtab = malloc(R * (sh->lbmax + 1) * sizeof *sh->lbtab);
    if (!sh->lbtab)
        return false;
    for (size_t k = 0; k < R; k++)
        for (uint32_t m = 0; m <= sh->lbmax; m++)
            sh->lbtab[k * (sh->lbmax + 1) + m] = opt_lower_calc(m, (int)k);
    return true;
}
