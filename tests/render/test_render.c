/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
/*
 * The render library on trees compiled in-process:
 *   - DOT text of small games against golden files (and deterministic);
 *   - paths, replies and collapsed sub-trees against Knuth's article;
 *   - SVG that parses as XML with one <g class="node"> per drawn node, one
 *     <g class="edge"> per edge and one dashed node per inconsistent guess;
 *   - PNG signature and IHDR, PDF header;
 *   - bad input: unknown extension, unwritable path, paths not in the tree.
 * Usage: test_render GOLDEN_DIR OUT_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "config.h"
#include "mmtree/compile.h"
#include "mmtree/format.h"
#include "mmtree/render.h"

static const char *golden_dir, *out_dir;

#include "tests/check.h"

typedef struct game_tree {
    mm_game g;
    mm_tree t;
} game_tree;

static void compile(game_tree *gt, int p, int c)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_compile_opts o;
    mm_compile_opts_init(&o);
    o.rule = MM_RULE_KNUTH;
    if (mm_game_init(&gt->g, p, c, true, &d) || mm_compile(&gt->g, &o, &gt->t, &d)) {
        fprintf(stderr, "cannot compile MM(%d,%d): %s\n", p, c, d.msg);
        exit(1);
    }
}

static void release(game_tree *gt)
{
    mm_tree_release(&gt->t);
    mm_game_release(&gt->g);
}

static char *render(const game_tree *gt, mm_render_format f, int depth, const char *path,
                    size_t *len, mm_render_info *info)
{
    mm_render_opts o;
    mm_render_opts_init(&o);
    o.format = f;
    o.depth = depth;
    o.path = path;
    mm_diag d;
    mm_diag_clear(&d);
    char *buf = NULL;
    mm_status st = mm_render_mem(&gt->t, &gt->g, &o, &buf, len, info, &d);
    CHECK(st == MM_OK, "render %s depth %d path %s: %s", mm_render_format_name(f), depth,
          path ? path : "-", d.msg);
    return st ? NULL : buf;
}

/* ---- DOT ---------------------------------------------------------------- */

static void golden(const game_tree *gt, int depth, const char *path, const char *name)
{
    size_t len, len2;
    char *dot = render(gt, MM_RENDER_DOT, depth, path, &len, NULL);
    char *again = render(gt, MM_RENDER_DOT, depth, path, &len2, NULL);
    if (!dot || !again)
        goto out;
    CHECK(len == len2 && !memcmp(dot, again, len), "%s: DOT differs between two runs", name);
    char file[4096];
    snprintf(file, sizeof file, "%s/%s", golden_dir, name);
    unsigned char *want = NULL;
    size_t wlen = 0;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_file_read(file, 1 << 20, &want, &wlen, &d)) {
        CHECK(0, "%s", d.msg);
    } else {
        bool same = wlen == len && !memcmp(want, dot, len);
        snprintf(file, sizeof file, "%s/%s", out_dir, name);
        if (!same)
            mm_file_write_atomic(file, dot, len, &d);
        CHECK(same, "DOT differs from %s/%s; got %s", golden_dir, name, file);
        free(want);
    }
    CHECK(!strstr(dot, "version") && !strstr(dot, "pos="),
          "%s: DOT carries a version or positions", name);
out:
    free(dot);
    free(again);
}

static void test_dot(void)
{
    game_tree gt;
    compile(&gt, 2, 3);
    golden(&gt, 0, NULL, "mm23-knuth.dot");
    release(&gt);
    compile(&gt, 2, 5); /* two guesses that cannot be the code */
    golden(&gt, 0, NULL, "mm25-knuth.dot");
    release(&gt);
    compile(&gt, 3, 4);
    golden(&gt, 2, NULL, "mm34-knuth-depth2.dot");
    release(&gt);
    compile(&gt, 4, 6);
    golden(&gt, 2, "1122:B,1344:W", "mm46-knuth-path.dot");
    release(&gt);
}

/* ---- Views, paths, replies ---------------------------------------------- */

static void expect_node(const game_tree *gt, const char *path, const char *guess,
                        uint32_t count)
{
    mm_diag d;
    mm_diag_clear(&d);
    uint32_t node = MM_NO_NODE;
    char code[MM_MAX_PEGS + 1];
    mm_status st = mm_tree_find(&gt->t, &gt->g, path, &node, &d);
    CHECK(st == MM_OK, "path %s: %s", path, d.msg);
    if (st)
        return;
    mm_code_format(&gt->g, gt->t.nodes[node].guess, code);
    CHECK(!strcmp(code, guess) && gt->t.nodes[node].count == count,
          "path %s: reached %s n=%lu, want %s n=%lu", path, code,
          (unsigned long)gt->t.nodes[node].count, guess, (unsigned long)count);
}

static void expect_path_error(const game_tree *gt, const char *path, const char *msg)
{
    mm_diag d;
    mm_diag_clear(&d);
    uint32_t node;
    mm_status st = mm_tree_find(&gt->t, &gt->g, path, &node, &d);
    CHECK(st == MM_ERR_USAGE && strstr(d.msg, msg), "path '%s': status %d, message '%s'",
          path, st, d.msg);
}

static void test_views(void)
{
    game_tree gt;
    compile(&gt, 4, 6);

    /* Knuth 1976: 1122 then 1344 on "B", 3526 on "W" (44 codes), 1462 on
     * "BWW" (7 codes); "4 white hits" leaves 2211, "3 white hits" 16 codes
     * and 1213. */
    expect_node(&gt, "", "1122", 1296);
    expect_node(&gt, "1122:B", "1344", 256);
    expect_node(&gt, "1122:B,1344:W", "3526", 44);
    expect_node(&gt, "1122:B,1344:W,3526:BWW", "1462", 7);
    expect_node(&gt, "1122:B,1344:W,3526:WBW", "1462", 7); /* letters in any order */
    expect_node(&gt, "1122:WWWW", "2211", 1);
    expect_node(&gt, "1122:WWW", "1213", 16);

    expect_path_error(&gt, "1123:B", "step 1: the tree guesses 1122 there, not 1123");
    expect_path_error(&gt, "1122:B,1345:W", "step 2: the tree guesses 1344 there");
    expect_path_error(&gt, "1122:BX", "step 1: 'BX' is not a reply");
    expect_path_error(&gt, "1122:BBBW", "step 1: 'BBBW' is not a reply: 3 black and 1 white cannot happen");
    expect_path_error(&gt, "1122:BBBB", "step 1: reply BBBB to 1122 ends the game");
    expect_path_error(&gt, "1122:WWWW,2211:B", "step 2: no code still possible");
    expect_path_error(&gt, "1122B", "step 1 '1122B': expected GUESS:REPLY");
    expect_path_error(&gt, "1122:B,", "step 2 '': expected GUESS:REPLY");
    expect_path_error(&gt, "112:B", "step 1: '112' is not a code");
    expect_path_error(&gt, "1122:", "step 1: '' is not a reply");

    /* Replies round-trip through Knuth's letters. */
    char buf[MM_REPLY_MAX];
    mm_diag d;
    mm_diag_clear(&d);
    for (int s = 0; s < gt.g.nreplies; s++) {
        int back = -1;
        if (s == mm_reply_slot(&gt.g, 3, 1))
            continue; /* never happens, and is refused */
        mm_reply_format(&gt.g, s, buf);
        CHECK(mm_reply_parse(&gt.g, buf, strlen(buf), &back, &d) == MM_OK && back == s,
              "slot %d -> '%s' -> %d", s, buf, back);
    }
    CHECK(!strcmp(mm_reply_format(&gt.g, mm_reply_slot(&gt.g, 0, 0), buf), "-"),
          "no hit is '%s'", buf);
    CHECK(!strcmp(mm_reply_format(&gt.g, mm_reply_slot(&gt.g, 1, 2), buf), "BWW"),
          "1 black 2 white is '%s'", buf);

    /* The root alone stands for the whole tree: Knuth's 5801 guesses for
     * 1296 codes, 4.476 on average, at most 5. */
    size_t len;
    mm_render_info info;
    char *dot = render(&gt, MM_RENDER_DOT, 1, NULL, &len, &info);
    CHECK(dot && strstr(dot, "label=\"1122\\nn=1296\\nE=4.48 max=5\""), "depth 1 label");
    CHECK(info.nodes == 1 && info.collapsed == 1 && info.depth == 1 && info.full_depth == 5 &&
              info.subtree_nodes == gt.t.nnodes && !info.budget_cut,
          "depth 1 info: %lu nodes %lu collapsed depth %d/%d", (unsigned long)info.nodes,
          (unsigned long)info.collapsed, info.depth, info.full_depth);
    free(dot);

    /* Depth 2: the root and one node per reply to 1122 that leaves codes
     * (12 in Knuth's Figure 1, one of them the leaf 2211); the children's
     * counts account for every code but 1122 itself. */
    dot = render(&gt, MM_RENDER_DOT, 2, NULL, &len, &info);
    CHECK(info.nodes == 13 && info.collapsed == 11, "depth 2: %lu nodes, %lu collapsed",
          (unsigned long)info.nodes, (unsigned long)info.collapsed);
    unsigned long sum = 0;
    for (const char *p = dot; p && (p = strstr(p, "\\nn=")); p += 4)
        sum += strtoul(p + 4, NULL, 10);
    CHECK(sum == 1296 + 1295 - 1, "depth 2: counts add up to %lu", sum); /* root + 1 leaf */
    free(dot);

    /* A budget lowers the depth to the deepest view that fits: three
     * levels are 120 nodes, four 684. */
    mm_render_opts o;
    mm_render_opts_init(&o);
    o.format = MM_RENDER_DOT;
    char *buf2 = NULL;
    static const struct {
        uint32_t budget;
        int depth;
        uint32_t nodes;
        bool cut;
    } budgets[] = {{683, 3, 120, true}, {684, 4, 684, true}, {119, 2, 13, true},
                   {1378, 5, 1378, false}, {1, 1, 1, true}};
    for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
        o.max_nodes = budgets[i].budget;
        CHECK(mm_render_mem(&gt.t, &gt.g, &o, &buf2, &len, &info, &d) == MM_OK, "%s", d.msg);
        CHECK(info.depth == budgets[i].depth && info.nodes == budgets[i].nodes &&
                  info.budget_cut == budgets[i].cut,
              "budget %lu: depth %d, %lu nodes, cut %d", (unsigned long)budgets[i].budget,
              info.depth, (unsigned long)info.nodes, info.budget_cut);
        free(buf2);
    }
    o.max_nodes = 0;
    o.label_nodes = 10;
    CHECK(mm_render_mem(&gt.t, &gt.g, &o, &buf2, &len, &info, &d) == MM_OK, "%s", d.msg);
    CHECK(info.nodes == gt.t.nnodes && !info.mid_labels && buf2 && strstr(buf2, "headlabel=BWW") &&
              !strstr(buf2, "\tlabel=BWW"),
          "no budget, labels at heads: %lu nodes", (unsigned long)info.nodes);
    free(buf2);
    release(&gt);
}

/* ---- SVG, PNG, PDF ----------------------------------------------------- */

static long xpath_count(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr r = ctx ? xmlXPathEvalExpression((const xmlChar *)expr, ctx) : NULL;
    long n = r && r->type == XPATH_NUMBER ? (long)r->floatval : -1;
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(ctx);
    return n;
}

static void check_svg(const game_tree *gt, mm_render_layout layout, int depth,
                      long nodes, long dashed)
{
    mm_render_opts o;
    mm_render_opts_init(&o);
    o.format = MM_RENDER_SVG;
    o.layout = layout;
    o.depth = depth;
    mm_diag d;
    mm_diag_clear(&d);
    char *svg = NULL;
    size_t len = 0;
    CHECK(mm_render_mem(&gt->t, &gt->g, &o, &svg, &len, NULL, &d) == MM_OK, "svg: %s", d.msg);
    xmlDocPtr doc = svg ? xmlReadMemory(svg, (int)len, "render.svg", NULL,
                                        XML_PARSE_NONET | XML_PARSE_NOERROR |
                                            XML_PARSE_NOWARNING)
                        : NULL;
    CHECK(doc != NULL, "the SVG does not parse as XML");
    if (doc) {
        long n = xpath_count(doc, "count(//*[local-name()='g'][@class='node'])");
        long e = xpath_count(doc, "count(//*[local-name()='g'][@class='edge'])");
        long dsh = xpath_count(doc, "count(//*[local-name()='g'][@class='node']"
                                    "[.//*[@stroke-dasharray]])");
        long root = xpath_count(doc, "count(//*[local-name()='g'][@class='node']"
                                     "[*[local-name()='title']='start'])");
        CHECK(n == nodes && e == nodes - 1 && dsh == dashed && root == 1,
              "MM(%d,%d) layout %d depth %d: %ld nodes, %ld edges, %ld dashed; want %ld, "
              "%ld, %ld", gt->g.pegs, gt->g.colors, layout, depth, n, e, dsh, nodes,
              nodes - 1, dashed);
        xmlFreeDoc(doc);
    }
    free(svg);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void test_images(void)
{
    game_tree gt;
    compile(&gt, 3, 4); /* 69 nodes, 5 guesses that cannot be the code */
    mm_stats s;
    mm_tree_stats(&gt.t, &s);
    CHECK(s.nodes == 69 && s.inconsistent == 5, "MM(3,4) knuth: %llu nodes, %llu inconsistent",
          (unsigned long long)s.nodes, (unsigned long long)s.inconsistent);
    check_svg(&gt, MM_RENDER_TREE, 0, 69, 5);
    check_svg(&gt, MM_RENDER_RADIAL, 0, 69, 5);
    check_svg(&gt, MM_RENDER_TREE, 2, 9, 5); /* all 5 on the second level */

    size_t len = 0;
    char *png = render(&gt, MM_RENDER_PNG, 0, NULL, &len, NULL);
    const unsigned char *u = (const unsigned char *)png;
    CHECK(png && len > 33 && !memcmp(u, "\x89PNG\r\n\x1a\n", 8) && be32(u + 8) == 13 &&
              !memcmp(u + 12, "IHDR", 4) && be32(u + 16) > 100 && be32(u + 20) > 50,
          "not a PNG with an IHDR first (%zu bytes)", len);
    free(png);
    char *pdf = render(&gt, MM_RENDER_PDF, 2, NULL, &len, NULL);
    CHECK(pdf && len > 100 && !memcmp(pdf, "%PDF-", 5), "not a PDF (%zu bytes)", len);
    free(pdf);
    release(&gt);
}

/* ---- HTML ----------------------------------------------------------------- */

static size_t occurrences(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* The page is one file: the data and the embedded script and style, and
 * nothing fetched; a '<' in the data cannot end its <script> element. */
static void test_html(void)
{
    game_tree gt;
    compile(&gt, 2, 3);
    mm_tree_set_citation(&gt.t, "A </script><script>alert(1)</script> tree");
    size_t len = 0;
    mm_render_info info;
    char *page = render(&gt, MM_RENDER_HTML, 0, "11:-", &len, &info);
    CHECK(page && len == strlen(page) && !strncmp(page, "<!DOCTYPE html>", 15), "not a page");
    if (page) {
        CHECK(occurrences(page, "<script") == 2 && occurrences(page, "</script>") == 2 &&
                  occurrences(page, "<style>") == 1 && occurrences(page, "</style>") == 1,
              "the page has %zu <script, %zu </script>", occurrences(page, "<script"),
              occurrences(page, "</script>"));
        CHECK(strstr(page, "\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"),
              "the citation's '<' are not escaped");
        CHECK(!strstr(page, "http:") && !strstr(page, "https:") && !strstr(page, "src=") &&
                  !strstr(page, "@import") && !strstr(page, "@mmtree-"),
              "the page refers to something outside it, or keeps a marker");
        /* The data: the keys of stats --json, the path, and the tree in
         * the binary format, whose signature \x89MMT\r\n\x1a\n is
         * "iU1NVA0KGgo" in base64. */
        CHECK(strstr(page, "{\"pegs\": 2, \"colors\": 3, \"repeat\": true, \"codes\": 9, "
                           "\"total\": 24,") &&
                  strstr(page, "\"rule\": \"knuth\"") && strstr(page, "\"path\": \"11:-\"") &&
                  strstr(page, "\"mmt\": \"iU1NVA0KGgo"),
              "the page's data lacks a key");
        CHECK(info.start != 0 && info.nodes == gt.t.nnodes, "info: start %lu nodes %lu",
              (unsigned long)info.start, (unsigned long)info.nodes);
    }
    free(page);

    /* A path not in the tree fails as for a drawing. */
    mm_render_opts o;
    mm_render_opts_init(&o);
    o.format = MM_RENDER_HTML;
    o.path = "12:B";
    char *buf = NULL;
    mm_diag d;
    mm_diag_clear(&d);
    CHECK(mm_render_mem(&gt.t, &gt.g, &o, &buf, &len, NULL, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "the tree guesses 11 there, not 12"),
          "html path: %s", d.msg);
    free(buf);
    CHECK(mm_render_format_from_path("x/t.html") == MM_RENDER_HTML &&
              mm_render_format_from_path("t.htm") == MM_RENDER_HTML &&
              !strcmp(mm_render_format_name(MM_RENDER_HTML), "html"),
          ".html");
    release(&gt);
}

/* ---- Highlight, rankdir, tooltips -------------------------------------- */

static char *render_opts(const game_tree *gt, const mm_render_opts *o, size_t *len,
                         mm_render_info *info)
{
    mm_diag d;
    mm_diag_clear(&d);
    char *buf = NULL;
    mm_status st = mm_render_mem(&gt->t, &gt->g, o, &buf, len, info, &d);
    CHECK(st == MM_OK, "render %s: %s", mm_render_format_name(o->format), d.msg);
    return st ? NULL : buf;
}

static void expect_error(const game_tree *gt, const mm_render_opts *o, const char *msg)
{
    mm_diag d;
    mm_diag_clear(&d);
    char *buf = NULL;
    size_t len;
    mm_status st = mm_render_mem(&gt->t, &gt->g, o, &buf, &len, NULL, &d);
    CHECK(st == MM_ERR_USAGE && strstr(d.msg, msg), "want '%s', got status %d '%s'", msg, st,
          d.msg);
    free(buf);
}

static void test_marks(void)
{
    game_tree gt;
    compile(&gt, 4, 6);
    mm_render_opts o;
    mm_render_opts_init(&o);
    o.format = MM_RENDER_DOT;
    size_t len;

    /* 3632: 1122 B, 1344 W, 3526 BWW, 1462 BW, then 3632: five nodes and
     * the four edges between them in red and thick; three levels: three
     * and two. */
    static const struct {
        int depth;
        const char *path;
        size_t red;
    } marks[] = {{0, NULL, 9}, {3, NULL, 5}, {0, "1122:B,1344:W", 5}};
    o.highlight = "3632";
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
        o.depth = marks[i].depth;
        o.path = marks[i].path;
        char *dot = render_opts(&gt, &o, &len, NULL);
        CHECK(dot && occurrences(dot, "penwidth=2") == marks[i].red &&
                  strstr(dot, "the path of 3632 in red"),
              "highlight, depth %d path %s: %zu in red", marks[i].depth,
              marks[i].path ? marks[i].path : "-", dot ? occurrences(dot, "penwidth=2") : 0);
        free(dot);
    }
    o.depth = 0;
    o.path = NULL;
    o.highlight = "36x2";
    expect_error(&gt, &o, "highlight: '36x2' is not a code: 'x' is not one of the 6 colours");
    o.path = "1122:B";
    o.highlight = "1111";
    expect_error(&gt, &o, "highlight: 1111 does not reach the start of the drawing: 1122 "
                         "gives it BB, not B (path step 1)");
    o.path = "1122:B,1344:W";
    o.highlight = "1344";
    expect_error(&gt, &o, "highlight: 1344 is found at path step 2");
    o.path = NULL;
    o.highlight = NULL;

    o.rankdir = MM_RENDER_LR;
    o.depth = 2;
    char *dot = render_opts(&gt, &o, &len, NULL);
    CHECK(dot && strstr(dot, "rankdir=LR"), "no rankdir=LR");
    free(dot);
    o.layout = MM_RENDER_RADIAL;
    expect_error(&gt, &o, "rankdir LR is for the tree layout, not radial");
    o.layout = MM_RENDER_TREE;
    o.rankdir = MM_RENDER_TB;

    /* SVG: a node's title and tooltip say where it is and what it holds. */
    o.format = MM_RENDER_SVG;
    o.depth = 3;
    o.path = "1122:B";
    char *svg = render_opts(&gt, &o, &len, NULL);
    CHECK(svg && strstr(svg, "<title>1122:B,1344:W</title>") &&
              strstr(svg, "xlink:title=\"1122:B,1344:W: guess 3526, 44 codes, E=2.75 max=3\"") &&
              strstr(svg, "xlink:title=\"1122:B: guess 1344, 256 codes, E=3.61 max=4\"") &&
              strstr(svg, "xlink:title=\"1122:B,1344:W, 44 codes\"") &&
              strstr(svg, "xlink:title=\"1122:B,1344:WWW,1335:WWW, 1 code\"") && !strstr(svg, ">n0<"),
          "SVG titles and tooltips");
    free(svg);
    release(&gt);
}

/* ---- Page sizes and node limits ----------------------------------------- */

/* The whole MM(4,6) tree is 34,000 points wide: PNG and PDF get 3 of its
 * 5 levels, SVG all of them. */
static void test_caps(void)
{
    game_tree gt;
    compile(&gt, 4, 6);
    mm_render_opts o;
    mm_render_opts_init(&o);
    mm_render_info info;
    size_t len;
    o.format = MM_RENDER_PNG;
    const unsigned char *png = (unsigned char *)render_opts(&gt, &o, &len, &info);
    CHECK(png && len > 24 && !memcmp(png + 12, "IHDR", 4) && be32(png + 16) <= 16000 &&
              be32(png + 16) > 5000 && be32(png + 20) <= 16000,
          "PNG of %lu x %lu pixels", png ? (unsigned long)be32(png + 16) : 0,
          png ? (unsigned long)be32(png + 20) : 0);
    CHECK(info.size_cut && !info.budget_cut && info.depth == 3 && info.nodes == 120 &&
              info.full_depth == 5 && info.width * 96 / 72 <= 16000,
          "PNG: cut %d, depth %d, %lu nodes, %.0f points wide", info.size_cut, info.depth,
          (unsigned long)info.nodes, info.width);
    free((void *)png);

    o.format = MM_RENDER_PDF;
    char *pdf = render_opts(&gt, &o, &len, &info);
    /* The page's size, past compressed streams that may hold NULs. */
    char box[64] = "";
    for (size_t i = 0; pdf && !box[0] && i + 11 < len; i++)
        if (!memcmp(pdf + i, "/MediaBox [", 11))
            memcpy(box, pdf + i, len - i < sizeof box ? len - i : sizeof box - 1);
    double x0 = 0, y0 = 0, x1 = 1e9, y1 = 1e9;
    CHECK(sscanf(box, "/MediaBox [ %lf %lf %lf %lf", &x0, &y0, &x1, &y1) == 4 &&
              x1 - x0 <= 14400 && y1 - y0 <= 14400 && x1 - x0 > 5000,
          "PDF page %.0f x %.0f", x1 - x0, y1 - y0);
    CHECK(info.size_cut && info.depth == 3, "PDF: cut %d, depth %d", info.size_cut, info.depth);
    free(pdf);

    o.format = MM_RENDER_SVG;
    free(render_opts(&gt, &o, &len, &info));
    CHECK(!info.size_cut && info.depth == 5 && info.width > 30000,
          "SVG: cut %d, depth %d, %.0f points wide", info.size_cut, info.depth, info.width);
    release(&gt);

    /* MM(5,8), entropy: 34,824 nodes, refused without force. */
    char file[4096];
    snprintf(file, sizeof file, "%s/../mm58-entropy.mmt", golden_dir);
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree_init(&gt.t, 0, 0, true);
    if (mm_tree_read_file(file, MM_FMT_AUTO, 0, &gt.t, &d) ||
        mm_game_init(&gt.g, 5, 8, true, &d)) {
        CHECK(0, "%s: %s", file, d.msg);
        return;
    }
    o.max_nodes = 0;
    expect_error(&gt, &o, "the drawing would have 34824 nodes: Graphviz takes minutes and "
                          "gigabytes to lay out more than 20000");
    release(&gt);
}

/* ---- Files and bad input ------------------------------------------------ */

static void test_files(void)
{
    game_tree gt;
    compile(&gt, 2, 3);
    mm_diag d;
    mm_diag_clear(&d);
    char file[4096];
    struct stat sb;

    snprintf(file, sizeof file, "%s/render-out.svg", out_dir);
    remove(file);
    CHECK(mm_render_file(&gt.t, &gt.g, NULL, file, NULL, &d) == MM_OK, "%s", d.msg);
    CHECK(stat(file, &sb) == 0 && sb.st_size > 500, "%s not written", file);

    snprintf(file, sizeof file, "%s/render-out.jpg", out_dir);
    CHECK(mm_render_file(&gt.t, &gt.g, NULL, file, NULL, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "unknown output format '.jpg'"),
          "jpg: %s", d.msg);
    CHECK(stat(file, &sb) != 0, "%s written", file);
    CHECK(mm_render_file(&gt.t, &gt.g, NULL, "noextension", NULL, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "has no extension"),
          "no extension: %s", d.msg);

    snprintf(file, sizeof file, "%s/no-such-dir/x.svg", out_dir);
    CHECK(mm_render_file(&gt.t, &gt.g, NULL, file, NULL, &d) == MM_ERR_IO &&
              strstr(d.msg, "cannot write"),
          "unwritable: %s", d.msg);

    mm_render_opts o;
    mm_render_opts_init(&o);
    o.path = "11:B,12:BB";
    snprintf(file, sizeof file, "%s/render-path.svg", out_dir);
    remove(file);
    CHECK(mm_render_file(&gt.t, &gt.g, &o, file, NULL, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "step 2: reply BB to 12 ends the game"),
          "path: %s", d.msg);
    CHECK(stat(file, &sb) != 0, "%s written after a bad path", file);
    release(&gt);
}

/* Built without Graphviz: HTML works (above), drawings fail and say
 * what does work. */
static int no_graphviz(void)
{
    game_tree gt;
    compile(&gt, 2, 3);
    mm_render_opts o;
    mm_render_opts_init(&o);
    o.format = MM_RENDER_SVG;
    char *buf = NULL;
    size_t len;
    mm_diag d;
    mm_diag_clear(&d);
    CHECK(mm_render_mem(&gt.t, &gt.g, &o, &buf, &len, NULL, &d) == MM_ERR_USAGE &&
              strstr(d.msg, "without Graphviz: it cannot draw svg; it can write the tree as a "
                            "page to explore (-o tree.html)"),
          "without Graphviz: %s", d.msg);
    free(buf);
    release(&gt);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_render GOLDEN_DIR OUT_DIR\n");
        return 2;
    }
    golden_dir = argv[1];
    out_dir = argv[2];
    test_html();
    if (!MM_HAVE_RENDER)
        return no_graphviz();
    test_dot();
    test_views();
    test_images();
    test_marks();
    test_caps();
    test_files();
    CHECK(mm_render_shutdown() == 0, "graphviz recorded errors");
    game_tree gt;
    compile(&gt, 2, 3);
    size_t len;
    char *buf = NULL;
    mm_diag d;
    mm_diag_clear(&d);
    mm_render_opts o;
    mm_render_opts_init(&o);
    o.format = MM_RENDER_SVG;
    CHECK(mm_render_mem(&gt.t, &gt.g, &o, &buf, &len, NULL, &d) == MM_ERR_USAGE,
          "rendering after mm_render_shutdown");
    free(buf);
    release(&gt);
    xmlCleanupParser();
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
