/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree/query.h"

static const char trace_help[] =
    "usage: mmtree trace TREE CODE... [--json]\n"
    "       mmtree trace TREE --all|--worst [--csv|--json]\n"
    "\n"
    "The game TREE (any format, '-' for stdin) plays against each secret\n"
    "CODE: every guess and the reply it gets, B per black hit, W per white\n"
    "hit, '-' for none, and the number of guesses:\n"
    "\n"
    "  secret 3632: 5 guesses\n"
    "    1  1122  B\n"
    "    ...\n"
    "    5  3632  BBBB\n"
    "\n"
    "  --all      every code, one a line: the code, its number of guesses and\n"
    "             the path to the node that guesses it (as 'next' and 'render\n"
    "             --path' read it; 'root' for the first guess); then its\n"
    "             total, expected number of guesses, worst case and\n"
    "             histogram, which are stats's\n"
    "  --worst    the same, for the codes at the worst case only\n"
    "  --csv      with --all or --worst: code,guesses,path with a header\n"
    "  --json     one JSON object: file, pegs, colors, repeat, games [{secret,\n"
    "             guesses, path, and for CODE... steps [{guess, reply}]}], and\n"
    "             with --all or --worst codes, total, expected, worst,\n"
    "             histogram, nodes, inconsistent, first\n"
    "  -h, --help this text\n"
    "\n"
    "Each game is played: every reply is computed from the secret, so the\n"
    "numbers check what the tree states.\n"
    "\n"
    "Exit status: 0 ok, 2 bad usage, unreadable tree or a CODE not of its game.\n";

typedef enum { OUT_TEXT, OUT_CSV, OUT_JSON } output;

typedef struct tracer {
    const char *file;
    mm_tree t;
    mm_game g;
    mm_step *steps;     /* room for max steps */
    uint32_t max, n;    /* n: the last game's guesses */
    char *path;         /* its path to the node that guesses the secret */
    size_t pathsize;
} tracer;

/* Play the tree against x into tr->steps and tr->path. */
static int play(tracer *tr, mm_code x)
{
    mm_diag d;
    mm_diag_clear(&d);
    for (;;) {
        mm_status st = mm_tree_trace(&tr->t, &tr->g, x, tr->steps, tr->max, &tr->n, NULL, &d);
        if (st) {
            mm_diag_file(&d, tr->file);
            return cli_report(&d, st);
        }
        if (tr->n <= tr->max)
            break;
        mm_step *ns = realloc(tr->steps, tr->n * sizeof *ns);
        char *np = realloc(tr->path, (size_t)tr->n * MM_STEP_MAX + 1);
        if (ns)
            tr->steps = ns;
        if (np)
            tr->path = np;
        if (!ns || !np)
            return cli_usage_error("trace", "out of memory");
        tr->max = tr->n;
        tr->pathsize = (size_t)tr->n * MM_STEP_MAX + 1;
    }
    mm_path_format(&tr->g, tr->steps, tr->n - 1, tr->path, tr->pathsize);
    return EXIT_OK;
}

static void json_game(json_writer *j, tracer *tr, mm_code x, bool steps)
{
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    json_object_begin(j);
    json_key(j, "secret");
    json_str(j, mm_code_format(&tr->g, x, code));
    json_key(j, "guesses");
    json_uint(j, tr->n);
    json_key(j, "path");
    json_str(j, tr->path);
    if (steps) {
        json_key(j, "steps");
        json_array_begin(j);
        for (uint32_t i = 0; i < tr->n; i++) {
            json_object_begin(j);
            json_key(j, "guess");
            json_str(j, mm_code_format(&tr->g, tr->steps[i].guess, code));
            json_key(j, "reply");
            json_str(j, mm_reply_format(&tr->g, tr->steps[i].slot, reply));
            json_object_end(j);
        }
        json_array_end(j);
    }
    json_object_end(j);
}

static void json_head(json_writer *j, strbuf *b, tracer *tr)
{
    json_init(j, b);
    json_object_begin(j);
    json_key(j, "file");
    json_str(j, strcmp(tr->file, "-") ? tr->file : "<stdin>");
    cli_json_game(j, tr->g.pegs, tr->g.colors, tr->g.repeat);
}

static int trace_codes(tracer *tr, char **codes, int ncodes, bool json)
{
    char code[MM_MAX_PEGS + 1], reply[MM_REPLY_MAX];
    mm_code *xs = malloc((size_t)ncodes * sizeof *xs);
    if (!xs)
        return cli_usage_error("trace", "out of memory");
    for (int i = 0; i < ncodes; i++) {
        mm_diag d;
        mm_diag_clear(&d);
        if (mm_code_parse(&tr->g, codes[i], strlen(codes[i]), &xs[i], &d)) {
            free(xs);
            return cli_usage_error("trace", "%s", d.msg);
        }
    }
    strbuf b = {0};
    json_writer j;
    int rc = EXIT_OK;
    if (json) {
        json_head(&j, &b, tr);
        json_key(&j, "games");
        json_array_begin(&j);
    }
    for (int i = 0; i < ncodes && !rc; i++) {
        if ((rc = play(tr, xs[i])))
            break;
        if (json) {
            json_game(&j, tr, xs[i], true);
            continue;
        }
        printf("secret %s: %u guess%s\n", mm_code_format(&tr->g, xs[i], code), tr->n,
               tr->n == 1 ? "" : "es");
        for (uint32_t k = 0; k < tr->n; k++)
            printf("  %2u  %s  %s\n", k + 1, mm_code_format(&tr->g, tr->steps[k].guess, code),
                   mm_reply_format(&tr->g, tr->steps[k].slot, reply));
    }
    free(xs);
    if (!json)
        return rc;
    if (rc) {
        strbuf_release(&b);
        return rc;
    }
    json_array_end(&j);
    json_object_end(&j);
    return cli_json_print(&b);
}

static int trace_all(tracer *tr, bool worst_only, output out)
{
    mm_depths dp;
    mm_diag d;
    mm_diag_clear(&d);
    mm_status st = mm_tree_depths(&tr->t, &tr->g, &dp, &d);
    if (st) {
        mm_depths_release(&dp);
        mm_diag_file(&d, tr->file);
        return cli_report(&d, st);
    }
    const mm_stats *s = &dp.stats;
    char code[MM_MAX_PEGS + 1];
    strbuf b = {0};
    json_writer j;
    int rc = EXIT_OK;
    if (out == OUT_JSON) {
        json_head(&j, &b, tr);
        cli_json_stats(&j, s, &tr->g, tr->t.nodes[0].guess);
        json_key(&j, "games");
        json_array_begin(&j);
    } else if (out == OUT_CSV) {
        printf("code,guesses,path\n");
    }
    for (mm_code x = 0; x < tr->g.ncodes && !rc; x++) {
        if (worst_only && (int)dp.guesses[x] != s->worst)
            continue;
        if ((rc = play(tr, x)))
            break;
        mm_code_format(&tr->g, x, code);
        if (out == OUT_JSON)
            json_game(&j, tr, x, false);
        else
            printf(out == OUT_CSV ? "%s,%u,%s\n" : "%s %u %s\n", code, tr->n,
                   tr->path[0] ? tr->path : "root");
    }
    if (!rc && out == OUT_TEXT) {
        printf("codes %llu, total %llu, expected %.4f, worst %d, histogram",
               (unsigned long long)s->codes, (unsigned long long)s->total,
               (double)s->total / (double)s->codes, s->worst);
        for (int i = 0; i < s->worst && i < 64; i++)
            printf(" %llu", (unsigned long long)s->hist[i]);
        putchar('\n');
    }
    mm_depths_release(&dp);
    if (out != OUT_JSON)
        return rc;
    if (rc) {
        strbuf_release(&b);
        return rc;
    }
    json_array_end(&j);
    json_object_end(&j);
    return cli_json_print(&b);
}

int cmd_trace(int argc, char **argv)
{
    enum { OPT_ALL = 256, OPT_WORST, OPT_CSV, OPT_JSON };
    static const struct option longopts[] = {
        {"all", no_argument, NULL, OPT_ALL},
        {"worst", no_argument, NULL, OPT_WORST},
        {"csv", no_argument, NULL, OPT_CSV},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool all = false, worst = false;
    output out = OUT_TEXT;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_ALL: all = true; break;
        case OPT_WORST: worst = true; break;
        case OPT_CSV:
        case OPT_JSON:
            if (out != OUT_TEXT)
                return cli_usage_error("trace", "--csv and --json exclude each other");
            out = c == OPT_CSV ? OUT_CSV : OUT_JSON;
            break;
        case 'h': fputs(trace_help, stdout); return EXIT_OK;
        default: return cli_usage_error("trace", "unknown option '%s'", argv[optind - 1]);
        }
    }
    int nargs = argc - optind;
    if (nargs < 1)
        return cli_usage_error("trace", "expects a tree file; see --help");
    if ((all || worst) && nargs > 1)
        return cli_usage_error("trace", "--all and --worst take no CODE");
    if (!all && !worst && nargs < 2)
        return cli_usage_error("trace", "expects CODE... or --all after the tree file");
    if (out == OUT_CSV && !all && !worst)
        return cli_usage_error("trace", "--csv goes with --all or --worst");
    tracer tr;
    memset(&tr, 0, sizeof tr);
    tr.file = argv[optind];
    int rc = cli_read_tree(tr.file, &tr.t, &tr.g);
    if (rc)
        return rc;
    tr.max = 64;
    tr.pathsize = (size_t)tr.max * MM_STEP_MAX + 1;
    tr.steps = malloc(tr.max * sizeof *tr.steps);
    tr.path = malloc(tr.pathsize);
    if (!tr.steps || !tr.path)
        rc = cli_usage_error("trace", "out of memory");
    else if (all || worst)
        rc = trace_all(&tr, worst, out);
    else
        rc = trace_codes(&tr, argv + optind + 1, nargs - 1, out == OUT_JSON);
    free(tr.steps);
    free(tr.path);
    mm_game_release(&tr.g);
    mm_tree_release(&tr.t);
    return rc;
}
