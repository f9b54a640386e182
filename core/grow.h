/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Arrays that grow by doubling: the one place that computes a new
 * capacity and checks that its size in bytes fits.
 */
#ifndef MM_GROW_H
#define MM_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* The capacity that holds need elements of elem bytes: cap, or cap
 * doubled (from first when cap is 0) until need fits; 0 when the size in
 * bytes would not fit a size_t. */
static inline size_t grow_cap(size_t cap, size_t need, size_t first, size_t elem)
{
    size_t c = cap ? cap : first;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return 0;
        c *= 2;
    }
    return c > SIZE_MAX / elem ? 0 : c;
}

/* Room for need (>= 1) elements of elem bytes in the array p of capacity
 * *cap: the array, perhaps moved, with *cap updated; NULL when out of
 * memory, p and *cap then unchanged. */
static inline void *grow_array(void *p, size_t *cap, size_t need, size_t first, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = grow_cap(*cap, need, first, elem);
    void *q = c ? realloc(p, c * elem) : NULL;
    if (q)
        *cap = c;
    return q;
}

#endif
