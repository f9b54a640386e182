/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/strbuf.h"
#include "mmtree/format.h"
#include "mmtree/render.h"
#include "mmtree/mmtree.h"

static const char render_help[] =
    "usage: mmtree render FILE|- -o OUT [options]\n"
    "\n"
    "Draw a strategy tree (any format, detected) with Graphviz, or write it\n"
    "as a page to explore in a browser.  The format of OUT follows its\n"
    "extension: .svg .png .pdf, .dot (also .gv) for the graph in the DOT\n"
    "language, before layout, or .html (also .htm) for the page: one file,\n"
    "the whole tree, opened node by node, with search and deep links\n"
    "(OUT#code=3632, OUT#path=1122:B,1344:W); it needs no Graphviz.\n"
    "\n"
    "  -o, --output OUT      write the drawing to OUT, atomically ('-' =\n"
    "                        stdout, with --format)\n"
    "  -T, --format F        svg | png | pdf | dot | html, whatever OUT's\n"
    "                        extension\n"
    "  -l, --layout L        tree: top-down, children in reply order (dot, the\n"
    "                        default); radial: the root in the centre, one\n"
    "                        ring a level (twopi)\n"
    "  -d, --depth N         draw N levels (1 = the start node alone); a\n"
    "                        sub-tree below them becomes one node.  HTML: the\n"
    "                        levels open at first (default 2)\n"
    "  -P, --path P          draw the sub-tree reached by the guesses and\n"
    "                        replies P = GUESS:REPLY,GUESS:REPLY,... from the\n"
    "                        root, e.g. 1122:B,1344:W (replies as on the edges).\n"
    "                        HTML: the node the page opens at first\n"
    "  -m, --max-nodes N     node budget (default 2500, 0 = none): when the\n"
    "                        drawing would have more nodes, draw fewer levels\n"
    "                        and say so on stderr.  Above 20000 nodes Graphviz\n"
    "                        takes minutes and gigabytes: such drawings are\n"
    "                        refused without --force\n"
    "      --force           lay out drawings of more than 20000 nodes\n"
    "      --label-nodes N   write replies mid-edge up to N nodes (default\n"
    "                        1000), at the edges' heads above: dot lays out a\n"
    "                        mid-edge label as one more node\n"
    "  -r, --rankdir D       TB: the tree layout top-down (default); LR: left\n"
    "                        to right, for trees wide and shallow\n"
    "  -H, --highlight CODE  draw the path that finds CODE in red (HTML: open\n"
    "                        it); CODE must be under --path\n"
    "  -q, --quiet           no note on stderr\n"
    "\n"
    "PNG and PDF pages have a largest side (16000 pixels, 14400 points): a\n"
    "drawing that would be larger is drawn with fewer levels, with a note.\n"
    "In SVG, hovering over a node shows its path and its counts.\n"
    "  -h, --help            this text\n"
    "\n"
    "Legend:\n"
    "  1344 / n=256          the guess made there and the codes still possible\n"
    "  dashed grey, oblique  a guess that cannot be the code\n"
    "  green, code alone     a leaf: the code found, guessed there\n"
    "  grey 3-D box          a sub-tree below the depth drawn: its guess, its\n"
    "                        codes, E = expected and max = most guesses from\n"
    "                        that node on, its own guess included\n"
    "  edge BWW              the reply: B per black hit, W per white hit\n"
    "                        (Knuth's letters), '-' for no hit\n"
    "  red                   the path of the code of --highlight\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage or input (unreadable tree, unknown output\n"
    "extension, unwritable OUT, a path not in the tree, a drawing too large).\n";

enum { OPT_LABELS = 256, OPT_FORCE };

/* Graphviz's warnings, printed once the drawing is done (see below). */
static void keep_warning(void *ctx, const char *msg)
{
    strbuf *b = ctx;
    strbuf_adds(b, msg);
    strbuf_addc(b, '\n');
}

/* Graphviz 2.43 prints some messages itself (cairo's "graph is too large
 * for cairo-renderer bitmaps" among them), out of agerr()'s reach: while
 * it draws, standard error goes to a temporary file, whose lines come out
 * afterwards as "mmtree render: graphviz: ..." like the warnings. */
static int stderr_begin(FILE **tmp)
{
    fflush(stderr);
    int saved = -1;
    if ((*tmp = tmpfile()) && (saved = dup(STDERR_FILENO)) >= 0 &&
        dup2(fileno(*tmp), STDERR_FILENO) >= 0)
        return saved;
    if (saved >= 0)
        close(saved);
    if (*tmp)
        fclose(*tmp);
    *tmp = NULL;
    return -1;
}

static void stderr_end(FILE *tmp, int saved, strbuf *warnings)
{
    if (!tmp)
        return;
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(tmp);
    char line[1024];
    while (fgets(line, sizeof line, tmp))
        strbuf_adds(warnings, line);
    fclose(tmp);
}

static void print_warnings(const strbuf *b)
{
    /* The last line captured from standard error may lack its newline. */
    for (const char *p = b->data, *nl; p && *p; p = *nl ? nl + 1 : nl) {
        nl = p + strcspn(p, "\n");
        char *line = strndup(p, (size_t)(nl - p));
        if (line && *line) {
            fputs("mmtree render: graphviz: ", stderr);
            cli_put(stderr, line);
            fputc('\n', stderr);
        }
        free(line);
    }
}

static bool parse_format(const char *s, mm_render_format *f)
{
    for (int i = MM_RENDER_SVG; i <= MM_RENDER_HTML; i++)
        if (!strcmp(s, mm_render_format_name((mm_render_format)i))) {
            *f = (mm_render_format)i;
            return true;
        }
    return false;
}

int cmd_render(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'T'},
        {"layout", required_argument, NULL, 'l'},
        {"depth", required_argument, NULL, 'd'},
        {"path", required_argument, NULL, 'P'},
        {"max-nodes", required_argument, NULL, 'm'},
        {"label-nodes", required_argument, NULL, OPT_LABELS},
        {"force", no_argument, NULL, OPT_FORCE},
        {"rankdir", required_argument, NULL, 'r'},
        {"highlight", required_argument, NULL, 'H'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    mm_render_opts ro;
    mm_render_opts_init(&ro);
    const char *out = NULL;
    bool quiet = false;
    long v;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:T:l:d:P:m:r:H:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'T':
            if (!parse_format(optarg, &ro.format))
                return cli_usage_error("render",
                                       "unknown format '%s' (svg, png, pdf, dot, html)", optarg);
            break;
        case 'l':
            if (!strcmp(optarg, "tree"))
                ro.layout = MM_RENDER_TREE;
            else if (!strcmp(optarg, "radial"))
                ro.layout = MM_RENDER_RADIAL;
            else
                return cli_usage_error("render", "unknown layout '%s' (tree, radial)", optarg);
            break;
        case 'd':
            if (!cli_int("render", "--depth", optarg, 1, 64, &v))
                return EXIT_BAD;
            ro.depth = (int)v;
            break;
        case 'P': ro.path = optarg; break;
        case 'm':
            if (!cli_int("render", "--max-nodes", optarg, 0, MM_MAX_CODES, &v))
                return EXIT_BAD;
            ro.max_nodes = (uint32_t)v;
            break;
        case OPT_LABELS:
            if (!cli_int("render", "--label-nodes", optarg, 0, MM_MAX_CODES, &v))
                return EXIT_BAD;
            ro.label_nodes = (uint32_t)v;
            break;
        case OPT_FORCE: ro.force = true; break;
        case 'r':
            if (!strcmp(optarg, "TB") || !strcmp(optarg, "tb"))
                ro.rankdir = MM_RENDER_TB;
            else if (!strcmp(optarg, "LR") || !strcmp(optarg, "lr"))
                ro.rankdir = MM_RENDER_LR;
            else
                return cli_usage_error("render", "unknown rankdir '%s' (TB, LR)", optarg);
            break;
        case 'H': ro.highlight = optarg; break;
        case 'q': quiet = true; break;
        case 'h': fputs(render_help, stdout); return EXIT_OK;
        case ':': return cli_usage_error("render", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("render", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("render", "expects one tree file (or '-'); see --help");
    if (!out)
        return cli_usage_error("render",
                               "no output: give -o OUT (.svg, .png, .pdf, .dot or .html)");
    /* Check the output's format before reading a large tree. */
    if (ro.format == MM_RENDER_AUTO && mm_render_format_from_path(out) == MM_RENDER_AUTO) {
        const char *dot = strrchr(out, '.');
        if (dot && !strchr(dot, '/'))
            return cli_usage_error("render", "unknown output format '%s' of '%s' "
                                   "(.svg, .png, .pdf, .dot, .html; or --format)", dot, out);
        return cli_usage_error("render", "cannot tell the format of '%s' from its name "
                               "(.svg, .png, .pdf, .dot, .html; or --format)", out);
    }

    mm_diag d;
    mm_diag_clear(&d);
    mm_tree t;
    mm_tree_init(&t, 0, 0, true);
    mm_status st = mm_tree_read_file(argv[optind], MM_FMT_AUTO, 0, &t, &d);
    if (st) {
        mm_tree_release(&t);
        return cli_report(&d, st);
    }
    int rc = EXIT_OK;
    mm_game g;
    if ((st = mm_game_init(&g, t.pegs, t.colors, t.repeat, &d))) {
        rc = cli_report(&d, st);
        goto out_tree;
    }
    mm_render_info info;
    mm_diag_clear(&d);
    strbuf warnings = {0};
    ro.warn = keep_warning;
    ro.warn_ctx = &warnings;
    FILE *tmp;
    int saved = stderr_begin(&tmp);
    st = mm_render_file(&t, &g, &ro, out, &info, &d);
    mm_render_shutdown();
    stderr_end(tmp, saved, &warnings);
    print_warnings(&warnings);
    strbuf_release(&warnings);
    if (st) {
        if (st == MM_ERR_USAGE && ro.path && strstr(d.msg, "path step"))
            rc = cli_usage_error("render", "--path %s: %s", ro.path, d.msg);
        else if (st == MM_ERR_USAGE && !strncmp(d.msg, "highlight: ", 11))
            rc = cli_usage_error("render", "--highlight %s: %s", ro.highlight, d.msg + 11);
        else
            rc = cli_usage_error("render", "%s", d.msg);
        goto out_render;
    }
    mm_render_format f = ro.format ? ro.format : mm_render_format_from_path(out);
    if (info.size_cut && !quiet)
        fprintf(stderr,
                "mmtree render: note: more than %d levels would not fit a %s page (%s a "
                "side): drew %d levels (%lu nodes), each deeper sub-tree as one node; "
                "for the whole %s, see --path, or write SVG or HTML\n",
                info.depth, mm_render_format_name(f),
                f == MM_RENDER_PNG ? "16000 pixels" : "14400 points", info.depth,
                (unsigned long)info.nodes, ro.path && *ro.path ? "sub-tree" : "tree");
    else if (info.budget_cut && !quiet)
        fprintf(stderr,
                "mmtree render: note: the %s has %llu nodes in %d levels, more than "
                "--max-nodes %lu: drew %d levels (%lu nodes), each deeper sub-tree "
                "as one node; see --depth, --path, --max-nodes\n",
                ro.path && *ro.path ? "sub-tree" : "tree",
                (unsigned long long)info.subtree_nodes, info.full_depth,
                (unsigned long)ro.max_nodes, info.depth, (unsigned long)info.nodes);
out_render:
    mm_game_release(&g);
out_tree:
    mm_tree_release(&t);
    return rc;
}
