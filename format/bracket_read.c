/*
 * Reader of the Knuth and Irving bracket notations (format/bracket.md).
 *
 * Three passes.  A hand-written scanner builds a syntax tree of what the
 * text writes, without recursion (the nesting is hostile input).  Then the
 * game is known (header or inference), the dialect is decided and codes,
 * slots and names are checked, so that expansion is bounded before it
 * starts.  Last, the syntax tree is expanded into the complete mm_tree by
 * walking it with the true code set of every node, which is what gives the
 * condensed forms their meaning.
 */
#include "bracket.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

void bracket_layout_init(bracket_layout *l, const mm_game *g,
                            mm_format dialect)
{
    int skip = dialect == MM_FMT_IRVING ? g->slot[g->pegs - 1][g->pegs] : -1;
    l->nslots = 0;
    l->semis = 0;
    for (int s = 0; s < g->nreplies; s++) {
        if (s == skip)
            continue;
        if (l->nslots && g->black[s] != g->black[l->slot[l->nslots - 1]])
            l->semis |= UINT64_C(1) << (l->nslots - 1);
        l->slot[l->nslots++] = (uint8_t)s;
    }
}

/* ---- the syntax tree ---- */

enum { BF_BARE, BF_UNIQUE, BF_X, BF_FULL, BF_REF };

#define NO_COUNT UINT32_MAX /* a definition's body: the use states the count */
#define KID_ZERO UINT32_MAX /* a 0 slot: no codes, so no node */

typedef struct bnode {
    uint32_t off;    /* first byte: the count, or the '(' of a body */
    uint32_t count;  /* as written, or NO_COUNT */
    uint32_t code;   /* offset of the text of y, or of a REF's name */
    uint32_t kids;   /* FULL: first entry of its slots in parser.kids;
                        REF: index of its definition */
    uint64_t semis;  /* FULL: bit i set when a ';' follows slot i */
    uint8_t form;    /* BF_* */
    uint8_t star;
    uint8_t nkids;
    uint8_t len;     /* characters of y, or of the name */
} bnode;

typedef struct bdef {
    uint64_t key;    /* the name packed into 8 bytes */
    uint32_t off;    /* the name */
    uint32_t len;    /* letters in the name */
    uint32_t body;   /* node index */
    uint32_t first, end; /* its nodes: [first, end) */
    uint64_t size;   /* nodes it expands to */
    uint8_t state;   /* 0 unvisited, 1 being expanded, 2 done */
} bdef;

typedef struct frame {
    uint32_t node;   /* the open full form */
    uint32_t start;  /* its first slot in parser.pending */
    uint64_t semis;
} frame;

typedef struct vec {
    void *v;
    size_t n, cap;
} vec;

typedef struct parser {
    const char *s;
    size_t len, i;
    mm_diag *d;
    uint32_t *lines;   /* offsets of line starts */
    size_t nlines;
    vec nodes;         /* bnode */
    vec kids;          /* uint32_t: node index or KID_ZERO */
    vec pending;       /* uint32_t: slots of the open full forms */
    vec stack;         /* frame */
    vec defs;          /* bdef */
    mm_code *guess;    /* per node: its y, once the game is known */
    uint32_t head;     /* where the last node head started */
    uint32_t root, root_end;
    bool where;        /* "where" was written */
    /* header */
    bool have_game;
    uint32_t game_off;
    int pegs, colors;
    bool repeat;
    mm_format notation;
    bool have_rule, consistent_only;
    uint32_t rule_off, first_off;
    size_t rule_len, first_len; /* first_len 0: no first= */
    bool have_citation;
    uint32_t cite_off;
    size_t cite_len;
} parser;

static void *vec_push(vec *a, size_t size)
{
    void *v = grow_array(a->v, &a->cap, a->n + 1, 64, size);
    if (!v)
        return NULL;
    a->v = v;
    void *e = (char *)a->v + a->n++ * size;
    memset(e, 0, size);
    return e;
}

#define NODES(p) ((bnode *)(p)->nodes.v)
#define KIDS(p) ((uint32_t *)(p)->kids.v)
#define DEFS(p) ((bdef *)(p)->defs.v)

/* ---- positions and messages ---- */

static mm_status index_lines(parser *p)
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

static mm_srcpos pos_of(const parser *p, size_t off)
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

__attribute__((format(printf, 4, 5)))
static mm_status fail(parser *p, mm_status st, size_t off, const char *fmt, ...)
{
    va_list ap;
    if (p->d) {
        mm_srcpos w = pos_of(p, off);
        p->d->line = w.line;
        p->d->col = w.col;
        p->d->offset = -1;
    }
    va_start(ap, fmt);
    mm_diag_vset(p->d, st, fmt, ap);
    va_end(ap);
    return st;
}

static int peek(const parser *p)
{
    return p->i < p->len ? (unsigned char)p->s[p->i] : -1;
}

static mm_status unexpected(parser *p, const char *want)
{
    int c = peek(p);
    char what[16];
    if (c < 0)
        snprintf(what, sizeof what, "end of input");
    else if (c > ' ' && c < 127)
        snprintf(what, sizeof what, "'%c'", c);
    else
        snprintf(what, sizeof what, "byte 0x%02x", (unsigned)c);
    return fail(p, MM_ERR_INPUT, p->i, "expected %s, found %s", want, what);
}

/* A short picture of a node for messages: 16(1213: ...), 96A, 4(1145x). */
static const char *describe(const parser *p, const bnode *a, char *buf, size_t size)
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

static void skip_ws(parser *p)
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
static mm_status scan_count(parser *p, uint32_t *out)
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
        return fail(p, MM_ERR_LIMIT, start,
                    "count %.*s%s is larger than the number of codes of any game mmtree supports (%lu)",
                    (int)(n > 24 ? 24 : n), p->s + start, n > 24 ? "..." : "",
                    (unsigned long)MM_MAX_CODES);
    }
    *out = (uint32_t)v;
    return MM_OK;
}

static mm_status new_node(parser *p, size_t off, uint32_t count, int form,
                          uint32_t *idx)
{
    bnode *a = vec_push(&p->nodes, sizeof *a);
    if (!a)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    a->off = (uint32_t)off;
    a->count = count;
    a->form = (uint8_t)form;
    *idx = (uint32_t)(p->nodes.n - 1);
    return MM_OK;
}

static mm_status scan_name(parser *p, size_t *len)
{
    size_t start = p->i;
    while (p->i < p->len && is_upper(p->s[p->i]) && p->i - start <= BRACKET_NAME_MAX)
        p->i++;
    if (p->i - start > BRACKET_NAME_MAX)
        return fail(p, MM_ERR_INPUT, start, "sub-tree name '%.*s...' is longer than %d letters",
                    BRACKET_NAME_MAX, p->s + start, BRACKET_NAME_MAX);
    *len = p->i - start;
    return MM_OK;
}

/* One node up to its slots: COUNT, COUNT NAME, [COUNT] "(" CODE ["*"] ["x"]
 * ")" or [COUNT] "(" CODE ":" (then *open is set and the slots follow).
 * A bare 0 makes no node: *idx = KID_ZERO. */
static mm_status parse_head(parser *p, bool body, uint32_t *idx, bool *open)
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
                return fail(p, MM_ERR_INPUT, start, "a sub-tree of 0 codes cannot be named");
            if ((st = new_node(p, start, count, BF_REF, idx)))
                return st;
            NODES(p)[*idx].code = (uint32_t)name;
            NODES(p)[*idx].len = (uint8_t)len;
            return MM_OK;
        }
        skip_ws(p);
        if (peek(p) != '(') {
            if (count > 2)
                return fail(p, MM_ERR_INPUT, start,
                            "a count above 2 needs a guess: write %u(y...)", count);
            if (count == 0) {
                *idx = KID_ZERO;
                return MM_OK;
            }
            return new_node(p, start, count, BF_BARE, idx);
        }
        if (count == 0)
            return fail(p, MM_ERR_INPUT, start, "a count of 0 takes no guess");
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
        return fail(p, MM_ERR_INPUT, code, "'%.*s...' is not a code: codes have at most %d pegs",
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
            return fail(p, MM_ERR_INPUT, p->i,
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

static mm_status push_u32(parser *p, vec *a, uint32_t v)
{
    uint32_t *e = vec_push(a, sizeof *e);
    if (!e)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    *e = v;
    return MM_OK;
}

/* Close the innermost full form: its slots move from the pending stack to
 * the kids array, where they stay contiguous. */
static mm_status close_frame(parser *p, uint32_t *idx)
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
static mm_status parse_tree(parser *p, bool body, uint32_t *out)
{
    mm_status st;
    for (;;) {
        uint32_t idx = KID_ZERO;
        bool open = false;
        if ((st = parse_head(p, body && p->stack.n == 0, &idx, &open)))
            return st;
        if (open) {
            if (p->stack.n >= BRACKET_MAX_DEPTH)
                return fail(p, MM_ERR_LIMIT, NODES(p)[idx].off,
                            "sub-trees nested deeper than %d levels", BRACKET_MAX_DEPTH);
            frame *f = vec_push(&p->stack, sizeof *f);
            if (!f)
                return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
            f->node = idx;
            f->start = (uint32_t)p->pending.n;
            continue;
        }
        for (;;) {
            if (p->stack.n == 0) {
                if (idx == KID_ZERO)
                    return fail(p, MM_ERR_INPUT, p->head, "a tree has at least one code, not 0");
                *out = idx;
                return MM_OK;
            }
            frame *f = (frame *)p->stack.v + p->stack.n - 1;
            size_t nk = p->pending.n - f->start;
            if (nk >= MM_MAX_REPLIES)
                return fail(p, MM_ERR_INPUT, p->i,
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
                    mm_srcpos w = pos_of(p, NODES(p)[f->node].off);
                    return fail(p, MM_ERR_INPUT, p->i,
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

static bool word_at(const parser *p, size_t q, size_t e, const char *w)
{
    size_t n = strlen(w);
    return e - q >= n && memcmp(p->s + q, w, n) == 0 &&
           (e - q == n || is_blank(p->s[q + n]));
}

static bool prefix_at(const parser *p, size_t q, size_t e, const char *w)
{
    size_t n = strlen(w);
    return e - q >= n && memcmp(p->s + q, w, n) == 0;
}

static size_t skip_blanks(const parser *p, size_t q, size_t e)
{
    while (q < e && is_blank(p->s[q]))
        q++;
    return q;
}

static size_t word_end(const parser *p, size_t q, size_t e)
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
static mm_status parse_game_line(parser *p, size_t line, size_t q, size_t e)
{
    unsigned seen = 0;
    if (p->have_game)
        return fail(p, MM_ERR_INPUT, line, "a second '# mmtree' header line");
    p->have_game = true;
    p->game_off = (uint32_t)line;
    for (q = skip_blanks(p, q, e); q < e; q = skip_blanks(p, q, e)) {
        size_t we = word_end(p, q, e);
        const char *eq = memchr(p->s + q, '=', we - q);
        if (!eq)
            return fail(p, MM_ERR_INPUT, q, "header field '%.*s' is not key=value",
                        (int)(we - q), p->s + q);
        size_t klen = (size_t)(eq - (p->s + q)), vlen = we - q - klen - 1;
        const char *k = p->s + q, *v = eq + 1;
        static const char *const keys[] = {"pegs", "colors", "repeat", "notation"};
        unsigned bit = 0;
        for (unsigned j = 0; j < 4; j++)
            if (value_is(k, klen, keys[j]))
                bit = 1u << j;
        if (!bit)
            return fail(p, MM_ERR_INPUT, q, "unknown header field '%.*s'", (int)klen, k);
        if (seen & bit)
            return fail(p, MM_ERR_INPUT, q, "header field '%.*s' given twice", (int)klen, k);
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
            return fail(p, MM_ERR_INPUT, q, "bad header value '%.*s'", (int)(we - q), p->s + q);
        q = we;
    }
    if ((seen & 7u) != 7u)
        return fail(p, MM_ERR_INPUT, line,
                    "the '# mmtree' header line needs pegs=, colors= and repeat=");
    return MM_OK;
}

/* "# rule: NAME [consistent-only] [first=CODE]" */
static mm_status parse_rule_line(parser *p, size_t line, size_t q, size_t e)
{
    if (p->have_rule)
        return fail(p, MM_ERR_INPUT, line, "a second '# rule:' header line");
    p->have_rule = true;
    q = skip_blanks(p, q, e);
    size_t we = word_end(p, q, e);
    if (we == q)
        return fail(p, MM_ERR_INPUT, line, "'# rule:' needs a rule name");
    p->rule_off = (uint32_t)q;
    p->rule_len = we - q;
    for (q = skip_blanks(p, we, e); q < e; q = skip_blanks(p, we, e)) {
        we = word_end(p, q, e);
        if (value_is(p->s + q, we - q, "consistent-only") && !p->consistent_only) {
            p->consistent_only = true;
        } else if (we - q > 6 && memcmp(p->s + q, "first=", 6) == 0 && !p->first_len) {
            p->first_off = (uint32_t)(q + 6);
            p->first_len = we - q - 6;
        } else {
            return fail(p, MM_ERR_INPUT, q, "unexpected '%.*s' in the rule line",
                        (int)(we - q), p->s + q);
        }
    }
    return MM_OK;
}

/* Comment lines before the tree; three kinds are recognised. */
static mm_status parse_header(parser *p)
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
        } else if (prefix_at(p, q, e, "citation:")) {
            if (p->have_citation)
                return fail(p, MM_ERR_INPUT, line, "a second '# citation:' header line");
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

static uint64_t name_key(const char *s, size_t n)
{
    uint64_t k = 0;
    for (size_t j = 0; j < BRACKET_NAME_MAX; j++)
        k = k << 8 | (j < n ? (unsigned char)s[j] : 0u);
    return k;
}

static mm_status parse_file(parser *p)
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
        bdef *df = vec_push(&p->defs, sizeof *df);
        if (!df)
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        df->key = name_key(p->s + name, len);
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
        return fail(p, MM_ERR_INPUT, p->i, "'where' is not followed by any definition");
    return MM_OK;
}

/* ---- the game ---- */

static bool has_code(const bnode *a)
{
    return a->form == BF_UNIQUE || a->form == BF_X || a->form == BF_FULL;
}

/* bracket.md, "Inferring the game without a header". */
static mm_status infer_game(parser *p, mm_game *g)
{
    int pegs = 0, max_digit = 0, max_wide = 0;
    bool wide_only = false, repeated = false;
    const bnode *nodes = NODES(p);
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        if (!has_code(a))
            continue;
        if (!pegs)
            pegs = a->len;
        if (a->len != pegs)
            return fail(p, MM_ERR_INPUT, a->code,
                        "code '%.*s' has %d pegs, the first code %d: without a header "
                        "line all codes must have the same length",
                        (int)a->len, p->s + a->code, a->len, pegs);
        unsigned seen = 0;
        for (int j = 0; j < a->len; j++) {
            char ch = p->s[a->code + (uint32_t)j];
            int v = mm_color_value(16, ch);
            if (ch == '0' || v >= 10)
                wide_only = true;
            if (is_digit(ch) && ch - '0' > max_digit)
                max_digit = ch - '0';
            if (v > max_wide)
                max_wide = v;
            if (seen >> v & 1u)
                repeated = true;
            seen |= 1u << v;
        }
    }
    const bnode *root = &nodes[p->root];
    if (!pegs)
        return fail(p, MM_ERR_INPUT, root->off,
                    "cannot tell the game: the tree writes no code; add a header line "
                    "'# mmtree pegs=P colors=C repeat=yes|no'");
    int found = 0, colors = 0;
    bool repeat = false;
    for (int c = 1; c <= MM_MAX_COLORS; c++) {
        if (c <= 9 ? wide_only || max_digit > c : max_wide >= c)
            continue;
        for (int r = 0; r < 2; r++) {
            if ((!r && repeated) || mm_game_count(pegs, c, r) != root->count)
                continue;
            found++;
            colors = c;
            repeat = r;
        }
    }
    if (found != 1)
        return fail(p, MM_ERR_INPUT, root->off,
                    "cannot tell the game from %d-peg codes and %u codes at the root "
                    "(%s); add a header line '# mmtree pegs=P colors=C repeat=yes|no'",
                    pegs, root->count, found ? "more than one game fits" : "no game fits");
    mm_diag ld;
    mm_diag_clear(&ld);
    mm_status st = mm_game_init(g, pegs, colors, repeat, &ld);
    return st ? fail(p, st, root->off, "%s", ld.msg) : MM_OK;
}

static mm_status setup_game(parser *p, mm_game *g)
{
    if (!p->have_game)
        return infer_game(p, g);
    mm_diag ld;
    mm_diag_clear(&ld);
    mm_status st = mm_game_init(g, p->pegs, p->colors, p->repeat, &ld);
    if (st)
        return fail(p, st == MM_ERR_USAGE ? MM_ERR_INPUT : st, p->game_off, "%s", ld.msg);
    return MM_OK;
}

/* Strict: a root count that cannot be right fails before the game's
 * tables are built (up to 2^24 codes for a one-line header). */
static mm_status check_root_count(parser *p)
{
    const bnode *root = &NODES(p)[p->root];
    uint64_t n = p->have_game ? mm_game_count(p->pegs, p->colors, p->repeat) : 0;
    if (n && n <= MM_MAX_CODES && root->count != n)
        return fail(p, MM_ERR_INPUT, root->off, "the root states %u codes, but MM(%d,%d)%s has %llu",
                    root->count, p->pegs, p->colors, p->repeat ? "" : " without repetition",
                    (unsigned long long)n);
    return MM_OK;
}

static mm_status parse_codes(parser *p, const mm_game *g, mm_code *first)
{
    const bnode *nodes = NODES(p);
    mm_diag ld;
    mm_diag_clear(&ld);
    p->guess = malloc((p->nodes.n ? p->nodes.n : 1) * sizeof *p->guess);
    if (!p->guess)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        p->guess[k] = MM_NO_CODE;
        if (has_code(a) && mm_code_parse(g, p->s + a->code, a->len, &p->guess[k], &ld))
            return fail(p, MM_ERR_INPUT, a->code, "%s", ld.msg);
    }
    *first = MM_NO_CODE;
    if (p->first_len && mm_code_parse(g, p->s + p->first_off, p->first_len, first, &ld))
        return fail(p, MM_ERR_INPUT, p->first_off, "%s", ld.msg);
    return MM_OK;
}

/* ---- dialect and slots ---- */

static size_t star_off(const parser *p, const bnode *a)
{
    size_t q = (size_t)a->code + a->len;
    while (q < p->len && p->s[q] != '*')
        q++;
    return q;
}

static void group_sizes(const bracket_layout *l, char *buf, size_t size)
{
    size_t n = 0;
    int run = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->nslots && n + 4 < size; i++) {
        run++;
        if (l->semis >> i & 1u || i == l->nslots - 1) {
            n += (size_t)snprintf(buf + n, size - n, "%s%d", n ? "," : "", run);
            run = 0;
        }
    }
}

/* The slot counts of the full forms (and '*') tell the dialects apart;
 * then every full form must have exactly the layout of that dialect. */
static mm_status check_slots(parser *p, const mm_game *g, mm_format want,
                             bracket_layout *lay)
{
    const bnode *nodes = NODES(p);
    char buf[64];
    int nk = g->nreplies, ni = g->nreplies - 1;
    size_t knuth_at = SIZE_MAX, irving_at = SIZE_MAX;
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        if (a->form == BF_FULL && a->nkids != nk && a->nkids != ni)
            return fail(p, MM_ERR_INPUT, a->off,
                        "%s writes %d slots; for %d pegs knuth notation writes %d, irving %d",
                        describe(p, a, buf, sizeof buf), a->nkids, g->pegs, nk, ni);
        if (a->form == BF_FULL && a->nkids == nk && knuth_at == SIZE_MAX)
            knuth_at = k;
        if (((a->form == BF_FULL && a->nkids == ni) || a->star) && irving_at == SIZE_MAX)
            irving_at = k;
    }
    if (want == MM_FMT_AUTO)
        want = p->notation;
    if (want == MM_FMT_AUTO) {
        if (knuth_at != SIZE_MAX && irving_at != SIZE_MAX) {
            const bnode *a = &nodes[knuth_at > irving_at ? knuth_at : irving_at];
            return fail(p, MM_ERR_INPUT, a->off,
                        "%s mixes knuth notation (%d slots) and irving notation "
                        "(%d slots, '*')", describe(p, a, buf, sizeof buf), nk, ni);
        }
        want = irving_at != SIZE_MAX ? MM_FMT_IRVING : MM_FMT_KNUTH;
    } else if (p->notation != MM_FMT_AUTO && p->notation != want) {
        return fail(p, MM_ERR_INPUT, p->game_off, "the header says notation=%s, not %s",
                    mm_format_name(p->notation), mm_format_name(want));
    }
    bracket_layout_init(lay, g, want);
    const char *dname = mm_format_name(want);
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k];
        if (a->star && want == MM_FMT_KNUTH)
            return fail(p, MM_ERR_INPUT, star_off(p, a),
                        "'*' after a guess is irving notation, not knuth");
        if (a->form != BF_FULL)
            continue;
        if (a->nkids != lay->nslots || a->semis != lay->semis) {
            char groups[64];
            group_sizes(lay, groups, sizeof groups);
            return fail(p, MM_ERR_INPUT, a->off,
                        "%s: %s notation for %d pegs writes %d slots in groups of %s, "
                        "separated by ';'", describe(p, a, buf, sizeof buf), dname,
                        g->pegs, lay->nslots, groups);
        }
        uint32_t win = KIDS(p)[a->kids + a->nkids - 1];
        if (win != KID_ZERO && (nodes[win].form != BF_BARE || nodes[win].count != 1))
            return fail(p, MM_ERR_INPUT, nodes[win].off,
                        "the last slot, reply (%d,0), holds 1 or 0: whether the guess can be the code",
                        g->pegs);
    }
    return MM_OK;
}

/* ---- names ---- */

static int cmp_def(const void *x, const void *y)
{
    const bdef *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->off < b->off ? -1 : a->off > b->off;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    const uint64_t cap = UINT64_C(1) << 62;
    return a >= cap || b >= cap || a + b >= cap ? cap : a + b;
}

/* The nodes a region [first, end) of the syntax tree expands to, its
 * references replaced by their definitions' sizes (all known). */
static uint64_t region_size(const parser *p, uint32_t first, uint32_t end)
{
    const bnode *nodes = NODES(p);
    uint64_t size = 0;
    for (uint32_t k = first; k < end; k++)
        size = sat_add(size, nodes[k].form == BF_REF ? DEFS(p)[nodes[k].kids].size : 1);
    return size;
}

/* Resolve every use to its definition, then walk the definitions from the
 * root in dependency order (iteratively) to find cycles and unused names
 * and to size the expansion before a single node is made. */
static mm_status resolve_names(parser *p, uint64_t limit)
{
    size_t nd = p->defs.n;
    bdef *defs = DEFS(p);
    bnode *nodes = NODES(p);
    mm_status st = MM_OK;
    if (nd)
        qsort(defs, nd, sizeof *defs, cmp_def);
    for (size_t j = 1; j < nd; j++)
        if (defs[j].key == defs[j - 1].key) {
            mm_srcpos w = pos_of(p, defs[j - 1].off);
            return fail(p, MM_ERR_INPUT, defs[j].off,
                        "sub-tree '%.*s' is defined twice (first at %u:%u)", (int)defs[j].len,
                        p->s + defs[j].off, w.line, w.col);
        }
    for (size_t k = 0; k < p->nodes.n; k++) {
        bnode *a = &nodes[k];
        if (a->form != BF_REF)
            continue;
        uint64_t key = name_key(p->s + a->code, a->len);
        size_t lo = 0, hi = nd;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (defs[mid].key < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == nd || defs[lo].key != key)
            return fail(p, MM_ERR_INPUT, a->code, "sub-tree '%.*s' is not defined",
                        (int)a->len, p->s + a->code);
        a->kids = (uint32_t)lo;
    }
    /* Depth-first over definitions; entry nd stands for the root's region. */
    typedef struct { uint32_t def, next; } item;
    item *stack = malloc((nd + 1) * sizeof *stack);
    if (!stack)
        return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
    size_t top = 0;
    stack[top++] = (item){(uint32_t)nd, 0};
    while (top) {
        item *it = &stack[top - 1];
        uint32_t first = it->def == nd ? 0 : defs[it->def].first;
        uint32_t end = it->def == nd ? p->root_end : defs[it->def].end;
        uint32_t k = it->next > first ? it->next : first;
        while (k < end && nodes[k].form != BF_REF)
            k++;
        if (k < end) {
            it->next = k + 1;
            bdef *t = &defs[nodes[k].kids];
            if (t->state == 1) {
                st = fail(p, MM_ERR_INPUT, nodes[k].off,
                          "sub-tree '%.*s' contains itself", (int)nodes[k].len,
                          p->s + t->off);
                goto out;
            }
            if (t->state == 0) {
                t->state = 1;
                stack[top++] = (item){nodes[k].kids, 0};
            }
            continue;
        }
        uint64_t size = region_size(p, first, end);
        top--;
        if (it->def == nd) {
            if (size > limit) {
                st = fail(p, MM_ERR_LIMIT, nodes[p->root].off,
                          "the named sub-trees expand to %llu%s nodes, more than the %llu "
                          "this file and game allow", (unsigned long long)size,
                          size >= UINT64_C(1) << 62 ? " or more" : "",
                          (unsigned long long)limit);
                goto out;
            }
        } else {
            defs[it->def].size = size;
            defs[it->def].state = 2;
        }
    }
    for (size_t j = 0; j < nd; j++)
        if (defs[j].state != 2) {
            st = fail(p, MM_ERR_INPUT, defs[j].off, "sub-tree '%.*s' is defined but never used",
                      (int)defs[j].len, p->s + defs[j].off);
            goto out;
        }
out:
    free(stack);
    return st;
}

static const bnode *body_of(const parser *p, const bnode *a)
{
    return a->form == BF_REF ? &NODES(p)[DEFS(p)[a->kids].body] : a;
}

/* Strict: the slots of a full form add up to its count. */
static mm_status check_sums(parser *p)
{
    const bnode *nodes = NODES(p);
    const uint32_t *kids = KIDS(p);
    char buf[64];
    for (size_t k = 0; k < p->nodes.n; k++) {
        const bnode *a = &nodes[k], *b = body_of(p, a);
        if (b->form != BF_FULL || a->count == NO_COUNT)
            continue;
        uint64_t sum = 0;
        for (uint32_t j = 0; j < b->nkids; j++)
            if (kids[b->kids + j] != KID_ZERO)
                sum += nodes[kids[b->kids + j]].count;
        if (sum != a->count)
            return fail(p, MM_ERR_INPUT, a->off, "%s states %u codes, but its slots add up to %llu",
                        describe(p, a, buf, sizeof buf), a->count, (unsigned long long)sum);
    }
    return MM_OK;
}

/* ---- expansion ---- */

typedef struct xitem {
    uint32_t ast, tn, lo, hi, depth;
} xitem;

typedef struct expander {
    parser *p;
    const mm_game *g;
    mm_tree *t;
    bool lenient;
    mm_format dialect;
    const bracket_layout *lay;
    mm_code *codes, *tmp;
    vec stack;   /* xitem */
} expander;

/* Sort codes[lo, hi) by their reply to y (counting sort); part s is
 * [start[s], start[s] + cnt[s]). */
static void partition(expander *x, mm_code y, uint32_t lo, uint32_t hi,
                      uint32_t *cnt, uint32_t *start)
{
    const mm_game *g = x->g;
    memset(cnt, 0, MM_MAX_REPLIES * sizeof *cnt);
    for (uint32_t i = lo; i < hi; i++)
        cnt[mm_game_score(g, y, x->codes[i])]++;
    uint32_t acc = lo, pos[MM_MAX_REPLIES];
    for (int s = 0; s < g->nreplies; s++) {
        start[s] = pos[s] = acc;
        acc += cnt[s];
    }
    for (uint32_t i = lo; i < hi; i++)
        x->tmp[pos[mm_game_score(g, y, x->codes[i])]++] = x->codes[i];
    memcpy(x->codes + lo, x->tmp + lo, (size_t)(hi - lo) * sizeof *x->codes);
}

static mm_status alloc_nodes(expander *x, uint32_t n, uint32_t *first, mm_srcpos w)
{
    mm_status st = mm_tree_alloc(x->t, n, first, x->p->d);
    if (st)
        return st;
    for (uint32_t k = 0; k < n; k++)
        x->t->where[*first + k] = w;
    return MM_OK;
}

/* Give node tn a child for every slot in replies, placed where tn was
 * read; *first receives the first child. */
static mm_status add_children(expander *x, uint32_t tn, uint64_t replies, uint32_t *first)
{
    int k = __builtin_popcountll(replies);
    x->t->nodes[tn].replies = replies;
    if (!k)
        return MM_OK;
    mm_status st = alloc_nodes(x, (uint32_t)k, first, x->t->where[tn]);
    if (!st)
        x->t->nodes[tn].child = *first;
    return st;
}

static void set_node(expander *x, uint32_t tn, mm_code guess, uint32_t count, uint32_t flags)
{
    mm_node *n = &x->t->nodes[tn];
    n->guess = guess;
    n->count = count;
    n->flags = flags;
}

/* The bare-number convention: guess the first of the 1 or 2 codes of
 * [lo, hi) in lexical order, then the other. */
static mm_status make_small(expander *x, uint32_t tn, uint32_t lo, uint32_t hi,
                            uint32_t count, uint32_t form)
{
    mm_code a = x->codes[lo], b = hi - lo == 2 ? x->codes[lo + 1] : MM_NO_CODE;
    if (b < a) {
        mm_code c = a;
        a = b;
        b = c;
    }
    set_node(x, tn, a, count, MM_NODE_CONSISTENT | form);
    if (b == MM_NO_CODE)
        return MM_OK;
    uint32_t c;
    mm_status st = alloc_nodes(x, 1, &c, x->t->where[tn]);
    if (st)
        return st;
    set_node(x, c, b, 1, MM_NODE_CONSISTENT | MM_NODE_FORM_IMPLIED);
    x->t->nodes[tn].child = c;
    x->t->nodes[tn].replies = UINT64_C(1) << mm_game_score(x->g, a, b);
    return MM_OK;
}

static uint32_t form_flag(int form)
{
    switch (form) {
    case BF_BARE: return MM_NODE_FORM_BARE;
    case BF_UNIQUE: return MM_NODE_FORM_UNIQUE;
    case BF_X: return MM_NODE_FORM_X;
    default: return MM_NODE_FORM_FULL;
    }
}

/* n(y), n(y*), n(yx): every part after y is expanded by make_small. */
static mm_status expand_condensed(expander *x, const xitem *it, const bnode *a,
                                  const bnode *b)
{
    const mm_game *g = x->g;
    parser *p = x->p;
    uint32_t cnt[MM_MAX_REPLIES], start[MM_MAX_REPLIES];
    char buf[64], code[MM_MAX_PEGS + 1];
    mm_code y = p->guess[b - NODES(p)];
    partition(x, y, it->lo, it->hi, cnt, start);
    bool can = cnt[g->win] != 0;
    uint32_t flags = form_flag(b->form) | (b->star ? MM_NODE_STAR : 0);
    if (x->dialect == MM_FMT_IRVING ? !b->star : can)
        flags |= MM_NODE_CONSISTENT;
    if (!x->lenient && x->dialect == MM_FMT_IRVING && b->star == can) {
        mm_code_format(g, y, code);
        return b->star ? fail(p, MM_ERR_INPUT, star_off(p, b),
                              "'*' says %s cannot be the code, but it can", code)
                       : fail(p, MM_ERR_INPUT, b->code,
                              "%s cannot be the code here: irving notation writes %s*", code, code);
    }
    uint32_t most = b->form == BF_X ? 2 : 1, k = 0;
    uint64_t replies = 0;
    for (int s = 0; s < g->nreplies; s++) {
        if (s == g->win || !cnt[s])
            continue;
        if (cnt[s] > most) {
            if (x->lenient) {
                /* Keep the written guess: verify names it and searches
                 * for the guess that was meant. */
                set_node(x, it->tn, y, a->count, flags | MM_NODE_UNRESOLVED);
                return MM_OK;
            }
            return fail(p, MM_ERR_INPUT, a->off,
                        "%s: reply (%d,%d) leaves %u codes; this form allows at most %u",
                        describe(p, a, buf, sizeof buf), g->black[s], g->white[s], cnt[s], most);
        }
        k++;
        replies |= UINT64_C(1) << s;
    }
    set_node(x, it->tn, y, a->count, flags);
    uint32_t c;
    mm_status st = add_children(x, it->tn, replies, &c);
    if (st || !replies)
        return st;
    for (int s = 0; s < g->nreplies; s++)
        if (replies >> s & 1u)
            if ((st = make_small(x, c++, start[s], start[s] + cnt[s], cnt[s],
                                 MM_NODE_FORM_IMPLIED)))
                return st;
    return MM_OK;
}

/* n(y: ...): a child for every non-zero slot, whose true codes are the
 * part of that reply; the children are pushed for the main loop. */
static mm_status expand_full(expander *x, const xitem *it, const bnode *a, const bnode *b)
{
    const mm_game *g = x->g;
    parser *p = x->p;
    const uint32_t *kids = KIDS(p);
    uint32_t cnt[MM_MAX_REPLIES], start[MM_MAX_REPLIES];
    char buf[64], code[MM_MAX_PEGS + 1];
    mm_code y = p->guess[b - NODES(p)];
    partition(x, y, it->lo, it->hi, cnt, start);
    int last = x->lay->nslots - 1;
    bool said = kids[b->kids + (uint32_t)last] != KID_ZERO, can = cnt[g->win] != 0;
    if (!x->lenient && said != can)
        return fail(p, MM_ERR_INPUT, b->off, "%s: the last slot says %s %s be the code, but it %s",
                    describe(p, a, buf, sizeof buf), mm_code_format(g, y, code),
                    said ? "can" : "cannot", can ? "can" : "cannot");
    uint64_t replies = 0;
    uint32_t k = 0;
    for (int i = 0; i < last; i++) {
        int s = x->lay->slot[i];
        if (kids[b->kids + (uint32_t)i] != KID_ZERO) {
            replies |= UINT64_C(1) << s;
            k++;
        } else if (cnt[s] && !x->lenient) {
            return fail(p, MM_ERR_INPUT, b->off,
                        "%s: reply (%d,%d) leaves %u codes, but its slot says 0",
                        describe(p, a, buf, sizeof buf), g->black[s], g->white[s], cnt[s]);
        }
    }
    set_node(x, it->tn, y, a->count, MM_NODE_FORM_FULL | (said ? MM_NODE_CONSISTENT : 0));
    uint32_t c;
    mm_status st = add_children(x, it->tn, replies, &c);
    if (st || !replies)
        return st;
    /* Pushed last slot first, so the walk meets them in text order. */
    c += k;
    for (int i = last - 1; i >= 0; i--) {
        uint32_t kid = kids[b->kids + (uint32_t)i];
        if (kid == KID_ZERO)
            continue;
        int s = x->lay->slot[i];
        xitem *ch = vec_push(&x->stack, sizeof *ch);
        if (!ch)
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        *ch = (xitem){kid, --c, start[s], start[s] + cnt[s], it->depth + 1};
    }
    return MM_OK;
}

static mm_status expand_one(expander *x, const xitem *it)
{
    parser *p = x->p;
    const bnode *a = &NODES(p)[it->ast], *b = body_of(p, a);
    uint32_t n = it->hi - it->lo;
    char buf[64];
    x->t->where[it->tn] = pos_of(p, a->off);
    if (it->depth > BRACKET_MAX_DEPTH)
        return fail(p, MM_ERR_LIMIT, a->off, "the tree is deeper than %d guesses",
                    BRACKET_MAX_DEPTH);
    if (!x->lenient && a->count != n)
        return fail(p, MM_ERR_INPUT, a->off, "%s states %u codes, but %u are possible here",
                    describe(p, a, buf, sizeof buf), a->count, n);
    switch (b->form) {
    case BF_BARE:
        if (a->count == n)
            return make_small(x, it->tn, it->lo, it->hi, a->count, MM_NODE_FORM_BARE);
        set_node(x, it->tn, MM_NO_CODE, a->count,
                 MM_NODE_FORM_BARE | MM_NODE_CONSISTENT | MM_NODE_UNRESOLVED);
        return MM_OK;
    case BF_UNIQUE:
    case BF_X:
        return expand_condensed(x, it, a, b);
    default:
        return expand_full(x, it, a, b);
    }
}

static mm_status expand(expander *x)
{
    mm_status st;
    const mm_game *g = x->g;
    uint32_t root;
    x->codes = malloc((size_t)g->ncodes * sizeof *x->codes);
    x->tmp = malloc((size_t)g->ncodes * sizeof *x->tmp);
    if (!x->codes || !x->tmp)
        return mm_diag_set(x->p->d, MM_ERR_NOMEM, "out of memory for %lu codes",
                           (unsigned long)g->ncodes);
    for (uint32_t i = 0; i < g->ncodes; i++)
        x->codes[i] = i;
    if ((st = mm_tree_track_where(x->t, x->p->d)) ||
        (st = alloc_nodes(x, 1, &root, (mm_srcpos){0, 0, -1})))
        return st;
    xitem *it = vec_push(&x->stack, sizeof *it);
    if (!it)
        return mm_diag_set(x->p->d, MM_ERR_NOMEM, "out of memory");
    *it = (xitem){x->p->root, root, 0, g->ncodes, 1};
    while (x->stack.n) {
        xitem cur = ((xitem *)x->stack.v)[--x->stack.n];
        if ((st = expand_one(x, &cur)))
            return st;
    }
    return MM_OK;
}

/* ---- entry point ---- */

static mm_status set_provenance(parser *p, mm_tree *t, mm_code first)
{
    mm_status st = MM_OK;
    char *s;
    if (p->have_rule) {
        if (!(s = strndup(p->s + p->rule_off, p->rule_len)))
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        st = mm_tree_set_rule(t, s, p->consistent_only, first);
        free(s);
    }
    if (!st && p->have_citation && p->cite_len) {
        if (!(s = strndup(p->s + p->cite_off, p->cite_len)))
            return mm_diag_set(p->d, MM_ERR_NOMEM, "out of memory");
        st = mm_tree_set_citation(t, s);
        free(s);
    }
    return st ? mm_diag_set(p->d, st, "out of memory") : MM_OK;
}

mm_status bracket_read(const char *name, const char *text, size_t len,
                          mm_format dialect, unsigned flags, mm_tree *t,
                          mm_diag *d)
{
    parser p = {.s = text, .len = len, .d = d, .notation = MM_FMT_AUTO};
    expander x = {.p = &p, .lenient = flags & MM_READ_LENIENT};
    bracket_layout lay;
    mm_game g = {0};
    mm_code first = MM_NO_CODE;
    mm_status st;

    mm_tree_init(t, 0, 0, true);
    mm_diag_file(d, name);
    if (d) {
        d->line = d->col = 0;
        d->offset = -1;
    }
    if (len >= UINT32_MAX)
        return mm_diag_set(d, MM_ERR_LIMIT, "a bracket file has less than 4 GiB");
    if ((st = index_lines(&p)) || (st = parse_file(&p)) ||
        (!x.lenient && (st = check_root_count(&p))) || (st = setup_game(&p, &g)))
        goto out;
    uint64_t limit = (uint64_t)p.nodes.n + 2 * (uint64_t)g.ncodes;
    if ((st = parse_codes(&p, &g, &first)) ||
        (st = check_slots(&p, &g, dialect, &lay)) ||
        (st = resolve_names(&p, limit)) ||
        (!x.lenient && (st = check_sums(&p))))
        goto out;
    mm_tree_init(t, g.pegs, g.colors, g.repeat);
    x.g = &g;
    x.t = t;
    x.dialect = lay.nslots == g.nreplies ? MM_FMT_KNUTH : MM_FMT_IRVING;
    x.lay = &lay;
    if ((st = expand(&x)))
        goto out;
    if (!x.lenient) {
        mm_diag ld;
        mm_diag_clear(&ld);
        if ((st = mm_tree_check(t, &g, &ld))) {
            st = mm_diag_set(d, st, "%s", ld.msg);
            goto out;
        }
    }
    st = set_provenance(&p, t, first);
out:
    if (st)
        mm_tree_release(t);
    free(x.codes);
    free(x.tmp);
    free(x.stack.v);
    free(p.guess);
    mm_game_release(&g);
    free(p.lines);
    free(p.nodes.v);
    free(p.kids.v);
    free(p.pending.v);
    free(p.stack.v);
    free(p.defs.v);
    return st;
}
