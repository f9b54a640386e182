/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Perfect-tree lower bounds (Ville 2013, 5.1): no tree for m codes whose
 * guesses make at most k parts besides the winning one needs fewer
 * guesses in total, or fewer levels, than the tree that fills every level
 * before the next, nor (with that total and depth) fewer codes at its
 * deepest level.  The search reads them from a table, one row a k.
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

/* Codes on the last level of that tree: a tree that needs no more guesses
 * in total fills the levels above and puts the rest there, so no tree of
 * the bound's total and depth has fewer codes at its worst depth. */
static uint64_t last_level(uint64_t m, int k, int d)
{
    uint64_t above = 0, level = 1;
    if (k <= 1)
        return m ? 1 : 0;
    for (int i = 1; i < d && above < m; i++) {
        above += level;
        level = level > UINT64_MAX / (uint64_t)k ? UINT64_MAX / 2 : level * (uint64_t)k;
    }
    return above < m ? m - above : 0;
}

oval opt_lower_calc(uint64_t m, int k)
{
    if (k < 1)
        k = 1;
    int d = perfect_depth(m, k);
    return OV(rules_perfect_total(m, (uint64_t)k + 1), d > 63 ? 63 : d, last_level(m, k, d));
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
