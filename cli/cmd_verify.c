/* Copyright (c) 2026 The mmtree authors. SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmtree/format.h"
#include "mmtree/verify.h"
#include "mmtree/mmtree.h"

static const char verify_help[] =
    "usage: mmtree verify [--json] [--suggest] [--max-problems N] FILE|-\n"
    "\n"
    "Check a tree in any format (detected) against its game: every code is\n"
    "found exactly once; at every node the stated count is the number of\n"
    "codes still possible, the children's counts are the parts the guess\n"
    "makes, the guess is a code, and every marker states the truth (the\n"
    "last slot 1 or 0, '*', n(y), n(yx), a count written alone).  Every\n"
    "problem is reported, up to a limit, on stdout, one a line:\n"
    "\n"
    "  FILE:LINE:COL: error: path 1122:B,1344:W: stated 44 codes, 43 possible\n"
    "\n"
    "The path gives the guess and the reply at each step from the root;\n"
    "replies are written with Knuth's letters, one B per black hit and one W\n"
    "per white hit, '-' for none.  A summary follows: the total and expected\n"
    "number of guesses, the worst case and the histogram (over the codes the\n"
    "tree truly finds).\n"
    "\n"
    "  --json             one JSON object instead: file, valid, problems[]\n"
    "                     (kind, line, col, offset, path, guess or code,\n"
    "                     stated, true, ...), problems_total, stats\n"
    "  --suggest          where the stated parts (or a condensed form) do not\n"
    "                     match, list the guesses that would make them true,\n"
    "                     fewest pegs changed first, with Irving's '*' after\n"
    "                     a guess that cannot be the code: how a misprinted\n"
    "                     guess is recovered.  The nearest guesses are tried\n"
    "                     first, within a budget; a search that runs out says\n"
    "                     how many it tried\n"
    "  --max-problems N   report at most N problems (default 100; all are\n"
    "                     counted)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 valid, 1 invalid, 2 unreadable input or bad usage.\n";

static void json_path(json_writer *j, const mm_verify_report *r, uint32_t node)
{
    const mm_game *g = r->g;
    uint32_t n = mm_paths_get(&r->paths, node, NULL, 0);
    mm_step *steps = n ? malloc(n * sizeof *steps) : NULL;
    if (n && !steps) {
        j->out->failed = true;
        return;
    }
    mm_paths_get(&r->paths, node, steps, n);
    size_t size = (size_t)n * MM_STEP_MAX + 1;
    char *text = malloc(size);
    if (!text) {
        j->out->failed = true;
    } else {
        json_str(j, mm_path_format(g, steps, n, text, size));
        free(text);
    }
    free(steps);
}

static void json_parts(json_writer *j, const mm_game *g, const uint32_t *parts)
{
    json_array_begin(j);
    for (int s = 0; s < g->nreplies; s++)
        json_uint(j, parts[s]);
    json_array_end(j);
}

static void json_problem(json_writer *j, const mm_verify_report *r, const mm_problem *p)
{
    const mm_game *g = r->g;
    char code[MM_MAX_PEGS + 2] = "?", msg[1024];
    if (p->code < g->ncodes)
        mm_code_format(g, p->code, code);
    json_object_begin(j);
    json_key(j, "kind");
    json_str(j, mm_problem_kind_name(p->kind));
    if (p->kind == MM_PROBLEM_MARKER) {
        json_key(j, "marker");
        json_str(j, mm_marker_name(p->marker));
    }
    if (p->where.line) {
        json_key(j, "line");
        json_uint(j, p->where.line);
        json_key(j, "col");
        json_uint(j, p->where.col);
    } else if (p->where.offset >= 0) {
        json_key(j, "offset");
        json_int(j, p->where.offset);
    }
    json_key(j, "path");
    json_path(j, r, p->node);
    bool coverage = p->kind == MM_PROBLEM_FOUND_TWICE || p->kind == MM_PROBLEM_NOT_FOUND;
    json_key(j, coverage ? "code" : "guess");
    json_str(j, code);
    json_key(j, "stated");
    json_uint(j, p->stated);
    json_key(j, "true");
    json_uint(j, p->actual);
    if (p->kind == MM_PROBLEM_PARTITION) {
        json_key(j, "stated_parts");
        json_parts(j, g, p->stated_parts);
        json_key(j, "true_parts");
        json_parts(j, g, p->actual_parts);
    }
    if (p->searched) {
        json_key(j, "suggest");
        json_array_begin(j);
        for (uint32_t i = 0; i < p->nsuggest_kept; i++) {
            mm_code_format(g, p->suggest[i], code);
            if (p->suggest_star >> i & 1u)
                strcat(code, "*");
            json_str(j, code);
        }
        json_array_end(j);
        json_key(j, "suggest_total");
        json_uint(j, p->nsuggest);
        /* The search has a budget: whether it ran out, after how many of
         * the guesses that could qualify. */
        json_key(j, "suggest_stopped");
        json_bool(j, p->partial);
        json_key(j, "suggest_tried");
        json_uint(j, p->ntried);
        json_key(j, "suggest_candidates");
        json_uint(j, p->ncandidates);
    }
    json_key(j, "message");
    json_str(j, mm_problem_format(r, p, msg, sizeof msg));
    json_object_end(j);
}

static int print_json(const char *path, const mm_tree *t, const mm_verify_report *r)
{
    strbuf b = {0};
    json_writer j;
    json_init(&j, &b);
    json_object_begin(&j);
    json_key(&j, "file");
    json_str(&j, strcmp(path, "-") ? path : "<stdin>");
    json_key(&j, "valid");
    json_bool(&j, r->valid);
    json_key(&j, "problems");
    json_array_begin(&j);
    for (uint64_t i = 0; i < r->nkept; i++)
        json_problem(&j, r, &r->problems[i]);
    json_array_end(&j);
    json_key(&j, "problems_total");
    json_uint(&j, r->nproblems);
    json_key(&j, "stats");
    json_object_begin(&j);
    cli_json_game(&j, t->pegs, t->colors, t->repeat);
    json_key(&j, "found");
    json_uint(&j, r->found);
    mm_stats s = r->stats;
    s.codes = r->found;
    cli_json_stats(&j, &s, r->g, MM_NO_CODE);
    json_object_end(&j);
    cli_json_provenance(&j, t, r->g);
    json_object_end(&j);
    return cli_json_print(&b);
}

static void print_text(const char *path, const mm_tree *t, const mm_verify_report *r)
{
    const mm_game *g = r->g;
    const mm_stats *s = &r->stats;
    char msg[1024], where[MM_DIAG_FILE_MAX + 64], route[512];
    for (uint64_t i = 0; i < r->nkept; i++) {
        const mm_problem *p = &r->problems[i];
        mm_diag d;
        mm_diag_clear(&d);
        mm_diag_file(&d, path);
        d.line = p->where.line;
        d.col = p->where.col;
        d.offset = p->where.offset;
        mm_diag_where(&d, where, sizeof where);
        bool root = p->node == 0 || r->paths.parent[p->node] == MM_NO_NODE;
        printf("%serror: %s%s: %s\n", where, root ? "" : "path ",
               mm_paths_format(&r->paths, g, p->node, route, sizeof route),
               mm_problem_format(r, p, msg, sizeof msg));
    }
    if (r->nproblems > r->nkept)
        printf("... and %llu more problems (see --max-problems)\n",
               (unsigned long long)(r->nproblems - r->nkept));
    printf("%s: %s", strcmp(path, "-") ? path : "<stdin>", r->valid ? "valid" : "invalid");
    if (!r->valid)
        printf(", %llu problem%s", (unsigned long long)r->nproblems, r->nproblems == 1 ? "" : "s");
    putchar('\n');
    cli_print_provenance(t, g);
    printf("codes found:  %llu of %u\n", (unsigned long long)r->found, g->ncodes);
    printf("total:        %llu\n", (unsigned long long)s->total);
    printf("expected:     %.4f\n", r->found ? (double)s->total / (double)r->found : 0.0);
    printf("worst:        %d\n", s->worst);
    printf("histogram:   ");
    for (int i = 0; i < s->worst && i < 64; i++)
        printf(" %llu", (unsigned long long)s->hist[i]);
    printf("\n");
}

int cmd_verify(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_SUGGEST, OPT_MAX };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"suggest", no_argument, NULL, OPT_SUGGEST},
        {"max-problems", required_argument, NULL, OPT_MAX},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    mm_verify_opts o;
    mm_verify_opts_init(&o);
    long max = (long)o.max_problems;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: json = true; break;
        case OPT_SUGGEST: o.suggest = true; break;
        case OPT_MAX:
            if (!cli_int("verify", "--max-problems", optarg, 0, 1000000, &max))
                return EXIT_BAD;
            break;
        case 'h': fputs(verify_help, stdout); return EXIT_OK;
        case ':': return cli_usage_error("verify", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("verify", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("verify", "expects one file (or '-'); see --help");
    o.max_problems = (uint64_t)max;
    const char *path = argv[optind];

    int rc;
    mm_diag d;
    mm_diag_clear(&d);
    mm_tree t;
    mm_game g;
    mm_verify_report r;
    mm_tree_init(&t, 0, 0, true);
    mm_status st = mm_tree_read_file(path, MM_FMT_AUTO, MM_READ_LENIENT, &t, &d);
    if (st) {
        rc = cli_report(&d, st);
        goto out_tree;
    }
    if ((st = mm_game_init(&g, t.pegs, t.colors, t.repeat, &d))) {
        rc = cli_report(&d, st);
        goto out_tree;
    }
    if ((st = mm_tree_verify(&t, &g, &o, &r, &d))) {
        rc = cli_report(&d, st == MM_ERR_CHECK ? MM_ERR_INPUT : st);
        goto out_game;
    }
    if (json)
        rc = print_json(path, &t, &r);
    else
        print_text(path, &t, &r), rc = EXIT_OK;
    if (rc == EXIT_OK)
        rc = r.valid ? EXIT_OK : EXIT_CHECK;
    mm_verify_report_release(&r);
out_game:
    mm_game_release(&g);
out_tree:
    mm_tree_release(&t);
    return rc;
}
