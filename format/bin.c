/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The binary format, format/binary.md: only the guesses are stored, and the
 * reader recomputes each node's codes, count, consistency and replies from
 * the game while it decodes, so reading a file is checking it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "formats.h"
#include "core/crc32.h"
#include "core/grow.h"
#include "core/le.h"
#include "core/walk.h"

static const unsigned char bin_signature[8] = {0x89, 'M', 'M', 'T', '\r', '\n', 0x1A, '\n'};

enum {
    BIN_VERSION = 2,         /* the newest this reader knows; 1 still reads */
    BIN_FIXED = 16,          /* signature .. node count */
    BIN_MAX_CITATION = 16384,
    PROOF_PROVEN = 1,        /* the proof record's status byte */
    PROOF_UNPROVEN = 2,
};

#define FLAG_REPEAT 0x01u
#define FLAG_RULE 0x02u
#define FLAG_CONSISTENT_ONLY 0x04u
#define FLAG_FIRST 0x08u
#define FLAG_CITATION 0x10u
#define FLAG_OPTIONS 0x20u   /* version 2 */
#define FLAG_PROOF 0x40u     /* version 2 */
#define FLAG_V2 (FLAG_OPTIONS | FLAG_PROOF)

/* Flag bits that must be 0 in a file of version v. */
static unsigned reserved_flags(unsigned v)
{
    return v == 1 ? 0xE0u : 0x80u;
}

/* Bits needed to write any number below m (0 when m <= 1). */
static int width_below(uint32_t m)
{
    return m <= 1 ? 0 : 32 - __builtin_clz(m - 1);
}

/* ------------------------------------------------------------------ */
/* Writing */

typedef struct outbuf {
    unsigned char *p;
    size_t len, cap;
    bool failed;
    uint64_t acc; /* pending bits, the oldest highest */
    int nacc;
} outbuf;

static void out_bytes(outbuf *o, const void *src, size_t n)
{
    if (o->failed)
        return;
    unsigned char *p = n <= SIZE_MAX - o->len ? grow_array(o->p, &o->cap, o->len + n, 256, 1)
                                              : NULL;
    if (!p) {
        o->failed = true;
        return;
    }
    o->p = p;
    memcpy(o->p + o->len, src, n);
    o->len += n;
}

static void out_u8(outbuf *o, unsigned v)
{
    unsigned char b = (unsigned char)v;
    out_bytes(o, &b, 1);
}

static void out_le16(outbuf *o, uint32_t v)
{
    unsigned char b[2];
    le_write16(b, v);
    out_bytes(o, b, 2);
}

static void out_le32(outbuf *o, uint32_t v)
{
    unsigned char b[4];
    le_write32(b, v);
    out_bytes(o, b, 4);
}

static void out_le64(outbuf *o, uint64_t v)
{
    unsigned char b[8];
    le_write64(b, v);
    out_bytes(o, b, 8);
}

/* Append the low n bits of v (n <= 32), most significant first. */
static void out_bits(outbuf *o, uint32_t v, int n)
{
    if (n == 0)
        return;
    o->acc = o->acc << n | (v & (uint32_t)((UINT64_C(1) << n) - 1));
    o->nacc += n;
    while (o->nacc >= 8) {
        o->nacc -= 8;
        out_u8(o, (unsigned)(o->acc >> o->nacc) & 0xFF);
    }
}

/* Exp-Golomb: v + 1 preceded by as many zero bits as it has after its
 * leading 1. */
static void out_expgolomb(outbuf *o, uint32_t v)
{
    uint32_t x = v + 1;
    int k = 31 - __builtin_clz(x);
    out_bits(o, 0, k);
    out_bits(o, x, k + 1);
}

static void out_pad(outbuf *o)
{
    if (o->nacc)
        out_bits(o, 0, 8 - o->nacc);
}

/* A node's guess, among its size ascending codes: whether it is one of
 * them, then its index among them or among the others. */
static void encode_guess(outbuf *o, const mm_game *g, const mm_code *codes, uint32_t size,
                         mm_code guess)
{
    uint32_t at = mm_codes_lower_bound(codes, size, guess);
    if (at < size && codes[at] == guess) {
        out_bits(o, 1, 1);
        if (size >= 2)
            out_expgolomb(o, at);
    } else {
        out_bits(o, 0, 1);
        out_bits(o, guess - at, width_below(g->ncodes - size));
    }
}

/* The payload of a tree that passed mm_tree_check, in preorder; *nodes
 * receives the number of nodes written. */
static mm_status encode_nodes(const mm_tree *t, const mm_game *g, outbuf *o,
                              uint32_t *nodes, mm_diag *d)
{
    mm_status st;
    uint32_t written = 0;
    walk w;
    if ((st = walk_init(&w, g, 0, 0, d)))
        return st;
    for (walk_item it; walk_pop(&w, &it);) {
        const mm_node *nd = &t->nodes[it.node];
        encode_guess(o, g, walk_codes(&w, &it), it.hi - it.lo, nd->guess);
        written++;
        if (!nd->replies)
            continue;
        if (it.depth >= FMT_MAX_DEPTH) {
            st = mm_diag_set(d, MM_ERR_LIMIT,
                             "the tree is deeper than %d guesses, the most the "
                             "binary format holds", FMT_MAX_DEPTH);
            break;
        }
        /* mm_tree_check has matched the children to the parts. */
        walk_parts pt;
        walk_split(&w, &it, nd->guess, &pt);
        if (!walk_push_children(&w, &it, &pt, nd->replies, nd->child)) {
            st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing the tree");
            break;
        }
    }
    out_pad(o);
    *nodes = written;
    walk_release(&w);
    return st;
}

mm_status bin_write(const mm_tree *t, char **buf, size_t *len, mm_diag *d)
{
    mm_status st;
    mm_game g;
    outbuf o = {0};
    const mm_provenance *pv = &t->prov;
    size_t rule_len = pv->rule ? strlen(pv->rule) : 0;
    size_t cit_len = pv->citation ? strlen(pv->citation) : 0, bad;

    char why[160];
    if (!fmt_provenance_ok(pv, true, why, sizeof why))
        return mm_diag_set(d, MM_ERR_INPUT, "cannot write this provenance: %s", why);
    if (pv->citation && !fmt_text_ok(pv->citation, cit_len, &bad))
        return mm_diag_set(d, MM_ERR_INPUT, "the citation is not 1-%d characters of "
                           "UTF-8 text (byte %zu)", FMT_TEXT_MAX_CHARS, bad);
    if ((st = mm_game_init(&g, t->pegs, t->colors, t->repeat, d)))
        return st;
    if (pv->rule && pv->first != MM_NO_CODE && pv->first >= g.ncodes) {
        st = mm_diag_set(d, MM_ERR_INPUT, "first guess %u is not a code", pv->first);
        goto out;
    }
    if ((st = mm_tree_check(t, &g, d))) {
        char msg[MM_DIAG_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", d ? d->msg : "");
        st = mm_diag_set(d, st, "the binary format holds only trees true to their "
                         "game, and this one is not: %s", msg);
        goto out;
    }
    uint32_t u = fmt_find_useless(t);
    if (u != MM_NO_NODE) {
        st = mm_diag_set(d, MM_ERR_INPUT, "the binary format holds no useless guess, and "
                         "node %u leaves all its codes in one part", u);
        goto out;
    }

    unsigned flags = t->repeat ? FLAG_REPEAT : 0;
    size_t tie_len = 0;
    if (pv->rule) {
        flags |= FLAG_RULE;
        if (pv->consistent_only)
            flags |= FLAG_CONSISTENT_ONLY;
        if (pv->first != MM_NO_CODE)
            flags |= FLAG_FIRST;
        tie_len = pv->tie_break ? strlen(pv->tie_break) : 0;
        if (tie_len || pv->max_depth || pv->extra_colors)
            flags |= FLAG_OPTIONS;
    }
    if (pv->proof != MM_PROOF_NONE)
        flags |= FLAG_PROOF;
    if (pv->citation)
        flags |= FLAG_CITATION;
    out_bytes(&o, bin_signature, sizeof bin_signature);
    /* The oldest version that holds the tree: files without the fields
     * of version 2 stay readable by mmtree 0.1. */
    out_u8(&o, flags & FLAG_V2 ? 2 : 1);
    out_u8(&o, (unsigned)t->pegs);
    out_u8(&o, (unsigned)t->colors);
    out_u8(&o, flags);
    size_t nodes_at = o.len;
    out_le32(&o, 0); /* node count, known after the payload */
    if (flags & FLAG_RULE) {
        out_u8(&o, (unsigned)rule_len);
        out_bytes(&o, pv->rule, rule_len);
    }
    if (flags & FLAG_FIRST)
        out_le32(&o, pv->first);
    if (flags & FLAG_OPTIONS) {
        out_u8(&o, (unsigned)pv->max_depth);
        out_u8(&o, (unsigned)pv->extra_colors);
        out_u8(&o, (unsigned)tie_len);
        if (tie_len)
            out_bytes(&o, pv->tie_break, tie_len);
    }
    if (flags & FLAG_PROOF) {
        out_u8(&o, pv->proof == MM_PROOF_PROVEN ? PROOF_PROVEN : PROOF_UNPROVEN);
        if (pv->proof == MM_PROOF_UNPROVEN) {
            out_le64(&o, pv->lower_total);
            out_u8(&o, (unsigned)pv->lower_worst);
        }
    }
    if (flags & FLAG_CITATION) {
        out_le16(&o, (uint32_t)cit_len);
        out_bytes(&o, pv->citation, cit_len);
    }
    size_t payload_at = o.len;
    out_le32(&o, 0);
    uint32_t nodes = 0;
    if ((st = encode_nodes(t, &g, &o, &nodes, d)))
        goto out;
    if (o.failed || o.len - payload_at - 4 > UINT32_MAX) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing the tree");
        goto out;
    }
    uint32_t payload = (uint32_t)(o.len - payload_at - 4);
    le_write32(o.p + nodes_at, nodes);
    le_write32(o.p + payload_at, payload);
    out_le32(&o, crc32_update(0, o.p, o.len));
    if (o.failed) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "out of memory writing the tree");
        goto out;
    }
    *buf = (char *)o.p;
    *len = o.len;
    o.p = NULL;
out:
    free(o.p);
    mm_game_release(&g);
    return st;
}

/* ------------------------------------------------------------------ */
/* Reading */

typedef struct bitreader {
    const unsigned char *p;
    uint64_t nbits, pos;
} bitreader;

/* Read n bits (n <= 32) into *v; false when the payload ends first. */
static bool br_bits(bitreader *b, int n, uint32_t *v)
{
    if ((uint64_t)n > b->nbits - b->pos)
        return false;
    uint32_t x = 0;
    for (int i = 0; i < n; i++, b->pos++)
        x = x << 1 | (uint32_t)(b->p[b->pos >> 3] >> (7 - (b->pos & 7)) & 1);
    *v = x;
    return true;
}

typedef struct bin_reader {
    const mm_game *g;
    bitreader br;
    int64_t base;     /* file offset of the payload */
    mm_diag *d;
    mm_read_cost *cost;
} bin_reader;

static mm_status truncated_payload(bin_reader *r)
{
    return mm_diag_at_offset(r->d, MM_ERR_INPUT, r->base + (int64_t)(r->br.nbits / 8),
                             "the payload ends in the middle of a node");
}

/* The guess of a node whose ascending codes are codes[0, size). */
static mm_status decode_guess(bin_reader *r, const mm_code *codes, uint32_t size,
                              int64_t at, mm_code *guess)
{
    uint32_t outside = r->g->ncodes - size, c, v;
    if (!br_bits(&r->br, 1, &c))
        return truncated_payload(r);
    if (c) {
        if (size == 1) {
            *guess = codes[0];
            return MM_OK;
        }
        int zeros = 0;
        for (;;) {
            if (!br_bits(&r->br, 1, &v))
                return truncated_payload(r);
            if (v)
                break;
            if (++zeros > 24)
                return mm_diag_at_offset(r->d, MM_ERR_INPUT, at,
                                         "guess index has more than 24 leading zero bits");
        }
        if (!br_bits(&r->br, zeros, &v))
            return truncated_payload(r);
        v = (v | UINT32_C(1) << zeros) - 1;
        if (v >= size)
            return mm_diag_at_offset(r->d, MM_ERR_INPUT, at,
                                     "guess index %u, but only %u codes are possible there",
                                     v, size);
        *guess = codes[v];
        return MM_OK;
    }
    if (outside == 0)
        return mm_diag_at_offset(r->d, MM_ERR_INPUT, at,
                                 "the first guess is marked as not a possible code, "
                                 "but every code is possible");
    if (!br_bits(&r->br, width_below(outside), &v))
        return truncated_payload(r);
    if (v >= outside)
        return mm_diag_at_offset(r->d, MM_ERR_INPUT, at,
                                 "guess index %u, but only %u codes are impossible there",
                                 v, outside);
    /* The v-th code (from 0) that is not in the ascending codes[0, size). */
    mm_code x = v;
    for (uint32_t i = 0; i < size && codes[i] <= x; i++)
        x++;
    *guess = x;
    return MM_OK;
}

/* After the last node: as many nodes as declared, no byte left, and the
 * padding bits zero. */
static mm_status check_payload_end(bin_reader *r, uint32_t nodes, uint32_t decoded)
{
    if (decoded != nodes)
        return mm_diag_at_offset(r->d, MM_ERR_INPUT, r->base + (int64_t)(r->br.pos / 8),
                                 "the header declares %u nodes, the tree has %u", nodes,
                                 decoded);
    uint64_t used = (r->br.pos + 7) / 8;
    if (used < r->br.nbits / 8)
        return mm_diag_at_offset(r->d, MM_ERR_INPUT, r->base + (int64_t)used,
                                 "%llu payload bytes after the last node",
                                 (unsigned long long)(r->br.nbits / 8 - used));
    uint32_t pad;
    if (br_bits(&r->br, (int)(r->br.nbits - r->br.pos), &pad) && pad)
        return mm_diag_at_offset(r->d, MM_ERR_INPUT, r->base + (int64_t)used - 1,
                                 "padding bits after the last node are not zero");
    return MM_OK;
}

/* The node of it once its guess is known: its count, flag and children
 * from the parts its guess makes (refusing a useless guess). */
static mm_status decode_node(bin_reader *r, mm_tree *t, walk *w, const walk_item *it,
                             mm_code guess, int64_t at, walk_parts *pt)
{
    const mm_game *g = r->g;
    uint32_t size = it->hi - it->lo;
    walk_split(w, it, guess, pt);
    r->cost->nodes++;
    r->cost->scored += size;
    if (walk_useless(g, pt, size)) {
        char code[MM_MAX_PEGS + 1];
        return mm_diag_at_offset(r->d, MM_ERR_INPUT, at,
                                 "guess %s cannot be the code and leaves all %u codes in "
                                 "one part: a useless guess", mm_code_format(g, guess, code),
                                 size);
    }
    mm_node *nd = &t->nodes[it->node];
    nd->guess = guess;
    nd->count = size;
    nd->flags = pt->cnt[g->win] ? MM_NODE_CONSISTENT : 0;
    nd->replies = pt->replies;
    return MM_OK;
}

/* Decode the declared number of nodes in preorder into t (which holds
 * the root), following the true codes down (core/walk.h): each node's
 * children are made from the game as it is decoded, so a file that fails
 * early costs what it decoded, not what it declared. */
static mm_status decode_nodes(bin_reader *r, mm_tree *t, uint32_t nodes)
{
    mm_status st;
    walk w;
    if ((st = walk_init(&w, r->g, 0, 0, r->d)))
        return st;
    for (walk_item it; walk_pop(&w, &it);) {
        int64_t at = r->base + (int64_t)(r->br.pos / 8);
        mm_code guess = 0;
        walk_parts pt;
        t->where[it.node] = (mm_srcpos){0, 0, at};
        if ((st = decode_guess(r, walk_codes(&w, &it), it.hi - it.lo, at, &guess)) ||
            (st = decode_node(r, t, &w, &it, guess, at, &pt)))
            goto out;
        uint32_t k = (uint32_t)__builtin_popcountll(pt.replies), first;
        if (!k)
            continue;
        if (it.depth >= FMT_MAX_DEPTH) {
            st = mm_diag_at_offset(r->d, MM_ERR_INPUT, at,
                                   "the tree is deeper than %d guesses", FMT_MAX_DEPTH);
            goto out;
        }
        if (k > nodes - t->nnodes) {
            st = mm_diag_at_offset(r->d, MM_ERR_INPUT, at,
                                   "the tree has more nodes than the %u the header declares",
                                   nodes);
            goto out;
        }
        if ((st = mm_tree_alloc(t, k, &first, r->d)))
            goto out;
        t->nodes[it.node].child = first;
        if (!walk_push_children(&w, &it, &pt, pt.replies, first)) {
            st = mm_diag_set(r->d, MM_ERR_NOMEM, "out of memory reading the tree");
            goto out;
        }
    }
    st = check_payload_end(r, nodes, t->nnodes);
out:
    walk_release(&w);
    return st;
}

typedef struct bin_header {
    unsigned version;
    int pegs, colors;
    unsigned flags;
    uint32_t nodes;
    const unsigned char *rule, *citation, *tie;
    size_t rule_len, cit_len, tie_len;
    mm_code first;
    int max_depth, extra_colors;
    mm_proof proof;
    uint64_t lower_total;
    int lower_worst;
    size_t first_at, proof_at, payload_at, payload_len;
} bin_header;

static mm_status truncated(mm_diag *d, size_t at, const char *what)
{
    return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at,
                             "file ends in the middle of %s (truncated)", what);
}

/* Version 2's rule options at buf[at]: max depth, extra colours, the
 * tie-break's length and name; at least one not the default. */
static mm_status parse_options(const unsigned char *buf, size_t len, size_t at,
                               bin_header *h, mm_diag *d)
{
    if (len - at < 3)
        return truncated(d, at, "the rule options");
    h->max_depth = buf[at];
    h->extra_colors = buf[at + 1];
    h->tie_len = buf[at + 2];
    h->tie = buf + at + 3;
    if (h->max_depth > FMT_MAX_DEPTH)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at, "max depth %d: must be 0..%d",
                                 h->max_depth, FMT_MAX_DEPTH);
    if (h->extra_colors > FMT_MAX_EXTRA_COLORS)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at + 1,
                                 "%d extra colours: must be 0..%d", h->extra_colors,
                                 FMT_MAX_EXTRA_COLORS);
    if (h->tie_len > len - at - 3)
        return truncated(d, at + 2, "the tie-break");
    if (h->tie_len && !fmt_rule_ok((const char *)h->tie, h->tie_len))
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at + 2,
                                 "tie-break is not 1-%d letters, digits, '.', '_' or '-'",
                                 FMT_RULE_MAX);
    if (!h->max_depth && !h->extra_colors && !h->tie_len)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at,
                                 "the rule options are all defaults: their flag must be clear");
    return MM_OK;
}

/* Version 2's proof record at buf[at]: 1 proven, or 2 unproven with the
 * lower bounds on the total (u64, at least 1) and the worst case. */
static mm_status parse_proof(const unsigned char *buf, size_t len, size_t at,
                             bin_header *h, mm_diag *d)
{
    h->proof_at = at;
    if (len - at < 1)
        return truncated(d, at, "the proof record");
    if (buf[at] == PROOF_PROVEN) {
        h->proof = MM_PROOF_PROVEN;
        return MM_OK;
    }
    if (buf[at] != PROOF_UNPROVEN)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at,
                                 "proof status %u: must be 1 (proven) or 2 (unproven)", buf[at]);
    if (len - at < 10)
        return truncated(d, at, "the proof record");
    h->proof = MM_PROOF_UNPROVEN;
    h->lower_total = le_read64(buf + at + 1);
    h->lower_worst = buf[at + 9];
    if (h->lower_total < 1)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at + 1,
                                 "lower bound 0: an unproven tree states at least 1");
    if (h->lower_worst > FMT_MAX_DEPTH)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at + 9,
                                 "worst-case lower bound %d: must be 0..%d", h->lower_worst,
                                 FMT_MAX_DEPTH);
    return MM_OK;
}

/* Everything up to the payload, with each length checked against the
 * bytes that remain; then the file's length and checksum. */
static mm_status parse_header(const unsigned char *buf, size_t len, bin_header *h,
                              mm_diag *d)
{
    size_t sig = len < sizeof bin_signature ? len : sizeof bin_signature;
    if (memcmp(buf, bin_signature, sig) != 0) {
        size_t at = 0;
        while (buf[at] == bin_signature[at])
            at++;
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at,
                                 "not an mmtree binary file (bad signature%s)",
                                 at >= 4 ? ": mangled line endings?" : "");
    }
    if (len < BIN_FIXED)
        return truncated(d, len, "the header");
    h->version = buf[8];
    if (h->version < 1 || h->version > BIN_VERSION)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 8,
                                 "format version %u is not supported (only 1 to %u)",
                                 h->version, BIN_VERSION);
    h->pegs = buf[9];
    h->colors = buf[10];
    h->flags = buf[11];
    h->nodes = le_read32(buf + 12);
    if (h->pegs < 1 || h->pegs > MM_MAX_PEGS)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 9, "%d pegs: must be 1..%d", h->pegs,
                                 MM_MAX_PEGS);
    if (h->colors < 1 || h->colors > MM_MAX_COLORS)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 10, "%d colours: must be 1..%d",
                                 h->colors, MM_MAX_COLORS);
    if (h->flags & reserved_flags(h->version))
        return mm_diag_at_offset(d, MM_ERR_INPUT, 11,
                                 "reserved flag bits 0x%02x are set (version %u)",
                                 h->flags & reserved_flags(h->version), h->version);
    if ((h->flags & (FLAG_CONSISTENT_ONLY | FLAG_FIRST | FLAG_OPTIONS)) &&
        !(h->flags & FLAG_RULE))
        return mm_diag_at_offset(d, MM_ERR_INPUT, 11,
                                 "rule options are flagged without a rule");
    if (h->version == 2 && !(h->flags & FLAG_V2))
        return mm_diag_at_offset(d, MM_ERR_INPUT, 8, "a version 2 file without rule options "
                                 "or a proof record: version 1 holds this tree");
    size_t at = BIN_FIXED;
    if (h->flags & FLAG_RULE) {
        if (len - at < 1)
            return truncated(d, at, "the rule name");
        h->rule_len = buf[at];
        if (h->rule_len > len - at - 1)
            return truncated(d, at, "the rule name");
        h->rule = buf + at + 1;
        if (!fmt_rule_ok((const char *)h->rule, h->rule_len))
            return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at,
                                     "rule name is not 1-%d letters, digits, '.', '_' or '-'",
                                     FMT_RULE_MAX);
        at += 1 + h->rule_len;
    }
    if (h->flags & FLAG_FIRST) {
        if (len - at < 4)
            return truncated(d, at, "the first guess");
        h->first = le_read32(buf + at);
        h->first_at = at;
        at += 4;
    }
    if (h->flags & FLAG_OPTIONS) {
        mm_status st = parse_options(buf, len, at, h, d);
        if (st)
            return st;
        at += 3 + h->tie_len;
    }
    if (h->flags & FLAG_PROOF) {
        mm_status st = parse_proof(buf, len, at, h, d);
        if (st)
            return st;
        at += h->proof == MM_PROOF_UNPROVEN ? 10 : 1;
    }
    if (h->flags & FLAG_CITATION) {
        if (len - at < 2)
            return truncated(d, at, "the citation");
        h->cit_len = le_read16(buf + at);
        if (h->cit_len > len - at - 2)
            return truncated(d, at, "the citation");
        h->citation = buf + at + 2;
        size_t bad;
        if (h->cit_len > BIN_MAX_CITATION ||
            !fmt_text_ok((const char *)h->citation, h->cit_len, &bad))
            return mm_diag_at_offset(d, MM_ERR_INPUT,
                                     (int64_t)(at + 2 + (h->cit_len > BIN_MAX_CITATION ? 0 : bad)),
                                     "the citation is not 1-%d characters of UTF-8 text",
                                     FMT_TEXT_MAX_CHARS);
        at += 2 + h->cit_len;
    }
    if (len - at < 4)
        return truncated(d, at, "the payload length");
    h->payload_len = le_read32(buf + at);
    h->payload_at = at + 4;
    if (h->payload_len < 1)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at, "the payload is empty");
    at += 4;
    if (h->payload_len > len - at || len - at - h->payload_len < 4)
        return truncated(d, len, "the payload or the checksum");
    at += h->payload_len;
    if (len - at > 4)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)(at + 4),
                                 "%zu bytes of garbage after the checksum", len - at - 4);
    uint32_t want = le_read32(buf + at), got = crc32_update(0, buf, at);
    if (want != got)
        return mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)at,
                                 "checksum 0x%08x does not match the contents (0x%08x): "
                                 "the file is corrupt", want, got);
    return MM_OK;
}

static mm_status set_provenance(mm_tree *t, const bin_header *h, mm_diag *d)
{
    char *rule = NULL, *cit = NULL;
    if (h->rule && !(rule = strndup((const char *)h->rule, h->rule_len)))
        goto nomem;
    if (h->citation && !(cit = strndup((const char *)h->citation, h->cit_len)))
        goto nomem;
    t->prov.rule = rule;
    t->prov.citation = cit;
    t->prov.consistent_only = (h->flags & FLAG_CONSISTENT_ONLY) != 0;
    t->prov.first = (h->flags & FLAG_FIRST) ? h->first : MM_NO_CODE;
    t->prov.max_depth = h->max_depth;
    t->prov.extra_colors = h->extra_colors;
    t->prov.proof = h->proof;
    t->prov.lower_total = h->lower_total;
    t->prov.lower_worst = h->lower_worst;
    if (h->tie_len && !(t->prov.tie_break = strndup((const char *)h->tie, h->tie_len)))
        return mm_diag_set(d, MM_ERR_NOMEM, "out of memory");
    return MM_OK;
nomem:
    free(rule);
    return mm_diag_set(d, MM_ERR_NOMEM, "out of memory");
}

mm_status bin_read(const char *name, const unsigned char *buf, size_t len,
                   unsigned flags, mm_tree *t, mm_read_cost *cost, mm_diag *d)
{
    /* flags: a .mmt file states nothing the game does not decide, so a
     * lenient read is a strict one (format/binary.md). */
    mm_status st;
    bin_header h = {0};
    mm_game g;

    mm_diag_file(d, name);
    mm_tree_init(t, 0, 0, false);
    if ((st = parse_header(buf, len, &h, d)))
        return st;
    bool repeat = (h.flags & FLAG_REPEAT) != 0;
    if (!repeat && h.colors < h.pegs)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 10,
                                 "%d colours cannot fill %d pegs without repeating",
                                 h.colors, h.pegs);
    /* Every node takes a payload bit, and every code a node of its own:
     * check both before allocating the nodes or setting up the game. */
    if (h.nodes < 1 || h.nodes > (uint64_t)h.payload_len * 8)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 12,
                                 "%u nodes cannot fit in a payload of %zu bytes",
                                 h.nodes, h.payload_len);
    uint64_t ncodes = mm_game_count(h.pegs, h.colors, repeat);
    if (ncodes > h.nodes)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 12,
                                 "%u nodes cannot hold the %llu codes of the game",
                                 h.nodes, (unsigned long long)ncodes);
    /* Nor can a tree of n codes without a useless guess (refused below)
     * have more than 2n - 1 nodes: the allocation is bounded by the game
     * as well as by the payload. */
    if (h.nodes > 2 * ncodes - 1)
        return mm_diag_at_offset(d, MM_ERR_INPUT, 12,
                                 "%u nodes: a tree of the %llu codes of the game has at most "
                                 "%llu", h.nodes, (unsigned long long)ncodes,
                                 2 * (unsigned long long)ncodes - 1);
    if ((st = mm_game_init(&g, h.pegs, h.colors, repeat, d))) {
        if (d)
            d->offset = 9; /* a game too large: the pegs and colours say so */
        return st;
    }
    cost->codes = g.ncodes;
    if ((h.flags & FLAG_FIRST) && h.first >= g.ncodes) {
        st = mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)h.first_at,
                               "first guess %u is not a code of the game", h.first);
        goto out;
    }
    mm_tree_init(t, h.pegs, h.colors, repeat);
    uint32_t first;
    if ((st = set_provenance(t, &h, d)) || (st = mm_tree_track_where(t, d)) ||
        (st = mm_tree_alloc(t, 1, &first, d)))
        goto out;
    bin_reader r = {
        .g = &g,
        .br = {buf + h.payload_at, (uint64_t)h.payload_len * 8, 0},
        .base = (int64_t)h.payload_at,
        .d = d,
        .cost = cost,
    };
    char why[128];
    if (!(st = decode_nodes(&r, t, h.nodes)) && !fmt_bounds_ok(t, why, sizeof why))
        st = mm_diag_at_offset(d, MM_ERR_INPUT, (int64_t)h.proof_at, "%s", why);
out:
    if (st)
        mm_tree_release(t);
    mm_game_release(&g);
    return st;
}
