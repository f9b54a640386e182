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

#endif
