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

#include "buf.h"

#define JSON_MAX_DEPTH 32

typedef struct json {
    buf *out;
    int depth;
    bool first[JSON_MAX_DEPTH]; /* nothing written yet at this depth */
    bool after_key;             /* a key was written: the value follows */
} json;

void json_init(json *j, buf *out);
void json_object_begin(json *j);
void json_object_end(json *j);
void json_array_begin(json *j);
void json_array_end(json *j);
/* The key of the next value in an object. */
void json_key(json *j, const char *key);
void json_str(json *j, const char *s);
void json_strn(json *j, const char *s, size_t len);
void json_uint(json *j, uint64_t v);
void json_int(json *j, int64_t v);
/* A finite number with `decimals` places (non-finite ones: null). */
void json_double(json *j, double v, int decimals);
void json_bool(json *j, bool v);
void json_null(json *j);

/* Append s to b as the inside of a JSON string (no quotes). */
void json_escape(buf *b, const char *s, size_t len);

/* Length of the UTF-8 sequence in shortest form at s[0..len), without
 * surrogates; 0 when it is not one. */
size_t utf8_seq(const unsigned char *s, size_t len);

#endif
