/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Reading XML trees (schemas/mmtree.xsd) with a streaming xmlTextReader
 * that validates against the schema compiled into the program.  Input is
 * untrusted: it is decoded to UTF-8 and scanned first (xml_input.c); a
 * DOCTYPE is refused as soon as the parser reports one; no entity
 * substitution, no DTD loading, no network, libxml2's default size and
 * depth limits; libxml2's messages are captured, never printed.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "formats.h"
#include "core/grow.h"
#include "xml_common.h"

/* schemas/mmtree.xsd, embedded at build time (format/embed.c). */
extern const unsigned char mmtree_xsd[];
extern const size_t mmtree_xsd_len;

/* A complete tree needs a <node> element for each code, of 27 bytes at
 * least; a document too small for its game is refused before the game's
 * tables are set up. */
#define XML_MIN_BYTES_PER_CODE 16

/* A node as read, in document order (preorder). */
typedef struct pre_node {
    mm_code guess;
    uint32_t count, flags;
    uint64_t replies;
    uint32_t depth;     /* root 0 */
    int last_slot;      /* slot of its latest child, -1 before the first */
    unsigned long line, col;
} pre_node;

typedef struct xml_reader {
    xmlTextReaderPtr r;
    xmlDocPtr doc;             /* taken from the reader on a failure */
    mm_tree *t;
    mm_diag *d;
    mm_read_cost *cost;
    bool strict;
    size_t len;
    xml_scan scan;
    unsigned long line, col;   /* of the current element */
    mm_game g;
    bool have_game;
    /* <node> elements */
    pre_node *nodes;
    uint32_t nnodes;
    size_t cap;
    uint32_t open[FMT_MAX_DEPTH]; /* the <node> elements not yet closed */
    int nopen;
    /* <citation> text */
    bool in_citation;
    char *cit;
    size_t cit_len;
    unsigned long proof_line, proof_col; /* <proof> */
    /* <stats> */
    bool have_stats;
    unsigned long stats_line, stats_col;
    mm_stats stats;
    int last_depth;
} xml_reader;

static mm_status bad(xml_reader *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static mm_status bad(xml_reader *x, const char *fmt, ...)
{
    va_list ap;
    if (x->d) {
        x->d->line = x->line;
        x->d->col = x->col;
        x->d->offset = -1;
    }
    va_start(ap, fmt);
    mm_diag_vset(x->d, MM_ERR_INPUT, fmt, ap);
    va_end(ap);
    return MM_ERR_INPUT;
}

/* Integers and booleans as the schema lets them through: digits with
 * leading zeros allowed; true, false, 1 or 0.  (libxml2 refuses the
 * blanks and '+' XML Schema would also allow in the restricted types.) */
static bool parse_uint(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        unsigned dg = (unsigned)(*s - '0');
        if (v > (max - dg) / 10)
            return false;
        v = v * 10 + dg;
    }
    *out = v;
    return true;
}

static bool parse_bool(const char *s, bool *out)
{
    if (!strcmp(s, "true") || !strcmp(s, "1"))
        *out = true;
    else if (!strcmp(s, "false") || !strcmp(s, "0"))
        *out = false;
    else
        return false;
    return true;
}

/* Attribute values are short (the schema bounds them); a longer one is
 * kept cut and flagged. */
typedef struct attr_spec {
    const char *name;
    bool present, cut;
    char value[FMT_RULE_MAX + 8];
} attr_spec;

/* Copy the values of the named attributes of the current element: the
 * reader may hand out a buffer that it reuses for the next one. */
static mm_status get_attrs(xml_reader *x, attr_spec *a, int n)
{
    for (int i = 0; i < n; i++) {
        a[i].present = a[i].cut = false;
        a[i].value[0] = '\0';
    }
    int more = xmlTextReaderMoveToFirstAttribute(x->r);
    while (more == 1) {
        /* Attributes in a namespace (xmlns, xsi:) are not mmtree's. */
        const char *name = (const char *)xmlTextReaderConstLocalName(x->r);
        if (!xmlTextReaderConstNamespaceUri(x->r) && name) {
            for (int i = 0; i < n; i++) {
                if (strcmp(name, a[i].name))
                    continue;
                const char *v = (const char *)xmlTextReaderConstValue(x->r);
                size_t vl = v ? strlen(v) : 0;
                a[i].present = true;
                a[i].cut = vl >= sizeof a[i].value;
                if (a[i].cut)
                    vl = sizeof a[i].value - 1;
                memcpy(a[i].value, v ? v : "", vl);
                a[i].value[vl] = '\0';
            }
        }
        more = xmlTextReaderMoveToNextAttribute(x->r);
    }
    xmlTextReaderMoveToElement(x->r);
    if (more < 0)
        return bad(x, "cannot read the attributes");
    return MM_OK;
}

static mm_status need_uint(xml_reader *x, const char *elem, const attr_spec *a,
                           uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (!a->present)
        return bad(x, "<%s> needs a '%s' attribute", elem, a->name);
    if (a->cut || !parse_uint(a->value, hi, v) || *v < lo)
        return bad(x, "<%s> %s='%s': must be a whole number %llu..%llu", elem, a->name,
                   a->value, (unsigned long long)lo, (unsigned long long)hi);
    return MM_OK;
}

static mm_status get_bool(xml_reader *x, const char *elem, const attr_spec *a,
                          bool dflt, bool *v)
{
    *v = dflt;
    if (a->present && (a->cut || !parse_bool(a->value, v)))
        return bad(x, "<%s> %s='%s': must be true or false", elem, a->name, a->value);
    return MM_OK;
}

static mm_status get_code(xml_reader *x, const char *elem, const attr_spec *a,
                          mm_code *code)
{
    char msg[MM_DIAG_MSG_MAX];
    mm_diag tmp;
    if (!a->present)
        return bad(x, "<%s> needs a '%s' attribute", elem, a->name);
    mm_diag_clear(&tmp);
    if (a->cut || mm_code_parse(&x->g, a->value, strlen(a->value), code, &tmp)) {
        snprintf(msg, sizeof msg, "%s", a->cut ? "too long" : tmp.msg);
        return bad(x, "<%s> %s: %s", elem, a->name, msg);
    }
    return MM_OK;
}

static mm_status on_game(xml_reader *x)
{
    attr_spec a[] = {{.name = "pegs"}, {.name = "colors"}, {.name = "repeat"}};
    uint64_t pegs, colors;
    bool repeat;
    mm_status st;
    if ((st = get_attrs(x, a, 3)) ||
        (st = need_uint(x, "game", &a[0], 1, MM_MAX_PEGS, &pegs)) ||
        (st = need_uint(x, "game", &a[1], 1, MM_MAX_COLORS, &colors)))
        return st;
    if (!a[2].present)
        return bad(x, "<game> needs a 'repeat' attribute");
    if ((st = get_bool(x, "game", &a[2], true, &repeat)))
        return st;
    if (x->have_game)
        return bad(x, "a second <game>");
    if (!repeat && colors < pegs)
        return bad(x, "%d colours cannot fill %d pegs without repeating", (int)colors,
                   (int)pegs);
    uint64_t ncodes = mm_game_count((int)pegs, (int)colors, repeat);
    if (ncodes > x->len / XML_MIN_BYTES_PER_CODE)
        return bad(x, "a document of %zu bytes cannot hold a tree of the %llu codes of "
                   "MM(%d,%d)", x->len, (unsigned long long)ncodes, (int)pegs, (int)colors);
    if ((st = mm_game_init(&x->g, (int)pegs, (int)colors, repeat, x->d))) {
        if (x->d) {
            x->d->line = x->line;
            x->d->col = x->col;
        }
        return st;
    }
    x->have_game = true;
    x->cost->codes = x->g.ncodes;
    mm_tree_init(x->t, (int)pegs, (int)colors, repeat);
    return MM_OK;
}

static mm_status on_rule(xml_reader *x)
{
    attr_spec a[] = {{.name = "name"}, {.name = "consistent-only"}, {.name = "first"},
                     {.name = "tie-break"}, {.name = "max-depth"}, {.name = "extra-colors"}};
    bool consistent_only;
    mm_code first = MM_NO_CODE;
    uint64_t depth = 0, extra = 0;
    mm_status st;
    if ((st = get_attrs(x, a, 6)) || (st = get_bool(x, "rule", &a[1], false, &consistent_only)))
        return st;
    for (int i = 0; i < 4; i += 3)
        if ((i == 0 || a[i].present) &&
            (!a[i].present || a[i].cut || !fmt_rule_ok(a[i].value, strlen(a[i].value))))
            return bad(x, "<rule> %s='%s': must be 1-%d letters, digits, '.', '_' or '-'",
                       a[i].name, a[i].value, FMT_RULE_MAX);
    if ((a[2].present && (st = get_code(x, "rule", &a[2], &first))) ||
        (a[4].present && (st = need_uint(x, "rule", &a[4], 1, FMT_MAX_DEPTH, &depth))) ||
        (a[5].present && (st = need_uint(x, "rule", &a[5], 1, FMT_MAX_EXTRA_COLORS, &extra))))
        return st;
    if (mm_tree_set_rule(x->t, a[0].value, consistent_only, first) ||
        (a[3].present && mm_tree_set_tie_break(x->t, a[3].value)))
        return mm_diag_set(x->d, MM_ERR_NOMEM, "out of memory");
    x->t->prov.max_depth = (int)depth;
    x->t->prov.extra_colors = (int)extra;
    return MM_OK;
}

static mm_status on_proof(xml_reader *x)
{
    attr_spec a[] = {{.name = "status"}, {.name = "lower-bound"},
                     {.name = "worst-lower-bound"}};
    uint64_t lower = 0, worst = 0;
    mm_status st;
    if ((st = get_attrs(x, a, 3)))
        return st;
    mm_provenance *pv = &x->t->prov;
    if (a[0].present && !strcmp(a[0].value, "proven")) {
        if (a[1].present || a[2].present)
            return bad(x, "<proof status='proven'> states no lower bound");
        pv->proof = MM_PROOF_PROVEN;
    } else if (a[0].present && !strcmp(a[0].value, "unproven")) {
        if ((st = need_uint(x, "proof", &a[1], 1, UINT64_MAX, &lower)) ||
            (a[2].present && (st = need_uint(x, "proof", &a[2], 1, FMT_MAX_DEPTH, &worst))))
            return st;
        pv->proof = MM_PROOF_UNPROVEN;
        pv->lower_total = lower;
        pv->lower_worst = (int)worst;
    } else {
        return bad(x, "<proof> status='%s': must be proven or unproven", a[0].value);
    }
    x->proof_line = x->line;
    x->proof_col = x->col;
    return MM_OK;
}

static mm_status on_citation_end(xml_reader *x)
{
    size_t bad_at;
    x->in_citation = false;
    if (!x->cit || !fmt_text_ok(x->cit, x->cit_len, &bad_at))
        return bad(x, "<citation> must be 1-%d characters, tab and line feed the only "
                   "control characters", FMT_TEXT_MAX_CHARS);
    if (mm_tree_set_citation(x->t, x->cit))
        return mm_diag_set(x->d, MM_ERR_NOMEM, "out of memory");
    return MM_OK;
}

static mm_status on_text(xml_reader *x)
{
    const char *v = (const char *)xmlTextReaderConstValue(x->r);
    size_t n = v ? strlen(v) : 0;
    if (!x->in_citation)
        return MM_OK;
    if (n > FMT_TEXT_MAX_BYTES - x->cit_len)
        return bad(x, "<citation> is longer than %d characters", FMT_TEXT_MAX_CHARS);
    if (!x->cit && !(x->cit = malloc(FMT_TEXT_MAX_BYTES + 1)))
        return mm_diag_set(x->d, MM_ERR_NOMEM, "out of memory");
    memcpy(x->cit + x->cit_len, v, n);
    x->cit_len += n;
    x->cit[x->cit_len] = '\0';
    return MM_OK;
}

static mm_status on_stats(xml_reader *x)
{
    attr_spec a[] = {{.name = "codes"}, {.name = "total"}, {.name = "nodes"},
                     {.name = "inconsistent"}, {.name = "worst"}};
    uint64_t v[5];
    static const uint64_t max[5] = {MM_MAX_CODES, UINT64_MAX, UINT32_MAX, UINT32_MAX,
                                    FMT_MAX_DEPTH};
    mm_status st = get_attrs(x, a, 5);
    for (int i = 0; i < 5 && !st; i++)
        st = need_uint(x, "stats", &a[i], i == 0, max[i], &v[i]);
    if (st)
        return st;
    memset(&x->stats, 0, sizeof x->stats);
    x->stats.codes = v[0];
    x->stats.total = v[1];
    x->stats.nodes = v[2];
    x->stats.inconsistent = v[3];
    x->stats.worst = (int)v[4];
    x->have_stats = true;
    x->stats_line = x->line;
    x->stats_col = x->col;
    x->last_depth = 0;
    return MM_OK;
}

static mm_status on_depth(xml_reader *x)
{
    attr_spec a[] = {{.name = "guesses"}, {.name = "codes"}};
    uint64_t k, codes;
    mm_status st;
    if ((st = get_attrs(x, a, 2)) ||
        (st = need_uint(x, "depth", &a[0], 1, FMT_MAX_DEPTH, &k)) ||
        (st = need_uint(x, "depth", &a[1], 0, UINT32_MAX, &codes)))
        return st;
    if ((int)k <= x->last_depth)
        return bad(x, "<depth> guesses=%d after guesses=%d: depths go in increasing order",
                   (int)k, x->last_depth);
    x->last_depth = (int)k;
    x->stats.hist[k - 1] = codes;
    return MM_OK;
}

static mm_status on_node(xml_reader *x, bool empty)
{
    attr_spec a[] = {{.name = "guess"}, {.name = "count"}, {.name = "consistent"},
                     {.name = "reply"}};
    pre_node nd = {.last_slot = -1, .line = x->line, .col = x->col};
    uint64_t count;
    bool consistent;
    mm_status st;
    if ((st = get_attrs(x, a, 4)) || (st = get_code(x, "node", &a[0], &nd.guess)) ||
        (st = need_uint(x, "node", &a[1], 1, MM_MAX_CODES, &count)) ||
        (st = get_bool(x, "node", &a[2], true, &consistent)))
        return st;
    nd.count = (uint32_t)count;
    nd.flags = consistent ? MM_NODE_CONSISTENT : 0;
    nd.depth = (uint32_t)x->nopen;
    if (x->nopen == 0) {
        if (x->nnodes)
            return bad(x, "a second root <node>");
        if (a[3].present)
            return bad(x, "the root <node> has no reply");
    } else {
        const attr_spec *rp = &a[3];
        const char *v = rp->value;
        if (!rp->present)
            return bad(x, "<node> needs a 'reply' attribute");
        int slot = -1;
        if (!rp->cut && v[0] >= '0' && v[0] <= '9' && v[1] == ',' && v[2] >= '0' &&
            v[2] <= '9' && !v[3])
            slot = mm_reply_slot(&x->g, v[0] - '0', v[2] - '0');
        if (slot < 0)
            return bad(x, "reply '%s' is not a reply of a %d-peg game", v, x->g.pegs);
        if (slot == x->g.win)
            return bad(x, "reply %s ends the game: it has no <node>", v);
        pre_node *parent = &x->nodes[x->open[x->nopen - 1]];
        if (slot <= parent->last_slot)
            return bad(x, "reply %s after reply %d,%d: children go in reply order (black "
                       "ascending, then white descending)", v, x->g.black[parent->last_slot],
                       x->g.white[parent->last_slot]);
        parent->last_slot = slot;
        parent->replies |= UINT64_C(1) << slot;
    }
    /* Without a useless guess (below) a tree of n codes has at most
     * 2n - 1 nodes: a strict read holds no more. */
    if (x->strict && x->nnodes >= 2 * (uint64_t)x->g.ncodes - 1)
        return bad(x, "more <node> elements than the %llu a tree of %u codes has without a "
                   "useless guess", 2 * (unsigned long long)x->g.ncodes - 1, x->g.ncodes);
    pre_node *p = grow_array(x->nodes, &x->cap, (size_t)x->nnodes + 1, 1024, sizeof *p);
    if (!p)
        return mm_diag_set(x->d, MM_ERR_NOMEM, "out of memory for %u nodes", x->nnodes + 1);
    x->nodes = p;
    if (!empty) {
        if (x->nopen == FMT_MAX_DEPTH)
            return bad(x, "the tree is deeper than %d guesses", FMT_MAX_DEPTH);
        x->open[x->nopen++] = x->nnodes;
    }
    x->nodes[x->nnodes++] = nd;
    x->cost->nodes++;
    return MM_OK;
}

/* A DOCTYPE, as the parser reports it (in any encoding): refused, so no
 * DTD feature (entities above all) reaches the tree.  Placed at the
 * '<!DOCTYPE', the next tag the scan meets. */
static mm_status doctype(xml_reader *x)
{
    if (xml_scan_next_tag(&x->scan)) {
        x->line = x->scan.line;
        x->col = x->scan.col;
    }
    return bad(x, "a DOCTYPE is not allowed in an mmtree document");
}

static bool doc_has_doctype(xmlDocPtr doc)
{
    return doc && (doc->intSubset || doc->extSubset);
}

/* libxml2 may complain about what a DOCTYPE declares (an entity loop, a
 * DTD node the schema validator does not walk) before the reader returns
 * the DOCTYPE itself; the document it is building has it already.  Only
 * for a read about to fail: from now on the reader keeps the whole
 * document (xml_tree_read frees it). */
static bool failed_with_doctype(xml_reader *x)
{
    if (!x->doc)
        x->doc = xmlTextReaderCurrentDoc(x->r);
    return doc_has_doctype(x->doc);
}

static mm_status on_element(xml_reader *x)
{
    const char *ns = (const char *)xmlTextReaderConstNamespaceUri(x->r);
    const char *name = (const char *)xmlTextReaderConstLocalName(x->r);
    bool empty = xmlTextReaderIsEmptyElement(x->r) == 1;
    if (xml_scan_next_tag(&x->scan)) {
        x->line = x->scan.line;
        x->col = x->scan.col;
        xml_scan_to(&x->scan, x->scan.pos + 1);
    }
    /* The root element comes after any DOCTYPE; should the reader not
     * have reported one, the document it built still has it. */
    xmlNodePtr cur = x->nnodes == 0 && !x->have_game ? xmlTextReaderCurrentNode(x->r) : NULL;
    if (cur && doc_has_doctype(cur->doc))
        return bad(x, "a DOCTYPE is not allowed in an mmtree document");
    if (!name || !ns || strcmp(ns, MM_XML_NS) != 0)
        return bad(x, "<%s> is not an element of %s", name ? name : "?", MM_XML_NS);
    if (!strcmp(name, "node")) /* first: nearly every element is one */
        return on_node(x, empty);
    if (!strcmp(name, "game"))
        return on_game(x);
    if (!x->have_game && strcmp(name, "mmtree") != 0)
        return bad(x, "<%s> before <game>", name);
    if (!strcmp(name, "rule"))
        return on_rule(x);
    if (!strcmp(name, "proof"))
        return on_proof(x);
    if (!strcmp(name, "citation")) {
        x->in_citation = true;
        x->cit_len = 0;
        return empty ? on_citation_end(x) : MM_OK;
    }
    if (!strcmp(name, "stats"))
        return on_stats(x);
    if (!strcmp(name, "depth"))
        return on_depth(x);
    return MM_OK; /* mmtree, provenance, tree: structure only */
}

static mm_status on_end(xml_reader *x)
{
    const char *name = (const char *)xmlTextReaderConstLocalName(x->r);
    if (name && !strcmp(name, "node") && x->nopen > 0)
        x->nopen--;
    else if (name && !strcmp(name, "citation") && x->in_citation)
        return on_citation_end(x);
    return MM_OK;
}

/* Nodes arrive in preorder; mm_tree wants each node's children next to
 * each other.  Level order has that property, and a stable sort of the
 * preorder by depth gives level order: a node's first child is the node
 * after it in preorder. */
static mm_status build_tree(xml_reader *x)
{
    mm_tree *t = x->t;
    uint32_t n = x->nnodes, first, at[FMT_MAX_DEPTH + 1] = {0};
    uint32_t *idx = malloc((size_t)n * sizeof *idx);
    mm_status st;
    if (!idx)
        return mm_diag_set(x->d, MM_ERR_NOMEM, "out of memory for %u nodes", n);
    for (uint32_t i = 0; i < n; i++)
        at[x->nodes[i].depth + 1]++;
    for (int k = 1; k <= FMT_MAX_DEPTH; k++)
        at[k] += at[k - 1];
    for (uint32_t i = 0; i < n; i++)
        idx[i] = at[x->nodes[i].depth]++;
    if ((st = mm_tree_track_where(t, x->d)) || (st = mm_tree_alloc(t, n, &first, x->d)))
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        const pre_node *p = &x->nodes[i];
        mm_node *nd = &t->nodes[idx[i]];
        nd->guess = p->guess;
        nd->count = p->count;
        nd->flags = p->flags;
        nd->replies = p->replies;
        nd->child = p->replies ? idx[i + 1] : MM_NO_NODE;
        t->where[idx[i]] = (mm_srcpos){(uint32_t)p->line, (uint32_t)p->col, -1};
    }
out:
    free(idx);
    return st;
}

/* The figures a <stats> element states must be the tree's. */
static mm_status check_stats(xml_reader *x)
{
    mm_stats s;
    mm_tree_stats(x->t, &s);
    const mm_stats *w = &x->stats;
    const char *what = NULL;
    char label[32];
    unsigned long long want = 0, got = 0;
    if (w->codes != s.codes)
        what = "codes", want = w->codes, got = s.codes;
    else if (w->total != s.total)
        what = "total", want = w->total, got = s.total;
    else if (w->nodes != s.nodes)
        what = "nodes", want = w->nodes, got = s.nodes;
    else if (w->inconsistent != s.inconsistent)
        what = "inconsistent", want = w->inconsistent, got = s.inconsistent;
    else if (w->worst != s.worst)
        what = "worst", want = (unsigned)w->worst, got = (unsigned)s.worst;
    for (int k = 0; !what && k < 64; k++)
        if (w->hist[k] != s.hist[k]) {
            snprintf(label, sizeof label, "codes at depth %d", k + 1);
            what = label;
            want = w->hist[k];
            got = s.hist[k];
        }
    if (!what)
        return MM_OK;
    return mm_diag_at(x->d, MM_ERR_INPUT, x->stats_line, x->stats_col,
                      "<stats> states %s %llu, the tree has %llu", what, want, got);
}

static mm_status read_loop(xml_reader *x, xml_errors *errs)
{
    mm_status st = MM_OK;
    for (;;) {
        int ret = xmlTextReaderRead(x->r);
        if ((errs->set || ret < 0) && x->nnodes == 0 && failed_with_doctype(x)) {
            x->scan = (xml_scan){x->scan.p, x->scan.len, 0, 1, 1, false};
            return doctype(x);
        }
        if (errs->set)
            return mm_diag_at(x->d, MM_ERR_INPUT, errs->line, errs->col, "%s: %s",
                              errs->schema ? "not valid" : "malformed XML", errs->msg);
        if (ret == 0)
            break;
        if (ret < 0)
            return mm_diag_at(x->d, MM_ERR_INPUT,
                              (unsigned long)xmlTextReaderGetParserLineNumber(x->r),
                              (unsigned long)xmlTextReaderGetParserColumnNumber(x->r),
                              "malformed XML");
        switch (xmlTextReaderNodeType(x->r)) {
        case XML_READER_TYPE_DOCUMENT_TYPE:
            st = doctype(x);
            break;
        case XML_READER_TYPE_ELEMENT:
            st = on_element(x);
            break;
        case XML_READER_TYPE_END_ELEMENT:
            st = on_end(x);
            break;
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_CDATA:
        case XML_READER_TYPE_WHITESPACE:
        case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
            st = on_text(x);
            break;
        default: /* comments, processing instructions */
            break;
        }
        if (st)
            return st;
    }
    /* The schema requires a game and a root node; this guards the code
     * below should a validity error go unreported. */
    if (xmlTextReaderIsValid(x->r) != 1 || !x->have_game || !x->nnodes)
        return mm_diag_set(x->d, MM_ERR_INPUT, "not valid: the document is not an mmtree tree");
    return MM_OK;
}

mm_status xml_tree_read(const char *name, const unsigned char *buf, size_t len,
                        unsigned flags, mm_tree *t, mm_read_cost *cost, mm_diag *d)
{
    mm_status st;
    xml_input in;
    xml_errors errs = {0};
    xml_handlers saved;
    xmlSchemaParserCtxtPtr pctx = NULL;
    xmlSchemaPtr schema = NULL;
    xmlSchemaValidCtxtPtr vctx = NULL;
    xml_reader x = {.t = t, .d = d, .cost = cost, .strict = !(flags & MM_READ_LENIENT)};

    mm_diag_file(d, name);
    mm_tree_init(t, 0, 0, false);
    if ((st = xml_input_prepare(buf, len, &in, d)))
        goto out_input;
    if ((st = xml_lib_load(d)))
        goto out_input;
    errs.buf = in.text;
    errs.len = in.len;
    x.len = in.len;
    x.scan = (xml_scan){in.text, in.len, 0, 1, 1, false};

    xml_handlers_install(&saved, &errs);
    pctx = xmlSchemaNewMemParserCtxt((const char *)mmtree_xsd, (int)mmtree_xsd_len);
    if (pctx)
        schema = xmlSchemaParse(pctx);
    if (schema)
        vctx = xmlSchemaNewValidCtxt(schema);
    if (vctx)
        x.r = xmlReaderForMemory((const char *)in.text, (int)in.len, NULL, "UTF-8",
                                 XML_PARSE_NONET | XML_PARSE_COMPACT | XML_PARSE_IGNORE_ENC);
    if (!x.r) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "cannot set up the XML reader: %s",
                         errs.set ? errs.msg : "out of memory");
        goto out;
    }
    errs.reader = x.r;
    xmlSchemaSetValidStructuredErrors(vctx, xml_on_error, &errs);
    if (xmlTextReaderSchemaValidateCtxt(x.r, vctx, 0) != 0) {
        st = mm_diag_set(d, MM_ERR_NOMEM, "cannot set up schema validation");
        goto out;
    }
    if ((st = read_loop(&x, &errs)) || (st = build_tree(&x)))
        goto out;
    if (!(flags & MM_READ_LENIENT)) {
        if ((st = mm_tree_check(t, &x.g, d)))
            goto out;
        uint32_t u = fmt_find_useless(t);
        if (u != MM_NO_NODE) {
            char code[MM_MAX_PEGS + 1];
            st = mm_diag_at(d, MM_ERR_INPUT, t->where[u].line, t->where[u].col,
                            "guess %s cannot be the code and leaves all %u codes in one "
                            "part: a useless guess", mm_code_format(&x.g, t->nodes[u].guess,
                            code), t->nodes[u].count);
            goto out;
        }
        char why[128];
        if (x.have_stats && (st = check_stats(&x)))
            goto out;
        if (!fmt_bounds_ok(t, why, sizeof why))
            st = mm_diag_at(d, MM_ERR_INPUT, x.proof_line, x.proof_col, "%s", why);
    }
out:
    xmlFreeTextReader(x.r);
    if (x.doc)
        xmlFreeDoc(x.doc);
    xmlSchemaFreeValidCtxt(vctx);
    xmlSchemaFree(schema);
    xmlSchemaFreeParserCtxt(pctx);
    xml_handlers_restore(&saved);
    free(x.nodes);
    free(x.cit);
    if (x.have_game)
        mm_game_release(&x.g);
out_input:
    xml_input_release(&in);
    if (st)
        mm_tree_release(t);
    return st;
}
