/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * An independent check of the exact optima on the smallest games.
 *
 * This solver shares nothing with mmtree's search: its own codes, its own
 * scoring, no bounds, no symmetry, no shortcuts.  A set of codes (at most
 * 64, as bits of a word) is solved by trying every guess, splitting the
 * set by the reply and solving each part the same way, with a table of
 * the sets already solved.  The value of a strategy is compared in the
 * order each objective states:
 *
 *  optimal             least total, then least worst case, then fewest
 *                      codes at the worst depth;
 *  optimal-consistent  the same with guesses drawn from the set;
 *  optimal-worst       least worst case D; then, among the strategies
 *                      that find every code within D guesses, least total,
 *                      then fewest codes at depth D.
 *
 * Each order composes: the best strategy for a set puts the best strategy
 * for each part below its guess (totals add up; a part's worst case and
 * its count at that depth only matter where they reach the set's worst,
 * and a part that is least in the order is least there too).  Under a
 * depth limit (optimal-worst) the pair (total, codes at depth exactly the
 * limit) adds up part by part.
 *
 * The test builds the three trees with mm_compile for every game here and
 * asserts that their total, worst case and codes at the worst depth are
 * the values found by exhaustion.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"

enum { MODE_OPT, MODE_CON, MODE_WORST };
#define NO_LIMIT 1000   /* deeper than any tree of 64 codes */

typedef struct val {
    uint64_t total;
    int worst;
    uint64_t at_worst;   /* codes needing worst guesses (MODE_WORST: codes
                            at depth exactly the limit) */
    bool ok;             /* MODE_WORST: fits the limit */
} val;

typedef struct memo_entry {
    uint64_t set;        /* 0: empty slot (no set solved is empty) */
    int limit;
    val v;
} memo_entry;

typedef struct brute {
    int pegs, colors, n, nreply;
    bool repeat;
    int code[64][8];
    uint8_t reply[64][64];   /* black * (pegs + 1) + white */
    int win;
    int mode;
    memo_entry *memo;
    size_t cap, used;
} brute;

/* Every code in lexical order; false when there are more than 64. */
static bool brute_codes(brute *b)
{
    int x[8] = {0};
    b->n = 0;
    for (;;) {
        bool distinct = true;
        for (int i = 0; i < b->pegs && distinct; i++)
            for (int j = 0; j < i && distinct; j++)
                distinct = x[i] != x[j];
        if (b->repeat || distinct) {
            if (b->n == 64)
                return false;
            memcpy(b->code[b->n++], x, sizeof x);
        }
        int i = b->pegs - 1;
        while (i >= 0 && ++x[i] == b->colors)
            x[i--] = 0;
        if (i < 0)
            return true;
    }
}

static void brute_score(brute *b)
{
    for (int a = 0; a < b->n; a++)
        for (int s = 0; s < b->n; s++) {
            int black = 0, hits = 0, ca[16] = {0}, cs[16] = {0};
            for (int i = 0; i < b->pegs; i++) {
                black += b->code[a][i] == b->code[s][i];
                ca[b->code[a][i]]++;
                cs[b->code[s][i]]++;
            }
            for (int k = 0; k < b->colors; k++)
                hits += ca[k] < cs[k] ? ca[k] : cs[k];
            b->reply[a][s] = (uint8_t)(black * (b->pegs + 1) + hits - black);
        }
    b->win = b->pegs * (b->pegs + 1);
    b->nreply = (b->pegs + 1) * (b->pegs + 1);
}

static uint64_t mix(uint64_t x, int limit)
{
    x ^= (uint64_t)limit * 0x9e3779b97f4a7c15u;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9u;
    return x ^ (x >> 29);
}

static memo_entry *memo_slot(brute *b, uint64_t set, int limit)
{
    size_t i = mix(set, limit) & (b->cap - 1);
    while (b->memo[i].set && (b->memo[i].set != set || b->memo[i].limit != limit))
        i = (i + 1) & (b->cap - 1);
    return &b->memo[i];
}

static bool memo_grow(brute *b)
{
    memo_entry *old = b->memo;
    size_t ocap = b->cap;
    b->cap = ocap ? 2 * ocap : 1 << 12;
    b->memo = calloc(b->cap, sizeof *b->memo);
    if (!b->memo)
        return false;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].set)
            *memo_slot(b, old[i].set, old[i].limit) = old[i];
    free(old);
    return true;
}

/* Is a better than b in the order of the mode? */
static bool better(int mode, const val *a, const val *b)
{
    if (!b->ok)
        return a->ok;
    if (!a->ok)
        return false;
    if (a->total != b->total)
        return a->total < b->total;
    if (mode == MODE_WORST)
        return a->at_worst < b->at_worst;
    if (a->worst != b->worst)
        return a->worst < b->worst;
    return a->at_worst < b->at_worst;
}

/* The best strategy for set (limit: depth limit, MODE_WORST only). */
static val solve(brute *b, uint64_t set, int limit)
{
    val best = {0, 0, 0, false};
    if (!(set & (set - 1))) {   /* one code: guess it */
        best.ok = limit >= 1;
        best.total = best.worst = 1;
        best.at_worst = b->mode != MODE_WORST || limit == 1;
        return best;
    }
    if (limit < 2)
        return best;
    int below = b->mode == MODE_WORST ? limit - 1 : limit;
    memo_entry *e = memo_slot(b, set, limit);
    if (e->set)
        return e->v;
    int n = __builtin_popcountll(set);
    for (int q = 0; q < b->n; q++) {
        if (b->mode == MODE_CON && !(set >> q & 1))
            continue;
        uint64_t part[81] = {0};
        for (uint64_t s = set; s; s &= s - 1) {
            int x = __builtin_ctzll(s);
            part[b->reply[q][x]] |= UINT64_C(1) << x;
        }
        bool wins = part[b->win] != 0;
        int nparts = 0;
        for (int r = 0; r < b->nreply; r++)
            nparts += r != b->win && part[r];
        if (!wins && nparts == 1)
            continue;   /* learns nothing */
        val v = {(uint64_t)n, 1, 0, true};
        val sub[81];
        for (int r = 0; r < b->nreply && v.ok; r++) {
            if (r == b->win || !part[r])
                continue;
            sub[r] = solve(b, part[r], below);
            v.ok = sub[r].ok;
            v.total += sub[r].total;
            if (1 + sub[r].worst > v.worst)
                v.worst = 1 + sub[r].worst;
        }
        if (!v.ok)
            continue;
        if (b->mode == MODE_WORST) {
            v.at_worst = wins && limit == 1;
            for (int r = 0; r < b->nreply; r++)
                if (r != b->win && part[r])
                    v.at_worst += sub[r].at_worst;
        } else {
            v.at_worst = wins && v.worst == 1;
            for (int r = 0; r < b->nreply; r++)
                if (r != b->win && part[r] && 1 + sub[r].worst == v.worst)
                    v.at_worst += sub[r].at_worst;
        }
        if (better(b->mode, &v, &best))
            best = v;
    }
    /* the parts' entries may have moved the table: look again */
    if (4 * (b->used + 1) > 3 * b->cap && !memo_grow(b)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    e = memo_slot(b, set, limit);
    e->set = set;
    e->limit = limit;
    e->v = best;
    b->used++;
    return best;
}

/* The optimum of the whole game under the mode. */
static val brute_solve(brute *b, int mode)
{
    uint64_t all = b->n == 64 ? UINT64_MAX : (UINT64_C(1) << b->n) - 1;
    b->mode = mode;
    free(b->memo);
    b->memo = NULL;
    b->cap = b->used = 0;
    if (!memo_grow(b)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    if (mode != MODE_WORST)
        return solve(b, all, NO_LIMIT);
    for (int d = 1;; d++) {
        val v = solve(b, all, d);
        if (v.ok) {
            v.worst = d;
            return v;
        }
    }
}

static int failures;

static void check_cell(int pegs, int colors, bool repeat)
{
    static const mm_rule rules[] = {MM_RULE_OPTIMAL, MM_RULE_OPTIMAL_CONSISTENT,
                                    MM_RULE_OPTIMAL_WORST};
    static const int modes[] = {MODE_OPT, MODE_CON, MODE_WORST};
    brute b = {.pegs = pegs, .colors = colors, .repeat = repeat};
    if (!brute_codes(&b)) {
        fprintf(stderr, "MM(%d,%d): more than 64 codes\n", pegs, colors);
        failures++;
        return;
    }
    brute_score(&b);
    mm_game g;
    mm_diag d;
    if (mm_game_init(&g, pegs, colors, repeat, &d)) {
        fprintf(stderr, "MM(%d,%d): %s\n", pegs, colors, d.msg);
        failures++;
        return;
    }
    for (int i = 0; i < 3; i++) {
        val want = brute_solve(&b, modes[i]);
        mm_compile_opts o;
        mm_compile_opts_init(&o);
        o.rule = rules[i];
        o.threads = 1;
        o.cache_mb = 16;
        mm_tree t;
        mm_stats s;
        if (mm_compile(&g, &o, &t, &d) || mm_tree_check(&t, &g, &d)) {
            fprintf(stderr, "MM(%d,%d%s) %s: %s\n", pegs, colors, repeat ? "" : " no-repeat",
                    mm_rule_name(rules[i]), d.msg);
            failures++;
            continue;
        }
        mm_tree_stats(&t, &s);
        uint64_t at = s.hist[s.worst - 1];
        bool same = s.total == want.total && s.worst == want.worst && at == want.at_worst;
        printf("MM(%d,%d%s) %-18s exhaustive %4llu worst %d (%llu at it)  mmtree %4llu worst "
               "%d (%llu)  %s\n",
               pegs, colors, repeat ? "" : "n", mm_rule_name(rules[i]),
               (unsigned long long)want.total, want.worst, (unsigned long long)want.at_worst,
               (unsigned long long)s.total, s.worst, (unsigned long long)at,
               same ? "ok" : "DIFFERENT");
        failures += !same;
        mm_tree_release(&t);
    }
    free(b.memo);
    mm_game_release(&g);
}

int main(void)
{
    for (int c = 2; c <= 8; c++)
        check_cell(2, c, true);
    for (int c = 2; c <= 4; c++)
        check_cell(3, c, true);
    check_cell(4, 2, true);
    check_cell(5, 2, true);
    check_cell(6, 2, true);
    for (int c = 2; c <= 8; c++)
        check_cell(2, c, false);
    for (int c = 3; c <= 5; c++)
        check_cell(3, c, false);
    check_cell(4, 4, false);
    if (failures)
        fprintf(stderr, "%d differences\n", failures);
    return failures != 0;
}
