#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
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
    "                        and say so on stderr\n"
    "      --label-nodes N   write replies mid-edge up to N nodes (default\n"
    "                        1000), at the edges' heads above: dot lays out a\n"
    "                        mid-edge label as one more node\n"
    "  -q, --quiet           no note on stderr\n"
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
    "\n"
    "Exit status: 0 ok, 2 bad usage or input (unreadable tree, unknown output\n"
    "extension, unwritable OUT, a path not in the tree).\n";

enum { OPT_LABELS = 256 };

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
    while ((c = getopt_long(argc, argv, ":o:T:l:d:P:m:qh", longopts, NULL)) != -1) {
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
    if ((st = mm_render_file(&t, &g, &ro, out, &info, &d))) {
        rc = st == MM_ERR_USAGE && ro.path && strstr(d.msg, "path step")
                 ? cli_usage_error("render", "--path %s: %s", ro.path, d.msg)
                 : cli_usage_error("render", "%s", d.msg);
        goto out_render;
    }
    if (info.budget_cut && !quiet)
        fprintf(stderr,
                "mmtree render: note: the %s has %llu nodes in %d levels, more than "
                "--max-nodes %lu: drew %d levels (%lu nodes), each deeper sub-tree "
                "as one node; see --depth, --path, --max-nodes\n",
                ro.path && *ro.path ? "sub-tree" : "tree",
                (unsigned long long)info.subtree_nodes, info.full_depth,
                (unsigned long)ro.max_nodes, info.depth, (unsigned long)info.nodes);
out_render:
    mm_render_shutdown();
    mm_game_release(&g);
out_tree:
    mm_tree_release(&t);
    return rc;
}
