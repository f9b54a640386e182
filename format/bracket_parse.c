/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The bracket reader's first pass (format/bracket.md): a hand-written
 * scanner builds the syntax tree of what the text writes, without
 * recursion (the nesting is hostile input), and reads the header lines.
 */
#include "bracket_syntax.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "fmt_common.h"

void *bracket_vec_push(bvec *a, size_t size)
{
    void *v = grow_array(a->v, &a->cap, a->n + 1, 64, size);
    if (!v)
        return NULL;
    a->v = v;
    void *e = (char *)a->v + a->n++ * size;
    memset(e, 0, size);
    return e;
}

typedef struct frame {
    uint32_t node;   /* the open full form */
    uint32_t start;  /* its first slot in bparser.pending */
    uint64_t semis;
} frame;

/* ---- positions and messages ---- */

static mm_status index_lines(bparser *p)
{
    size_t n = 1;
    for (const char *q = p->s, *e = p->s + p->len; (q = memchr(q, '\n', (size_t)(e - q))); q++)
        n++;
    p->lines = malloc(n * sizeof *p->lines);
    if (!p->lines)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    p->lines[0] = 0;
    p->nlines = 1;
    for (const char *q = p->s, *e = p->s + p->len; (q = memchr(q, '\n', (size_t)(e - q))); q++)
        p->lines[p->nlines++] = (uint32_t)(q - p->s + 1);
    return MM_OK;
}

mm_srcpos bracket_pos(const bparser *p, size_t off)
{
    size_t lo = 0, hi = p->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return (mm_srcpos){(uint32_t)(lo + 1), (uint32_t)(off - p->lines[lo] + 1), -1};
}

mm_status bracket_fail(bparser *p, mm_status st, size_t off, const char *fmt, ...)
{
    va_list ap;
    if (p->d) {
        mm_srcpos w = bracket_pos(p, off);
        p->d->line = w.line;
        p->d->col = w.col;
        p->d->offset = -1;
    }
    va_start(ap, fmt);
    mm_diag_vset(p->d, st, fmt, ap);
    va_end(ap);
    return st;
}

static int peek(const bparser *p)
{
    return p->i < p->len ? (unsigned char)p->s[p->i] : -1;
}

static mm_status unexpected(bparser *p, const char *want)
{
    int c = peek(p);
    char what[16];
    if (c < 0)
        snprintf(what, sizeof what, "end of input");
    else if (c > ' ' && c < 127)
        snprintf(what, sizeof what, "'%c'", c);
    else
        snprintf(what, sizeof what, "byte 0x%02x", (unsigned)c);
    return bracket_fail(p, MM_ERR_INPUT, p->i, "expected %s, found %s", want, what);
}

const char *bracket_describe(const bparser *p, const bnode *a, char *buf, size_t size)
{
    const bnode *b = a;
    char count[16] = "";
    if (a->count != NO_COUNT)
        snprintf(count, sizeof count, "%u", a->count);
    if (a->form == BF_REF) {
        snprintf(buf, size, "%s%.*s", count, (int)a->len, p->s + a->code);
        return buf;
    }
    if (b->form == BF_BARE)
        snprintf(buf, size, "%s", count);
    else
        snprintf(buf, size, "%s(%.*s%s%s)", count, (int)b->len, p->s + b->code,
                 b->star ? "*" : "", b->form == BF_X ? "x" : b->form == BF_FULL ? ": ..." : "");
    return buf;
}

/* ---- scanner ---- */

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static bool is_hex(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static bool is_blank(int c) { return c == ' ' || c == '\t' || c == '\r'; }

static void skip_ws(bparser *p)
{
    while (p->i < p->len) {
        char c = p->s[p->i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            p->i++;
        } else if (c == '#') {
            const char *nl = memchr(p->s + p->i, '\n', p->len - p->i);
            p->i = nl ? (size_t)(nl - p->s) + 1 : p->len;
        } else {
            break;
        }
    }
}

/* A count; the digits are all read, but the value stops growing past the
 * largest game, so a number of any length is one clean error. */
static mm_status scan_count(bparser *p, uint32_t *out)
{
    size_t start = p->i;
    uint64_t v = 0;
    while (p->i < p->len && is_digit(p->s[p->i])) {
        if (v <= MM_MAX_CODES)
            v = v * 10 + (uint64_t)(p->s[p->i] - '0');
        p->i++;
    }
    if (v > MM_MAX_CODES) {
        size_t n = p->i - start;
        return bracket_fail(p, MM_ERR_LIMIT, start,
                    "count %.*s%s is larger than the number of codes of any game mmtree supports (%lu)",
                    (int)(n > 24 ? 24 : n), p->s + start, n > 24 ? "..." : "",
                    (unsigned long)MM_MAX_CODES);
    }
    *out = (uint32_t)v;
    return MM_OK;
}

static mm_status new_node(bparser *p, size_t off, uint32_t count, int form,
                          uint32_t *idx)
{
    bnode *a = bracket_vec_push(&p->nodes, sizeof *a);
    if (!a)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    a->off = (uint32_t)off;
    a->count = count;
    a->form = (uint8_t)form;
    *idx = (uint32_t)(p->nodes.n - 1);
    return MM_OK;
}

static mm_status scan_name(bparser *p, size_t *len)
{
    size_t start = p->i;
    while (p->i < p->len && is_upper(p->s[p->i]) && p->i - start <= BRACKET_NAME_MAX)
        p->i++;
    if (p->i - start > BRACKET_NAME_MAX)
        return bracket_fail(p, MM_ERR_INPUT, start, "sub-tree name '%.*s...' is longer than %d letters",
                    BRACKET_NAME_MAX, p->s + start, BRACKET_NAME_MAX);
    *len = p->i - start;
    return MM_OK;
}

/* One node up to its slots: COUNT, COUNT NAME, [COUNT] "(" CODE ["*"] ["x"]
 * ")" or [COUNT] "(" CODE ":" (then *open is set and the slots follow).
 * A bare 0 makes no node: *idx = KID_ZERO. */
static mm_status parse_head(bparser *p, bool body, uint32_t *idx, bool *open)
{
    mm_status st;
    uint32_t count = NO_COUNT;
    skip_ws(p);
    size_t start = p->head = (uint32_t)p->i;
    *open = false;
    if (!body) {
        if (!is_digit(peek(p)))
            return unexpected(p, "a count");
        if ((st = scan_count(p, &count)))
            return st;
        if (is_upper(peek(p))) {
            size_t name = p->i, len = 0;
            if ((st = scan_name(p, &len)))
                return st;
            if (count == 0)
                return bracket_fail(p, MM_ERR_INPUT, start, "a sub-tree of 0 codes cannot be named");
            if ((st = new_node(p, start, count, BF_REF, idx)))
                return st;
            NODES(p)[*idx].code = (uint32_t)name;
            NODES(p)[*idx].len = (uint8_t)len;
            return MM_OK;
        }
        skip_ws(p);
        if (peek(p) != '(') {
            if (count > 2)
                return bracket_fail(p, MM_ERR_INPUT, start,
                            "a count above 2 needs a guess: write %u(y...)", count);
            if (count == 0) {
                *idx = KID_ZERO;
                return MM_OK;
            }
            return new_node(p, start, count, BF_BARE, idx);
        }
        if (count == 0)
            return bracket_fail(p, MM_ERR_INPUT, start, "a count of 0 takes no guess");
    } else if (peek(p) != '(') {
        return unexpected(p, "'('");
    }
    p->i++;
    skip_ws(p);
    size_t code = p->i;
    while (p->i < p->len && is_hex(p->s[p->i]) && p->i - code <= MM_MAX_PEGS)
        p->i++;
    if (p->i == code)
        return unexpected(p, "a code");
    if (p->i - code > MM_MAX_PEGS)
        return bracket_fail(p, MM_ERR_INPUT, code, "'%.*s...' is not a code: codes have at most %d pegs",
                    MM_MAX_PEGS, p->s + code, MM_MAX_PEGS);
    size_t len = p->i - code;
    skip_ws(p);
    bool star = peek(p) == '*';
    if (star) {
        p->i++;
        skip_ws(p);
    }
    int form;
    if (peek(p) == 'x') {
        p->i++;
        skip_ws(p);
        if (peek(p) != ')')
            return unexpected(p, "')' after 'x'");
        p->i++;
        form = BF_X;
    } else if (peek(p) == ')') {
        p->i++;
        form = BF_UNIQUE;
    } else if (peek(p) == ':') {
        if (star)
            return bracket_fail(p, MM_ERR_INPUT, p->i,
                        "'*' is not written in the full form: its last slot says whether the guess can be the code");
        p->i++;
        form = BF_FULL;
        *open = true;
    } else {
        return unexpected(p, star ? "')' or 'x'" : "':', ')', '*' or 'x'");
    }
    if ((st = new_node(p, start, count, form, idx)))
        return st;
    bnode *a = &NODES(p)[*idx];
    a->code = (uint32_t)code;
    a->len = (uint8_t)len;
    a->star = star;
    return MM_OK;
}

static mm_status push_u32(bparser *p, bvec *a, uint32_t v)
{
    uint32_t *e = bracket_vec_push(a, sizeof *e);
    if (!e)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    *e = v;
    return MM_OK;
}

/* Close the innermost full form: its slots move from the pending stack to
 * the kids array, where they stay contiguous. */
static mm_status close_frame(bparser *p, uint32_t *idx)
{
    frame *f = (frame *)p->stack.v + p->stack.n - 1;
    uint32_t *pend = p->pending.v;
    bnode *a = &NODES(p)[f->node];
    a->kids = (uint32_t)p->kids.n;
    a->nkids = (uint8_t)(p->pending.n - f->start);
    a->semis = f->semis;
    for (size_t k = f->start; k < p->pending.n; k++) {
        mm_status st = push_u32(p, &p->kids, pend[k]);
        if (st)
            return st;
    }
    p->pending.n = f->start;
    *idx = f->node;
    p->stack.n--;
    return MM_OK;
}

/* A whole node with everything inside it, iteratively: an explicit stack
 * of open full forms, bounded by BRACKET_MAX_DEPTH. */
static mm_status parse_tree(bparser *p, bool body, uint32_t *out)
{
    mm_status st;
    for (;;) {
        uint32_t idx = KID_ZERO;
        bool open = false;
        if ((st = parse_head(p, body && p->stack.n == 0, &idx, &open)))
            return st;
        if (open) {
            if (p->stack.n >= BRACKET_MAX_DEPTH)
                return bracket_fail(p, MM_ERR_LIMIT, NODES(p)[idx].off,
                            "sub-trees nested deeper than %d levels", BRACKET_MAX_DEPTH);
            frame *f = bracket_vec_push(&p->stack, sizeof *f);
            if (!f)
                return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
            f->node = idx;
            f->start = (uint32_t)p->pending.n;
            continue;
        }
        for (;;) {
            if (p->stack.n == 0) {
                if (idx == KID_ZERO)
                    return bracket_fail(p, MM_ERR_INPUT, p->head, "a tree has at least one code, not 0");
                *out = idx;
                return MM_OK;
            }
            frame *f = (frame *)p->stack.v + p->stack.n - 1;
            size_t nk = p->pending.n - f->start;
            if (nk >= MM_MAX_REPLIES)
                return bracket_fail(p, MM_ERR_INPUT, p->i,
                            "more than %d slots: no game has that many replies", MM_MAX_REPLIES);
            if ((st = push_u32(p, &p->pending, idx)))
                return st;
            skip_ws(p);
            int c = peek(p);
            if (c == ',' || c == ';') {
                if (c == ';')
                    f->semis |= UINT64_C(1) << nk;
                p->i++;
                break;
            }
            if (c != ')') {
                if (c < 0) {
                    mm_srcpos w = bracket_pos(p, NODES(p)[f->node].off);
                    return bracket_fail(p, MM_ERR_INPUT, p->i,
                                "unexpected end of input: the sub-tree at %u:%u is not closed",
                                w.line, w.col);
                }
                return unexpected(p, "',', ';' or ')'");
            }
            p->i++;
            if ((st = close_frame(p, &idx)))
                return st;
        }
    }
}

/* ---- header ---- */

static bool word_at(const bparser *p, size_t q, size_t e, const char *w)
{
    size_t n = strlen(w);
    return e - q >= n && memcmp(p->s + q, w, n) == 0 &&
           (e - q == n || is_blank(p->s[q + n]));
}

static bool prefix_at(const bparser *p, size_t q, size_t e, const char *w)
{
    size_t n = strlen(w);
    return e - q >= n && memcmp(p->s + q, w, n) == 0;
}

static size_t skip_blanks(const bparser *p, size_t q, size_t e)
{
    while (q < e && is_blank(p->s[q]))
        q++;
    return q;
}

static size_t word_end(const bparser *p, size_t q, size_t e)
{
    while (q < e && !is_blank(p->s[q]))
        q++;
    return q;
}

static bool small_int(const char *s, size_t n, int lo, int hi, int *out)
{
    int v = 0;
    if (n == 0 || n > 2)
        return false;
    for (size_t k = 0; k < n; k++) {
        if (!is_digit(s[k]))
            return false;
        v = v * 10 + (s[k] - '0');
    }
    *out = v;
    return v >= lo && v <= hi;
}

static bool value_is(const char *v, size_t n, const char *w)
{
    return n == strlen(w) && memcmp(v, w, n) == 0;
}

/* "# mmtree pegs=P colors=C repeat=yes|no [notation=knuth|irving]" */
static mm_status parse_game_line(bparser *p, size_t line, size_t q, size_t e)
{
    unsigned seen = 0;
    if (p->have_game)
        return bracket_fail(p, MM_ERR_INPUT, line, "a second '# mmtree' header line");
    p->have_game = true;
    p->game_off = (uint32_t)line;
    for (q = skip_blanks(p, q, e); q < e; q = skip_blanks(p, q, e)) {
        size_t we = word_end(p, q, e);
        const char *eq = memchr(p->s + q, '=', we - q);
        if (!eq)
            return bracket_fail(p, MM_ERR_INPUT, q, "header field '%.*s' is not key=value",
                        (int)(we - q), p->s + q);
        size_t klen = (size_t)(eq - (p->s + q)), vlen = we - q - klen - 1;
        const char *k = p->s + q, *v = eq + 1;
        static const char *const keys[] = {"pegs", "colors", "repeat", "notation"};
        unsigned bit = 0;
        for (unsigned j = 0; j < 4; j++)
            if (value_is(k, klen, keys[j]))
                bit = 1u << j;
        if (!bit)
            return bracket_fail(p, MM_ERR_INPUT, q, "unknown header field '%.*s'", (int)klen, k);
        if (seen & bit)
            return bracket_fail(p, MM_ERR_INPUT, q, "header field '%.*s' given twice", (int)klen, k);
        seen |= bit;
        bool ok = true;
        if (bit == 1)
            ok = small_int(v, vlen, 1, MM_MAX_PEGS, &p->pegs);
        else if (bit == 2)
            ok = small_int(v, vlen, 1, MM_MAX_COLORS, &p->colors);
        else if (bit == 4) {
            ok = value_is(v, vlen, "yes") || value_is(v, vlen, "no");
            p->repeat = value_is(v, vlen, "yes");
        } else {
            p->notation = value_is(v, vlen, "knuth") ? MM_FMT_KNUTH
                          : value_is(v, vlen, "irving") ? MM_FMT_IRVING : MM_FMT_AUTO;
            ok = p->notation != MM_FMT_AUTO;
        }
        if (!ok)
            return bracket_fail(p, MM_ERR_INPUT, q, "bad header value '%.*s'", (int)(we - q), p->s + q);
        q = we;
    }
    if ((seen & 7u) != 7u)
        return bracket_fail(p, MM_ERR_INPUT, line,
                    "the '# mmtree' header line needs pegs=, colors= and repeat=");
    return MM_OK;
}

/* "# rule: NAME [consistent-only] [first=CODE]" */
/* A decimal number lo..hi of n digits (no sign, no blank). */
static bool number_is(const char *s, size_t n, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 20)
        return false;
    for (size_t k = 0; k < n; k++) {
        if (!is_digit(s[k]) || v > (UINT64_MAX - (uint64_t)(s[k] - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(s[k] - '0');
    }
    *out = v;
    return v >= lo && v <= hi;
}

/* If the word [q, we) is "key=VALUE", point *v at VALUE; each key is
 * allowed once (bit in *seen). */
static bool key_is(bparser *p, size_t q, size_t we, const char *key, unsigned bit,
                  unsigned *seen, size_t *v)
{
    size_t n = strlen(key);
    if (we - q <= n || memcmp(p->s + q, key, n) != 0 || p->s[q + n] != '=' || (*seen & bit))
        return false;
    *seen |= bit;
    *v = q + n + 1;
    return true;
}

/* "# rule: NAME [consistent-only] [first=CODE] [tie-break=NAME]
 *  [max-depth=N] [extra-colors=N]" */
static mm_status parse_rule_line(bparser *p, size_t line, size_t q, size_t e)
{
    unsigned seen = 0;
    uint64_t v = 0;
    size_t at;
    if (p->have_rule)
        return bracket_fail(p, MM_ERR_INPUT, line, "a second '# rule:' header line");
    p->have_rule = true;
    q = skip_blanks(p, q, e);
    size_t we = word_end(p, q, e);
    if (we == q)
        return bracket_fail(p, MM_ERR_INPUT, line, "'# rule:' needs a rule name");
    p->rule_off = (uint32_t)q;
    p->rule_len = we - q;
    for (q = skip_blanks(p, we, e); q < e; q = skip_blanks(p, we, e)) {
        we = word_end(p, q, e);
        bool ok = true;
        if (value_is(p->s + q, we - q, "consistent-only") && !p->consistent_only) {
            p->consistent_only = true;
        } else if (key_is(p, q, we, "first", 1, &seen, &at)) {
            p->first_off = (uint32_t)at;
            p->first_len = we - at;
        } else if (key_is(p, q, we, "tie-break", 2, &seen, &at)) {
            p->tie_off = (uint32_t)at;
            p->tie_len = we - at;
        } else if (key_is(p, q, we, "max-depth", 4, &seen, &at)) {
            ok = number_is(p->s + at, we - at, 1, FMT_MAX_DEPTH, &v);
            p->max_depth = (int)v;
        } else if (key_is(p, q, we, "extra-colors", 8, &seen, &at)) {
            ok = number_is(p->s + at, we - at, 1, MM_MAX_COLORS, &v);
            p->extra_colors = (int)v;
        } else {
            return bracket_fail(p, MM_ERR_INPUT, q, "unexpected '%.*s' in the rule line",
                        (int)(we - q), p->s + q);
        }
        if (!ok)
            return bracket_fail(p, MM_ERR_INPUT, q, "bad value in '%.*s': max-depth is "
                                "1..%d, extra-colors 1..%d", (int)(we - q), p->s + q,
                                FMT_MAX_DEPTH, MM_MAX_COLORS);
    }
    return MM_OK;
}

/* "# proof: proven" or "# proof: unproven lower-bound=N
 *  [worst-lower-bound=W]" */
static mm_status parse_proof_line(bparser *p, size_t line, size_t q, size_t e)
{
    unsigned seen = 0;
    size_t at;
    uint64_t v = 0;
    if (p->proof != MM_PROOF_NONE)
        return bracket_fail(p, MM_ERR_INPUT, line, "a second '# proof:' header line");
    p->proof_off = (uint32_t)line;
    q = skip_blanks(p, q, e);
    size_t we = word_end(p, q, e);
    if (value_is(p->s + q, we - q, "proven"))
        p->proof = MM_PROOF_PROVEN;
    else if (value_is(p->s + q, we - q, "unproven"))
        p->proof = MM_PROOF_UNPROVEN;
    else
        return bracket_fail(p, MM_ERR_INPUT, q, "'# proof:' is 'proven' or 'unproven "
                            "lower-bound=N [worst-lower-bound=W]'");
    for (q = skip_blanks(p, we, e); q < e; q = skip_blanks(p, we, e)) {
        we = word_end(p, q, e);
        bool ok;
        if (p->proof == MM_PROOF_UNPROVEN && key_is(p, q, we, "lower-bound", 1, &seen, &at)) {
            ok = number_is(p->s + at, we - at, 1, UINT64_MAX, &p->lower_total);
        } else if (p->proof == MM_PROOF_UNPROVEN &&
                   key_is(p, q, we, "worst-lower-bound", 2, &seen, &at)) {
            ok = number_is(p->s + at, we - at, 1, FMT_MAX_DEPTH, &v);
            p->lower_worst = (int)v;
        } else {
            return bracket_fail(p, MM_ERR_INPUT, q, "unexpected '%.*s' in the proof line",
                                (int)(we - q), p->s + q);
        }
        if (!ok)
            return bracket_fail(p, MM_ERR_INPUT, q, "bad value in '%.*s': lower-bound is a "
                                "whole number from 1, worst-lower-bound 1..%d", (int)(we - q),
                                p->s + q, FMT_MAX_DEPTH);
    }
    if (p->proof == MM_PROOF_UNPROVEN && !(seen & 1))
        return bracket_fail(p, MM_ERR_INPUT, line, "an unproven tree states its lower bound: "
                            "'# proof: unproven lower-bound=N'");
    return MM_OK;
}

/* Comment lines before the tree; four kinds are recognised. */
static mm_status parse_header(bparser *p)
{
    for (;;) {
        while (p->i < p->len && (is_blank(p->s[p->i]) || p->s[p->i] == '\n'))
            p->i++;
        if (peek(p) != '#')
            return MM_OK;
        size_t line = p->i;
        const char *nl = memchr(p->s + line, '\n', p->len - line);
        size_t end = nl ? (size_t)(nl - p->s) : p->len, e = end;
        while (e > line && is_blank(p->s[e - 1]))
            e--;
        size_t q = skip_blanks(p, line + 1, e);
        mm_status st = MM_OK;
        if (word_at(p, q, e, "mmtree")) {
            st = parse_game_line(p, line, q + 6, e);
        } else if (prefix_at(p, q, e, "rule:")) {
            st = parse_rule_line(p, line, q + 5, e);
        } else if (prefix_at(p, q, e, "proof:")) {
            st = parse_proof_line(p, line, q + 6, e);
        } else if (prefix_at(p, q, e, "citation:")) {
            if (p->have_citation)
                return bracket_fail(p, MM_ERR_INPUT, line, "a second '# citation:' header line");
            p->have_citation = true;
            q = skip_blanks(p, q + 9, e);
            p->cite_off = (uint32_t)q;
            p->cite_len = e - q;
        }
        if (st)
            return st;
        p->i = nl ? end + 1 : p->len;
    }
}

/* ---- the whole text ---- */

uint64_t bracket_name_key(const char *s, size_t n)
{
    uint64_t k = 0;
    for (size_t j = 0; j < BRACKET_NAME_MAX; j++)
        k = k << 8 | (j < n ? (unsigned char)s[j] : 0u);
    return k;
}

static mm_status parse_file(bparser *p)
{
    mm_status st;
    if (p->len >= 3 && memcmp(p->s, "\xEF\xBB\xBF", 3) == 0)
        p->i = 3;
    if ((st = parse_header(p)) || (st = parse_tree(p, false, &p->root)))
        return st;
    p->root_end = (uint32_t)p->nodes.n;
    skip_ws(p);
    if (peek(p) == ',') {
        p->i++;
        skip_ws(p);
    }
    if (p->len - p->i >= 5 && memcmp(p->s + p->i, "where", 5) == 0 &&
        (p->len - p->i == 5 || !(p->s[p->i + 5] >= 'a' && p->s[p->i + 5] <= 'z'))) {
        p->where = true;
        p->i += 5;
    }
    for (;;) {
        skip_ws(p);
        if (p->i == p->len)
            break;
        if (!is_upper(peek(p)))
            return unexpected(p, p->defs.n || p->where ? "a definition 'NAME = (...)' or the end"
                                                       : "the end of the tree");
        size_t name = p->i, len = 0;
        if ((st = scan_name(p, &len)))
            return st;
        skip_ws(p);
        if (peek(p) != '=')
            return unexpected(p, "'=' after the sub-tree name");
        p->i++;
        bdef *df = bracket_vec_push(&p->defs, sizeof *df);
        if (!df)
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        df->key = bracket_name_key(p->s + name, len);
        df->off = (uint32_t)name;
        df->len = (uint32_t)len;
        df->first = (uint32_t)p->nodes.n;
        uint32_t body;
        if ((st = parse_tree(p, true, &body)))
            return st;
        df = &DEFS(p)[p->defs.n - 1];
        df->body = body;
        df->end = (uint32_t)p->nodes.n;
    }
    if (p->where && !p->defs.n)
        return bracket_fail(p, MM_ERR_INPUT, p->i, "'where' is not followed by any definition");
    return MM_OK;
}

mm_status bracket_parse(bparser *p)
{
    mm_status st = index_lines(p);
    return st ? st : parse_file(p);
}
