/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Reproducible random draws for the C tests: Marsaglia's xorshift64
 * ("Xorshift RNGs", Journal of Statistical Software, 2003) from a fixed
 * seed, so a failure found at random is found again on the next run.
 * draw(n) is uniform enough on [0, n) for sampling codes and bytes.
 */
#ifndef MM_TESTS_DRAW_H
#define MM_TESTS_DRAW_H

#include <stdint.h>

static uint64_t draw_state = 0x9E3779B97F4A7C15u;

static inline uint32_t draw(uint32_t n)
{
    draw_state ^= draw_state << 13;
    draw_state ^= draw_state >> 7;
    draw_state ^= draw_state << 17;
    return (uint32_t)(draw_state % n);
}

#endif
