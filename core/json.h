/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The JSON writer every --json output goes through, into a buf.
 *
 * It writes one line, `{"key": value, ...}`, with ", " and ": " between
 * items.  Strings are escaped as RFC 8259 asks (quote, backslash, control
 * characters); bytes that are not UTF-8 in shortest form become U+FFFD,
 * so a file name that is not UTF-8 still gives valid JSON.  Commas are
 * the writer's business: callers only open, write and close.
 *
 * Keys shared by the commands (ORDER KEYS: README's "JSON output"):
 * file, pegs, colors, repeat, codes, total, expected, worst, histogram,
 * nodes, inconsistent, first, rule, consistent_only, proven, lower_bound,
 * path, guess, count, reply.
 */
#ifndef MM_CORE_JSON_H
#define MM_CORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mmtree/game.h"
#include "mmtree/tree.h"
#include "strbuf.h"

#define JSON_MAX_DEPTH 32

typedef struct json_writer {
    strbuf *out;
    int depth;
    bool first[JSON_MAX_DEPTH]; /* nothing written yet at this depth */
    bool after_key;             /* a key was written: the value follows */
} json_writer;

void json_init(json_writer *j, strbuf *out);
void json_object_begin(json_writer *j);
void json_object_end(json_writer *j);
void json_array_begin(json_writer *j);
void json_array_end(json_writer *j);
/* The key of the next value in an object. */
void json_key(json_writer *j, const char *key);
void json_str(json_writer *j, const char *s);
void json_strn(json_writer *j, const char *s, size_t len);
void json_uint(json_writer *j, uint64_t v);
void json_int(json_writer *j, int64_t v);
/* A finite number with `decimals` places (non-finite ones: null). */
void json_double(json_writer *j, double v, int decimals);
void json_bool(json_writer *j, bool v);
void json_null(json_writer *j);

/* Append s to b as the inside of a JSON string (no quotes). */
void json_escape(strbuf *b, const char *s, size_t len);

/* Length of the UTF-8 sequence in shortest form at s[0..len), without
 * surrogates; 0 when it is not one. */
size_t utf8_seq(const unsigned char *s, size_t len);

/* The shared keys for a tree (core/json_tree.c), written into an open
 * object: the game (pegs, colors, repeat); the provenance (rule,
 * consistent_only, fixed_first, tie_break, max_depth, extra_colors,
 * proven, lower_bound, worst_lower_bound, citation: those that apply);
 * the stats (codes, total, expected, worst, histogram, nodes,
 * inconsistent, and first when first is a code of g). */
void json_tree_game(json_writer *j, int pegs, int colors, bool repeat);
void json_tree_provenance(json_writer *j, const mm_tree *t, const mm_game *g);
void json_tree_stats(json_writer *j, const mm_stats *s, const mm_game *g, mm_code first);

#endif
