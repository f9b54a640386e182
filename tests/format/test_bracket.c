/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The bracket notations: round trips of compiled trees for every one-step
 * rule on five games, Knuth's Figure 1, the expansion convention, strict
 * and lenient reading, names and hostile input (format/bracket.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtree/compile.h"
#include "mmtree/format.h"


#include "tests/check.h"

static mm_status read_text(const char *text, mm_format fmt, unsigned flags, mm_tree *t,
                           mm_diag *d)
{
    mm_diag_clear(d);
    return mm_tree_read_mem("t.txt", (const unsigned char *)text, strlen(text), fmt, flags,
                            t, d);
}

/* The text of line n (1-based) of s, in a static buffer. */
static const char *line_of(const char *s, int n)
{
    static char buf[4096];
    for (; n > 1 && s; n--)
        if ((s = strchr(s, '\n')))
            s++;
    if (!s)
        return "";
    size_t len = strcspn(s, "\n");
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return buf;
}

static size_t longest_line(const char *s)
{
    size_t most = 0;
    while (*s) {
        size_t n = strcspn(s, "\n");
        if (n > most)
            most = n;
        s += n + (s[n] == '\n');
    }
    return most;
}

static unsigned count_form(const mm_tree *t, uint32_t form)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < t->nnodes; i++)
        n += (t->nodes[i].flags & MM_NODE_FORM_MASK) == form;
    return n;
}

/* write -> read -> equal -> write -> identical, for one dialect and options. */
static void round_trip(const mm_tree *t, const char *what, mm_format fmt, int names, int width)
{
    mm_write_opts o = {.name_subtrees = names, .line_width = width};
    char *a = NULL, *b = NULL;
    size_t alen, blen;
    mm_diag d;
    mm_tree r;
    mm_diag_clear(&d);
    mm_status st = mm_tree_write_mem(t, fmt, &o, &a, &alen, &d);
    CHECK(!st, "%s %s: write: %s", what, mm_format_name(fmt), d.msg);
    if (st)
        return;
    st = mm_tree_read_mem("rt", (unsigned char *)a, alen, MM_FMT_AUTO, 0, &r, &d);
    CHECK(!st, "%s %s names=%d: read: %lu:%lu: %s", what, mm_format_name(fmt), names,
          d.line, d.col, d.msg);
    if (!st) {
        CHECK(mm_tree_equal(t, &r), "%s %s names=%d: tree differs after reading", what,
              mm_format_name(fmt), names);
        CHECK(r.where && r.where[0].line >= 2, "%s: root position not recorded", what);
        CHECK(r.prov.rule && t->prov.rule && !strcmp(r.prov.rule, t->prov.rule),
              "%s: rule lost", what);
        st = mm_tree_write_mem(&r, fmt, &o, &b, &blen, &d);
        CHECK(!st && blen == alen && !memcmp(a, b, alen),
              "%s %s names=%d: second write differs", what, mm_format_name(fmt), names);
        /* The text uses the condensed forms, and only those it may. */
        if (fmt == MM_FMT_KNUTH && t->nodes[0].count > 100) {
            CHECK(count_form(&r, MM_NODE_FORM_BARE) > 0 && count_form(&r, MM_NODE_FORM_UNIQUE) > 0,
                  "%s: knuth text without bare or n(y) forms", what);
            CHECK(!strchr(a, '*'), "%s: '*' in knuth text", what);
        }
        if (fmt == MM_FMT_IRVING)
            CHECK(!strstr(a, "x)"), "%s: 'x' form in irving text", what);
        CHECK(width || longest_line(a) <= 78, "%s: a line of %zu columns", what, longest_line(a));
        mm_tree_release(&r);
    }
    free(a);
    free(b);
}

static void test_round_trips(void)
{
    static const struct { int p, c; bool repeat; const char *name; } games[] = {
        {3, 4, true, "MM(3,4)"}, {4, 6, true, "MM(4,6)"}, {4, 4, false, "4N"},
        {4, 10, false, "Bulls and Cows"}, {5, 6, true, "MM(5,6)"},
    };
    for (size_t gi = 0; gi < sizeof games / sizeof *games; gi++) {
        mm_game g;
        mm_diag d;
        mm_diag_clear(&d);
        if (mm_game_init(&g, games[gi].p, games[gi].c, games[gi].repeat, &d)) {
            CHECK(0, "%s", d.msg);
            continue;
        }
        for (int r = 0; r < MM_RULE_COUNT_ONE_STEP; r++) {
            mm_compile_opts o;
            mm_tree t;
            char what[64];
            mm_compile_opts_init(&o);
            o.rule = (mm_rule)r;
            snprintf(what, sizeof what, "%s %s", games[gi].name, mm_rule_name(o.rule));
            if (mm_compile(&g, &o, &t, &d)) {
                CHECK(0, "%s: compile: %s", what, d.msg);
                continue;
            }
            round_trip(&t, what, MM_FMT_KNUTH, 0, 0);
            round_trip(&t, what, MM_FMT_IRVING, 0, 0);
            round_trip(&t, what, MM_FMT_KNUTH, 20, 0);
            round_trip(&t, what, MM_FMT_IRVING, 3, 50);
            mm_tree_release(&t);
        }
        mm_game_release(&g);
    }
}

/* Knuth 1976, Figure 1 ("The Computer as Master Mind", J. Recr. Math. 9).  With
 * names for the maximal sub-trees of at least 20 codes, the knuth rule's
 * tree is the figure; the root and sub-trees A, B, D and G below are the
 * transcription's text with its spaces removed (C is too; E, F, H and I
 * differ from it only where the scan misread ',' or ';'). */
static void test_knuth_figure(void)
{
    mm_game g;
    mm_tree t;
    mm_compile_opts o;
    mm_diag d;
    char *text = NULL;
    size_t len;
    mm_diag_clear(&d);
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&g, 4, 6, true, &d) || mm_compile(&g, &o, &t, &d)) {
        CHECK(0, "%s", d.msg);
        return;
    }
    mm_write_opts w = {0};
    CHECK(!mm_tree_write_mem(&t, MM_FMT_KNUTH, &w, &text, &len, &d), "%s", d.msg);
    CHECK(!strcmp(line_of(text, 1), "# mmtree pegs=4 colors=6 repeat=yes notation=knuth"),
          "header: %s", line_of(text, 1));
    CHECK(!strcmp(line_of(text, 2), "# rule: knuth"), "rule line: %s", line_of(text, 2));
    CHECK(!strncmp(line_of(text, 3), "1296(1122: 1,16(1213:", 21), "first line: %s",
          line_of(text, 3));
    CHECK(!strcmp(line_of(text, 3),
                  "1296(1122: 1,16(1213: 0,0,0,0,0;1,4(1415),3(1145),0;1,3(4115),3(1145);0,1;0),"),
          "first line: %s", line_of(text, 3));
    free(text);
    w.name_subtrees = 20;
    w.line_width = 100000;
    CHECK(!mm_tree_write_mem(&t, MM_FMT_KNUTH, &w, &text, &len, &d), "%s", d.msg);
    CHECK(!strcmp(line_of(text, 3),
                  "1296(1122: 1,16(1213: 0,0,0,0,0;1,4(1415),3(1145),0;1,3(4115),3(1145);0,1;0),"
                  "96A,256B,256C;0,36D,208E,256F;4(1213),32G,114H;0,20I;1)"),
          "root line: %s", line_of(text, 3));
    CHECK(!strcmp(line_of(text, 4), "where"), "line 4: %s", line_of(text, 4));
    CHECK(!strcmp(line_of(text, 5),
                  "A = (2344: 0,2,16(3215: 0,0,0,0,0;1,2,1,1;2,3(3231),2;0,3(3213);1),14(5215: 0,0,"
                  "0,0,0;0,1,3(3511),3(3611);1,1,2;0,2;1),4(1515);0,6(2413),18(2415: 1,1,0,0,0;1,2,"
                  "3(2253),3(2236);1,2,2;0,1;1),15(2256x);0,4(2234),14(3315x);0,3(2314);0)"),
          "A: %s", line_of(text, 5));
    CHECK(!strcmp(line_of(text, 6),
                  "B = (2344: 0,7(2335),41(3235: 0,0,2,3(4613),2;0,3(5263),6(3413),6(3416);2,4(3256"
                  "),6(1336);0,6(1536);1),44(3516: 1,4(4651),6(6255),1,0;3(5613),7(1461),5(4551),1;"
                  "3(1113),5(3551),3(4515);0,4(1145);1),16(5515: 0,0,1,1,0;0,2,2,1;1,1,3(1516);0,3("
                  "1516);1);2,21(3245: 1,3(2436),0,0,0;2,2,2,0;2,3(3234),2;0,3(3243);1),42(4514: 1,"
                  "1,7(2456),4(2635),3(2636);0,4(1356),5(4361),6(1635);2,2,3(3614);0,3(4414);1),34("
                  "3315: 0,0,3(5641),4(2566),1;1,4(5361),4(5614),5(6614);2,4(3331),1;0,4(3316);1);3"
                  "(2434),13(2425x),23(1545: 0,1,3(2654),3(2353),4(1136);0,2,4(2564),3(2335);0,0,2;"
                  "0,1;0);0,9(1335x);1)"),
          "B: %s", line_of(text, 6));
    CHECK(!strcmp(line_of(text, 8),
                  "D = (1213: 1,4(1145),3(1415),0,0;0,6(1114x),7(2412x),0;2,4(1145),4(1145x);0,"
                  "4(1114x);1)"),
          "D: %s", line_of(text, 8));
    CHECK(!strcmp(line_of(text, 11),
                  "G = (1223: 1,4(2145),3(4115),0,0;0,5(2145),6(4512),0;2,4(1245),3(1415);0,"
                  "3(1145);1)"),
          "G: %s", line_of(text, 11));
    CHECK(!strncmp(line_of(text, 13), "I = (1223: ", 11) && !*line_of(text, 14),
          "nine names: %s", line_of(text, 13));
    /* Figure 1 as Knuth laid it out reads back (names, 'where' after a
     * comma, line breaks anywhere) into the same tree. */
    mm_tree r;
    char *fig = malloc(len + 64);
    const char *where = strstr(text, "\nwhere\n");
    if (fig && where) {
        size_t head = (size_t)(where - text);
        memcpy(fig, text, head);
        strcpy(fig + head, ",\n  where\n");
        strcat(fig, where + 7);
        CHECK(!read_text(fig, MM_FMT_AUTO, 0, &r, &d), "%lu:%lu: %s", d.line, d.col, d.msg);
        CHECK(mm_tree_equal(&t, &r), "figure reads into another tree");
        mm_tree_release(&r);
    }
    free(fig);
    free(text);
    mm_tree_release(&t);
    mm_game_release(&g);
}

/* The expansion convention on MM(2,3) (bracket.md, section 8's example). */
static void test_convention(void)
{
    mm_tree t;
    mm_diag d;
    mm_game g;
    mm_diag_clear(&d);
    mm_game_init(&g, 2, 3, true, &d);
    /* No header: pegs from the codes, colours and repetition from 9 = 3^2. */
    mm_status st = read_text("9(11: 0,0,4(22x);0,4(12);1)\n", MM_FMT_AUTO, 0, &t, &d);
    CHECK(!st, "%s", d.msg);
    if (st)
        return;
    CHECK(t.pegs == 2 && t.colors == 3 && t.repeat, "game %d %d %d", t.pegs, t.colors, t.repeat);
    int s00 = mm_reply_slot(&g, 0, 0), s10 = mm_reply_slot(&g, 1, 0);
    uint32_t x = mm_tree_child(&t, 0, s00);
    CHECK(x != MM_NO_NODE && t.nodes[x].guess == 4 /* 22 */ && t.nodes[x].count == 4 &&
              (t.nodes[x].flags & MM_NODE_FORM_MASK) == MM_NODE_FORM_X,
          "4(22x) node");
    uint32_t two = x != MM_NO_NODE ? mm_tree_child(&t, x, s10) : MM_NO_NODE;
    /* 23 and 32 are left: guess the first in lexical order, 23, then 32. */
    CHECK(two != MM_NO_NODE && t.nodes[two].guess == 5 && t.nodes[two].count == 2 &&
              (t.nodes[two].flags & MM_NODE_FORM_MASK) == MM_NODE_FORM_IMPLIED,
          "implied 2 guesses 23");
    if (two != MM_NO_NODE && t.nodes[two].replies) {
        uint32_t leaf = t.nodes[two].child;
        CHECK(t.nodes[leaf].guess == 7 && t.nodes[leaf].count == 1 && !t.nodes[leaf].replies,
              "then 32");
    }
    CHECK(t.where[0].line == 1 && t.where[0].col == 1, "root at %u:%u", t.where[0].line,
          t.where[0].col);
    CHECK(x != MM_NO_NODE && t.where[x].col == 11, "4(22x) at col %u", t.where[x].col);
    CHECK(t.nnodes == 9, "nodes %u", t.nnodes);
    mm_tree_release(&t);

    /* The same tree in irving notation: 5 slots, no (1,1); the same tree
     * with named sub-trees, one used twice. */
    mm_tree k, i;
    CHECK(!read_text("9(11: 0,0,4(22x);0,4(12);1)", MM_FMT_AUTO, 0, &k, &d), "%s", d.msg);
    st = read_text("# mmtree pegs=2 colors=3 repeat=yes\n"
                   "9(11: 0,0,4(22: 0,0,1;2(23);1);4(12);1)", MM_FMT_AUTO, 0, &i, &d);
    CHECK(!st && mm_tree_equal(&k, &i), "irving: %s", d.msg);
    if (!st)
        mm_tree_release(&i);
    st = read_text("9(11: 0,0,4A;0,4B;1) where A = (22x) B = (12)", MM_FMT_AUTO, 0, &i, &d);
    CHECK(!st && mm_tree_equal(&k, &i), "names: %s", d.msg);
    if (!st)
        mm_tree_release(&i);
    /* Each name stands for one sub-tree: used twice, it would let a few
     * lines expand to exponentially many nodes. */
    st = read_text("9(11: 0,0,4A;0,4A;1)\nA = (22x)", MM_FMT_AUTO, MM_READ_LENIENT, &i, &d);
    CHECK(st == MM_ERR_INPUT && d.line == 1 && d.col == 16 &&
              strstr(d.msg, "'A' is used twice (first at 1:11)"),
          "a name used twice: %lu:%lu %s", d.line, d.col, d.msg);
    if (!st)
        mm_tree_release(&i);
    mm_tree_release(&k);
    mm_game_release(&g);
}

static void expect_error(const char *text, unsigned flags, mm_status want, unsigned long line,
                         unsigned long col, const char *msg_part)
{
    mm_tree t;
    mm_diag d;
    mm_status st = read_text(text, MM_FMT_AUTO, flags, &t, &d);
    CHECK(st == want && d.line == line && d.col == col && strstr(d.msg, msg_part),
          "%.40s...: got status %d at %lu:%lu '%s', want %d at %lu:%lu '%s'", text, st, d.line,
          d.col, d.msg, want, line, col, msg_part);
    if (!st)
        mm_tree_release(&t);
}

#define HDR "# mmtree pegs=2 colors=3 repeat=yes\n"

static void test_errors(void)
{
    expect_error(HDR "9(11: 0,0,4(22x);0,4(12);1", 0, MM_ERR_INPUT, 2, 27, "not closed");
    expect_error(HDR "9(11: 0,0,4(22x);0,4(12);1))", 0, MM_ERR_INPUT, 2, 28, "expected");
    expect_error(HDR "9(11: 0,0,4A;0,4(12);1)\nB = (22x)", 0, MM_ERR_INPUT, 2, 12,
                 "'A' is not defined");
    expect_error(HDR "9(11: 0,0,4A;0,4(12);1)\nA = (22x)\nA = (22x)", 0, MM_ERR_INPUT, 4, 1,
                 "defined twice (first at 3:1)");
    expect_error(HDR "9(11: 0,0,4A;0,4(12);1)\nA = (22: 0,0,1;0,2B;1)\nB = (23: 0,0,0;0,1A;1)",
                 0, MM_ERR_INPUT, 4, 18, "'A' is used twice (first at 2:11)");
    expect_error(HDR "9(11: 0,0,4(22x);0,4(12);1)\nA = (22: 0,0,1;0,2A;1)", MM_READ_LENIENT,
                 MM_ERR_INPUT, 3, 1, "'A' is defined but never used by the tree (only inside "
                 "itself)");
    expect_error(HDR "9(11: 0,0,4A;0,4(12);1)\nA = (22x)\nC = (22x)", 0, MM_ERR_INPUT, 4, 1,
                 "never used");
    expect_error(HDR "9(11: 0,0,4(24x);0,4(12);1)", 0, MM_ERR_INPUT, 2, 13, "not a code");
    expect_error(HDR "9(11: 0,0,4(222x);0,4(12);1)", 0, MM_ERR_INPUT, 2, 13, "3 pegs");
    expect_error(HDR "9(11: 0,0,4(22x),0;0,4(12);1)", 0, MM_ERR_INPUT, 2, 1, "writes 7 slots");
    expect_error(HDR "9(11: 0,0,4(22x);0;4(12);1)", 0, MM_ERR_INPUT, 2, 1, "groups of 3,2,1");
    expect_error(HDR "9(11: 0,0,4(22x);0,3(12);2)", 0, MM_ERR_INPUT, 2, 26, "last slot");
    expect_error(HDR "18446744073709551616(11: 0,0,4(22x);0,4(12);1)", 0, MM_ERR_LIMIT, 2, 1,
                 "larger than");
    expect_error(HDR "9(11: 0,0,3;0,4(12);1)", 0, MM_ERR_INPUT, 2, 11, "needs a guess");
    expect_error(HDR "9(11: 0,0,4(22x);0,4(12*);1)", 0, MM_ERR_INPUT, 2, 20, "mixes");
    expect_error("# mmtree pegs=2 colors=3 repeat=yes notation=knuth\n"
                 "9(11: 0,0,4(22x);0,4(12*);1)", 0, MM_ERR_INPUT, 2, 24, "irving notation");
    expect_error("# mmtree pegs=2 colors=3\n9(11x)", 0, MM_ERR_INPUT, 1, 1, "repeat=");
    expect_error("# mmtree pegs=2 colors=3 repeat=maybe\n9(11x)", 0, MM_ERR_INPUT, 1, 26,
                 "bad header value");
    expect_error("# mmtree pegs=9 colors=3 repeat=yes\n9(11x)", 0, MM_ERR_INPUT, 1, 10,
                 "bad header value");
    expect_error("# mmtree pegs=4 colors=3 repeat=no\n9(11x)", 0, MM_ERR_INPUT, 1, 1,
                 "distinct colours");
    /* Without a header: 1-peg games and files without codes need one. */
    expect_error("3(1: 0,1;1)", 0, MM_ERR_INPUT, 1, 1, "more than one game fits");
    expect_error("2", 0, MM_ERR_INPUT, 1, 1, "writes no code");
    expect_error("10(11: 0,0,4(22x);0,4(12);1)", 0, MM_ERR_INPUT, 1, 1, "no game fits");
    /* Strict: every stated count and marker is checked, at its node; the
     * root's before the game is set up. */
    expect_error("# mmtree pegs=5 colors=16 repeat=yes\n9(11x)", 0, MM_ERR_INPUT, 2, 1,
                 "the root states 9 codes, but MM(5,16) has 1048576");
    /* A game beyond MM_MAX_CODES is refused at its header line, with its
     * size, in either mode. */
    expect_error("# mmtree pegs=8 colors=8 repeat=yes\n9(11x)", 0, MM_ERR_LIMIT, 1, 1,
                 "MM(8,8) has 16777216 codes, more than the 1048576 mmtree supports");
    expect_error("# mmtree pegs=6 colors=11 repeat=yes\n9(11x)", MM_READ_LENIENT, MM_ERR_LIMIT,
                 1, 1, "MM(6,11) has 1771561 codes");
    expect_error(HDR "9(11: 0,0,4(22x);0,4(12);0)", 0, MM_ERR_INPUT, 2, 1, "add up to 8");
    expect_error(HDR "9(11: 0,0,5(22x);0,3(12);1)", 0, MM_ERR_INPUT, 2, 11,
                 "states 5 codes, but 4");
    expect_error(HDR "9(11: 0,0,4(22);0,4(12);1)", 0, MM_ERR_INPUT, 2, 11,
                 "reply (1,0) leaves 2 codes");
    expect_error(HDR "9(11: 0,0,4(22x);1,3(12);1)", 0, MM_ERR_INPUT, 2, 18,
                 "states 1 codes, but 0");
    expect_error(HDR "9(11: 0,0,4(22: 0,0,2;0,2;0);0,4(12);1)", 0, MM_ERR_INPUT, 2, 11,
                 "the last slot says 22 cannot be the code, but it can");
    expect_error(HDR "9(11: 0,0,4(22: 0,0,2;0,1;1);0,4(12);1)", 0, MM_ERR_INPUT, 2, 21,
                 "states 2 codes, but 1");
    /* irving: the '*' must tell the truth. */
    expect_error(HDR "9(11: 0,0,4(22: 0,0,1;2(23);1);4(12*);1)", 0, MM_ERR_INPUT, 2, 36,
                 "'*' says 12 cannot be the code, but it can");
    expect_error(HDR "9(11: 0,0,4(22: 0,0,1;2(23);1);4(12);1)\n"
                 "# knuth slot counts elsewhere\n", 0, MM_OK, 0, 0, "");
}

static void test_lenient(void)
{
    mm_tree t;
    mm_diag d;
    /* Wrong counts are kept as written; a form the codes do not allow
     * becomes an unresolved node. */
    mm_status st = read_text(HDR "9(11: 0,0,5(22);4(12*);1)", MM_FMT_AUTO, MM_READ_LENIENT,
                             &t, &d);
    CHECK(!st, "lenient: %s", d.msg);
    if (st)
        return;
    uint32_t a = t.nodes[0].child, b = a + 1;
    CHECK(t.nnodes == 6, "nodes %u", t.nnodes);
    CHECK(t.nodes[a].count == 5 && t.nodes[a].guess == 4 /* 22, kept */ &&
              (t.nodes[a].flags & MM_NODE_UNRESOLVED) && !t.nodes[a].replies,
          "5(22) unresolved");
    CHECK(t.where[a].line == 2 && t.where[a].col == 11, "at %u:%u", t.where[a].line,
          t.where[a].col);
    CHECK(t.nodes[b].guess == 1 && (t.nodes[b].flags & MM_NODE_STAR) &&
              !(t.nodes[b].flags & MM_NODE_CONSISTENT) && mm_tree_nchildren(&t, b) == 3,
          "4(12*) keeps its claim, expanded");
    mm_tree_release(&t);
    /* Syntax and names still fail. */
    CHECK(read_text(HDR "9(11: 0,0,5(22);4(12*);1", MM_FMT_AUTO, MM_READ_LENIENT, &t, &d) ==
              MM_ERR_INPUT, "lenient syntax");
    CHECK(read_text(HDR "9(11: 0,0,5A;4(12*);1)", MM_FMT_AUTO, MM_READ_LENIENT, &t, &d) ==
              MM_ERR_INPUT, "lenient names");
    /* A zero slot with codes drops them; a non-zero slot without codes
     * gets a child of no true code: verify judges both. */
    st = read_text(HDR "9(11: 0,1,0;0,4(12);1)", MM_FMT_AUTO, MM_READ_LENIENT, &t, &d);
    CHECK(!st && t.nnodes == 6, "lenient slots: %s", d.msg);
    if (!st) {
        uint32_t c = t.nodes[0].child;
        CHECK(t.nodes[c].count == 1 && (t.nodes[c].flags & MM_NODE_UNRESOLVED), "1 of nothing");
        mm_tree_release(&t);
    }
}

static void test_hostile(void)
{
    size_t n = 1000000, unit = 8;
    char *deep = malloc(n * unit + 64);
    if (!deep)
        return;
    strcpy(deep, "# mmtree pegs=4 colors=6 repeat=yes\n");
    size_t len = strlen(deep);
    for (size_t k = 0; k < n; k++, len += unit)
        memcpy(deep + len, "1(1111: ", unit);
    deep[len] = '\0';
    expect_error(deep, 0, MM_ERR_LIMIT, 2, 64 * 8 + 1, "nested deeper than 64 levels");
    expect_error(deep, MM_READ_LENIENT, MM_ERR_LIMIT, 2, 64 * 8 + 1,
                 "nested deeper than 64 levels");
    /* A million digits. */
    memset(deep + 36, '7', n);
    strcpy(deep + 36 + n, "(1111x)");
    expect_error(deep, 0, MM_ERR_LIMIT, 2, 1, "larger than");
    free(deep);

    /* Each definition uses the next one twice: 2^59 nodes if expanded;
     * refused at the second use. */
    char bomb[8192];
    len = (size_t)snprintf(bomb, sizeof bomb, HDR "9AAA\nwhere\n");
    for (int k = 0; k < 60; k++) {
        int a = k / 26, b = k % 26, c = (k + 1) / 26, e = (k + 1) % 26;
        if (k == 59)
            len += (size_t)snprintf(bomb + len, sizeof bomb - len, "A%c%c = (12x)\n", 'A' + a,
                                    'A' + b);
        else
            len += (size_t)snprintf(bomb + len, sizeof bomb - len,
                                    "A%c%c = (11: 0,0,4A%c%c;0,4A%c%c;1)\n", 'A' + a, 'A' + b,
                                    'A' + c, 'A' + e, 'A' + c, 'A' + e);
    }
    expect_error(bomb, MM_READ_LENIENT, MM_ERR_INPUT, 4, 23, "'AAB' is used twice");
    expect_error(bomb, 0, MM_ERR_INPUT, 4, 23, "'AAB' is used twice");

    /* Bytes outside the grammar, and an empty text. */
    expect_error(HDR "9(11: 0,0,4(22x);0\0054(12);1)", 0, MM_ERR_INPUT, 2, 19, "byte 0x05");
    expect_error("", 0, MM_ERR_INPUT, 1, 1, "end of input");
    expect_error("# only a comment\n", 0, MM_ERR_INPUT, 2, 1, "end of input");
    expect_error("\xEF\xBB\xBF" "1(", 0, MM_ERR_INPUT, 1, 6, "a code");
}

static void test_header_and_layout(void)
{
    mm_tree t, r;
    mm_diag d;
    /* CRLF, a BOM, comments between tokens, spaces as in Neuwirth's reprint. */
    mm_status st = read_text("\xEF\xBB\xBF# citation: Example, 2024  \r\n"
                             "# rule: knuth consistent-only first=11\r\n"
                             "# any other comment\r\n"
                             "9 (11: 0, 0, 4 (22 x) ; # a comment\r\n 0 , 4 (12) ; 1 )\r\n",
                             MM_FMT_AUTO, 0, &t, &d);
    CHECK(!st, "%lu:%lu: %s", d.line, d.col, d.msg);
    if (st)
        return;
    CHECK(t.prov.citation && !strcmp(t.prov.citation, "Example, 2024"), "citation");
    CHECK(t.prov.rule && !strcmp(t.prov.rule, "knuth") && t.prov.consistent_only &&
              t.prov.first == 0, "rule line");
    char *a = NULL, *b = NULL;
    size_t alen, blen;
    CHECK(!mm_tree_write_mem(&t, MM_FMT_KNUTH, NULL, &a, &alen, &d), "%s", d.msg);
    CHECK(a && !strcmp(a, "# mmtree pegs=2 colors=3 repeat=yes notation=knuth\n"
                          "# rule: knuth consistent-only first=11\n"
                          "# citation: Example, 2024\n"
                          "9(11: 0,0,4(22x);0,4(12);1)\n"), "written: %s", a);
    CHECK(!mm_tree_read_mem("a", (unsigned char *)a, alen, MM_FMT_AUTO, 0, &r, &d), "%s", d.msg);
    CHECK(!mm_tree_write_mem(&r, MM_FMT_KNUTH, NULL, &b, &blen, &d) && blen == alen &&
              !memcmp(a, b, alen), "provenance round trip");
    mm_tree_release(&r);
    free(a);
    free(b);
    /* The irving writer: n(y) also for 2 codes, no x. */
    CHECK(!mm_tree_write_mem(&t, MM_FMT_IRVING, NULL, &a, &alen, &d), "%s", d.msg);
    CHECK(a && strstr(a, "notation=irving\n") && strstr(a, "9(11: 0,0,4(22: 0,0,1;2(23);1);4(12);1)\n"),
          "irving: %s", a);
    free(a);
    /* An explicit dialect must agree with the header. */
    CHECK(read_text("# mmtree pegs=2 colors=3 repeat=yes notation=irving\n9(11: 0,0,4(22x);0,4(12);1)",
                    MM_FMT_KNUTH, 0, &r, &d) == MM_ERR_INPUT && strstr(d.msg, "notation=irving"),
          "dialect vs header: %s", d.msg);
    mm_tree_release(&t);
}

int main(void)
{
    test_convention();
    test_errors();
    test_lenient();
    test_hostile();
    test_header_and_layout();
    test_knuth_figure();
    test_round_trips();
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
