/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: the one split of codes by reply, behind mm_game_split and the
 * walk of the true codes (core/walk.h). */
#ifndef MM_CORE_SPLIT_H
#define MM_CORE_SPLIT_H

#include <stdint.h>

#include "mmtree/game.h"

/* mm_game_split, with every start[s] counted from base, returning the
 * slots whose parts have codes (bit s for part s, the win included). */
uint64_t game_split(const mm_game *g, mm_code guess, const mm_code *in, uint32_t n,
                    mm_code *out, uint8_t *slot, uint32_t cnt[MM_MAX_REPLIES],
                    uint32_t start[MM_MAX_REPLIES], uint32_t base);

#endif
