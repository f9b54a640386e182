/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "mmtree/format.h"
#include "mmtree/mmtree.h"

static const char convert_help[] =
    "usage: mmtree convert IN [-o OUT] [--format F] [--name-subtrees N]\n"
    "\n"
    "Read a tree in any format (detected from its content) and write it in\n"
    "another.  The tree is checked against its game on the way in.  IN and\n"
    "OUT may be '-' for standard input and output.\n"
    "\n"
    "  -o, --output FILE     write to FILE (default '-'), atomically: a\n"
    "                        temporary file in the same directory, then rename\n"
    "  -f, --format F        knuth | irving | xml | bin (default: from the\n"
    "                        extension of -o in any case: .txt knuth, .xml,\n"
    "                        .mmt bin; knuth for '-' or no extension; another\n"
    "                        extension is an error)\n"
    "      --name-subtrees N bracket output: name the largest sub-trees (at\n"
    "                        least N codes, not inside a named one) A, B, ...\n"
    "                        and define them after 'where', as the papers do\n"
    "      --line-width N    bracket output: wrap lines near N columns (78)\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage or unreadable input.\n";

enum { OPT_NAMES = 256, OPT_WIDTH };

int cmd_convert(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"name-subtrees", required_argument, NULL, OPT_NAMES},
        {"line-width", required_argument, NULL, OPT_WIDTH},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = "-", *fmtname = NULL;
    long names = 0, width = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:f:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'f': fmtname = optarg; break;
        case OPT_NAMES:
            if (!cli_int("convert", "--name-subtrees", optarg, 0, MM_MAX_CODES, &names))
                return EXIT_BAD;
            break;
        case OPT_WIDTH:
            if (!cli_int("convert", "--line-width", optarg, 20, 100000, &width))
                return EXIT_BAD;
            break;
        case 'h': fputs(convert_help, stdout); return EXIT_OK;
        case ':': return cli_usage_error("convert", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("convert", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("convert", "expects one input file (or '-'); see --help");
    const char *in = argv[optind];

    mm_format fmt;
    mm_diag d;
    mm_diag_clear(&d);
    if (mm_format_for_output(out, fmtname, &fmt, &d))
        return cli_usage_error("convert", "%s", d.msg);

    mm_tree t;
    mm_tree_init(&t, 0, 0, true);
    mm_status st = mm_tree_read_file(in, MM_FMT_AUTO, 0, &t, &d);
    if (st) {
        mm_tree_release(&t);
        return cli_report(&d, st);
    }
    char *buf = NULL;
    size_t len = 0;
    mm_write_opts wo = {.name_subtrees = (int)names, .line_width = (int)width,
                        .with_stats = true};
    mm_diag_clear(&d);
    if (!(st = mm_tree_write_mem(&t, fmt, &wo, &buf, &len, &d)))
        st = mm_file_write_atomic(out, buf, len, &d);
    free(buf);
    mm_tree_release(&t);
    return st ? cli_report(&d, st) : EXIT_OK;
}
