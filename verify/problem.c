/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * What a verify report says, in words: the names of the problem kinds
 * and markers, the path to a node, and one line a problem
 * (mm_problem_format).  verify.c finds the problems.
 */
#include "mmtree/verify.h"

#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "mmtree/path.h"

static const char *const kind_names[MM_PROBLEM_KIND_COUNT] = {
    [MM_PROBLEM_STRUCTURE] = "structure",   [MM_PROBLEM_NOT_CODE] = "not-code",
    [MM_PROBLEM_COUNT] = "count",           [MM_PROBLEM_PARTITION] = "partition",
    [MM_PROBLEM_CONSISTENT] = "consistent", [MM_PROBLEM_MARKER] = "marker",
    [MM_PROBLEM_FOUND_TWICE] = "found-twice", [MM_PROBLEM_NOT_FOUND] = "not-found",
};

const char *mm_problem_kind_name(mm_problem_kind k)
{
    return (unsigned)k < MM_PROBLEM_KIND_COUNT ? kind_names[k] : "?";
}

const char *mm_marker_name(mm_marker m)
{
    switch (m) {
    case MM_MARKER_BARE: return "bare";
    case MM_MARKER_UNIQUE: return "unique";
    case MM_MARKER_X: return "x";
    case MM_MARKER_UNRESOLVED: return "unresolved";
    }
    return "?";
}

uint32_t mm_paths_get(const mm_paths *p, uint32_t node, mm_step *steps,
                      uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = node; i != MM_NO_NODE && p->parent[i] != MM_NO_NODE; i = p->parent[i])
        n++;
    uint32_t k = n;
    for (uint32_t i = node; i != MM_NO_NODE && p->parent[i] != MM_NO_NODE; i = p->parent[i]) {
        k--;
        if (k < max)
            steps[k] = (mm_step){p->t->nodes[p->parent[i]].guess, p->slot[i]};
    }
    return n;
}

char *mm_paths_format(const mm_paths *p, const mm_game *g, uint32_t node,
                      char *buf, size_t size)
{
    enum { MAX_SHOWN = 64 };
    mm_step steps[MAX_SHOWN];
    uint32_t n = mm_paths_get(p, node, steps, MAX_SHOWN);
    if (!n) {
        snprintf(buf, size, "root");
        return buf;
    }
    mm_path_format(g, steps, n < MAX_SHOWN ? n : MAX_SHOWN, buf, size);
    /* The steps not shown: "..." after those that are, or over the end
     * of a full buffer. */
    size_t len = strlen(buf);
    if (n > MAX_SHOWN && size > 4)
        memcpy(buf + (len + 4 <= size ? len : size - 4), "...", 4);
    return buf;
}

/* ---- messages ---- */

/* How the node wrote its guess: "44(3526)", "3(1145x)", "4(1461*)". */
static void add_written(strbuf *b, const mm_verify_report *r, const mm_problem *p)
{
    const mm_node *nd = &r->paths.t->nodes[p->node];
    char code[MM_MAX_PEGS + 1];
    uint32_t form = nd->flags & MM_NODE_FORM_MASK;
    if (nd->guess >= r->g->ncodes) {
        strbuf_addf(b, "%u", nd->count);
        return;
    }
    strbuf_addf(b, "%u(%s%s%s)", nd->count, mm_code_format(r->g, nd->guess, code),
                form == MM_NODE_FORM_X ? "x" : "", nd->flags & MM_NODE_STAR ? "*" : "");
}

/* what: the verb phrase for one guess and for several ("makes them",
 * "make them"). */
static void add_suggest(strbuf *b, const mm_verify_report *r, const mm_problem *p,
                        const char *one, const char *many)
{
    char code[MM_MAX_PEGS + 1];
    if (!p->nsuggest) {
        strbuf_addf(b, "; no guess %s", one);
        if (p->partial)
            strbuf_addf(b, " among the %u nearest (of %u: the search stopped)", p->ntried,
                        p->ncandidates);
        return;
    }
    bool one_only = p->nsuggest == 1 && !p->partial;
    strbuf_addf(b, "; %s that %s:", one_only ? "the one guess" : "guesses",
                one_only ? one : many);
    for (uint32_t i = 0; i < p->nsuggest_kept; i++)
        strbuf_addf(b, " %s%s", mm_code_format(r->g, p->suggest[i], code),
                    p->suggest_star >> i & 1u ? "*" : "");
    if (p->partial)
        strbuf_addf(b, " (%u found among the %u nearest of %u: the search stopped)",
                    p->nsuggest, p->ntried, p->ncandidates);
    else if (p->nsuggest > p->nsuggest_kept)
        strbuf_addf(b, " (%u of %u)", p->nsuggest_kept, p->nsuggest);
}

/* "guess 3526 does not make the stated parts: after B stated 3, true 2" */
static void add_partition(strbuf *b, const mm_verify_report *r, const mm_problem *p)
{
    const mm_game *g = r->g;
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    strbuf_addf(b, "guess %s does not make the stated parts:", mm_code_format(g, p->code, code));
    for (int s = 0, k = 0; s < g->nreplies; s++)
        if (s != g->win && p->stated_parts[s] != p->actual_parts[s])
            strbuf_addf(b, "%s after %s stated %u, true %u", k++ ? ";" : "",
                        mm_reply_format(g, s, reply), p->stated_parts[s], p->actual_parts[s]);
    if (!p->stated_parts[g->win] != !p->actual_parts[g->win])
        strbuf_addf(b, "; and it %s be the code, which the tree says it %s",
                    p->actual_parts[g->win] ? "can" : "cannot",
                    p->actual_parts[g->win] ? "cannot" : "can");
}

/* Who says whether the guess can be the code, by how the node was
 * written, and what it says. */
static void add_consistent(strbuf *b, const mm_verify_report *r, const mm_problem *p)
{
    const mm_node *nd = &r->paths.t->nodes[p->node];
    char code[MM_MAX_PEGS + 1];
    const char *how;
    uint32_t form = nd->flags & MM_NODE_FORM_MASK;
    if (form == MM_NODE_FORM_FULL)
        how = p->stated ? "its last part, 1," : "its last part, 0,";
    else if (nd->flags & MM_NODE_STAR)
        how = "its '*'";
    else if (form == MM_NODE_FORM_UNIQUE)
        how = "the missing '*'";
    else
        how = "the tree";
    mm_code_format(r->g, p->code, code);
    if (p->stated)
        strbuf_addf(b, "%s says %s can be the code, but it cannot", how, code);
    else
        strbuf_addf(b, "%s says %s cannot be the code, but it can", how, code);
}

static void add_marker(strbuf *b, const mm_verify_report *r, const mm_problem *p)
{
    char reply[MM_REPLY_MAX];
    switch (p->marker) {
    case MM_MARKER_BARE:
        strbuf_addf(b, "a count written alone means at most 2 codes, but %llu are possible",
                    (unsigned long long)p->actual);
        return;
    case MM_MARKER_UNIQUE:
        add_written(b, r, p);
        strbuf_addf(b, " says every reply identifies the code, but %s leaves %llu",
                    mm_reply_format(r->g, p->slot, reply), (unsigned long long)p->actual);
        return;
    case MM_MARKER_X:
        add_written(b, r, p);
        if (p->actual > 2)
            strbuf_addf(b, " says no reply leaves more than 2 codes, but %s leaves %llu",
                        mm_reply_format(r->g, p->slot, reply), (unsigned long long)p->actual);
        else
            strbuf_adds(b, " says some reply leaves 2 codes, but every reply identifies the code");
        return;
    case MM_MARKER_UNRESOLVED:
        add_written(b, r, p);
        strbuf_addf(b, " cannot be expanded: %llu codes are possible",
                    (unsigned long long)p->actual);
        return;
    }
}

static void add_coverage(strbuf *b, const mm_verify_report *r, const mm_problem *p)
{
    const mm_game *g = r->g;
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX], path[256];
    if (p->kind == MM_PROBLEM_FOUND_TWICE) {
        strbuf_addf(b, "code %s is found %llu times; also at %s",
                    mm_code_format(g, p->code, code), (unsigned long long)p->stated,
                    mm_paths_format(&r->paths, g, p->other, path, sizeof path));
        return;
    }
    const mm_node *nd = &r->paths.t->nodes[p->node];
    char at[MM_MAX_PEGS + 1] = "?";
    if (nd->guess < g->ncodes)
        mm_code_format(g, nd->guess, at);
    strbuf_addf(b, "code %s is never found: ", mm_code_format(g, p->code, code));
    if (p->slot < 0)
        strbuf_addf(b, "its true path stops at guess %s, which cannot be followed", at);
    else if (p->slot == g->win)
        strbuf_addf(b, "guess %s is the code but says it cannot be", at);
    else
        strbuf_addf(b, "guess %s replies %s, which has no child", at,
                    mm_reply_format(g, p->slot, reply));
}

char *mm_problem_format(const mm_verify_report *r, const mm_problem *p,
                        char *buf, size_t size)
{
    strbuf b = {0};
    if (!size)
        return buf;
    switch (p->kind) {
    case MM_PROBLEM_STRUCTURE:
        strbuf_adds(&b, p->note ? p->note : "malformed node");
        if (p->other != MM_NO_NODE)
            strbuf_addf(&b, " (node %u)", p->other);
        break;
    case MM_PROBLEM_NOT_CODE:
        strbuf_addf(&b, "guess %u is not a code of the game", p->code);
        break;
    case MM_PROBLEM_COUNT:
        strbuf_addf(&b, "stated %llu code%s, %llu possible", (unsigned long long)p->stated,
                    p->stated == 1 ? "" : "s", (unsigned long long)p->actual);
        if (p->parts_sum != p->stated)
            strbuf_addf(&b, " (its parts add up to %llu)", (unsigned long long)p->parts_sum);
        break;
    case MM_PROBLEM_PARTITION:
        add_partition(&b, r, p);
        if (p->searched)
            add_suggest(&b, r, p, "makes them", "make them");
        break;
    case MM_PROBLEM_CONSISTENT:
        add_consistent(&b, r, p);
        if (p->searched)
            add_suggest(&b, r, p, "would make it true", "would make it true");
        break;
    case MM_PROBLEM_MARKER:
        add_marker(&b, r, p);
        if (p->searched)
            add_suggest(&b, r, p, "would make it true", "would make it true");
        break;
    case MM_PROBLEM_FOUND_TWICE:
    case MM_PROBLEM_NOT_FOUND:
        add_coverage(&b, r, p);
        break;
    case MM_PROBLEM_KIND_COUNT:
        break;
    }
    snprintf(buf, size, "%s", b.data ? b.data : "");
    strbuf_release(&b);
    return buf;
}
