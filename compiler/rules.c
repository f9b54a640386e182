/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include "rules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

uint64_t rules_perfect_total(uint64_t m, uint64_t b)
{
    /* T_q = 1 + (b-1) + ... + (b-1)^(q-1) codes fit in q guesses; the
     * next m - T_q need q+1 each.  S_q (eq. 16) is what the first q levels
     * save against all codes taking q+1 guesses: L = (q+1) m - S_q. */
    uint64_t t = 0, s = 0, q = 0, level = 1;
    if (m == 0)
        return 0;
    if (b <= 2)   /* one code a level: 1 + 2 + ... + m (and no O(m) loop) */
        return m * (m + 1) / 2;
    while (t + level < m) {
        t += level;
        q++;
        s += t;               /* S_q = S_{q-1} + T_q (eq. 20) */
        level *= b - 1;
    }
    return (q + 1) * m - s;
}

mm_status rules_tables_init(rules_tables *rt, const mm_game *g,
                           uint32_t max, bool logs, mm_diag *d)
{
    memset(rt, 0, sizeof *rt);
    rt->max = max;
    rt->nlogn = malloc(((size_t)max + 1) * sizeof *rt->nlogn);
    rt->lower = malloc(((size_t)max + 1) * sizeof *rt->lower);
    if (!rt->nlogn || !rt->lower) {
        rules_tables_release(rt);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for rule tables");
    }
    rt->answers = __builtin_popcountll(mm_game_reply_set(g));
    for (uint32_t n = 0; n <= max; n++) {
        /* long double: 64-bit mantissa keeps n log2 n * 2^32 within one
         * unit up to n = 2^24. */
        long double v = n > 1 ? (long double)n * log2l((long double)n) : 0.0L;
        rt->nlogn[n] = (uint64_t)llroundl(ldexpl(v, RULES_ENTROPY_FRAC));
        rt->lower[n] = rules_perfect_total(n, (uint64_t)rt->answers);
    }
    if (!logs)
        return MM_OK;
    if (max < MM_MAX_REPLIES)
        max = MM_MAX_REPLIES;   /* part counts index these too */
    rt->ln = malloc(((size_t)max + 1) * sizeof *rt->ln);
    rt->power = calloc((size_t)max + 1, sizeof *rt->power);
    if (!rt->ln || !rt->power) {
        rules_tables_release(rt);
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory for rule tables");
    }
    for (uint32_t n = 0; n <= max; n++)
        rt->ln[n] = n ? logl((long double)n) : 0.0L;
    /* Bases in increasing order: the first base to reach y is its root. */
    for (uint64_t u = 2; u * u <= max; u++) {
        if (rt->power[u].root)
            continue;   /* u is itself a power: its powers are claimed */
        uint64_t y = u * u;
        for (uint8_t e = 2; y <= max; e++, y *= u)
            if (!rt->power[y].root)
                rt->power[y] = (rules_power){(uint32_t)u, e};
    }
    for (uint32_t n = 0; n <= max; n++)
        if (!rt->power[n].root)
            rt->power[n] = (rules_power){n, 1};
    return MM_OK;
}

void rules_tables_release(rules_tables *rt)
{
    free(rt->nlogn);
    free(rt->lower);
    free(rt->ln);
    free(rt->power);
    memset(rt, 0, sizeof *rt);
}

/* Little big-number arithmetic for the rare exact entropy comparison:
 * prod n^n over the parts that the two multisets do not share. */
typedef struct bignum {
    uint32_t *limb;
    size_t len, cap;
} bignum;

static bool big_mul(bignum *x, uint32_t m)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < x->len; i++) {
        uint64_t v = (uint64_t)x->limb[i] * m + carry;
        x->limb[i] = (uint32_t)v;
        carry = v >> 32;
    }
    if (carry) {
        uint32_t *l = grow_array(x->limb, &x->cap, x->len + 1, 16, sizeof *l);
        if (!l)
            return false;
        x->limb = l;
        x->limb[x->len++] = (uint32_t)carry;
    }
    return true;
}

/* The parts above 1 (1^1 = 1 changes nothing), sorted: at most 45, so
 * by insertion. */
static int sorted_parts(const uint32_t *a, int k, uint32_t *out)
{
    int n = 0;
    for (int i = 0; i < k; i++) {
        if (a[i] <= 1)
            continue;
        int j = n++;
        for (; j > 0 && out[j - 1] > a[i]; j--)
            out[j] = out[j - 1];
        out[j] = a[i];
    }
    return n;
}

int rules_nlogn_cmp_exact(const uint32_t *a, int ka, const uint32_t *b, int kb)
{
    uint32_t x[MM_MAX_REPLIES], y[MM_MAX_REPLIES];
    int nx = sorted_parts(a, ka, x), ny = sorted_parts(b, kb, y);
    /* Equal multisets, the usual near tie, need no arithmetic. */
    if (nx == ny && !memcmp(x, y, (size_t)nx * sizeof *x))
        return 0;
    bignum A = {0}, B = {0};
    int i = 0, j = 0, r = 0;
    uint32_t one = 1;
    A.limb = malloc(16 * sizeof *A.limb);
    B.limb = malloc(16 * sizeof *B.limb);
    if (!A.limb || !B.limb)
        goto fallback;
    A.cap = B.cap = 16;
    A.len = B.len = 1;
    A.limb[0] = B.limb[0] = one;
    while (i < nx || j < ny) {
        if (i < nx && j < ny && x[i] == y[j]) {
            i++, j++;
            continue;
        }
        bignum *t = (j >= ny || (i < nx && x[i] < y[j])) ? &A : &B;
        uint32_t v = t == &A ? x[i++] : y[j++];
        for (uint32_t e = 0; e < v; e++)
            if (!big_mul(t, v))
                goto fallback;
    }
    if (A.len != B.len) {
        r = A.len < B.len ? -1 : 1;
    } else {
        for (size_t k = A.len; k-- > 0;)
            if (A.limb[k] != B.limb[k]) {
                r = A.limb[k] < B.limb[k] ? -1 : 1;
                break;
            }
    }
    free(A.limb);
    free(B.limb);
    return r;
fallback:
    /* Out of memory: the long double sums decide. */
    free(A.limb);
    free(B.limb);
    {
        long double sa = 0, sb = 0;
        for (int k = 0; k < nx; k++) sa += x[k] * log2l(x[k]);
        for (int k = 0; k < ny; k++) sb += y[k] * log2l(y[k]);
        return (sa > sb) - (sa < sb);
    }
}
