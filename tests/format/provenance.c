/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * Provenance travels: a tree's rule, its options, whether it is proven
 * optimal (with the lower bounds of an unproven one) and its citation
 * survive every format and every chain of conversions, field for field;
 * files written before these fields existed (binary version 1, XML
 * without <proof> or the new <rule> attributes) still read; and a false
 * lower bound (above the tree's own total) is refused by every reader.
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

/* Every field of mm_provenance; the bounds only where they mean
 * something (an unproven tree). */
static bool same_prov(const mm_provenance *a, const mm_provenance *b)
{
    bool unproven = a->proof == MM_PROOF_UNPROVEN;
    return same_str(a->rule, b->rule) && a->consistent_only == b->consistent_only &&
           a->first == b->first && same_str(a->tie_break, b->tie_break) &&
           a->max_depth == b->max_depth && a->extra_colors == b->extra_colors &&
           a->proof == b->proof && same_str(a->citation, b->citation) &&
           (!unproven || (a->lower_total == b->lower_total &&
                          a->lower_worst == b->lower_worst));
}

static void show(const char *label, const mm_provenance *p)
{
    printf("  %s: rule %s%s first %u tie %s depth %d extra %d proof %d lower %llu/%d cite %s\n",
           label, p->rule ? p->rule : "-", p->consistent_only ? " consistent-only" : "",
           p->first, p->tie_break ? p->tie_break : "-", p->max_depth, p->extra_colors,
           (int)p->proof, (unsigned long long)p->lower_total, p->lower_worst,
           p->citation ? p->citation : "-");
}

/* Write t in fmt and read it back strictly into r. */
static bool through(const mm_tree *t, mm_format fmt, mm_tree *r, const char *label)
{
    char *buf = NULL;
    size_t len;
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree_init(r, 0, 0, false);
    if (mm_tree_write_mem(t, fmt, NULL, &buf, &len, &d)) {
        FAIL("%s: write %s: %s", label, mm_format_name(fmt), d.msg);
        return false;
    }
    mm_status st = mm_tree_read_mem(label, (unsigned char *)buf, len, MM_FMT_AUTO, 0, r, &d);
    if (st)
        FAIL("%s: read %s back: %lu:%lu byte %lld: %s", label, mm_format_name(fmt), d.line,
             d.col, (long long)d.offset, d.msg);
    free(buf);
    return st == MM_OK;
}

/* knuth -> irving -> xml -> bin -> knuth, and each format on its own,
 * comparing the tree and every provenance field at each step. */
static void chain(const mm_tree *t, const char *label)
{
    static const mm_format order[] = {MM_FMT_KNUTH, MM_FMT_IRVING, MM_FMT_XML, MM_FMT_BIN,
                                      MM_FMT_KNUTH};
    mm_tree cur, next;
    char step[128];
    if (!through(t, MM_FMT_BIN, &cur, label))
        return;
    mm_tree_release(&cur);
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        const mm_tree *from = i ? &cur : t;
        snprintf(step, sizeof step, "%s, step %zu (%s)", label, i + 1, mm_format_name(order[i]));
        if (!through(from, order[i], &next, step)) {
            if (i)
                mm_tree_release(&cur);
            return;
        }
        if (!mm_tree_equal(t, &next))
            FAIL("%s: the tree changed", step);
        if (!same_prov(&t->prov, &next.prov)) {
            FAIL("%s: the provenance changed", step);
            show("want", &t->prov);
            show("got", &next.prov);
        }
        if (i)
            mm_tree_release(&cur);
        cur = next;
    }
    mm_tree_release(&cur);
}

/* Every format refuses a tree whose lower bound its own total beats. */
static void false_bound(mm_tree *t, uint64_t total)
{
    static const mm_format fmts[] = {MM_FMT_KNUTH, MM_FMT_XML, MM_FMT_BIN};
    t->prov.proof = MM_PROOF_UNPROVEN;
    t->prov.lower_total = total + 1;
    t->prov.lower_worst = 0;
    char want[96];
    snprintf(want, sizeof want, "lower bound %llu is above the tree's own total, %llu",
             (unsigned long long)total + 1, (unsigned long long)total);
    for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++) {
        char *buf = NULL;
        size_t len;
        mm_diag d;
        mm_tree r;
        mm_diag_clear(&d);
        if (mm_tree_write_mem(t, fmts[i], NULL, &buf, &len, &d)) {
            FAIL("false bound: write %s: %s", mm_format_name(fmts[i]), d.msg);
            continue;
        }
        mm_status st = mm_tree_read_mem("f", (unsigned char *)buf, len, MM_FMT_AUTO, 0, &r, &d);
        if (st != MM_ERR_INPUT || !strstr(d.msg, want) || (!d.line && d.offset < 0))
            FAIL("false bound in %s: status %d, %lu:%lu byte %lld '%s'",
                 mm_format_name(fmts[i]), st, d.line, d.col, (long long)d.offset, d.msg);
        if (!st)
            mm_tree_release(&r);
        free(buf);
    }
}

/* Files of mmtree 0.1 read as they did: no proof, no new options. */
static void old_files(void)
{
    /* format/binary.md's example, version 1. */
    static const unsigned char v1[25] = {
        0x89, 0x4D, 0x4D, 0x54, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x01, 0x02, 0x01, 0x02,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0xE0, 0xB5, 0x76, 0xC5, 0xFA,
    };
    static const char xml1[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<mmtree xmlns=\"urn:mmtree:tree:1\">\n"
        "  <game pegs=\"1\" colors=\"2\" repeat=\"true\"/>\n"
        "  <provenance>\n"
        "    <rule name=\"knuth\" consistent-only=\"false\" first=\"1\"/>\n"
        "    <citation>An old file</citation>\n"
        "  </provenance>\n"
        "  <tree>\n"
        "    <node guess=\"1\" count=\"2\">\n"
        "      <node reply=\"0,0\" guess=\"2\" count=\"1\"/>\n"
        "    </node>\n"
        "  </tree>\n"
        "</mmtree>\n";
    mm_tree a, b;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_tree_read_mem("v1.mmt", v1, sizeof v1, MM_FMT_AUTO, 0, &a, &d)) {
        FAIL("binary version 1: %s", d.msg);
        return;
    }
    if (a.nnodes != 2 || a.prov.rule || a.prov.proof != MM_PROOF_NONE || a.prov.tie_break)
        FAIL("binary version 1: %u nodes, proof %d", a.nnodes, (int)a.prov.proof);
    if (mm_tree_read_mem("old.xml", (const unsigned char *)xml1, strlen(xml1), MM_FMT_AUTO, 0,
                         &b, &d)) {
        FAIL("XML without <proof>: %s", d.msg);
        mm_tree_release(&a);
        return;
    }
    if (!mm_tree_equal(&a, &b) || !same_str(b.prov.rule, "knuth") || b.prov.first != 0 ||
        b.prov.proof != MM_PROOF_NONE || b.prov.tie_break || b.prov.max_depth ||
        b.prov.extra_colors || !same_str(b.prov.citation, "An old file"))
        FAIL("XML without <proof>: not the tree or the provenance it states");
    /* Writing either back without new fields gives version 1 again. */
    char *buf = NULL;
    size_t len;
    if (mm_tree_write_mem(&a, MM_FMT_BIN, NULL, &buf, &len, &d) || len != sizeof v1 ||
        memcmp(buf, v1, sizeof v1))
        FAIL("a tree without version 2 fields is not written as version 1");
    free(buf);
    mm_tree_release(&a);
    mm_tree_release(&b);
}

int main(void)
{
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_diag d;
    mm_stats s;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 3, 4, true, &d) || mm_compile(&g, &o, &t, &d)) {
        printf("FAIL: MM(3,4): %s\n", d.msg);
        return 1;
    }
    mm_tree_stats(&t, &s);

    /* An unproven optimal tree with every option. */
    mm_tree_set_rule(&t, "optimal-worst", true, t.nodes[0].guess);
    mm_tree_set_tie_break(&t, "last");
    mm_tree_set_citation(&t, "A test tree, \xc3\xa9t\xc3\xa9 2026");
    t.prov.max_depth = 7;
    t.prov.extra_colors = 2;
    t.prov.proof = MM_PROOF_UNPROVEN;
    t.prov.lower_total = s.total - 3;
    t.prov.lower_worst = s.worst;
    chain(&t, "unproven, every option");
    /* Proven, no options, no citation. */
    mm_tree_set_tie_break(&t, NULL);
    mm_tree_set_citation(&t, NULL);
    mm_tree_set_rule(&t, "optimal", false, MM_NO_CODE);
    t.prov.max_depth = t.prov.extra_colors = 0;
    t.prov.proof = MM_PROOF_PROVEN;
    chain(&t, "proven");
    /* A published tree: a citation and nothing else. */
    mm_tree_set_rule(&t, NULL, false, MM_NO_CODE);
    mm_tree_set_citation(&t, "Somebody, 1990");
    t.prov.proof = MM_PROOF_NONE;
    chain(&t, "citation only");
    /* Unproven without a worst-case bound, no rule. */
    t.prov.proof = MM_PROOF_UNPROVEN;
    t.prov.lower_total = s.codes;
    t.prov.lower_worst = 0;
    chain(&t, "unproven, total bound only");

    false_bound(&t, s.total);
    old_files();

    mm_tree_release(&t);
    mm_game_release(&g);
    if (!failures)
        printf("ok\n");
    return failures ? 1 : 0;
}
