/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: exact optima by branch and bound. */
#ifndef MM_OPTIMAL_H
#define MM_OPTIMAL_H

#include "mmtree/compile.h"

/* Build the tree of an optimal rule (MM_RULE_OPTIMAL...) into t, which
 * mm_compile has initialised. */
mm_status opt_compile(const mm_game *g, const mm_compile_opts *o,
                             mm_tree *t, mm_diag *d);

/* Can o->start start the search of o?  MM_OK, or why not
 * (mm_compile_start_check). */
mm_status opt_start_check(const mm_game *g, const mm_compile_opts *o, mm_diag *d);

#endif
