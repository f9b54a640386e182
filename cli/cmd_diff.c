#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mmtree/format.h"
#include "mmtree/verify.h"
#include "mmtree/mmtree.h"

static const char diff_help[] =
    "usage: mmtree diff [--brief] A B\n"
    "\n"
    "Compare two trees of the same game, each in any format (detected; '-'\n"
    "reads one of them from stdin).  Both are walked in step, reply by reply;\n"
    "at the first node on a path where they differ (another guess, or the\n"
    "same guess with other counts) one line is printed:\n"
    "\n"
    "  path 1122:BWW,1213:BB: A 4(1145: ...) B 4(4222: ...); guesses below:\n"
    "  A 9, B 8 (-1); worst below: A 2, B 2\n"
    "\n"
    "(the node as count(guess: reply count, ...), '*' after a guess that\n"
    "cannot be the code; replies in Knuth's letters, B per black hit, W per\n"
    "white hit, '-' for none).  A summary follows: each tree's total and\n"
    "expected number of guesses and worst case, and the change from A to B.\n"
    "\n"
    "  --brief    print only the summary\n"
    "  -h, --help this text\n"
    "\n"
    "Exit status: 0 identical, 1 different, 2 unreadable input, different\n"
    "games or bad usage.\n";

static int read_tree(const char *path, mm_tree *t)
{
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree_init(t, 0, 0, true);
    mm_status st = mm_tree_read_file(path, MM_FMT_AUTO, 0, t, &d);
    return st ? cli_report(&d, st) : EXIT_OK;
}

static void print_items(const mm_diff_report *r, const mm_tree *a, const mm_tree *b,
                        const mm_game *g)
{
    char route[512], na[512], nb[512];
    for (uint64_t i = 0; i < r->nitems; i++) {
        const mm_diff_item *it = &r->items[i];
        printf("%s%s: A %s B %s; guesses below: A %llu, B %llu (%+lld); worst below: A %d, B %d\n",
               it->a ? "path " : "", mm_paths_format(&r->paths, g, it->a, route, sizeof route),
               mm_node_format(a, g, it->a, na, sizeof na),
               mm_node_format(b, g, it->b, nb, sizeof nb),
               (unsigned long long)it->total_a, (unsigned long long)it->total_b,
               (long long)(it->total_b - it->total_a), it->worst_a, it->worst_b);
    }
}

static void print_summary(const char *pa, const char *pb, const mm_diff_report *r)
{
    const mm_stats *a = &r->a, *b = &r->b;
    double ea = a->codes ? (double)a->total / (double)a->codes : 0.0;
    double eb = b->codes ? (double)b->total / (double)b->codes : 0.0;
    printf("A %s: total %llu, expected %.4f, worst %d\n", pa, (unsigned long long)a->total, ea,
           a->worst);
    printf("B %s: total %llu, expected %.4f, worst %d\n", pb, (unsigned long long)b->total, eb,
           b->worst);
    printf("change: total %+lld, expected %+.4f, worst %+d; %llu differing node%s\n",
           (long long)(b->total - a->total), eb - ea, b->worst - a->worst,
           (unsigned long long)r->nitems, r->nitems == 1 ? "" : "s");
}

int cmd_diff(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"brief", no_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool brief = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': brief = true; break;
        case 'h': fputs(diff_help, stdout); return EXIT_OK;
        default: return cli_usage_error("diff", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return cli_usage_error("diff", "expects two files; see --help");
    const char *pa = argv[optind], *pb = argv[optind + 1];
    if (!strcmp(pa, "-") && !strcmp(pb, "-"))
        return cli_usage_error("diff", "only one of the files can be '-'");

    mm_tree a, b;
    mm_game g;
    mm_diff_report r;
    mm_diag d;
    mm_diag_clear(&d);
    int rc = read_tree(pa, &a);
    if (rc)
        goto out_a;
    if ((rc = read_tree(pb, &b)))
        goto out_b;
    mm_status st = mm_game_init(&g, a.pegs, a.colors, a.repeat, &d);
    if (st) {
        rc = cli_report(&d, st);
        goto out_b;
    }
    if ((st = mm_tree_diff(&a, &b, &g, &r, &d))) {
        rc = cli_usage_error("diff", "%s", d.msg);
        goto out_game;
    }
    if (!brief)
        print_items(&r, &a, &b, &g);
    print_summary(pa, pb, &r);
    rc = r.nitems ? EXIT_CHECK : EXIT_OK;
    mm_diff_report_release(&r);
out_game:
    mm_game_release(&g);
out_b:
    mm_tree_release(&b);
out_a:
    mm_tree_release(&a);
    return rc;
}
