/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree/query.h"

static const char next_help[] =
    "usage: mmtree next TREE [PATH] [--codes] [--json]\n"
    "\n"
    "What to guess next: the node of TREE (any format, '-' for stdin)\n"
    "reached by PATH, the guesses made and the replies they got, written\n"
    "GUESS:REPLY,GUESS:REPLY (1122:B,1344:W: 1122 got one black hit, then\n"
    "1344 one white hit; B per black hit, W per white hit, in any order,\n"
    "'-' for none).  No PATH, or 'root', is the start.  It prints:\n"
    "\n"
    "  position:  1122:B,1344:W\n"
    "  guess:     3526 (it can be the code)\n"
    "  possible:  44 codes\n"
    "  expected:  2.7500 guesses from here, this one included\n"
    "  worst:     3 guesses from here, this one included\n"
    "  replies:   BBB 1, BB 2, ...   (the codes each reply leaves)\n"
    "\n"
    "  --codes    list the codes still possible\n"
    "  --json     one JSON object: file, pegs, colors, repeat, path, guess,\n"
    "             consistent, count, total, expected, worst, histogram\n"
    "             (element 0: codes found with this guess), replies\n"
    "             [{reply, count}], and with --codes possible [codes]\n"
    "  -h, --help this text\n"
    "\n"
    "A guess in PATH that is not the tree's guess there, or a reply that no\n"
    "code still possible gives, is an error naming the step.\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage, unreadable tree or a path not in it.\n";

typedef struct position {
    const char *file, *path;
    mm_tree t;
    mm_game g;
    uint32_t node;
    mm_stats st;
    mm_code *codes;
    uint32_t ncodes;
} position;

/* The node the path reaches and the codes still possible there. */
static int locate(position *pos)
{
    const char *text = strcmp(pos->path, "root") ? pos->path : "";
    uint32_t max = (uint32_t)(strlen(text) / 4 + 1), n;
    mm_step *steps = malloc(max * sizeof *steps);
    mm_diag d;
    mm_diag_clear(&d);
    if (!steps)
        return cli_usage_error("next", "out of memory");
    mm_status st = mm_path_parse(&pos->g, text, steps, max, &n, &d);
    if (!st)
        st = mm_tree_follow(&pos->t, &pos->g, steps, n, &pos->node, &d);
    if (!st)
        st = mm_codes_after(&pos->g, steps, n, &pos->codes, &pos->ncodes, NULL, &d);
    free(steps);
    if (st == MM_ERR_USAGE || st == MM_ERR_LIMIT)
        return cli_usage_error("next", "%s", d.msg);
    if (st)
        return cli_report(&d, st);
    mm_node_stats(&pos->t, pos->node, &pos->st);
    return EXIT_OK;
}

static int print_json(const position *pos, bool codes)
{
    const mm_game *g = &pos->g;
    const mm_node *nd = &pos->t.nodes[pos->node];
    const mm_stats *s = &pos->st;
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    strbuf b = {0};
    json_writer j;
    json_init(&j, &b);
    json_object_begin(&j);
    json_key(&j, "file");
    json_str(&j, strcmp(pos->file, "-") ? pos->file : "<stdin>");
    cli_json_game(&j, g->pegs, g->colors, g->repeat);
    json_key(&j, "path");
    json_str(&j, strcmp(pos->path, "root") ? pos->path : "");
    json_key(&j, "guess");
    json_str(&j, mm_code_format(g, nd->guess, code));
    json_key(&j, "consistent");
    json_bool(&j, nd->flags & MM_NODE_CONSISTENT);
    json_key(&j, "count");
    json_uint(&j, nd->count);
    json_key(&j, "total");
    json_uint(&j, s->total);
    json_key(&j, "expected");
    json_double(&j, (double)s->total / (double)s->codes, 10);
    json_key(&j, "worst");
    json_int(&j, s->worst);
    json_key(&j, "histogram");
    json_array_begin(&j);
    for (int i = 0; i < s->worst && i < 64; i++)
        json_uint(&j, s->hist[i]);
    json_array_end(&j);
    json_key(&j, "replies");
    json_array_begin(&j);
    for (int r = 0; r < g->nreplies; r++) {
        uint32_t c = mm_tree_child(&pos->t, pos->node, r);
        bool win = r == g->win && (nd->flags & MM_NODE_CONSISTENT);
        if (c == MM_NO_NODE && !win)
            continue;
        json_object_begin(&j);
        json_key(&j, "reply");
        json_str(&j, mm_reply_format(g, r, reply));
        json_key(&j, "count");
        json_uint(&j, win ? 1 : pos->t.nodes[c].count);
        json_object_end(&j);
    }
    json_array_end(&j);
    if (codes) {
        json_key(&j, "possible");
        json_array_begin(&j);
        for (uint32_t i = 0; i < pos->ncodes; i++)
            json_str(&j, mm_code_format(g, pos->codes[i], code));
        json_array_end(&j);
    }
    json_object_end(&j);
    return cli_json_print(&b);
}

static void print_text(const position *pos, bool codes)
{
    const mm_game *g = &pos->g;
    const mm_node *nd = &pos->t.nodes[pos->node];
    const mm_stats *s = &pos->st;
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    bool consistent = nd->flags & MM_NODE_CONSISTENT;
    printf("position:  %s\n", pos->path[0] ? pos->path : "root");
    printf("guess:     %s (%s)\n", mm_code_format(g, nd->guess, code),
           nd->count == 1 && consistent ? "the code"
           : consistent                 ? "it can be the code"
                                        : "it cannot be the code");
    printf("possible:  %u code%s\n", nd->count, nd->count == 1 ? "" : "s");
    printf("expected:  %.4f guesses from here, this one included\n",
           (double)s->total / (double)s->codes);
    printf("worst:     %d guess%s from here, this one included\n", s->worst,
           s->worst == 1 ? "" : "es");
    printf("replies:  ");
    for (int r = 0, k = 0; r < g->nreplies; r++) {
        uint32_t c = mm_tree_child(&pos->t, pos->node, r);
        bool win = r == g->win && consistent;
        if (c == MM_NO_NODE && !win)
            continue;
        printf("%s %s %u", k++ ? "," : "", mm_reply_format(g, r, reply),
               win ? 1 : pos->t.nodes[c].count);
    }
    putchar('\n');
    if (codes) {
        printf("codes:    ");
        for (uint32_t i = 0; i < pos->ncodes; i++)
            printf(" %s", mm_code_format(g, pos->codes[i], code));
        putchar('\n');
    }
}

int cmd_next(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_CODES };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"codes", no_argument, NULL, OPT_CODES},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false, codes = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: json = true; break;
        case OPT_CODES: codes = true; break;
        case 'h': fputs(next_help, stdout); return EXIT_OK;
        default: return cli_usage_error("next", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind < 1 || argc - optind > 2)
        return cli_usage_error("next", "expects a tree file and a path; see --help");
    position pos;
    memset(&pos, 0, sizeof pos);
    pos.file = argv[optind];
    pos.path = argc - optind == 2 ? argv[optind + 1] : "";
    int rc = cli_read_tree(pos.file, &pos.t, &pos.g);
    if (rc)
        return rc;
    if (!(rc = locate(&pos))) {
        if (json)
            rc = print_json(&pos, codes);
        else
            print_text(&pos, codes);
    }
    free(pos.codes);
    mm_game_release(&pos.g);
    mm_tree_release(&pos.t);
    return rc;
}
