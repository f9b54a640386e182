/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: the position a compile starts from (mm_compile_opts.after). */
#ifndef MM_POSITION_H
#define MM_POSITION_H

#include "mmtree/compile.h"

/* The codes left after o->after (every code when o->nafter is 0), in
 * lexical order, into *S (malloc'd; the caller frees it) and *n, and the
 * colours the path's guesses played into *played.  MM_ERR_USAGE, naming
 * the step, when a reply ends the game or leaves no code. */
mm_status position_codes(const mm_game *g, const mm_compile_opts *o, mm_code **S,
                         uint32_t *n, uint16_t *played, mm_diag *d);

#endif
