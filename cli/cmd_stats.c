/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mmtree/format.h"
#include "mmtree/mmtree.h"

static const char stats_help[] =
    "usage: mmtree stats [--json] FILE|-\n"
    "\n"
    "Read a tree in any format (detected) and print its game, where it comes\n"
    "from (the rule and its options, whether it is proven optimal or, if not,\n"
    "its lower bound, the citation), the total and expected number of\n"
    "guesses, the worst case, the histogram of guesses needed, and its node\n"
    "counts.\n"
    "\n"
    "  --json     one JSON object: pegs, colors, repeat, codes, total,\n"
    "             expected, worst, histogram (element 0: codes found with\n"
    "             1 guess), nodes, inconsistent, first; rule,\n"
    "             consistent_only, fixed_first, tie_break, max_depth,\n"
    "             extra_colors when set; proven (optimal rules), lower_bound\n"
    "             and worst_lower_bound when not proven; citation\n"
    "  -h, --help this text\n"
    "\n"
    "Exit status: 0 ok, 2 unreadable input.\n";

int cmd_stats(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'J'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'J': json = true; break;
        case 'h': fputs(stats_help, stdout); return EXIT_OK;
        default: return cli_usage_error("stats", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("stats", "expects one file (or '-'); see --help");
    const char *path = argv[optind];

    mm_diag d;
    mm_diag_clear(&d);
    mm_tree t;
    mm_tree_init(&t, 0, 0, true);
    mm_status st = mm_tree_read_file(path, MM_FMT_AUTO, 0, &t, &d);
    if (st) {
        mm_tree_release(&t);
        return cli_report(&d, st);
    }
    mm_game g;
    if ((st = mm_game_init(&g, t.pegs, t.colors, t.repeat, &d))) {
        mm_tree_release(&t);
        return cli_report(&d, st);
    }
    mm_stats s;
    mm_tree_stats(&t, &s);
    char first[MM_MAX_PEGS + 1];
    mm_code_format(&g, t.nodes[0].guess, first);
    double expected = s.codes ? (double)s.total / (double)s.codes : 0.0;
    int hlen = s.worst < 64 ? s.worst : 64;
    int rc = EXIT_OK;
    if (json) {
        strbuf b = {0};
        json_writer j;
        json_init(&j, &b);
        json_object_begin(&j);
        json_key(&j, "file");
        json_str(&j, strcmp(path, "-") ? path : "<stdin>");
        cli_json_game(&j, t.pegs, t.colors, t.repeat);
        cli_json_stats(&j, &s, &g, t.nodes[0].guess);
        cli_json_provenance(&j, &t, &g);
        json_object_end(&j);
        rc = cli_json_print(&b);
    } else {
        printf("game:         MM(%d,%d)%s\n", t.pegs, t.colors, t.repeat ? "" : " without repeated colours");
        cli_print_provenance(&t, &g);
        printf("codes:        %llu\n", (unsigned long long)s.codes);
        printf("first guess:  %s\n", first);
        printf("total:        %llu\n", (unsigned long long)s.total);
        printf("expected:     %.4f\n", expected);
        printf("worst:        %d\n", s.worst);
        printf("histogram:   ");
        for (int i = 0; i < hlen; i++)
            printf(" %llu", (unsigned long long)s.hist[i]);
        printf("\nnodes:        %llu (%llu inconsistent guesses)\n",
               (unsigned long long)s.nodes, (unsigned long long)s.inconsistent);
    }
    mm_game_release(&g);
    mm_tree_release(&t);
    return rc;
}
