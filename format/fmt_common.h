/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/* Internal: limits and checks that the XML and binary formats share, so a
 * tree that one of them holds converts to the other unchanged. */
#ifndef MM_FMT_COMMON_H
#define MM_FMT_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "mmtree/diag.h"
#include "mmtree/game.h"
#include "mmtree/tree.h"

/* Deepest tree the XML and binary formats hold, in guesses.  Compiled
 * trees stay far below it (naive play, the deepest rule, needs 16 guesses
 * on MM(1,16) and 21 on MM(5,16)); the bound keeps XML nesting far below
 * libxml2's limit of 256 and the decoders' stacks small.  mm_stats counts
 * depths up to 64 as well. */
#define FMT_MAX_DEPTH 64

#define FMT_RULE_MAX 64          /* bytes of a rule name */
#define FMT_TEXT_MAX_CHARS 4096  /* characters of a citation */
#define FMT_TEXT_MAX_BYTES (4 * FMT_TEXT_MAX_CHARS)

/* A rule name: 1..FMT_RULE_MAX bytes of A-Z a-z 0-9 . _ - */
bool fmt_rule_ok(const char *s, size_t len);

/* Free text (a citation): UTF-8 in shortest form without surrogates,
 * U+FFFE or U+FFFF, 1..FMT_TEXT_MAX_CHARS characters, tab and line feed
 * its only control characters.  On failure *bad is the offending byte's
 * offset (len when the text is empty or too long). */
bool fmt_text_ok(const char *s, size_t len, size_t *bad);

/* Provenance fields that have a range (mm_provenance). */
#define FMT_MAX_EXTRA_COLORS MM_MAX_COLORS

/* Provenance every format can carry: max_depth 0..FMT_MAX_DEPTH,
 * extra_colors 0..FMT_MAX_EXTRA_COLORS, a known proof state, and for an
 * unproven tree lower_total >= 1 and lower_worst 0..FMT_MAX_DEPTH; with
 * names, also the rule and tie-break names of fmt_rule_ok (XML and
 * binary; the bracket writer makes a name one word instead).  On failure
 * buf says what is wrong. */
bool fmt_provenance_ok(const mm_provenance *pv, bool names, char *buf, size_t size);

/* A useless guess: one that cannot be the code and leaves all the node's
 * codes in one part, so that its only child has the same codes.  Readers
 * refuse them in strict reads (no tree without one has more than 2n - 1
 * nodes for n codes: the budgets rest on it) and writers of valid trees
 * do not write them.  Returns the first such node of a tree whose flags
 * and children are true (mm_tree_check passed), or MM_NO_NODE. */
uint32_t fmt_find_useless(const mm_tree *t);

/* An unproven tree's lower bounds must not exceed what the tree itself
 * needs: lower_total <= its total and lower_worst <= its worst case.
 * On failure buf says which bound is false, with the numbers. */
bool fmt_bounds_ok(const mm_tree *t, char *buf, size_t size);

#endif
