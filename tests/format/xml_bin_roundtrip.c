/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Round trips through XML or binary (argv[1] = "xml" or "bin") for every
 * one-step rule on MM(3,4), MM(4,6), 4N, Bulls and Cows and MM(5,6):
 * compile, write, read back strictly and leniently, compare node by node
 * and provenance, write again and compare bytes.  Also checks source
 * positions, that writing is deterministic, and provenance variants
 * (citation, first guess, consistent-only, none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/format.h"

#include "tests/check.h"

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_prov(const mm_tree *a, const mm_tree *b)
{
    return same_str(a->prov.rule, b->prov.rule) &&
           same_str(a->prov.citation, b->prov.citation) &&
           (!a->prov.rule || (a->prov.consistent_only == b->prov.consistent_only &&
                              a->prov.first == b->prov.first));
}

/* Write t, read it back both ways, write again; label names the case. */
static void round_trip(const mm_tree *t, mm_format fmt, const char *label)
{
    mm_write_opts wo = {.with_stats = true};
    char *b1 = NULL, *b2 = NULL;
    size_t l1, l2;
    mm_diag d;
    mm_tree r, rl;
    mm_diag_clear(&d);
    mm_tree_init(&r, 0, 0, false);
    mm_tree_init(&rl, 0, 0, false);
    if (mm_tree_write_mem(t, fmt, &wo, &b1, &l1, &d)) {
        FAIL("%s: write: %s", label, d.msg);
        return;
    }
    if (mm_format_detect((unsigned char *)b1, l1) != fmt)
        FAIL("%s: written file is not detected as %s", label, mm_format_name(fmt));
    if (mm_tree_read_mem(label, (unsigned char *)b1, l1, MM_FMT_AUTO, 0, &r, &d)) {
        FAIL("%s: read: %s:%lu:%lu (byte %lld): %s", label, d.file, d.line, d.col,
             (long long)d.offset, d.msg);
        goto out;
    }
    if (!mm_tree_equal(t, &r))
        FAIL("%s: tree read back differs", label);
    if (!same_prov(t, &r))
        FAIL("%s: provenance read back differs", label);
    if (!r.where)
        FAIL("%s: reader kept no source positions", label);
    else if (fmt == MM_FMT_XML && (r.where[0].line < 2 || r.where[r.nnodes - 1].line <= r.where[0].line))
        FAIL("%s: implausible XML positions %u, %u", label, r.where[0].line,
             r.where[r.nnodes - 1].line);
    else if (fmt == MM_FMT_BIN && (r.where[0].offset < 16 || r.where[0].offset >= (int64_t)l1))
        FAIL("%s: implausible binary offset %lld", label, (long long)r.where[0].offset);
    if (mm_tree_read_mem(label, (unsigned char *)b1, l1, fmt, MM_READ_LENIENT, &rl, &d))
        FAIL("%s: lenient read: %s", label, d.msg);
    else if (!mm_tree_equal(t, &rl))
        FAIL("%s: tree read leniently differs", label);
    if (mm_tree_write_mem(&r, fmt, &wo, &b2, &l2, &d))
        FAIL("%s: second write: %s", label, d.msg);
    else if (l1 != l2 || memcmp(b1, b2, l1))
        FAIL("%s: second write differs (%zu vs %zu bytes)", label, l1, l2);
out:
    free(b1);
    free(b2);
    mm_tree_release(&r);
    mm_tree_release(&rl);
}

/* The XML element of node 0 (the root) must be where where[] says. */
static void check_root_position(const mm_tree *t)
{
    mm_write_opts wo = {.with_stats = false};
    char *b;
    size_t l;
    mm_diag d;
    mm_tree r;
    if (mm_tree_write_mem(t, MM_FMT_XML, &wo, &b, &l, &d)) {
        FAIL("position: write: %s", d.msg);
        return;
    }
    if (mm_tree_read_mem("pos", (unsigned char *)b, l, MM_FMT_XML, 0, &r, &d)) {
        FAIL("position: read: %s", d.msg);
        free(b);
        return;
    }
    /* Find the line and column of the first "<node" by hand. */
    const char *p = strstr(b, "<node");
    unsigned line = 1, col = 1;
    for (const char *q = b; q < p; q++) {
        if (*q == '\n')
            line++, col = 1;
        else
            col++;
    }
    if (r.where[0].line != line || r.where[0].col != col)
        FAIL("position: root at %u:%u, where[] says %u:%u", line, col, r.where[0].line,
             r.where[0].col);
    free(b);
    mm_tree_release(&r);
}

/* Hand-made documents of tests/format/good: what the reader makes of
 * prefixes, CDATA, comments, processing instructions, leading zeros. */
static void check_good(const char *dir)
{
    char path[4096];
    mm_tree t;
    mm_diag d;
    mm_diag_clear(&d);
    snprintf(path, sizeof path, "%s/citation.xml", dir);
    if (mm_tree_read_file(path, MM_FMT_AUTO, 0, &t, &d)) {
        FAIL("%s: %s", path, d.msg);
    } else {
        static const char want[] = "A. N. Author, \"Two pegs\" \xe2\x80\x94 Journal of Tiny "
                                   "Games (2024), p. 1\n<as printed> & checked";
        if (t.prov.rule || !same_str(t.prov.citation, want))
            FAIL("%s: citation '%s'", path, t.prov.citation ? t.prov.citation : "(none)");
        if (t.nnodes != 4 || t.nodes[0].count != 4 || t.pegs != 2 || t.colors != 2 || !t.repeat)
            FAIL("%s: not the MM(2,2) tree", path);
        mm_tree_release(&t);
    }
    snprintf(path, sizeof path, "%s/options.xml", dir);
    if (mm_tree_read_file(path, MM_FMT_AUTO, 0, &t, &d)) {
        FAIL("%s: %s", path, d.msg);
    } else {
        if (!same_str(t.prov.rule, "my-rule_2.0") || !t.prov.consistent_only ||
            t.prov.first != 0 || t.prov.citation || t.repeat)
            FAIL("%s: provenance or game read wrong", path);
        mm_tree_release(&t);
    }
}

/* A lenient read keeps a wrong count as stated, where a strict one names
 * the node's place. */
static void check_lenient(const char *gooddir)
{
    char path[4096];
    mm_tree t;
    mm_diag d;
    mm_diag_clear(&d);
    snprintf(path, sizeof path, "%s/../bad/wrong_count.xml", gooddir);
    if (mm_tree_read_file(path, MM_FMT_AUTO, 0, &t, &d) != MM_ERR_INPUT || d.line != 15 ||
        d.col != 7)
        FAIL("%s: strict read: %lu:%lu %s", path, d.line, d.col, d.msg);
    if (mm_tree_read_file(path, MM_FMT_AUTO, MM_READ_LENIENT, &t, &d)) {
        FAIL("%s: lenient read: %s", path, d.msg);
        return;
    }
    uint32_t c = mm_tree_child(&t, 0, 4); /* reply 1,0: slots 0,2 0,1 0,0 1,1 1,0 */
    if (t.nnodes != 4 || c == MM_NO_NODE || t.nodes[c].count != 3 ||
        t.where[c].line != 15 || t.where[c].col != 7)
        FAIL("%s: lenient read did not keep count 3 at 15:7", path);
    mm_tree_release(&t);
}

int main(int argc, char **argv)
{
    static const struct { int p, c; bool rep; const char *name; } games[] = {
        {3, 4, true, "MM(3,4)"}, {4, 6, true, "MM(4,6)"}, {4, 4, false, "4N"},
        {4, 10, false, "Bulls and Cows"}, {5, 6, true, "MM(5,6)"},
    };
    mm_format fmt = argc > 1 && !strcmp(argv[1], "bin") ? MM_FMT_BIN : MM_FMT_XML;
    int cases = 0;
    if (fmt == MM_FMT_XML && argc > 2) {
        check_good(argv[2]);
        check_lenient(argv[2]);
    }
    for (size_t gi = 0; gi < sizeof games / sizeof *games; gi++) {
        mm_game g;
        mm_diag d;
        mm_diag_clear(&d);
        if (mm_game_init(&g, games[gi].p, games[gi].c, games[gi].rep, &d)) {
            FAIL("%s: %s", games[gi].name, d.msg);
            continue;
        }
        for (int rule = 0; rule < MM_RULE_COUNT_ONE_STEP; rule++) {
            mm_compile_opts o;
            mm_tree t;
            char label[64];
            mm_compile_opts_init(&o);
            o.rule = (mm_rule)rule;
            snprintf(label, sizeof label, "%s %s", games[gi].name, mm_rule_name(o.rule));
            if (mm_compile(&g, &o, &t, &d)) {
                FAIL("%s: compile: %s", label, d.msg);
                continue;
            }
            if (!t.prov.rule || strcmp(t.prov.rule, mm_rule_name(o.rule)))
                FAIL("%s: compiled tree does not name its rule", label);
            round_trip(&t, fmt, label);
            cases++;
            if (gi == 1 && rule == MM_RULE_KNUTH) {
                char first[8];
                /* Other provenances: a citation (non-ASCII, two lines),
                 * rule options, nothing at all. */
                mm_tree_set_citation(&t, "Knuth 1976, Figure 1 \xe2\x80\x94 \"as printed\"\n"
                                         "<transcribed> & checked\twith tab");
                round_trip(&t, fmt, "MM(4,6) knuth + citation");
                mm_tree_set_rule(&t, "knuth", true, 7);
                round_trip(&t, fmt, "MM(4,6) knuth + options");
                mm_tree_set_rule(&t, NULL, false, MM_NO_CODE);
                mm_tree_set_citation(&t, NULL);
                round_trip(&t, fmt, "MM(4,6) no provenance");
                if (strcmp(mm_code_format(&g, t.nodes[0].guess, first), "1122"))
                    FAIL("MM(4,6) knuth: first guess %s, not 1122", first);
                if (fmt == MM_FMT_XML)
                    check_root_position(&t);
                cases += 3;
            }
            mm_tree_release(&t);
        }
        mm_game_release(&g);
    }
    printf("%s: %d round trips, %d failures\n", mm_format_name(fmt), cases, failures);
    return failures ? 1 : 0;
}
